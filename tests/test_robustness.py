"""Numerical robustness: extreme kernel widths and values, constant and duplicated features, tiny data.

Each degenerate input is either handled (a correct answer, no NaN, no warning)
or refused with a ValueError that says what is wrong.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscompbio.evaluation import METHODS, make_selector
from fscompbio.kernels import alignment, gaussian_kernel, label_kernel, sigma_to_gamma, sq_distances
from fscompbio.model_selection import KTASelect

F32_MAX = float(np.finfo(np.float32).max)


# --------------------------------------------------------------------------
# kernels at extreme widths and values
# --------------------------------------------------------------------------
def _X(dtype, m=7, d=3, seed=0):
    return np.random.default_rng(seed).standard_normal((m, d)).astype(dtype)


@pytest.mark.parametrize("gamma", [1e39, 1e100, 1e300])
def test_float32_kernel_beyond_float32_range_is_the_identity(gamma):
    """gamma > 3.4e38 (a width below ~4e-20) used to give inf * 0 = NaN on the diagonal."""
    X = _X(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow / invalid-value warnings either
        K = gaussian_kernel(X, gamma=gamma)
    assert K.dtype == np.float32
    np.testing.assert_array_equal(K, np.eye(7, dtype=np.float32))  # the exact limit of exp(-gamma d2)


def test_float32_kernel_at_a_tiny_width_given_as_sigma():
    X = _X(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        K = gaussian_kernel(X, sigma=1e-25)
    np.testing.assert_array_equal(K, np.eye(7, dtype=np.float32))


def test_float32_kernel_at_a_huge_width_is_all_ones():
    X = _X(np.float32)
    K = gaussian_kernel(X, gamma=1e-60)  # below float32's smallest subnormal: exp(-0) = 1
    np.testing.assert_array_equal(K, np.ones((7, 7), dtype=np.float32))


@settings(max_examples=60, deadline=None)
@given(log_gamma=st.floats(-60, 60), scale=st.floats(-6, 6))
def test_float32_kernel_is_a_kernel_at_every_width(log_gamma, scale):
    """For any width and feature scale: finite, in [0, 1], unit diagonal, and float64's value to float32 precision."""
    X = _X(np.float32, m=6, d=4, seed=1) * np.float32(10.0**scale)
    gamma = 10.0**log_gamma
    K = gaussian_kernel(X, gamma=gamma)
    assert K.dtype == np.float32 and np.all(np.isfinite(K))
    assert np.all((K >= 0) & (K <= 1)) and np.all(np.diag(K) == 1)
    K64 = np.exp(-gamma * sq_distances(X.astype(np.float64)))
    np.testing.assert_allclose(K, K64, atol=1e-5, rtol=1e-3)


def test_alignment_stays_finite_at_extreme_float32_widths():
    X = _X(np.float32, m=20, seed=2)
    y = np.where(X[:, 0] > 0, 1, -1)
    L = label_kernel(y)
    for gamma in (1e-60, 1e-3, 1.0, 1e3, 1e60):
        a = alignment(gaussian_kernel(X, gamma=gamma), L)
        assert np.isfinite(a) and -1 <= a <= 1


@pytest.mark.parametrize("dtype, scale", [(np.float32, 1e20), (np.float64, 1e160)])
def test_distances_that_overflow_are_refused(dtype, scale):
    X = _X(dtype) * dtype(scale)
    with pytest.raises(ValueError, match=rf"squared distances overflow {np.dtype(dtype).name}: the largest squared "
                                         r"row norm of X is inf .*standardise the features"):
        sq_distances(X)
    with pytest.raises(ValueError, match="squared distances overflow"):
        gaussian_kernel(X)


def test_float32_values_that_overflow_only_in_float32_are_handled_in_float64():
    X = _X(np.float32) * np.float32(1e20)
    with pytest.raises(ValueError, match="or pass float64 data"):
        sq_distances(X)
    D2 = sq_distances(X.astype(np.float64))
    assert np.all(np.isfinite(D2)) and D2.max() > F32_MAX


def test_non_finite_values_are_named():
    X = _X(np.float64)
    X[4, 2] = np.nan
    with pytest.raises(ValueError, match=r"X has a non-finite value \(nan\) at sample 4, feature 2"):
        sq_distances(X)
    Y = _X(np.float64)
    Y[1, 0] = np.inf
    with pytest.raises(ValueError, match=r"Y has a non-finite value \(inf\) at sample 1, feature 0"):
        sq_distances(_X(np.float64), Y)


@pytest.mark.parametrize("sigma", [1e-200, 1e200, np.inf])
def test_widths_outside_float64_are_refused(sigma):
    with pytest.raises(ValueError, match=r"is outside the range where gamma = 1 / \(2 sigma\^2\) is a finite non-zero"):
        sigma_to_gamma(sigma)


def test_sigma_must_be_positive():
    with pytest.raises(ValueError, match="sigma must be > 0"):
        sigma_to_gamma(np.nan)


# --------------------------------------------------------------------------
# selectors on constant, duplicated and tiny data (through the public registry)
# --------------------------------------------------------------------------
FAST = {
    "stabsel_lasso": {"n_bootstraps": 10},
    "stabsel_logreg": {"n_bootstraps": 10},
    "stabsel_lpboost": {"n_bootstraps": 2, "nus": [0.8]},
    "randsel": {"n_subsets": 100, "batch_size": 25},
    "fohsic": {"n_steps": 6},
}
# methods that rank by what they learn (not the random baseline)
INFORMED = [m for m in METHODS if m != "random"]


def _fit(method, X, y, seed=0):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no division by zero or NaN on the way
        return make_selector(method, FAST.get(method), random_state=seed).fit(X, y)


