"""Linear SVM recursive feature elimination (thesis section 2.4.2, algorithm 1)."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import SelectorMixin
from sklearn.svm import LinearSVC
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, RealNotInt, _fit_context
from .._validation import check_fit_data
from .._scaling import standardize
from ._ranking import resolve_n_features

__all__ = ["LinearRFE"]


class LinearRFE(SelectorMixin, BaseEstimator):
    """SVM-RFE with a linear SVM, removing a fraction of the remaining features per step.

    Each step trains scikit-learn's :class:`~sklearn.svm.LinearSVC` on the
    remaining features and removes the ``max(1, floor(step * remaining))``
    features of smallest ``w_i^2`` (the primal form of the sensitivity of
    definition 2.4.2: ``||w||^2 - ||w^(i)||^2 = w_i^2`` for a linear kernel),
    until one feature is left. The features are ranked by the reverse order of
    their removal (within a step, by ``w_i^2``).

    Parameters
    ----------
    step : float in (0, 1), default=0.1
        Fraction of the *remaining* features removed per step (at least one).
    C : float, default=1.0
        Regularisation of the linear SVM.
    n_features_to_select : int or float, default=0.1
        Size of ``get_support()`` (count or fraction).
    standardize : bool, default=True
        Scale every feature to zero mean and unit variance before the
        elimination, so that ``w_i^2`` compares features on one scale (a
        feature with large variance, e.g. from outliers, otherwise gets a small
        weight whatever its relevance). Sparse X (CSR or CSC) is scaled to
        unit variance but not centred, which would fill it: the SVM's
        intercept absorbs the means, so the ranking can differ slightly from
        that of the same data dense.
    svm_max_iter : int, default=10000
        Iterations of the linear SVM solver.
    random_state : int, RandomState instance or None, default=None
        Seed of the SVM solver's coordinate order.

    Attributes
    ----------
    ranking_ : ndarray of shape (n_features_in_,)
        1 = the last feature removed.
    scores_ : ndarray of shape (n_features_in_,)
        ``n - ranking_ + 1`` (higher = removed later).
    n_steps_ : int
        Number of SVMs trained.
    n_features_in_ : int

    Notes
    -----
    Algorithm 1 of the thesis removes one feature per step; removing a fraction
    is the common speed-up the thesis mentions (2.4.2) and uses (4.3).

    References
    ----------
    Guyon, Weston, Barnhill and Vapnik (2002). Gene selection for cancer
    classification using support vector machines. Machine Learning 46:389-422.
    """

    _parameter_constraints: dict = {
        "step": [Interval(Real, 0, 1, closed="neither")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "n_features_to_select": [
            Interval(Integral, 1, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "standardize": ["boolean"],
        "svm_max_iter": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(
        self, *, step=0.1, C=1.0, n_features_to_select=0.1, standardize=True, svm_max_iter=10000, random_state=None
    ):
        self.step = step
        self.C = C
        self.n_features_to_select = n_features_to_select
        self.standardize = standardize
        self.svm_max_iter = svm_max_iter
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Run the elimination to a full ranking.

        Parameters
        ----------
        X : array-like, DataFrame or scipy.sparse matrix of shape (m, n)
        y : array-like of shape (m,), class labels (strings or integers)

        Returns
        -------
        self
        """
        X, y = check_fit_data(self, X, y, accept_sparse="csr")
        check_classification_targets(y)
        rng = check_random_state(self.random_state)
        if self.standardize and sp.issparse(X):
            var = np.asarray(X.multiply(X).mean(axis=0)).ravel() - np.asarray(X.mean(axis=0)).ravel() ** 2
            sd = np.sqrt(np.maximum(var, 0.0))  # clip round-off: a variance
            X = (X @ sp.diags(1.0 / np.where(sd > 0, sd, 1.0))).tocsr()  # scaled, not centred: stays sparse
        elif self.standardize:
            X = standardize(X)
        n = X.shape[1]
        remaining = np.arange(n)
        removed = []  # removal order, first removed first
        n_steps = 0
        seed = rng.randint(2**31 - 1)
        while remaining.size > 1:
            svm = LinearSVC(C=self.C, max_iter=self.svm_max_iter, random_state=seed)
            with warnings.catch_warnings():
                # a not fully converged SVM still orders the weights; documented above
                warnings.simplefilter("ignore", ConvergenceWarning)
                svm.fit(X[:, remaining], y)
            n_steps += 1
            crit = np.einsum("kj,kj->j", svm.coef_, svm.coef_)  # w_i^2 (summed over one-vs-rest)
            n_remove = max(1, int(self.step * remaining.size))
            drop = np.argsort(crit, kind="stable")[:n_remove]
            removed.extend(remaining[drop].tolist())
            remaining = np.delete(remaining, drop)
        removed.extend(remaining.tolist())
        ranking = np.empty(n, dtype=np.intp)
        ranking[np.asarray(removed[::-1])] = np.arange(1, n + 1)
        self.ranking_ = ranking
        self.scores_ = (n - ranking + 1).astype(float)
        self.n_steps_ = n_steps
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
