"""The fast paths of the thesis-config hot spots give the reference results.

- LPBoost's LP by column generation (HiGHS, warm-started) = the whole LP with cvxpy: objective,
  weights and support, on random problems and caps.
- Stability selection with LPBoost on the fast path = on the cvxpy path (selection frequencies).
- Spreading the subsamples over processes (``n_jobs``) does not change any result.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscompbio.prediction._lpboost import ColumnGenerationLP, PrimalLP, feasible_cap
from fscompbio.selection import StabilitySelection


def _problem(seed, m=50, n=12, noise=0.7):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n))
    w = np.zeros(n)
    w[rng.choice(n, 3, replace=False)] = rng.normal(size=3)
    y = np.where(X @ w + noise * rng.normal(size=m) > 0, 1.0, -1.0)
    if np.unique(y).size < 2:
        y[0] = -y[0]
    return np.hstack([X, -X]), y


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), nu=st.floats(0.05, 1.0), m=st.integers(12, 60), n=st.integers(3, 20))
def test_column_generation_equals_the_whole_lp(seed, nu, m, n):
    H, y = _problem(seed, m, n)
    cap = feasible_cap(y, 1.0 / (nu * m))
    a_ref, _, _, obj_ref = PrimalLP(*H.shape).solve(H, y, cap)
    a, beta = ColumnGenerationLP(H, y).solve(cap)
    assert beta == pytest.approx(obj_ref, abs=1e-7)  # the same optimum (LP duality)
    assert np.all(a >= 0) and a.sum() == pytest.approx(1.0, abs=1e-7)
    # the weights attain the optimum: max over (b, rho) of rho - cap sum_i max(0, rho - y_i (f_i + b)),
    # a concave piecewise-linear function whose maximum has rho = a margin and b = -(f_i + f_j) / 2 for a
    # positive i and a negative j (two tight hinges)
    f = H @ a
    bs = (-(f[y > 0][:, None] + f[y < 0][None, :]) / 2).ravel()
    M = y[None, :] * (f[None, :] + bs[:, None])  # (nb, m) margins
    obj = M - cap * np.maximum(0.0, M[:, :, None] - M[:, None, :]).sum(axis=2)
    assert obj.max() == pytest.approx(obj_ref, abs=1e-6)


@pytest.mark.parametrize("seed", range(6))
def test_column_generation_weights_and_support_match_cvxpy(seed):
    H, y = _problem(seed, m=60, n=15)
    m = y.size
    cg = ColumnGenerationLP(H, y)  # one working set over the whole grid, as stability selection uses it
    lp = PrimalLP(*H.shape)
    for nu in (1.0, 0.9, 0.8, 0.7, 0.6, 0.3):
        cap = feasible_cap(y, 1.0 / (nu * m))
        a_ref, _, _, obj_ref = lp.solve(H, y, cap)
        a, beta = cg.solve(cap)
        assert beta == pytest.approx(obj_ref, abs=1e-7)
        np.testing.assert_array_equal(a > 1e-8, a_ref > 1e-8)
        np.testing.assert_allclose(a, a_ref, atol=1e-6)


@pytest.mark.parametrize("seed", range(3))
def test_stability_lpboost_fast_path_equals_cvxpy(seed):
    rng = np.random.default_rng(seed)
    m, n = 80, 20
    X = rng.normal(size=(m, n))
    perm = rng.permutation(n)
    relevant = perm[:3]
    y = np.where(X[:, relevant] @ np.array([1.0, -1.0, 0.7]) + 0.5 * rng.normal(size=m) > 0, 1, 0)
    kw = dict(learner="lpboost", n_bootstraps=8, random_state=seed)
    fast = StabilitySelection(**kw).fit(X, y)
    ref = StabilitySelection(**kw, lp_solver="cvxpy").fit(X, y)
    np.testing.assert_array_equal(fast.stability_scores_, ref.stability_scores_)
    np.testing.assert_array_equal(fast.ranking_, ref.ranking_)
    assert set(relevant) <= set(np.argsort(-fast.scores_, kind="stable")[:5])


@pytest.mark.parametrize("learner", ["lasso", "logistic", "lpboost"])
def test_stability_n_jobs_does_not_change_results(learner):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 10))
    y = np.where(X[:, 3] - X[:, 7] + 0.3 * rng.normal(size=60) > 0, 1, 0)
    kw = dict(learner=learner, n_bootstraps=7, random_state=3)
    one = StabilitySelection(**kw).fit(X, y)
    two = StabilitySelection(**kw, n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.stability_scores_, two.stability_scores_)
    np.testing.assert_array_equal(one.subsamples_, two.subsamples_)
    assert one.q_ == two.q_
