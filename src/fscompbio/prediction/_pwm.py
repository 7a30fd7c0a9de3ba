"""Position weight matrix: per-position log-odds of categorical symbols (von Heijne 1986), as a classifier."""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, _fit_context, validate_data
from ._base import BinaryClassifierMixin

__all__ = ["PositionWeightMatrix"]


class PositionWeightMatrix(BinaryClassifierMixin, BaseEstimator):
    """Sum of per-column log-odds of categorical values: the classic weight-matrix method.

    Each column of ``X`` holds an integer symbol (a residue code 0..19 per
    window position, :func:`fscompbio.sequences.residue_codes`; or any other
    categorical attribute, such as the window's position in the sequence, which
    adds a log prior on the cleavage position). For column ``j`` and symbol
    ``a`` the weight is ``log((n_pos(j, a) + c) / (N_pos + c A_j)) - log((n_neg(j, a) + c) / (N_neg + c A_j))``
    with pseudocount ``c`` and ``A_j`` symbols in column ``j``; the score of a
    sample is the sum of its weights plus ``log(N_pos / N_neg)`` (naive Bayes
    with Laplace smoothing).

    Parameters
    ----------
    pseudocount : float, default=1.0
        Added to every count (Laplace smoothing).

    Attributes
    ----------
    weights_ : list of ndarray
        ``weights_[j][a]``: log-odds of symbol ``a`` in column ``j``.
    n_levels_ : ndarray of shape (n_features_in_,), int
        Symbols per column (largest training value + 1).
    unseen_weights_ : ndarray of shape (n_features_in_,)
        The weight of a symbol above the training range (pseudocounts only).
    intercept_ : float
        ``log(N_pos / N_neg)``.
    classes_ : ndarray of shape (2,)

    References
    ----------
    von Heijne, G. (1986). A new method for predicting signal sequence cleavage
    sites. Nucleic Acids Research 14:4683-4690.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 1], [0, 1], [1, 0], [1, 1]]); y = np.array([1, 1, 0, 0])
    >>> pwm = PositionWeightMatrix().fit(X, y)
    >>> pwm.predict([[0, 1], [1, 0]]).tolist()
    [1, 0]
    """

    _parameter_constraints: dict = {"pseudocount": [Interval(Real, 0, None, closed="neither")]}

    def __init__(self, *, pseudocount=1.0):
        self.pseudocount = pseudocount

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Count the symbols of each column per class.

        Parameters
        ----------
        X : array-like of int, shape (n_samples, n_columns)
            Non-negative integer symbols.
        y : array-like of shape (n_samples,)
            Binary labels; ``classes_[1]`` is the positive class.

        Returns
        -------
        self : PositionWeightMatrix
        """
        X, y = validate_data(self, X, y, dtype=None)
        yi = self._fit_classes(y)
        X = self._check_codes(X)
        pos = yi == 1
        c = float(self.pseudocount)
        self.n_levels_ = X.max(axis=0) + 1
        self.weights_ = []
        self.unseen_weights_ = np.empty(self.n_levels_.size)
        for j, A in enumerate(self.n_levels_):
            n_pos = np.bincount(X[pos, j], minlength=A) + c
            n_neg = np.bincount(X[~pos, j], minlength=A) + c
            self.weights_.append(np.log(n_pos / n_pos.sum()) - np.log(n_neg / n_neg.sum()))
            self.unseen_weights_[j] = np.log(c / n_pos.sum()) - np.log(c / n_neg.sum())
        self.intercept_ = float(np.log(pos.sum() / (~pos).sum()))
        return self

    @staticmethod
    def _check_codes(X):
        Xf = np.asarray(X, dtype=np.float64)
        if np.any(Xf < 0):
            raise ValueError("Negative values in data passed to PositionWeightMatrix: X must hold non-negative "
                             "integer symbols (e.g. residue codes 0..19)")
        if np.any(Xf != np.round(Xf)):
            raise ValueError("X must hold non-negative integer symbols (e.g. residue codes 0..19)")
        return Xf.astype(np.int64)

    def decision_function(self, X):
        """Sum of the column log-odds plus the log class ratio.

        Parameters
        ----------
        X : array-like of int, shape (n_samples, n_columns)

        Returns
        -------
        scores : ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        X = self._check_codes(validate_data(self, X, reset=False, dtype=None))
        score = np.full(X.shape[0], self.intercept_)
        for j, w in enumerate(self.weights_):
            seen = X[:, j] < w.size
            score += np.where(seen, w[np.where(seen, X[:, j], 0)], self.unseen_weights_[j])
        return score

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.positive_only = True
        return tags
