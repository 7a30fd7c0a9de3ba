"""Tests of fscompbio.representation.SparseFiltering (thesis 5.2, appendix A.2)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import check_grad
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks
from threadpoolctl import threadpool_limits

from fscompbio.representation import SparseFiltering, sparse_filtering_objective


@pytest.fixture(autouse=True)
def _single_threaded_blas():
    """The problems here are tiny: BLAS threads only add synchronisation (badly so on a loaded machine)."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def _brute_force_objective(W, X):
    """Appendix A.2 transcribed literally (examples in columns, as the MATLAB code)."""
    F = W @ X.T
    Fs = np.sqrt(F**2 + 1e-8)
    NFs = Fs / np.sqrt(np.sum(Fs**2, axis=1, keepdims=True) + 1e-8)  # l2row(Fs): each feature
    Fhat = NFs / np.sqrt(np.sum(NFs**2, axis=0, keepdims=True) + 1e-8)  # l2row(NFs'): each sample
    return Fhat.sum(), Fhat.T


@parametrize_with_checks([SparseFiltering(max_iter=30), SparseFiltering(8, max_iter=30, dtype=np.float64, random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_param_validation():
    check_param_validation("SparseFiltering", SparseFiltering())
    with pytest.raises(ValueError, match="'n_features' parameter of SparseFiltering must be an int in the range"):
        SparseFiltering(0).fit(np.ones((5, 2)))
    with pytest.raises(ValueError, match="'dtype' parameter of SparseFiltering must be"):
        SparseFiltering(dtype=np.int64).fit(np.ones((5, 2)))


@settings(max_examples=25, deadline=None)
@given(m=st.integers(1, 40), d=st.integers(1, 6), k=st.integers(1, 8), seed=st.integers(0, 2**16),
       batch=st.integers(1, 50))
def test_objective_equals_appendix_a2(m, d, k, seed, batch):
    rng = np.random.default_rng(seed)
    X, W = rng.normal(size=(m, d)), rng.normal(size=(k, d))
    obj, grad = sparse_filtering_objective(W, X, batch_size=batch)
    assert obj == pytest.approx(_brute_force_objective(W, X)[0], rel=1e-10)
    assert grad.shape == W.shape


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-5), (np.float32, 1e-3)])
def test_gradient_passes_check_grad(dtype, tol):
    rng = np.random.default_rng(0)
    X, W = rng.normal(size=(60, 7)), rng.normal(size=(9, 7))

    def f(w):
        return sparse_filtering_objective(w.reshape(W.shape), X, batch_size=17)[0]

    def g(w):
        return sparse_filtering_objective(w.reshape(W.shape), X, batch_size=17, dtype=dtype)[1].ravel()

    err = check_grad(f, g, W.ravel())
    assert err / np.linalg.norm(g(W.ravel())) < tol


def test_objective_decreases_and_fit_transform_is_fhat():
    rng = np.random.default_rng(1)
    X = rng.laplace(size=(300, 12)) @ rng.normal(size=(12, 12))  # sparse sources, mixed
    sf = SparseFiltering(24, max_iter=60, dtype=np.float64, random_state=0).fit(X)
    hist = sf.objective_history_
    assert sf.n_iter_ == len(hist) - 1 >= 10
    assert np.all(np.diff(hist) <= 1e-9 * hist[0])  # monotone (L-BFGS-B line search)
    assert hist[-1] < 0.95 * hist[0] and sf.objective_ == pytest.approx(hist[-1])
    # the initial W is the standard normal draw of the seed
    W0 = np.random.RandomState(0).standard_normal((24, 12))
    assert hist[0] == pytest.approx(_brute_force_objective(W0, X)[0], rel=1e-10)
    obj, fhat = _brute_force_objective(sf.W_, X)
    assert sf.objective_ == pytest.approx(obj, rel=1e-10)
    np.testing.assert_allclose(sf.transform(X), fhat, rtol=1e-8, atol=1e-12)
    # each transformed sample has unit l2 norm; features are non-negative
    Z = sf.transform(X[:7])
    np.testing.assert_allclose(np.linalg.norm(Z, axis=1), 1.0, rtol=1e-6)
    assert (Z >= 0).all()


def test_float32_tracks_float64():
    rng = np.random.default_rng(2)
    X = rng.laplace(size=(400, 10)) @ rng.normal(size=(10, 10))
    h32 = SparseFiltering(30, max_iter=40, dtype=np.float32, random_state=3).fit(X)
    h64 = SparseFiltering(30, max_iter=40, dtype=np.float64, random_state=3).fit(X)
    assert h32.transform(X).dtype == np.float32 and h64.transform(X).dtype == np.float64
    assert h32.objective_history_[0] == pytest.approx(h64.objective_history_[0], rel=1e-5)
    assert h32.objective_ == pytest.approx(h64.objective_, rel=2e-2)
    assert h32.objective_ < 0.95 * h32.objective_history_[0]


