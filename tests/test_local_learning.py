"""LocalLearningRegression and the Nadaraya-Watson predictor (Sun, Yao and Goodison 2015)."""

import numpy as np
import pytest
from scipy.optimize import check_grad
from threadpoolctl import threadpool_limits
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from fscompbio.datasets import make_dataset
from fscompbio.prediction import NadarayaWatsonRegressor
from fscompbio.prediction._nadaraya_watson import nadaraya_watson
from fscompbio.selection import LocalLearningRegression
from fscompbio.selection import _local_learning
from fscompbio.selection._local_learning import (
    _descend,
    _ExpectedMargins,
    _huber_derivative_fast,
    _huber_fast,
    _kernel_weights,
    _normalised_change,
    _PairAbsDiff,
    _ThresholdProblems,
    huber,
    huber_derivative,
    minmax_scale,
)


@parametrize_with_checks([LocalLearningRegression(max_iter=3), NadarayaWatsonRegressor()])
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.parametrize("cls", [LocalLearningRegression, NadarayaWatsonRegressor])
def test_param_validation(cls):
    check_param_validation(cls.__name__, cls())


def _problem(seed, N=14, J=6, alpha=0.3, h=0.1):
    rng = np.random.default_rng(seed)
    X = rng.random((N, J))
    y = rng.normal(size=N)
    order = np.argsort(y)
    absdiff = _PairAbsDiff(X[order], dtype=np.float64)
    problems = _ThresholdProblems(y[order])
    K = _kernel_weights(absdiff, rng.random(J), 0.5, N)
    return X[order], y[order], K, _ExpectedMargins(absdiff, problems, K, alpha, h)


def test_huber_loss_eq_2_10():
    h = 0.2
    rho = np.array([-1.0, 0.8, 0.9, 1.0, 1.1, 1.2, 1.5])
    expected = [2.0, 0.2, (1.2 - 0.9) ** 2 / 0.8, 0.2**2 / 0.8, 0.1**2 / 0.8, 0.0, 0.0]
    np.testing.assert_allclose(huber(rho, h), expected, atol=1e-12)
    # continuous with its derivative at the joints 1 -/+ h
    for r in (1 - h, 1 + h):
        np.testing.assert_allclose(huber(r - 1e-9, h), huber(r + 1e-9, h), atol=1e-8)
        np.testing.assert_allclose(huber_derivative(r - 1e-9, h), huber_derivative(r + 1e-9, h), atol=1e-7)


def test_threshold_problems_are_the_papers_sets_C_n():
    """N - 2 problems per held-out sample: thresholds 2..N except i = n (and i = 2 for n = 1)."""
    y = np.array([0.1, 0.5, 0.7, 1.3, 2.0])
    p = _ThresholdProblems(y)
    N = y.size
    for a in range(N):  # 0-based sample a = the paper's n - 1; column t - 1 = the paper's i - 2
        paper_n = a + 1
        C_n = set(range(3, N + 1)) if paper_n == 1 else set(range(2, N + 1)) - {paper_n}
        got = {t + 1 for t in range(1, N) if p.sign[a, t - 1] != 0}
        assert got == C_n
        for i in C_n:  # sign(y_n - y_i), 1-based
            assert p.sign[a, i - 2] == np.sign(y[a] - y[i - 1])


