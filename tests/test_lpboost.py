"""LPBoost (thesis eq. 3.3 / 3.4) solved with cvxpy."""

import itertools

import numpy as np
import pytest
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from fscompbio.prediction import LPBoost
from fscompbio.prediction._lpboost import feasible_cap, lpboost_dual, lpboost_primal


@parametrize_with_checks([LPBoost()])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_param_validation():
    check_param_validation("LPBoost", LPBoost())


def _problem(seed=0, m=40, n=6):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n))
    y = np.where(X[:, 0] - 0.5 * X[:, 1] + 0.5 * rng.normal(size=m) > 0, 1.0, -1.0)
    H = np.hstack([X, -X])
    return H, y


@pytest.mark.parametrize("nu", [0.1, 0.3, 0.7])
def test_primal_solution_satisfies_constraints(nu):
    H, y = _problem()
    m = y.size
    cap = feasible_cap(y, 1 / (nu * m))
    a, b, rho, obj = lpboost_primal(H, y, cap)
    tol = 1e-7
    assert np.all(a >= -tol) and a.sum() == pytest.approx(1.0, abs=1e-7)
    margins = y * (H @ a + b)
    xi = np.maximum(0.0, rho - margins)  # the optimal slacks for this (a, b, rho)
    assert obj == pytest.approx(rho - cap * xi.sum(), abs=1e-6)


@pytest.mark.parametrize("nu", [0.1, 0.3, 0.7])
def test_primal_and_dual_objectives_agree(nu):
    H, y = _problem(1)
    cap = feasible_cap(y, 1 / (nu * y.size))
    a, b, rho, obj = lpboost_primal(H, y, cap)
    dual = lpboost_dual(H, y, cap)
    u = dual["u"]
    # dual feasibility
    assert u.sum() == pytest.approx(1.0, abs=1e-7)
    assert np.all(u >= -1e-9) and np.all(u <= cap + 1e-9)
    assert u @ y == pytest.approx(0.0, abs=1e-7)
    assert np.all((y[:, None] * H).T @ u <= dual["beta"] + 1e-7)
    # strong duality (eq. 3.3 min = eq. 3.4 max)
    assert dual["beta"] == pytest.approx(obj, abs=1e-7)
    # the dual's multipliers are weak-learner weights attaining the same optimum
    a_d = dual["a"]
    assert a_d.sum() == pytest.approx(1.0, abs=1e-6)
    # best objective for a fixed a: optimise b and rho by brute force over candidate breakpoints
    assert _best_objective_for(a_d, H, y, cap) == pytest.approx(obj, abs=1e-6)


def _best_objective_for(a, H, y, cap):
    """max over (b, rho) of ``rho - cap * sum_i max(0, rho - y_i (H_i a + b))``, by enumeration.

    ``a`` may be a stack (G, J) of weight vectors. The function is concave and
    piecewise linear in (b, rho), so its maximum sits where two hinges are
    tight: ``rho = y_i (f_i + b) = y_j (f_j + b)`` for a positive i and a
    negative j, i.e. ``b = -(f_i + f_j) / 2`` and ``rho`` one of the margins.
    """
    A = np.atleast_2d(a)
    F = A @ H.T  # (G, m)
    pos, neg = F[:, y > 0], F[:, y < 0]
    B = (-(pos[:, :, None] + neg[:, None, :]) / 2).reshape(A.shape[0], -1)  # (G, nb)
    M = y[None, None, :] * (F[:, None, :] + B[:, :, None])  # (G, nb, m) margins
    rho = M[:, :, :, None]  # candidate rho = each margin
    obj = rho[..., 0] - cap * np.maximum(0.0, rho - M[:, :, None, :]).sum(axis=-1)  # (G, nb, m)
    best = obj.reshape(A.shape[0], -1).max(axis=1)
    return best if np.ndim(a) == 2 else float(best[0])


def test_matches_brute_force_on_tiny_problem():
    # 8 samples, 2 features -> 4 weak learners; enumerate the simplex on a fine grid
    rng = np.random.default_rng(3)
    X = rng.normal(size=(8, 2))
    y = np.array([1, 1, 1, 1, -1, -1, -1, -1], dtype=float)
    X[y > 0] += [0.8, -0.3]
    H = np.hstack([X, -X])
    cap = 0.25
    _, _, _, obj = lpboost_primal(H, y, cap)
    steps = 40
    grid = np.array(
        [(i, j, k, steps - i - j - k) for i in range(steps + 1) for j in range(steps + 1 - i) for k in range(steps + 1 - i - j)],
        dtype=float,
    ) / steps
    best = _best_objective_for(grid, H, y, cap).max()
    assert best <= obj + 1e-9  # nothing on the grid beats the LP optimum
    assert obj - best < 0.02  # and the grid comes close to it (resolution 1/40)


def test_classifier_learns_and_is_sparse():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 30))
    y = np.where(2 * X[:, 4] - X[:, 7] > 0, "pos", "neg")
    clf = LPBoost(nu=0.5).fit(X[:80], y[:80])
    assert np.mean(clf.predict(X[80:]) == y[80:]) > 0.85
    assert set(np.argsort(clf.feature_importances_)[-2:].tolist()) == {4, 7}
    assert np.count_nonzero(clf.feature_importances_ > 1e-8) < 30
    assert clf.coef_[4] > 0 > clf.coef_[7]  # "pos" is classes_[1]
    np.testing.assert_allclose(clf.weights_.sum(), 1.0, atol=1e-7)


def test_infeasible_cap_is_raised_with_warning():
    X = np.random.default_rng(0).normal(size=(20, 3))
    y = np.array([1] * 15 + [-1] * 5)
    with pytest.warns(UserWarning, match="below the smallest feasible cap"):
        clf = LPBoost(nu=1.0).fit(X, y)
    assert clf.cap_ == pytest.approx(1 / (2 * 5))


def test_multiclass_error_names_classes():
    X = np.random.default_rng(0).normal(size=(9, 2))
    with pytest.raises(ValueError, match="Only binary classification is supported. LPBoost got 3 class"):
        LPBoost().fit(X, [0, 1, 2] * 3)
