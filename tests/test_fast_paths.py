"""The fast paths of the thesis-config hot spots give the reference results.

- LPBoost's LP by column generation (HiGHS, warm-started) = the whole LP with cvxpy: objective,
  weights and support, on random problems and caps.
- Stability selection with LPBoost on the fast path = on the cvxpy path (selection frequencies).
- Stability selection with l1-logistic regression through liblinear's trainer = through
  ``LogisticRegression`` (selection frequencies, binary and one-vs-rest).
- Spreading the subsamples over processes (``n_jobs``) does not change any result.
- GaussianSVC on a precomputed Gram matrix = on libsvm's own Gaussian kernel (support vectors, dual
  coefficients, decision values).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscompbio.prediction._lpboost import ColumnGenerationLP, PrimalLP, feasible_cap
from fscompbio.selection import StabilitySelection
from fscompbio.selection import _stability


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


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n_classes", [2, 3])
def test_stability_logistic_fast_path_equals_logistic_regression(seed, n_classes, monkeypatch):
    rng = np.random.default_rng(seed)
    m, n = 90, 25
    X = rng.normal(size=(m, n))
    relevant = rng.permutation(n)[:3]
    score = X[:, relevant] @ np.array([1.0, -1.0, 0.7]) + 0.5 * rng.normal(size=m)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1]))
    kw = dict(learner="logistic", n_bootstraps=12, random_state=seed)
    monkeypatch.setattr(_stability._L1Logistic, "_fast", None)
    fast = StabilitySelection(**kw).fit(X, y)
    assert _stability._L1Logistic._fast is True  # the private trainer passed its check and was used
    monkeypatch.setattr(_stability._L1Logistic, "_fast", False)  # LogisticRegression for every fit
    ref = StabilitySelection(**kw).fit(X, y)
    np.testing.assert_array_equal(fast.stability_scores_, ref.stability_scores_)
    np.testing.assert_array_equal(fast.ranking_, ref.ranking_)
    assert len(set(relevant) & set(np.argsort(-fast.scores_, kind="stable")[:5])) >= 2


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("shape", [(70, 30), (135, 200), (40, 300)])  # m > n, chapter 3's half of 270 x 200, n >> m
def test_l1_logistic_weights_equal_logistic_regression(seed, shape):
    rng = np.random.default_rng(seed)
    m, n = shape
    Z = rng.normal(size=(m, n))
    cols = rng.permutation(n)[:2]
    y = np.where(Z[:, cols[0]] + Z[:, cols[1]] + rng.normal(size=m) > 0, 1.0, -1.0)
    model = _stability._L1Logistic(11 + seed)
    for C in (0.01, 0.1, 1.0, 10.0):
        (w_fast, b_fast), (w_ref, b_ref) = model._train(Z, y, C), model._reference(Z, y, C)
        np.testing.assert_array_equal(w_fast, w_ref)
        assert b_fast == b_ref


def _l1_logistic_objective(Z, y, C, w, b):
    """liblinear's l1-logistic objective (the intercept is penalised too)."""
    return np.abs(w).sum() + abs(b) + C * np.logaddexp(0.0, -y * (Z @ w + b)).sum()


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("shape", [(40, 600), (36, 3000)])  # features >> samples, as AML/ALL's half subsamples
def test_l1_logistic_working_set_solves_the_whole_problem(seed, shape):
    """The working-set solution is the l1-logistic optimum over all features: its objective is no higher than
    one liblinear solve on all features (to 1e-6), and its support is that of a tight solve (tolerance 1e-10):
    it holds every feature the tight solve weighs above 1e-3 and none whose optimality condition is slack."""
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(seed)
    m, n = shape
    Z = rng.normal(size=(m, n))
    cols = rng.permutation(n)[:3]
    y = np.where(Z[:, cols] @ np.array([1.5, -1.0, 1.0]) + 0.5 * rng.normal(size=m) > 0, 1.0, -1.0)
    model = _stability._L1Logistic(seed)
    start = np.argsort(-np.abs(Z.T @ y), kind="stable")[: 2 * m]
    cmin = _stability.l1_min_c(Z, y, loss="log")
    for C in cmin * np.array([2.0, 5.0, 10.0]):
        w_ws = model.coef_working_set(Z, y, C, start)
        w_all, b_all = model.fit(Z, y, C)
        # the working set's intercept: refit on its support gives the same problem
        tight = LogisticRegression(l1_ratio=1, solver="liblinear", C=C, tol=1e-10, max_iter=100_000,
                                   random_state=0).fit(Z, y)
        w_t, b_t = tight.coef_[0], float(tight.intercept_[0])
        support = np.flatnonzero(w_ws)
        w_s, b_s = model.fit(np.ascontiguousarray(Z[:, support]), y, C)
        obj_ws = _l1_logistic_objective(Z[:, support], y, C, w_s, b_s)
        assert obj_ws <= _l1_logistic_objective(Z, y, C, w_all, b_all) * (1 + 1e-6)
        assert obj_ws <= _l1_logistic_objective(Z, y, C, w_t, b_t) * (1 + 1e-4)
        assert set(np.flatnonzero(np.abs(w_t) > 1e-3)) <= set(support)
        slack = C * np.abs(Z.T @ (y / (1 + np.exp(y * (Z @ w_t + b_t))))) < 0.99
        assert not (slack & (w_ws != 0)).any()


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("shape", [(400, 6), (900, 60), (600, 300)])
def test_gaussian_svc_precomputed_kernel_equals_libsvm_kernel(seed, shape):
    """GaussianSVC on a precomputed Gram matrix = on libsvm's own Gaussian kernel: the same support vectors,
    dual coefficients, intercept and decision values (libsvm keeps kernel rows in single precision)."""
    from fscompbio.prediction import GaussianSVC

    rng = np.random.default_rng(seed)
    m, n = shape
    X = rng.normal(size=(m, n))
    cols = rng.permutation(n)[:3]
    y = np.where(X[:, cols[0]] * X[:, cols[1]] + 0.5 * X[:, cols[2]] + 0.3 * rng.normal(size=m) > 0.4, 1, 0)
    Xt = rng.normal(size=(200, n))
    kw = dict(class_weight="balanced", gamma="scale", C=1.0)
    fast = GaussianSVC(**kw).fit(X, y)
    ref = GaussianSVC(**kw, precompute_kernel_mb=0).fit(X, y)
    assert fast.svc_.kernel == "precomputed" and ref.svc_.kernel == "rbf"
    np.testing.assert_array_equal(fast.svc_.support_, ref.svc_.support_)
    np.testing.assert_allclose(fast.dual_coef_, ref.dual_coef_, rtol=1e-7, atol=1e-9)
    assert fast.intercept_ == pytest.approx(ref.intercept_, rel=1e-7, abs=1e-9)
    np.testing.assert_allclose(fast.support_vectors_, ref.support_vectors_, rtol=0, atol=0)
    np.testing.assert_allclose(fast.decision_function(Xt), ref.decision_function(Xt), rtol=1e-7, atol=1e-8)
    np.testing.assert_array_equal(fast.predict(Xt), ref.predict(Xt))


