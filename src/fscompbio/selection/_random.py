"""The thesis' random baseline (figures 3.3-3.8: "Rand")."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, RealNotInt, _fit_context
from .._validation import check_fit_data
from ._ranking import resolve_n_features

__all__ = ["RandomSelector"]


class RandomSelector(SelectorMixin, BaseEstimator):
    """A random ordering of the features; its top 10% as the support.

    In the thesis' cross-validation setting "Rand" is a random 10% of the
    features (``get_support()``; nested CV then only chooses the width, see
    :class:`fscompbio.model_selection.NestedCVSelect` with ``sizes="support"``);
    in the alignment setting it is the prefix of a random ordering that
    maximises the alignment (``ranking_`` given to
    :class:`fscompbio.model_selection.KTASelect`). Captions of figures 3.3-3.8.

    Parameters
    ----------
    n_features_to_select : int or float, default=0.1
        Size of the support: a count or a fraction (rounded up, at least 1).
    random_state : int, RandomState instance or None, default=None
        Pass an int for reproducible output.

    Attributes
    ----------
    ranking_ : ndarray of shape (n_features_in_,)
        A uniformly random permutation of ``1..n``.
    scores_ : ndarray of shape (n_features_in_,)
        ``n - ranking_ + 1`` (higher = ranked earlier).
    n_features_in_ : int
    """

    _parameter_constraints: dict = {
        "n_features_to_select": [
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "random_state": ["random_state"],
    }

    def __init__(self, *, n_features_to_select=0.1, random_state=None):
        self.n_features_to_select = n_features_to_select
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Draw the random ordering (X and y are only validated).

        Parameters
        ----------
        X : array-like of shape (m, n)
        y : ignored

        Returns
        -------
        self
        """
        X = check_fit_data(self, X, accept_sparse=("csr", "csc")) if y is None else \
            check_fit_data(self, X, y, accept_sparse=("csr", "csc"))[0]
        rng = check_random_state(self.random_state)
        n = X.shape[1]
        self.ranking_ = rng.permutation(n) + 1
        self.scores_ = (n - self.ranking_ + 1).astype(float)
        return self

    def _get_support_mask(self):
        check_is_fitted(self)
        k = resolve_n_features(self.n_features_to_select, self.n_features_in_)
        return self.ranking_ <= k

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags
