"""LPBoost-MKL (thesis 5.3, eq. 5.1): the LP against its dual, weak learners against brute force."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils.estimator_checks import parametrize_with_checks

from fscompbio.kernels import gaussian_kernel
from fscompbio.prediction import LPBoostMKL
from fscompbio.prediction._lpboost import feasible_cap
from fscompbio.prediction._mkl import _solve_lpboost_lp


def _xor(n, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, np.where(X[:, 0] * X[:, 1] > 0, 1, -1)


def _primal_linprog(H, y, D, *, bias=True):
    """The soft-margin LPBoost primal written out as a matrix LP for scipy's linprog (no cvxpy, no package code):
    max rho - D sum xi  s.t.  y_i (H_i a + b) >= rho - xi_i, xi >= 0, a >= 0, sum a = 1; b = 0 without bias.
    Without the bias its LP dual is eq. 5.1 exactly as printed (min beta, sum u = 1, 0 <= u <= D)."""
    from scipy.optimize import linprog

    m, J = H.shape
    # z = [a (J), b, rho, xi (m)]; minimise -rho + D sum xi
    c = np.r_[np.zeros(J), 0.0, -1.0, D * np.ones(m)]
    A_ub = np.hstack([-(y[:, None] * H), -y[:, None], np.ones((m, 1)), -np.eye(m)])
    A_eq = np.r_[np.ones(J), 0.0, 0.0, np.zeros(m)][None, :]
    bounds = [(0, None)] * J + [(None, None) if bias else (0, 0), (None, None)] + [(0, None)] * m
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(m), A_eq=A_eq, b_eq=[1.0], bounds=bounds, method="highs")
    assert res.status == 0, res.message
    return -res.fun


def _dual_eq_5_1(H, y, D):
    """Eq. 5.1 as printed (no bias constraint), by linprog: min beta s.t. sum_i u_i y_i H_ij <= beta,
    sum u = 1, 0 <= u <= D."""
    from scipy.optimize import linprog

    m, J = H.shape
    c = np.r_[np.zeros(m), 1.0]
    A_ub = np.hstack([(y[:, None] * H).T, -np.ones((J, 1))])
    A_eq = np.r_[np.ones(m), 0.0][None, :]
    res = linprog(c, A_ub=A_ub, b_ub=np.zeros(J), A_eq=A_eq, b_eq=[1.0], bounds=[(0, D)] * m + [(None, None)],
                  method="highs")
    assert res.status == 0, res.message
    return res.fun


# a cheap instance: the checks fit dozens of times
@parametrize_with_checks([LPBoostMKL(n_estimators=3, nus=(0.2,), n_widths=2, random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_beats_chance_on_xor_with_nested_sets():
    X, y = _xor(600, 10, 0)
    Xt, yt = _xor(1000, 10, 1)
    clf = LPBoostMKL(feature_sets=[np.arange(10), np.arange(4), np.arange(2)], random_state=0).fit(X, y)
    acc = np.mean(clf.predict(Xt) == yt)
    assert acc > 0.85, acc
    # the score ranks: the mean margin separates the classes as well
    s = clf.decision_function(Xt)
    assert np.mean((s > 0) == (yt > 0)) > 0.85


def test_weights_are_a_convex_combination():
    X, y = _xor(300, 6, 2)
    clf = LPBoostMKL(feature_sets=[np.arange(6), np.arange(2)], n_estimators=7, random_state=0).fit(X, y)
    assert np.all(clf.estimators_weights_ >= 0)
    np.testing.assert_allclose(clf.estimators_weights_.sum(axis=1), 1.0, atol=1e-12)
    assert np.all(clf.weights_ >= 0)
    assert clf.weights_.sum() == pytest.approx(1.0, abs=1e-12)
    # each member saw half of the learners
    n_learners = clf.learner_params_.shape[0]
    assert clf.estimators_learners_.shape == (7, round(0.5 * n_learners))
    # D is the cap of the nu chosen by the inner CV (the best mean balanced accuracy, first on ties)
    assert clf.nu_ == clf.nus[int(np.nanargmax(clf.cv_scores_))]
    y_lp = np.where(y[clf.lp_indices_] == clf.classes_[1], 1.0, -1.0)
    assert clf.D_ == pytest.approx(feasible_cap(y_lp, 1.0 / (clf.nu_ * clf.lp_indices_.size)))


def test_lp_matches_an_independent_linprog_and_bounds_eq_5_1():
    rng = np.random.default_rng(3)
    H = rng.uniform(-1, 1, size=(40, 12))
    y = np.where(np.arange(40) % 2 == 0, 1.0, -1.0)
    cache = {}
    for D in (1 / 40, 0.05, 0.2, 1.0):
        a, b, obj = _solve_lpboost_lp(H, y, D, cache=cache)
        assert obj == pytest.approx(_primal_linprog(H, y, D), abs=1e-6)
        # eq. 5.1 as printed has no bias: it is the dual of the bias-free primal, whose optimum the bias can
        # only raise (the package's deviation, documented in LPBoostMKL's notes)
        no_bias = _dual_eq_5_1(H, y, D)
        assert no_bias == pytest.approx(_primal_linprog(H, y, D, bias=False), abs=1e-6)  # LP duality
        assert obj >= no_bias - 1e-7
        assert np.all(a >= 0) and a.sum() == pytest.approx(1.0)
        # the returned (a, b) attains the objective: max over rho of rho - D sum_i (rho - margin_i)_+,
        # a concave piecewise-linear function of rho whose maximum lies at one of the margins
        margins = y * (H @ a + b)
        best = max(r - D * np.maximum(r - margins, 0).sum() for r in margins)
        assert obj == pytest.approx(best, abs=1e-6)
    assert ((40, 12), "HIGHS") in cache  # one canonicalised problem re-solved


def test_lp_picks_the_perfect_learner():
    y = np.array([1.0, 1.0, -1.0, -1.0, 1.0, -1.0])
    H = np.column_stack([y * 0.8, -y, np.ones(6)])  # learner 0 is perfect with margin 0.8
    a, b, obj = _solve_lpboost_lp(H, y, 0.5)
    np.testing.assert_allclose(a, [1.0, 0.0, 0.0], atol=1e-8)
    assert b == pytest.approx(0.0, abs=1e-8)
    assert obj == pytest.approx(0.8, abs=1e-8)


@settings(max_examples=15, deadline=None)
@given(
    m=st.integers(4, 20),
    J=st.integers(1, 6),
    seed=st.integers(0, 2**16),
    nu=st.floats(0.05, 1.0),
)
def test_lp_weights_on_simplex_for_any_input(m, J, seed, nu):
    rng = np.random.default_rng(seed)
    H = rng.uniform(-1, 1, size=(m, J))
    y = np.where(rng.permutation(m) % 2 == 0, 1.0, -1.0)
    D = max(1.0 / (nu * m), feasible_cap(y, 0.0))
    a, b, obj = _solve_lpboost_lp(H, y, D)
    assert np.all(a >= 0) and a.sum() == pytest.approx(1.0, abs=1e-12)
    assert obj == pytest.approx(_primal_linprog(H, y, D), abs=1e-6)
    margins = y * (H @ a + b)  # the returned (a, b) attains it
    assert obj == pytest.approx(max(r - D * np.maximum(r - margins, 0).sum() for r in margins), abs=1e-6)


def test_weak_learners_are_kernel_ridge_by_brute_force():
    X, y = _xor(120, 5, 4)
    clf = LPBoostMKL(feature_sets=[np.array([0, 1])], lambdas=(0.1, 1.0), n_widths=2, n_subsamples=1,
                     subsample_size=20, n_estimators=2, nus=(0.5,), random_state=0).fit(X, y)
    sub = clf.subsample_indices_[0]
    assert np.all(np.bincount((y[sub] > 0).astype(int)) == 20)  # balanced
    assert not set(sub) & set(clf.lp_indices_)  # the LP sample is held out from the ridge fits
    Xs = X[sub][:, [0, 1]]
    ys = np.where(y[sub] > 0, 1.0, -1.0)
    Xq = X[:7]
    for j, (b, s, g, lam_i) in enumerate(clf.learner_params_):
        gamma = clf.gammas_[s, g]
        lam = clf.lambdas_[lam_i]
        K = np.array([[np.exp(-gamma * np.sum((p - q) ** 2)) for q in Xs] for p in Xs])
        a = np.linalg.solve(K + lam * np.eye(len(Xs)), ys)
        np.testing.assert_allclose(clf.dual_coef_[b, s, g, lam_i], a, rtol=1e-6, atol=1e-8)
        h = gaussian_kernel(Xq[:, [0, 1]], Xs, gamma=gamma) @ a / clf.scales_[j]
        np.testing.assert_allclose(clf._raw_outputs(Xq, np.ones(len(clf.scales_), bool))[:, j], h, rtol=1e-6, atol=1e-9)


def test_same_seed_same_scores():
    X, y = _xor(200, 4, 5)
    a = LPBoostMKL(n_estimators=4, random_state=7).fit(X, y).decision_function(X[:50])
    b = LPBoostMKL(n_estimators=4, random_state=7).fit(X, y).decision_function(X[:50])
    np.testing.assert_array_equal(a, b)


def test_predict_is_majority_vote():
    X, y = _xor(200, 4, 6)
    clf = LPBoostMKL(n_estimators=5, random_state=0).fit(X, y)
    share = clf.vote_share(X)
    pred = clf.predict(X)
    np.testing.assert_array_equal(pred == clf.classes_[1], share > 0.5)  # 5 members: no ties
    # the score orders by votes first, then by mean margin
    s, margin = clf.decision_function(X), clf.mean_margin(X)
    order = np.lexsort((margin, share))
    assert np.all(np.diff(s[order]) >= 0)


@pytest.mark.parametrize(
    "params, y_kind, match",
    [
        ({"feature_sets": [np.array([0, 9])]}, "binary", r"feature_sets\[0\] has indices outside \[0, 4\)"),
        ({"feature_sets": [np.array([0.5])]}, "binary", r"feature_sets\[0\] must be a non-empty 1-D array of int"),
        ({"feature_sets": []}, "binary", "feature_sets must be None or a non-empty list"),
        ({"lambdas": (0.0,)}, "binary", "lambdas must be a non-empty sequence of finite floats > 0"),
        ({"nus": (1.5,)}, "binary", r"nus must be a non-empty sequence of floats in \(0, 1\]"),
        ({}, "multiclass", r"Only binary classification is supported.*LPBoostMKL got 3 class"),
    ],
)
def test_errors_name_the_parameter(params, y_kind, match):
    X, y = _xor(60, 4, 7)
    if y_kind == "multiclass":
        y = np.arange(60) % 3
    with pytest.raises(ValueError, match=match):
        LPBoostMKL(**params).fit(X, y)


def test_cap_below_feasible_is_raised():
    y = np.r_[np.ones(2), -np.ones(8)]
    H = np.column_stack([y, np.ones(10)])
    a, _, _ = _solve_lpboost_lp(H, y, 0.01)  # 0.01 < 1/(2*2): raised to the smallest feasible cap
    np.testing.assert_allclose(a, [1.0, 0.0], atol=1e-8)


def test_param_validation():
    from sklearn.utils.estimator_checks import check_param_validation

    check_param_validation("LPBoostMKL", LPBoostMKL(n_estimators=2, nus=(0.5,), n_widths=1))


def test_eq_5_1_is_attained_when_the_bias_is_not_needed():
    # mirror-symmetric data (every positive has a negative with negated learner outputs): the optimal bias
    # is 0, so the package's LP and eq. 5.1 as printed agree exactly
    rng = np.random.default_rng(5)
    Hp = rng.uniform(-1, 1, size=(15, 6))
    H = np.vstack([Hp, -Hp])
    y = np.r_[np.ones(15), -np.ones(15)]
    for D in (0.05, 0.2):
        _, _, obj = _solve_lpboost_lp(H, y, D)
        assert obj == pytest.approx(_dual_eq_5_1(H, y, D), abs=1e-6)