def test_gaussian_gram_is_the_gaussian_kernel():
    from fscompbio.prediction._svm import _gaussian_gram

    rng = np.random.default_rng(3)
    X = rng.normal(size=(250, 9)) * rng.uniform(0.1, 3.0, size=9)
    K = _gaussian_gram(X, 0.05, block=64)  # several row blocks
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(K, np.exp(-0.05 * D2), rtol=1e-12, atol=1e-14)
    assert np.array_equal(K, K.T) and np.all(np.diag(K) == 1.0)


@given(st.lists(st.integers(-4, 4), min_size=1, max_size=60), st.integers(1, 8), st.integers(0, 3))
def test_top_stable_equals_full_stable_argsort(values, k, n_inf):
    """Column generation's choice of the most violating learners (ties by index, as the full stable sort)."""
    from fscompbio.prediction._lpboost import _top_stable

    v = np.asarray(values, dtype=float) / 2.0  # many ties
    v[: min(n_inf, v.size)] = -np.inf  # learners already in the working set
    np.testing.assert_array_equal(_top_stable(v, k), np.argsort(-v, kind="stable")[:k])


@pytest.mark.parametrize("seed", range(3))
def test_column_generation_from_signed_features_equals_from_H(seed):
    """Stability selection's learners [Z, -Z] given as Z: the same LP, the same weights and optimum."""
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(40, 30))
    y = np.where(Z[:, 4] - Z[:, 11] + 0.8 * rng.normal(size=40) > 0, 1.0, -1.0)
    a = ColumnGenerationLP(np.hstack([Z, -Z]), y)
    b = ColumnGenerationLP(None, y, signed_features=Z)
    np.testing.assert_array_equal(a.M, b.M)
    for nu in (1.0, 0.7, 0.3):
        cap = feasible_cap(y, 1.0 / (nu * 40))
        (wa, ba), (wb, bb) = a.solve(cap), b.solve(cap)
        np.testing.assert_array_equal(wa, wb)
        assert ba == bb


