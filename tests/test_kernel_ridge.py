"""Gaussian kernel ridge regression: its closed-form leave-one-out residuals equal refits without each sample,
its fit equals scikit-learn's KernelRidge at the chosen ridge, and it learns a non-linear function."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.kernel_ridge import KernelRidge
from sklearn.utils.estimator_checks import check_estimator

from fscompbio.prediction import GaussianKernelRidge


def _data(seed, n=40, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, np.sin(2 * X[:, 0]) + X[:, 1] ** 2 + 0.3 * rng.normal(size=n)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), gamma=st.floats(0.05, 5.0), n=st.integers(5, 30))
def test_leave_one_out_residuals_equal_refits_without_each_sample(seed, gamma, n):
    X, y = _data(seed, n=n)
    alphas = [0.01, 0.3, 10.0]
    model = GaussianKernelRidge(gamma=gamma, alphas=alphas).fit(X, y)
    mean = y.mean()  # the intercept of every refit: the full training mean (see the estimator's notes)
    for a, mse in zip(alphas, model.loo_mse_):
        brute = []
        for i in range(n):
            keep = np.arange(n) != i
            ref = KernelRidge(alpha=a, kernel="rbf", gamma=gamma).fit(X[keep], y[keep] - mean)
            brute.append(y[i] - mean - ref.predict(X[i:i + 1])[0])
        np.testing.assert_allclose(mse, np.mean(np.square(brute)), rtol=1e-6)
    assert model.alpha_ == alphas[int(np.argmin(model.loo_mse_))]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fit_is_kernel_ridge_at_the_chosen_ridge(seed):
    X, y = _data(seed)
    model = GaussianKernelRidge(gamma=0.5).fit(X[:30], y[:30])
    ref = KernelRidge(alpha=model.alpha_, kernel="rbf", gamma=0.5).fit(X[:30], y[:30] - y[:30].mean())
    np.testing.assert_allclose(model.predict(X[30:]), ref.predict(X[30:]) + y[:30].mean(), rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_learns_a_nonlinear_function_and_a_constant(seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(200, 2))
    y = np.sin(2 * X[:, 0]) + 0.1 * rng.normal(size=200)
    assert GaussianKernelRidge(gamma=1.0).fit(X[:150], y[:150]).score(X[150:], y[150:]) > 0.9
    flat = GaussianKernelRidge(gamma=1.0).fit(X[:150], np.full(150, 3.0))
    assert flat.alpha_ == 100.0  # no signal: every ridge ties, the smoothest wins
    np.testing.assert_allclose(flat.predict(X[150:]), 3.0)


def test_bad_ridges_are_refused():
    X, y = _data(0)
    for alphas in ([], [0.0, 1.0], [np.nan]):
        with pytest.raises(ValueError, match="alphas must be positive"):
            GaussianKernelRidge(alphas=alphas).fit(X, y)


def test_scikit_learn_estimator_checks():
    check_estimator(GaussianKernelRidge())
