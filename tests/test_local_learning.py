"""LocalLearningRegression and the Nadaraya-Watson predictor (Sun, Yao and Goodison 2015)."""

import numpy as np
import pytest
from scipy.optimize import check_grad
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from fscompbio.datasets import make_dataset
from fscompbio.prediction import NadarayaWatsonRegressor
from fscompbio.prediction._nadaraya_watson import nadaraya_watson
from fscompbio.selection import LocalLearningRegression
from fscompbio.selection._local_learning import (
    _ExpectedMargins,
    _kernel_weights,
    _PairAbsDiff,
    _ThresholdProblems,
    huber,
    huber_derivative,
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