def test_expected_margin_eq_2_14_by_brute_force():
    """rho = w . zbar: kernel-probability averages of |x_n - x_j| over the two sets, held out."""
    X, y, K, problem = _problem(0)
    w = np.random.default_rng(1).random(X.shape[1])
    rho = problem.margins(problem.distances(w))
    N = y.size
    for a in range(N):
        for t in range(1, N):
            if problem.problems.sign[a, t - 1] == 0:
                continue
            s = (y[t - 1] + y[t]) / 2
            low = [j for j in range(N) if y[j] < s and j != a]
            up = [j for j in range(N) if y[j] > s and j != a]
            Q = K[a, low] / K[a, low].sum()
            P = K[a, up] / K[a, up].sum()
            zbar = (Q @ np.abs(X[a] - X[low]) - P @ np.abs(X[a] - X[up])) * np.sign(y[a] - s)
            assert rho[a, t - 1] == pytest.approx(w @ zbar, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_gradient_eq_2_12_passes_check_grad(seed):
    _, _, _, problem = _problem(seed)
    v = np.random.default_rng(seed + 10).random(6) * 1.5
    err = check_grad(problem.loss, lambda u: problem.loss_grad(u)[1], v)
    assert err < 1e-5 * max(1.0, np.linalg.norm(problem.loss_grad(v)[1]))


def test_float32_pair_tensor_gives_the_same_gradient():
    X, y, K, problem = _problem(3)
    p32 = _ExpectedMargins(_PairAbsDiff(X, dtype=np.float32), problem.problems, K, problem.alpha, problem.h)
    v = np.linspace(0.2, 1.3, X.shape[1])
    np.testing.assert_allclose(p32.loss_grad(v)[1], problem.loss_grad(v)[1], rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_recovers_the_additive_set(seed):
    """Sun et al. section 4.1: n = 200, the 4 relevant features among 1,000 irrelevant, columns permuted."""
    ds = make_dataset("additive", random_state=seed, n_samples=200)
    perm = np.random.default_rng(100 + seed).permutation(ds.n_features)
    relevant = np.flatnonzero(np.isin(perm, ds.relevant))
    sel = LocalLearningRegression(n_features_to_select=4).fit(ds.X[:, perm], ds.y)
    assert set(np.flatnonzero(sel.get_support())) == set(relevant)
    # sparse: most of the 1,000 irrelevant features are eliminated
    assert np.count_nonzero(sel.feature_weights_) < 300


def test_same_input_same_weights():
    ds = make_dataset("nonadditive", random_state=0, n_samples=60, n_features=40)
    a = LocalLearningRegression().fit(ds.X, ds.y).feature_weights_
    b = LocalLearningRegression().fit(ds.X, ds.y).feature_weights_
    np.testing.assert_array_equal(a, b)


def test_constant_response_is_an_error():
    X = np.random.default_rng(0).random((10, 3))
    with pytest.raises(ValueError, match="distinct responses"):
        LocalLearningRegression().fit(X, np.ones(10))


def test_chunked_pair_tensor_equals_cached():
    X = np.random.default_rng(0).random((9, 7))
    cached = _PairAbsDiff(X, dtype=np.float64)
    chunked = _PairAbsDiff(X, dtype=np.float64, budget=0)
    chunked.chunk = 3
    assert chunked.A is None
    w = np.arange(1.0, 8.0)
    c = np.linspace(-1, 1, cached.n_pairs)
    np.testing.assert_allclose(chunked.matvec(w), cached.matvec(w))
    np.testing.assert_allclose(chunked.rmatvec(c), cached.rmatvec(c))


# ---------------------------------------------------------------- the fast paths against direct formulas
def _direct_zbar(X, y, K):
    """``zbar[a, t-1, :]`` of eq. 2.14 straight from its definition (dense N x (N-1) x J, zero where invalid)."""
    N = y.size
    absdiff = np.abs(X[:, None, :] - X[None, :, :])  # |x_a - x_j|
    below = np.arange(N)[None, :] < np.arange(1, N)[:, None]  # [t-1, j]: j in the lower set of threshold t
    sign = _ThresholdProblems(y).sign
    with np.errstate(invalid="ignore", divide="ignore"):  # 0/0 only on invalid entries (an empty side)
        lower = np.einsum("aj,ajk,tj->atk", K, absdiff, below) / (K @ below.T)[:, :, None]
        upper = np.einsum("aj,ajk,tj->atk", K, absdiff, ~below) / (K @ (~below).T)[:, :, None]
        return np.where(sign[:, :, None] != 0, sign[:, :, None] * (lower - upper), 0.0)


def _direct_loss_grad(Z, y, v, alpha, h):
    """``L(v)`` of eq. 2.11 and ``dL/dv`` of eq. 2.12 from the dense ``zbar`` (no pair tensor, no prefix sums)."""
    p = _ThresholdProblems(y)
    c = np.abs(p.sign) / np.maximum(p.n_valid, 1)[:, None]
    w = v * v
    rho = Z @ w
    loss = float(np.sum(c * huber(rho, h)) + alpha * w.sum())
    return loss, 2.0 * (np.einsum("at,atk->k", c * huber_derivative(rho, h), Z) + alpha) * v


def _small(seed, N=24, J=9):
    """Responses sorted, with a tie; columns in a seed-dependent order."""
    rng = np.random.default_rng(seed)
    X = rng.random((N, J))[:, rng.permutation(J)]
    y = np.sort(np.round(rng.normal(size=N), 1))  # rounding makes ties: thresholds that separate nothing
    return X, y, rng


@pytest.mark.parametrize("seed", range(5))
def test_margins_loss_gradient_equal_the_direct_formulas(seed):
    """The work-array margins, the one-gather layout, the complex-cumsum gradient: eqs. 2.11-2.14."""
    X, y, rng = _small(seed)
    absdiff = _PairAbsDiff(X, dtype=np.float64)
    w0 = rng.random(X.shape[1])
    K = _kernel_weights(absdiff, w0, 0.7, y.size)
    problem = _ExpectedMargins(absdiff, _ThresholdProblems(y), K, 0.4, 0.1)
    Z = _direct_zbar(X, y, K)
    v = rng.random(X.shape[1]) + 0.1
    rho = problem.margins(problem.distances(v * v))
    np.testing.assert_allclose(rho, Z @ (v * v), rtol=1e-12, atol=1e-14)
    loss, grad = problem.loss_grad(v)
    direct_loss, direct_grad = _direct_loss_grad(Z, y, v, 0.4, 0.1)
    assert loss == pytest.approx(direct_loss, rel=1e-12)
    np.testing.assert_allclose(grad, direct_grad, rtol=1e-10, atol=1e-14)


def test_margins_into_work_arrays_do_not_overwrite_results():
    X, y, rng = _small(0)
    absdiff = _PairAbsDiff(X, dtype=np.float64)
    problem = _ExpectedMargins(
        absdiff, _ThresholdProblems(y), _kernel_weights(absdiff, rng.random(9), 1.0, y.size), 1.0, 0.1
    )
    d1, d2 = absdiff.matvec(rng.random(9)), absdiff.matvec(rng.random(9))
    first = problem.margins(d1)
    kept = first.copy()
    problem.grad_w(problem.margins(d2))  # reuses every work array
    problem.loss(rng.random(9))
    np.testing.assert_array_equal(first, kept)
    out = np.empty_like(first)
    assert problem.margins(d1, out=out) is out
    np.testing.assert_array_equal(out, kept)


def test_fast_huber_equals_huber_on_every_branch_and_joint():
    rng = np.random.default_rng(0)
    for h in (0.05, 0.1, 0.2, 1.0):
        joints = [1 + h, 1 - h, 0.0, -0.0, 1.0] + [np.nextafter(x, to) for x in (1 + h, 1 - h) for to in (0, 2)]
        rho = np.concatenate([rng.normal(1.0, 0.5, 4991), joints]).reshape(-1, 8)
        work = [np.empty_like(rho), np.empty_like(rho), np.empty(rho.shape, dtype=bool)]
        np.testing.assert_array_equal(_huber_fast(rho, h, *work), huber(rho, h))  # bit for bit
        np.testing.assert_array_equal(_huber_derivative_fast(rho, h, work[0], work[2]), huber_derivative(rho, h))


@pytest.mark.parametrize("n_rows", [9, 37, 64])
def test_blocked_products_equal_the_plain_products(monkeypatch, n_rows):
    """matvec2's L2-sized blocks (forced on a small tensor, with a partial last block) against two products."""
    rng = np.random.default_rng(n_rows)
    absdiff = _PairAbsDiff(rng.random((n_rows, 50))[:, rng.permutation(50)])
    w1, w2 = rng.random(50), rng.random(50)
    plain = absdiff.matvec(w1), absdiff.matvec(w2)
    monkeypatch.setattr(_local_learning, "FUSED_MIN_BYTES", 0)
    monkeypatch.setattr(_local_learning, "FUSED_BLOCK_BYTES", 64 * 50 * 4)  # 64 rows per block
    out = np.empty(absdiff.n_pairs), np.empty(absdiff.n_pairs)
    fused = absdiff.matvec2(w1, w2, *out)
    assert fused[0] is out[0] and fused[1] is out[1]
    direct = absdiff.A.astype(np.float64) @ np.column_stack([w1, w2]).astype(np.float32)
    for f, p, dref in zip(fused, plain, direct.T):
        np.testing.assert_allclose(f, p, rtol=1e-6)  # the same dot products (bit for bit with OpenBLAS)
        np.testing.assert_allclose(f, dref, rtol=1e-5)


def _direct_descend(Z, y, v, alpha, h, *, max_steps, tol):
    """Eq. 2.13's descent with the same line search, every loss evaluated from scratch by the direct formulas."""
    loss, grad = _direct_loss_grad(Z, y, v, alpha, h)
    eta, n = None, 0
    for n in range(1, max_steps + 1):
        g = grad
        gg = float(g @ g)
        if gg == 0.0:
            break
        if eta is None:
            eta = 0.5 * np.max(np.abs(v)) / np.max(np.abs(g))
        while True:
            v_new = v - eta * g
            new, grad_new = _direct_loss_grad(Z, y, v_new, alpha, h)
            if new <= loss - 1e-4 * eta * gg or eta < 1e-300:
                break
            eta *= 0.5
        decrease = loss - new
        v, loss, grad = v_new, new, grad_new
        if decrease <= tol * max(abs(loss), 1e-300):
            break
        eta *= 1.5
    return np.abs(v), loss, n


@pytest.mark.parametrize("seed", range(4))
def test_descent_equals_a_direct_descent(seed):
    """Quadratic line-search distances, buffer swaps and the reused starting distances: the same descent."""
    X, y, rng = _small(seed, N=20, J=7)
    absdiff = _PairAbsDiff(X, dtype=np.float64)
    w = rng.random(7)
    K, d = _kernel_weights(absdiff, w, 1.0, y.size, return_distances=True)
    problem = _ExpectedMargins(absdiff, _ThresholdProblems(y), K, 0.05, 0.1)
    v, loss, n = _descend(problem, np.sqrt(w), max_steps=40, tol=1e-8, d0=d)
    v_ref, loss_ref, n_ref = _direct_descend(_direct_zbar(X, y, K), y, np.sqrt(w), 0.05, 0.1, max_steps=40, tol=1e-8)
    assert n == n_ref > 5
    assert loss == pytest.approx(loss_ref, rel=1e-10)
    np.testing.assert_allclose(v, v_ref, rtol=1e-8, atol=1e-12)


def _direct_fit(
    X, y, *, sigma=1.0, alpha=1.0, h=0.1, max_iter=10, tol=1e-3, max_steps=100, descent_tol=1e-6, prune=1e-5
):
    """LocalLearningRegression's fixed-point loop on the dense zbar, columns never dropped (pruned: v = 0)."""
    X = minmax_scale(X)
    order = np.argsort(y, kind="stable")
    X, y = X[order], y[order]
    N, J = X.shape
    w = np.full(J, 1.0 / np.sqrt(J))
    for _ in range(max_iter):
        D = np.abs(X[:, None, :] - X[None, :, :]) @ w
        np.fill_diagonal(D, np.inf)
        K = np.exp(np.maximum(-(D - D.min(axis=1, keepdims=True)) / sigma, -700.0))
        np.fill_diagonal(K, 0.0)
        v, _, _ = _direct_descend(_direct_zbar(X, y, K), y, np.sqrt(w), alpha, h, max_steps=max_steps, tol=descent_tol)
        w_new = v * v
        theta = _normalised_change(w_new, w)
        w_new[v < prune] = 0.0
        w = w_new
        if theta < tol or not w.any():
            break
    return w


@pytest.mark.parametrize("name", ["additive", "nonadditive", "sine", "spiral"])
@pytest.mark.parametrize("seed", [0, 1])
def test_fit_equals_a_direct_fit(monkeypatch, name, seed):
    """The whole fit (float64 pair tensor) against the direct loop: same weights, same ranking; columns permuted."""
    ds = make_dataset(name, random_state=seed, n_samples=30, n_features=12)
    perm = np.random.default_rng(50 + seed).permutation(ds.n_features)
    X = ds.X[:, perm]
    monkeypatch.setattr(_local_learning, "_PairAbsDiff", lambda Xs: _PairAbsDiff(Xs, dtype=np.float64))
    sel = LocalLearningRegression().fit(X, ds.y)
    w_ref = _direct_fit(X, ds.y)
    np.testing.assert_allclose(sel.feature_weights_, w_ref, rtol=1e-6, atol=1e-12)
    order = np.lexsort((np.arange(w_ref.size), -w_ref))
    np.testing.assert_array_equal(np.argsort(sel.ranking_, kind="stable"), order)


def test_fit_with_blocked_products_equals_plain_products(monkeypatch):
    """The L2-sized blocks (forced on small data) give the weights of the plain products; fused off under threads."""
    with threadpool_limits(1):
        assert _local_learning._blas_threads() == 1
    ds = make_dataset("additive", random_state=3, n_samples=40, n_features=30)
    plain = LocalLearningRegression().fit(ds.X, ds.y)
    monkeypatch.setattr(_local_learning, "FUSED_MIN_BYTES", 0)
    monkeypatch.setattr(_local_learning, "FUSED_BLOCK_BYTES", 64 * 30 * 4)
    monkeypatch.setattr(_local_learning, "_blas_threads", lambda: 1)
    blocked = LocalLearningRegression().fit(ds.X, ds.y)
    np.testing.assert_allclose(blocked.feature_weights_, plain.feature_weights_, rtol=1e-6, atol=1e-12)
    np.testing.assert_array_equal(blocked.ranking_, plain.ranking_)


# ---------------------------------------------------------------- Nadaraya-Watson (eq. 2.2)
def test_nadaraya_watson_eq_2_2_by_hand():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    y = np.array([1.0, 2.0, 4.0])
    x = np.array([[0.5, 0.5]])
    k = np.exp(-np.abs(X - x).sum(axis=1) / 0.7)
    expected = (k @ y) / k.sum()
    got = NadarayaWatsonRegressor(sigma=0.7).fit(X, y).predict(x)
    np.testing.assert_allclose(got, [expected])
    kg = np.exp(-((X - x) ** 2).sum(axis=1) / (2 * 0.7**2))
    got = NadarayaWatsonRegressor(kernel="gaussian", sigma=0.7).fit(X, y).predict(x)
    np.testing.assert_allclose(got, [(kg @ y) / kg.sum()])


def test_nadaraya_watson_limits():
    rng = np.random.default_rng(0)
    X = rng.random((30, 3))
    y = rng.normal(size=30)
    Xt = rng.random((5, 3)) + 100.0  # far from the data: the exponentials alone would underflow to 0/0
    nearest = y[np.abs(Xt[:, None, :] - X[None]).sum(axis=2).argmin(axis=1)]
    np.testing.assert_allclose(NadarayaWatsonRegressor(sigma=1e-6).fit(X, y).predict(Xt), nearest)
    np.testing.assert_allclose(NadarayaWatsonRegressor(sigma=1e9).fit(X, y).predict(Xt), y.mean(), rtol=1e-5)


def test_nadaraya_watson_leave_one_out_eq_2_3():
    rng = np.random.default_rng(1)
    X = rng.random((8, 2))
    y = rng.normal(size=8)
    loo = nadaraya_watson(X, y, X, sigma=0.5, exclude_self=True)
    for n in range(8):
        keep = np.arange(8) != n
        np.testing.assert_allclose(loo[n], nadaraya_watson(X[keep], y[keep], X[n : n + 1], sigma=0.5)[0])