def test_learns_sparse_code_of_planted_sources():
    # Samples each activate one of 4 planted directions (a sparse code): after fitting,
    # the representation is sparser (lower mean l1 per sample) than with the initial W.
    rng = np.random.default_rng(4)
    A = rng.normal(size=(4, 10))
    X = A[rng.integers(0, 4, 500)] * rng.normal(1, 0.1, size=(500, 1)) + 0.05 * rng.normal(size=(500, 10))
    sf = SparseFiltering(8, max_iter=100, dtype=np.float64, random_state=0).fit(X)
    assert sf.objective_ / 500 < 0.8 * sf.objective_history_[0] / 500
    Z = sf.transform(X)
    top = np.sort(Z, axis=1)[:, ::-1]
    assert np.median(top[:, 0]) > 0.6  # most of each sample's unit norm is in one feature


def test_reproducible_and_batch_size_invariant():
    X = np.random.default_rng(5).normal(size=(90, 6))
    a = SparseFiltering(10, max_iter=15, dtype=np.float64, batch_size=7, random_state=1).fit(X)
    b = SparseFiltering(10, max_iter=15, dtype=np.float64, batch_size=4096, random_state=1).fit(X)
    np.testing.assert_allclose(a.W_, b.W_, rtol=1e-6, atol=1e-8)
    c = SparseFiltering(10, max_iter=15, dtype=np.float64, batch_size=7, random_state=1).fit(X)
    np.testing.assert_array_equal(a.W_, c.W_)
    assert a.get_feature_names_out().tolist()[:2] == ["sparsefiltering0", "sparsefiltering1"]


@pytest.mark.parametrize("seed", [0, 1])
def test_rank_reduction_is_the_same_optimisation(seed):
    # window-like data: 24 columns, each a linear function of 3 one-hot residue positions (rank 9 of 24);
    # optimising in the span's coordinates must give the filters, objective path and features of the full fit
    rng = np.random.default_rng(seed)
    onehot = np.concatenate([np.eye(4)[rng.integers(0, 4, size=300)] for _ in range(3)], axis=1)
    X = onehot @ rng.normal(size=(12, 24))
    X -= X.mean(axis=0)
    fast = SparseFiltering(15, max_iter=20, dtype=np.float64, random_state=seed).fit(X)
    full = SparseFiltering(15, max_iter=20, dtype=np.float64, reduce_rank=False, random_state=seed).fit(X)
    assert fast.rank_ == 9 and full.rank_ == 24
    np.testing.assert_allclose(fast.objective_history_, full.objective_history_, rtol=1e-7)
    np.testing.assert_allclose(fast.W_, full.W_, rtol=1e-5, atol=1e-7)
    Xt = np.vstack([X[:20], rng.normal(size=(5, 24))])  # off-span samples see the untouched components too
    np.testing.assert_allclose(fast.transform(Xt), full.transform(Xt), rtol=1e-5, atol=1e-8)
    assert SparseFiltering(5, max_iter=3, random_state=0).fit(rng.normal(size=(50, 6))).rank_ == 6


def test_objective_input_errors():
    with pytest.raises(ValueError, match=r"W must be \(n_features, n_input\) and X \(n_samples, n_input\); got \(3, 4\)"):
        sparse_filtering_objective(np.ones((3, 4)), np.ones((5, 2)))


def test_objective_and_gradient_match_the_pypi_sparse_filtering_package(monkeypatch):
    # An independent implementation (Jan Hendrik Metzen's `sparse-filtering` on PyPI, a port of Ngiam's
    # MATLAB code, test-only dependency): same objective and gradient for the same weights. That package
    # subtracts each sample's mean first and has no 1e-8 inside its two l2 norms, so the samples here are
    # given zero mean and the comparison allows ~1e-6 relative.
    ref = pytest.importorskip("sparse_filtering", reason="pip install sparse-filtering (test extra)")
    captured = {}

    def capture(func, x0, **kw):  # take the package's objective closure instead of optimising
        captured["f"] = func
        return x0, 0.0, {}

    monkeypatch.setattr(ref, "fmin_l_bfgs_b", capture)
    rng = np.random.default_rng(7)
    for m, d, k in ((60, 9, 14), (200, 20, 30)):
        X = rng.laplace(size=(m, d)) @ rng.normal(size=(d, d))
        X -= X.mean(axis=1, keepdims=True)  # the package's per-sample centring is then a no-op
        ref.SparseFiltering(n_features=k).fit(X)
        W = rng.normal(size=(k, d))
        obj_ref, grad_ref = captured["f"](W.ravel())
        obj, grad = sparse_filtering_objective(W, X)
        assert obj == pytest.approx(obj_ref, rel=1e-6)
        np.testing.assert_allclose(grad.ravel(), grad_ref, rtol=1e-4, atol=1e-6 * np.abs(grad_ref).max())
