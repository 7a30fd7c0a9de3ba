"""LPBoost (thesis eq. 3.3 / 3.4) solved with cvxpy."""


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
    with pytest.raises(ValueError, match="Only binary classification is supported.*LPBoost got 3 class"):
        LPBoost().fit(X, [0, 1, 2] * 3)


# --- column generation (stability selection's solver) against the cvxpy LP and the previous solver ---


def _nonseparable(seed, m=60, n=25):
    """XOR-like labels on two features (no sparse linear model separates them) plus label noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n))
    y = np.where(X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=m) > 0, 1.0, -1.0)
    y[rng.choice(m, m // 10, replace=False)] *= -1
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    return Z, y


def _caps(y, nus=(1.0, 0.9, 0.8, 0.7, 0.6, 0.3)):
    """Stability selection's grid: ``feasible_cap(y, 1 / (nu m))``, increasing (the first may be the bound)."""
    return [feasible_cap(y, 1.0 / (nu * y.size)) for nu in nus]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_column_generation_matches_cvxpy_lp(seed):
    from fscompbio.prediction._lpboost import ColumnGenerationLP, PrimalLP

    Z, y = _nonseparable(seed)
    if seed == 3:
        y[: y.size // 3] = 1.0  # unbalanced classes: nu=1 and nu=0.9 both hit the feasibility bound
    H = np.hstack([Z, -Z])
    caps = _caps(y)
    assert caps[0] == feasible_cap(y, 0.0)  # the grid starts at the feasibility bound
    lp = PrimalLP(*H.shape)
    cg = ColumnGenerationLP(None, y, signed_features=Z)
    n_extrapolated = 0
    for i, cap in enumerate(caps):
        rows = len(cg.active)
        a, beta = cg.solve(cap)
        n_extrapolated += len(cg._history) == 2
        a_ref, _, _, obj = lp.solve(H, y, cap)
        assert beta == pytest.approx(obj, rel=1e-7, abs=1e-9)  # the same optimum (cvxpy/HiGHS tolerance)
        assert a.sum() == pytest.approx(1.0, abs=1e-9) and np.all(a >= 0)
        # the weights attain the optimum (the LP's value for this a, by enumeration over b and rho)
        assert _best_objective_for(a, H, y, cap) == pytest.approx(obj, abs=1e-8)
        _check_vertex(a, a_ref, obj, Z.shape[1], atol=1e-6)
        assert len(cg.active) >= rows  # the working set only grows
    assert n_extrapolated >= len(set(caps)) - 2  # from the third distinct cap on, the working set is extrapolated


def _check_vertex(a, a_ref, optimum, n, atol):
    """The same weights; or, where the optimum is 0, both are a feature and its negation at 1/2 each.

    With optimum 0 no combination of learners beats the trivial ``H a = 0``, which any pair
    ``a_j = a_{n+j} = 1/2`` attains: every feature is optimal and which one a solver returns is arbitrary.
    """
    if abs(optimum) > 1e-9:  # a non-zero optimum: one optimal vertex on these (generic) data
        np.testing.assert_allclose(a, a_ref, atol=atol)
        np.testing.assert_array_equal(a > 1e-8, a_ref > (1e-6 if atol > 1e-7 else 1e-8))
    else:
        for w in (a, a_ref):
            np.testing.assert_allclose(w[:n], w[n:], atol=atol)


def _stability_problems(name, n_sub=4):
    from fscompbio.datasets import make_dataset

    ds = make_dataset(name, random_state=0)
    idx = np.random.default_rng(0).permutation(ds.X.shape[0])[:270]
    X, y = ds.X[idx], np.where(ds.y[idx] == np.unique(ds.y)[1], 1.0, -1.0)
    rng = np.random.default_rng(1)
    for _ in range(n_sub):
        pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
        sub = np.sort(np.r_[rng.choice(pos, pos.size // 2, replace=False), rng.choice(neg, neg.size // 2, replace=False)])
        Zs = X[sub]
        Zs = (Zs - Zs.mean(axis=0)) / Zs.std(axis=0)
        yield Zs, y[sub]


@pytest.mark.parametrize("name", ["xor", "fake_class", "linear_zhang_sample_noise"])
def test_column_generation_matches_the_whole_lp_on_stability_problems(name):
    # stability selection's LPs (135 x 400 learners, 5 caps, one working set): the optimum of the whole
    # primal LP (cvxpy) at every cap; the weights reach it
    from fscompbio.prediction._lpboost import ColumnGenerationLP, PrimalLP

    for Zs, y in _stability_problems(name, n_sub=2):  # cvxpy's whole LP: ~1 s per cap
        H = np.hstack([Zs, -Zs])
        cg = ColumnGenerationLP(None, y, signed_features=Zs)
        lp = PrimalLP(*H.shape)
        for cap in _caps(y, (1.0, 0.9, 0.8, 0.7, 0.6)):
            a, beta = cg.solve(cap)
            objective = lp.solve(H, y, cap)[3]
            assert beta == pytest.approx(objective, rel=1e-7, abs=1e-9)
            assert a.min() >= 0 and a.sum() == pytest.approx(1.0, abs=1e-9)
            assert _best_objective_for(a, H, y, cap) == pytest.approx(objective, abs=1e-8)  # the weights attain it


def test_column_generation_solvers_are_independent():
    # each solver owns its HiGHS object: interleaved solvers, and a solver made after another was dropped,
    # give what a solver on its own gives
    from fscompbio.prediction._lpboost import ColumnGenerationLP

    (Z1, y1), (Z2, y2) = _nonseparable(10), _nonseparable(11, m=50)
    caps1, caps2 = _caps(y1), _caps(y2)

    def alone(Z, y, caps):
        cg = ColumnGenerationLP(None, y, signed_features=Z)
        return [cg.solve(c) for c in caps]

    expected1, expected2 = alone(Z1, y1, caps1), alone(Z2, y2, caps2)
    s1 = ColumnGenerationLP(None, y1, signed_features=Z1)
    s2 = ColumnGenerationLP(None, y2, signed_features=Z2)
    assert s1.h is not s2.h
    for c1, c2, (a1, b1), (a2, b2) in zip(caps1, caps2, expected1, expected2):
        r1, r2 = s1.solve(c1), s2.solve(c2)
        np.testing.assert_array_equal(r1[0], a1)
        np.testing.assert_array_equal(r2[0], a2)
        assert (r1[1], r2[1]) == (b1, b2)
    del s1  # a solver made after another was dropped starts from nothing the dropped one left
    s3 = ColumnGenerationLP(None, y2, signed_features=Z2)
    for c, (a, b) in zip(caps2, expected2):
        r = s3.solve(c)
        np.testing.assert_array_equal(r[0], a)
        assert r[1] == b


def test_column_generation_extrapolation_and_near_violators_do_not_change_the_solution():
    from fscompbio.prediction._lpboost import ColumnGenerationLP

    Z, y = _nonseparable(5, m=80, n=30)
    on = ColumnGenerationLP(None, y, signed_features=Z)
    off = ColumnGenerationLP(None, y, signed_features=Z, extrapolate=0, near=0.0)  # plain column generation
    optima = []
    for cap in _caps(y, (1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4)):
        (a, b), (a0, b0) = on.solve(cap), off.solve(cap)
        assert b == pytest.approx(b0, rel=1e-9, abs=1e-12)
        _check_vertex(a, a0, b0, Z.shape[1], atol=1e-7)
        optima.append(b0)
    assert abs(optima[0]) > 1e-3 and abs(optima[-1]) < 1e-9  # both cases of _check_vertex are exercised