def _degenerate_data(seed):
    """Two relevant features (sum sign), a constant one, a copy of relevant 0, noise; columns permuted."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((80, 12))
    y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    X[:, 2] = 4.2  # constant
    X[:, 3] = X[:, 0]  # duplicate of a relevant feature
    perm = rng.permutation(12)
    where = {int(orig): int(col) for col, orig in enumerate(perm)}  # original index -> column
    return X[:, perm], y, where


@pytest.mark.parametrize("method", list(METHODS))
@pytest.mark.parametrize("seed", [0, 1])
def test_constant_and_duplicated_features(method, seed):
    X, y, where = _degenerate_data(seed)
    sel = _fit(method, X, y, seed)
    ranking = np.asarray(sel.ranking_)
    assert sorted(ranking.tolist()) == list(range(1, 13))  # a full ranking, ties broken
    assert np.all(np.isfinite(np.asarray(sel.scores_, dtype=float)))
    if method in INFORMED:
        assert ranking[where[2]] > 1  # the constant feature never leads
        best = int(np.argmin(ranking))
        assert best in (where[0], where[1], where[3]), f"{method} put column {best} first"


@pytest.mark.filterwarnings("ignore::fscompbio.selection.EmptySelectionWarning")  # an empty set is expected here
@pytest.mark.parametrize("method", list(METHODS))
def test_every_feature_constant_is_handled_or_refused(method):
    X = np.full((30, 4), 2.5)
    y = np.r_[np.ones(15, int), -np.ones(15, int)]
    try:
        sel = _fit(method, X, y)
    except ValueError as exc:  # refused: the message must say why
        assert "constant" in str(exc) or "zero coefficients" in str(exc), str(exc)
        return
    assert sorted(np.asarray(sel.ranking_).tolist()) == [1, 2, 3, 4]
    assert np.all(np.isfinite(np.asarray(sel.scores_, dtype=float)))


@pytest.mark.filterwarnings("ignore::fscompbio.selection.EmptySelectionWarning")  # an empty set is expected here
@pytest.mark.parametrize("method", list(METHODS))
def test_a_single_feature(method):
    rng = np.random.default_rng(3)
    X = rng.standard_normal((40, 1))
    y = np.where(X[:, 0] > 0, 1, -1)
    sel = _fit(method, X, y)
    assert np.asarray(sel.ranking_).tolist() == [1]
    res = KTASelect().select(X, y, sel.ranking_)
    assert res.features.tolist() == [0] and np.isfinite(res.gamma) and res.score > 0.5


@pytest.mark.filterwarnings("ignore::fscompbio.selection.EmptySelectionWarning")  # an empty set is expected here
@pytest.mark.parametrize("method", list(METHODS))
def test_six_samples(method):
    rng = np.random.default_rng(4)
    X = rng.standard_normal((6, 5))
    y = np.array([1, 1, 1, -1, -1, -1])
    sel = _fit(method, X, y)
    assert sorted(np.asarray(sel.ranking_).tolist()) == [1, 2, 3, 4, 5]
    res = KTASelect().select(X, y, sel.ranking_)
    assert np.isfinite(res.gamma) and np.isfinite(res.score)


def _rare_class_data(seed):
    """30 samples of which 2 positive: a subsample of a quarter (7) is often all negative."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((30, 8))
    y = -np.ones(30, dtype=int)
    y[rng.choice(30, 2, replace=False)] = 1
    X[y == 1, 0] += 3.0
    return X, y


def _check_rare_class(method):
    for seed in range(3):
        X, y = _rare_class_data(seed)
        sel = _fit(method, X, y, seed)
        assert sorted(np.asarray(sel.ranking_).tolist()) == list(range(1, 9))
        assert np.all(np.isfinite(np.asarray(sel.scores_, dtype=float)))


@pytest.mark.parametrize("method", list(METHODS))
def test_subsamples_that_can_miss_a_class(method):
    """Subsampling selectors meet subsamples with a single class; the fit still works (randSel redraws them)."""
    _check_rare_class(method)


def test_one_class_is_refused_clearly():
    X = np.random.default_rng(5).standard_normal((20, 4))
    y = np.ones(20, dtype=int)
    with pytest.raises(ValueError, match="needs a binary target; got 1 classes"):
        KTASelect().select(X, y, np.arange(1, 5))


@pytest.mark.parametrize("method", list(METHODS))
def test_rankings_do_not_depend_on_the_features_scale_or_float32(method):
    """Features in units of 1e-25 or 1e25 (the Gaussian widths follow the data) and float32 copies give the
    same leading features as the data in unit scale: no overflow, underflow or NaN on the way."""
    from fscompbio.datasets import make_dataset

    ds = make_dataset("xor", random_state=0, n_samples=100, n_features=10)
    perm = np.random.default_rng(6).permutation(10)
    X = ds.X[:, perm]
    lead = set(np.argsort(_fit(method, X, ds.y).ranking_, kind="stable")[:2].tolist())
    if method in ("randsel", "gaussian_rfe", "bahsic"):  # the non-linear methods find the XOR pair here
        assert lead == {int(np.flatnonzero(perm == 0)[0]), int(np.flatnonzero(perm == 1)[0])}
    for scale in (1e-25, 1e25):
        for dtype in (np.float64, np.float32):
            sel = _fit(method, (X * scale).astype(dtype), ds.y)
            assert np.all(np.isfinite(np.asarray(sel.scores_, dtype=float)))
            assert set(np.argsort(sel.ranking_, kind="stable")[:2].tolist()) == lead, (scale, dtype)
