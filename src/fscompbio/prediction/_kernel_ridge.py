"""Gaussian kernel ridge regression, its ridge chosen by the exact leave-one-out error.

The regression counterpart of the Gaussian SVM that tests a selection in the thesis' protocol (section 2.5.1): the
kernel's width comes from the model selection (kernel target alignment, thesis algorithm 3), and the one remaining
parameter, the ridge, is chosen on the training part alone by the closed-form leave-one-out residuals of a linear
smoother (Wahba 1990, "Spline Models for Observational Data", section 4.2; the ``gcv_mode="eigen"`` route of
scikit-learn's ``RidgeCV``, here on a kernel).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, _fit_context, validate_data
from ..kernels import gaussian_kernel

__all__ = ["GaussianKernelRidge", "DEFAULT_ALPHAS", "kernel_ridge_loo"]

#: the ridges tried, relative to a kernel of unit diagonal (its eigenvalues sum to the number of samples)
DEFAULT_ALPHAS = tuple(float(a) for a in np.logspace(-3, 2, 11))


class GaussianKernelRidge(RegressorMixin, BaseEstimator):
    """Kernel ridge regression with ``exp(-gamma ||x - x'||^2)``, the ridge chosen by leave-one-out error.

    Fits ``f(x) = mean(y) + sum_i c_i k(x, x_i)`` with ``c = (K + alpha I)^-1 (y - mean(y))`` for every ``alpha``
    of ``alphas`` at once, from one eigendecomposition of ``K``, and keeps the ``alpha`` of least mean squared
    leave-one-out residual ``(y_i - f(x_i)) / (1 - H_ii)``, ``H = K (K + alpha I)^-1`` (ties: the larger, smoother
    one).

    Parameters
    ----------
    gamma : float, default=1.0
        The kernel's factor (``sigma = 1 / sqrt(2 gamma)``).
    alphas : array-like of float, default=DEFAULT_ALPHAS
        The ridges tried (positive): 11 from 0.001 to 100, geometric.

    Attributes
    ----------
    alpha_ : float
        The chosen ridge.
    loo_mse_ : ndarray of shape (n_alphas,)
        The mean squared leave-one-out residual of every ridge.
    dual_coef_ : ndarray of shape (n_samples,)
    intercept_ : float
        The training responses' mean.
    X_fit_ : ndarray of shape (n_samples, n_features)
    n_features_in_ : int

    Notes
    -----
    The residuals are those of the ridge with the intercept fixed at the mean of all training responses, the
    left-out one included (as in scikit-learn's ``RidgeCV``): a bias of order ``1 / n`` in the choice, none in the
    fit.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-2, 2, size=(120, 2)); y = np.sin(2 * X[:, 0]) + 0.1 * rng.normal(size=120)
    >>> model = GaussianKernelRidge(gamma=1.0).fit(X[:80], y[:80])
    >>> round(model.score(X[80:], y[80:]), 2) > 0.9
    True
    """

    _parameter_constraints: dict = {
        "gamma": [Interval(Real, 0, None, closed="neither")],
        "alphas": ["array-like"],
    }

    def __init__(self, gamma=1.0, *, alphas=DEFAULT_ALPHAS):
        self.gamma = gamma
        self.alphas = alphas

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        X, y = validate_data(self, X, y, y_numeric=True, dtype=np.float64)
        if X.shape[0] < 2:
            raise ValueError("GaussianKernelRidge needs at least 2 samples; got one sample")
        self.dual_coef_, self.intercept_, self.alpha_, self.loo_mse_ = kernel_ridge_loo(
            gaussian_kernel(X, gamma=self.gamma), y, self.alphas)
        self.X_fit_ = X
        return self

    def predict(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return gaussian_kernel(X, self.X_fit_, gamma=self.gamma) @ self.dual_coef_ + self.intercept_


def kernel_ridge_loo(K, y, alphas=DEFAULT_ALPHAS):
    """Kernel ridge regression on a kernel matrix, its ridge chosen by the exact leave-one-out error.

    Parameters
    ----------
    K : ndarray of shape (m, m)
        A positive semi-definite kernel on the training samples.
    y : ndarray of shape (m,)
    alphas : array-like of float
        The ridges tried (positive).

    Returns
    -------
    dual_coef : ndarray of shape (m,)
        ``(K + alpha I)^-1 (y - mean(y))`` at the chosen ridge: predict ``K(x, X) @ dual_coef + intercept``.
    intercept : float
        ``mean(y)``.
    alpha : float
        The ridge of least mean squared leave-one-out residual (ties: the larger).
    loo_mse : ndarray of shape (n_alphas,)
        The mean squared leave-one-out residual ``(y_i - f(x_i)) / (1 - H_ii)`` of every ridge,
        ``H = K (K + alpha I)^-1``, all from one eigendecomposition of ``K``.
    """
    alphas = np.asarray(alphas, dtype=float).ravel()
    if alphas.size == 0 or not np.all(np.isfinite(alphas)) or np.any(alphas <= 0):
        raise ValueError(f"alphas must be positive and finite, at least one; got {alphas.tolist()!r}")
    y = np.asarray(y, dtype=float)
    intercept = float(y.mean())
    yc = y - intercept
    lam, V = np.linalg.eigh(K)
    lam = np.clip(lam, 0.0, None)  # positive semi-definite; rounding can leave -1e-16
    Vty = V.T @ yc
    shrink = lam[:, None] / (lam[:, None] + alphas[None, :])  # eigenvalues of H, one column per ridge
    fitted = V @ (shrink * Vty[:, None])
    leverage = (V**2) @ shrink
    loo_mse = np.mean(((yc[:, None] - fitted) / (1.0 - leverage)) ** 2, axis=0)
    alpha = float(alphas[loo_mse == loo_mse.min()].max())  # ties: the larger ridge
    return V @ (Vty / (lam + alpha)), intercept, alpha, loo_mse