def _lasso_problem(seed, shape, coefs, noise, permute=True):
    """Standardised ``Z`` (m x n), a centred ``y`` linear in ``len(coefs)`` of its columns (at random places, or
    the first ones) plus Gaussian noise, and 5 alphas below the lasso's first breakpoint."""
    rng = np.random.default_rng(seed)
    m, n = shape
    Z = rng.normal(size=(m, n))
    Z = (Z - Z.mean(0)) / Z.std(0)
    cols = rng.permutation(n)[: len(coefs)] if permute else np.arange(len(coefs))
    y = Z[:, cols] @ np.asarray(coefs) + noise * rng.normal(size=m)
    y -= y.mean()
    return Z, y, np.max(np.abs(Z.T @ y)) / m * np.geomspace(1, 0.1, 6)[1:]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("shape", [(60, 20), (30, 120)])
def test_lars_supports_are_the_lasso_supports(seed, shape):
    """The supports read off the LARS-lasso path = those of the lasso solved to a very tight duality gap."""
    import warnings

    from sklearn.linear_model import Lasso

    Z, y, alphas = _lasso_problem(seed, shape, [1.0, -0.8, 0.6, 0.4], 0.7)
    got = _stability._lars_supports(Z, y, alphas)
    for i, a in enumerate(alphas):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            w = Lasso(alpha=a, fit_intercept=False, tol=1e-14, max_iter=200_000).fit(Z, y).coef_
        np.testing.assert_array_equal(got[i], np.abs(w) > 1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_stability_lasso_lars_close_to_coordinate_descent(seed):
    """lasso_solver="lars" (exact lasso) against coordinate descent: the same frequencies up to a few
    subsamples, the planted features on top (columns permuted)."""
    rng = np.random.default_rng(seed)
    m, n = 100, 400
    X = rng.normal(size=(m, n))
    relevant = rng.permutation(n)[:3]
    y = (X[:, relevant] @ np.array([1.0, -1.0, 0.8]) + 0.2 * rng.normal(size=m) > 0).astype(int)
    kw = dict(n_bootstraps=40, random_state=seed)
    cd = StabilitySelection(**kw).fit(X, y)
    lars = StabilitySelection(**kw, lasso_solver="lars").fit(X, y)
    assert np.abs(cd.stability_scores_ - lars.stability_scores_).max() <= 3 / 40
    assert np.mean(cd.stability_scores_ != lars.stability_scores_) < 0.01
    for sel in (cd, lars):
        assert set(relevant) <= set(np.argsort(sel.ranking_, kind="stable")[:5])


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("shape", [(135, 200), (135, 100), (61, 424), (40, 10)])  # chapter 3's halves of
# 270 x 200, the randSel paper's of 300 x 100 (Gram), TB serum's of 122 x 424; a tall one
def test_lasso_cd_weights_equal_lasso_path(seed, shape):
    """scikit-learn's coordinate-descent kernel called directly = lasso_path: identical weights on the path."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    Z, y, alphas = _lasso_problem(seed, shape, [1.0, -0.7, 0.4], 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        state = np.random.get_state()
        ref = _stability._LassoPathCD._reference(Z, y, alphas)
        after_ref = np.random.random()
        np.random.set_state(state)
        fast = _stability._LassoPathCD._train(Z, y, alphas)
        after_fast = np.random.random()
    np.testing.assert_array_equal(fast, ref)
    assert after_fast == after_ref  # the same draws from the global random state as lasso_path


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("shape", [(120, 200), (300, 40)])  # wide (plain CD) and tall (Gram) halves
def test_stability_lasso_fast_path_equals_lasso_path(monkeypatch, seed, shape):
    """Stability selection with the lasso: the direct coordinate-descent path gives the same frequencies and
    ranking as lasso_path (the reference), with the planted features (columns permuted) on top."""
    rng = np.random.default_rng(seed)
    m, n = shape
    X = rng.normal(size=(m, n))
    relevant = rng.permutation(n)[:3]
    y = (X[:, relevant] @ np.array([1.0, -1.0, 0.8]) + 0.3 * rng.normal(size=m) > 0).astype(int)
    kw = dict(n_bootstraps=15, random_state=seed)
    monkeypatch.setattr(_stability._LassoPathCD, "_fast", None)
    fast = StabilitySelection(**kw).fit(X, y)
    assert _stability._LassoPathCD._fast is True  # the private kernel passed its check and was used
    monkeypatch.setattr(_stability._LassoPathCD, "_fast", False)  # lasso_path for every subsample
    ref = StabilitySelection(**kw).fit(X, y)
    np.testing.assert_array_equal(fast.stability_scores_, ref.stability_scores_)
    np.testing.assert_array_equal(fast.ranking_, ref.ranking_)
    assert set(relevant) <= set(np.argsort(fast.ranking_, kind="stable")[:5])


def _lars_supports_reference(Z, y, alphas):
    """The supports read off lars_path with its default max_iter (500): the reference of the bounded path."""
    import warnings

    from sklearn.linear_model import lars_path

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bp, _, coefs = lars_path(Z, y, method="lasso", alpha_min=float(np.min(alphas)), return_path=True)
    return _stability._supports_from_breakpoints(bp, coefs, alphas)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("shape", [(36, 3000), (15, 800), (8, 400)])  # AML/ALL-like, TB blood-like, tiny
def test_lars_bounded_path_equals_default_path(seed, shape):
    """LARS with room for 2 m + 16 steps = LARS with its default 500 steps: identical supports; and a path
    that reaches a bound (3 steps here) is computed again with the default, so it is identical too."""
    Z, y, alphas = _lasso_problem(seed, shape, [1.0, -0.8, 0.6, 0.4], 0.7, permute=False)
    ref = _lars_supports_reference(Z, y, alphas)
    np.testing.assert_array_equal(_stability._lars_supports(Z, y, alphas), ref)
    np.testing.assert_array_equal(_stability._lars_supports(Z, y, alphas, max_steps=3), ref)


def test_stability_lars_bounded_path_equals_default_path(monkeypatch):
    """Stability selection with lasso_solver="lars" on a wide set: the same frequencies with the bounded path
    as with lars_path's default bound."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 2000))
    y = (X[:, 7] - X[:, 1200] + 0.3 * rng.normal(size=60) > 0).astype(int)
    kw = dict(n_bootstraps=20, random_state=3, lasso_solver="lars")
    fast = StabilitySelection(**kw).fit(X, y)
    monkeypatch.setattr(_stability, "_lars_supports", _lars_supports_reference)
    ref = StabilitySelection(**kw).fit(X, y)
    np.testing.assert_array_equal(fast.stability_scores_, ref.stability_scores_)
    np.testing.assert_array_equal(fast.ranking_, ref.ranking_)
