"""The Nadaraya-Watson kernel regression estimator.

Sun, Yao and Goodison, "Feature Selection for Nonlinear Regression and its
Application to Cancer Research" (SDM 2015), eq. 2.2: the predictor they pair
with the features their local-learning selector finds (section 4.2).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from scipy.spatial.distance import cdist
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, StrOptions, _fit_context, validate_data

__all__ = ["NadarayaWatsonRegressor", "nadaraya_watson"]


def _log_kernel(D, kernel, sigma):
    """The logarithm of the kernel for distances ``D``: ``-d / sigma`` or ``-d^2 / (2 sigma^2)``."""
    if kernel == "exponential":
        return -D / sigma
    return -(D**2) / (2.0 * sigma**2)


def nadaraya_watson(X_train, y_train, X, *, kernel="exponential", sigma=1.0, exclude_self=False):
    """Kernel-weighted mean of the training responses (eq. 2.2; eq. 2.3 with ``exclude_self``).

    ``yhat(x) = sum_n K(x, x_n) y_n / sum_n K(x, x_n)``.

    Parameters
    ----------
    X_train : ndarray of shape (n_train, n_features)
    y_train : ndarray of shape (n_train,) or (n_train, n_outputs)
    X : ndarray of shape (n, n_features)
    kernel : {"exponential", "gaussian"}, default="exponential"
        ``"exponential"``: ``exp(-||x - x'||_1 / sigma)`` with the block
        distance, the kernel of the paper's eq. 2.14; ``"gaussian"``:
        ``exp(-||x - x'||_2^2 / (2 sigma^2))``.
    sigma : float, default=1.0
    exclude_self : bool, default=False
        Leave-one-out estimate of eq. 2.3 when ``X`` is ``X_train``: sample
        ``n``'s own response is left out of its estimate.

    Returns
    -------
    y_pred : ndarray of shape (n,) or (n, n_outputs)

    Notes
    -----
    The weights of each row are shifted by its smallest distance before the
    exponential (the ratio is unchanged), so the nearest training point always
    has weight 1: far from the data the estimate tends to the nearest
    neighbour's response (eq. 2.1) instead of 0/0.
    """
    metric = "cityblock" if kernel == "exponential" else "euclidean"
    D = cdist(X, X_train, metric=metric)
    if exclude_self:
        if D.shape[0] != D.shape[1]:
            raise ValueError(f"exclude_self needs X to be X_train; got {D.shape[0]} and {D.shape[1]} samples")
        if D.shape[0] < 2:
            raise ValueError("exclude_self needs at least 2 training samples")
        np.fill_diagonal(D, np.inf)
    E = _log_kernel(D, kernel, sigma)
    E -= E.max(axis=1, keepdims=True)  # the nearest point gets weight exp(0) = 1
    W = np.exp(E)
    W /= W.sum(axis=1, keepdims=True)
    return W @ y_train


class NadarayaWatsonRegressor(RegressorMixin, BaseEstimator):
    """Nadaraya-Watson kernel regression (eq. 2.2 of Sun, Yao and Goodison 2015).

    Predicts the kernel-weighted mean of the training responses,
    ``yhat(x) = sum_n K(x, x_n) y_n / sum_n K(x, x_n)``. With a small width it
    tends to the nearest-neighbour estimate of eq. 2.1, with a large one to the
    mean response. Combine it with a selector in a pipeline, e.g.
    ``make_pipeline(MinMaxScaler(), LocalLearningRegression(n_features_to_select=5),
    NadarayaWatsonRegressor())``.

    Parameters
    ----------
    kernel : {"exponential", "gaussian"}, default="exponential"
        ``"exponential"``: ``exp(-||x - x'||_1 / sigma)`` (block distance, the
        kernel of the paper's eq. 2.14); ``"gaussian"``:
        ``exp(-||x - x'||^2 / (2 sigma^2))``.
    sigma : float, default=1.0
        Kernel width.

    Attributes
    ----------
    X_fit_ : ndarray of shape (n_samples, n_features_in_)
    y_fit_ : ndarray of shape (n_samples,) or (n_samples, n_outputs)
    n_features_in_ : int

    See Also
    --------
    fscompbio.selection.LocalLearningRegression : the selector of the same paper.

    References
    ----------
    Y. Sun, J. Yao and S. Goodison (2015). Feature Selection for Nonlinear
    Regression and its Application to Cancer Research. SIAM SDM.
    T. Hastie, R. Tibshirani and J. Friedman (2009). The Elements of Statistical
    Learning, section 6.1.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]]); y = np.array([0.0, 1.0, 2.0, 3.0])
    >>> NadarayaWatsonRegressor(sigma=0.01).fit(X, y).predict([[2.1]]).round(3).tolist()
    [2.0]
    """

    _parameter_constraints: dict = {
        "kernel": [StrOptions({"exponential", "gaussian"})],
        "sigma": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(self, *, kernel="exponential", sigma=1.0):
        self.kernel = kernel
        self.sigma = sigma

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Store the training data (the estimator is lazy).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True, multi_output=True)
        self.X_fit_ = X
        self.y_fit_ = np.asarray(y, dtype=np.float64)
        return self

    def predict(self, X):
        """Eq. 2.2 for every row of ``X``.

        Parameters
        ----------
        X : array-like of shape (n, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n,) or (n, n_outputs)
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return nadaraya_watson(self.X_fit_, self.y_fit_, X, kernel=self.kernel, sigma=self.sigma)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        return tags
