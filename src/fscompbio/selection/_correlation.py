"""Pearson correlation filter (thesis section 2.4.1, definition 2.4.1)."""

from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, RealNotInt, _fit_context
from .._validation import check_fit_data
from ._ranking import ranking_from_scores, resolve_n_features

__all__ = ["CorrelationSelector", "abs_correlation"]

#: correlations closer than this (relative to the largest) rank as ties, broken by the lower feature index, so
#: that the ranking is the same on every CPU (see :func:`~fscompbio.selection._ranking.ranking_from_scores`)
TIE_RTOL = 1e-12


def abs_correlation(X, y):
    """Absolute Pearson correlation of every column of X with y.

    ``r_i = |sum_j (x_ij - mean_i)(y_j - mean_y)| / sqrt(sum_j (x_ij - mean_i)^2
    sum_j (y_j - mean_y)^2)`` (the thesis' eq. in 2.4.1, with the usual
    product of the two sums of squares in the denominator). Constant columns
    (or a constant y) score 0.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (m, n)
        Sparse X is never densified: ``sum_j (x_ij - mean_i)(y_j - mean_y)
        = x_i . (y - mean_y)`` and ``sum_j (x_ij - mean_i)^2 = x_i . x_i - m
        mean_i^2``.
    y : ndarray of shape (m,)

    Returns
    -------
    r : ndarray of shape (n,), values in [0, 1]
    """
    yc = y - y.mean()
    if sp.issparse(X):
        m = X.shape[0]
        mean = np.asarray(X.mean(axis=0)).ravel()
        num = np.asarray(X.T @ yc).ravel()
        ss = np.asarray(X.multiply(X).sum(axis=0)).ravel() - m * mean**2
        den = np.sqrt(np.maximum(ss, 0.0) * (yc @ yc))  # clip round-off: a sum of squares
    else:
        Xc = X - X.mean(axis=0)
        num = Xc.T @ yc
        den = np.sqrt(np.einsum("ij,ij->j", Xc, Xc) * (yc @ yc))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(den > 0, np.abs(num) / np.where(den > 0, den, 1.0), 0.0)
    return np.minimum(r, 1.0)  # clip round-off: |r| <= 1


class CorrelationSelector(SelectorMixin, BaseEstimator):
    """Rank features by their absolute Pearson correlation with the target.

    Parameters
    ----------
    n_features_to_select : int or float, default=0.1
        Size of ``get_support()``: a count, or a fraction of the features
        (rounded up, at least 1). The ranking always covers every feature.

    Attributes
    ----------
    scores_ : ndarray of shape (n_features_in_,)
        ``|r|`` per feature. For a multiclass target, the largest ``|r|`` with
        the one-vs-rest indicators of the classes.
    ranking_ : ndarray of shape (n_features_in_,)
        1 = most correlated; ties (correlations within ``TIE_RTOL`` of the
        largest, relative) broken by the lower index.
    n_features_in_ : int

    Notes
    -----
    Implements definition 2.4.1 of the thesis; ``O(m n)``.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 5)); y = np.sign(X[:, 3])
    >>> CorrelationSelector(n_features_to_select=1).fit(X, y).get_support().nonzero()[0]
    array([3])
    """

    _parameter_constraints: dict = {
        "n_features_to_select": [
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
    }

    def __init__(self, *, n_features_to_select=0.1):
        self.n_features_to_select = n_features_to_select

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Compute the correlations.

        Parameters
        ----------
        X : array-like, DataFrame or scipy.sparse matrix of shape (m, n)
        y : array-like of shape (m,)
            Class labels (strings or integers) or a real target.

        Returns
        -------
        self
        """
        X, y = check_fit_data(self, X, y, accept_sparse="csc", y_numeric=False)
        if type_of_target(y) == "multiclass":
            classes = np.unique(y)
            scores = np.max([abs_correlation(X, (y == c).astype(float)) for c in classes], axis=0)
        else:
            yf = np.unique(y, return_inverse=True)[1].astype(float) if y.dtype.kind not in "fiu" else y.astype(float)
            scores = abs_correlation(X, yf)
        self.scores_ = scores
        self.ranking_ = ranking_from_scores(scores, rtol=TIE_RTOL)
        return self

    def _get_support_mask(self):
        check_is_fitted(self)
        k = resolve_n_features(self.n_features_to_select, self.n_features_in_)
        return self.ranking_ <= k

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.sparse = True
        return tags
