"""A Gaussian-kernel SVM for large, imbalanced window sets: class weights, tuned C and gamma, BLAS scoring.

libsvm (``sklearn.svm.SVC``) fits well at ten thousand windows, but its
``decision_function`` evaluates kernel entries one by one and is the slow half
of a cleavage-site fold. :class:`GaussianSVC` fits with libsvm and scores with
one matrix product per block of windows (the same scores as libsvm's,
``tests/test_cleavage.py``).

libsvm's cost grows with the number of columns (every kernel entry is a dot
product). The 648 scale values of a window are a linear function of its 12
residues (rank 228 after centring), so :class:`GaussianSVC` rotates the
standardised data onto the span of its training rows first: the Gaussian
kernel depends on distances only, which the rotation keeps, and libsvm then
works on 228 columns instead of 648 (the same decision function,
``tests/test_cleavage.py``).

libsvm also computes every kernel entry it needs with a scalar loop over the
columns, and recomputes the columns its cache drops. When the training Gram
matrix fits in ``precompute_kernel_mb``, :class:`GaussianSVC` computes it once
with one matrix product and gives libsvm the precomputed kernel: libsvm keeps
its kernel rows in single precision, so both paths give the same support
vectors and dual coefficients (``tests/test_fast_paths.py``), at a cost that no
longer grows with the number of columns (``bench/bench_fast_paths.py`` (b)).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import GroupKFold, StratifiedKFold
from sklearn.svm import SVC
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, StrOptions, _fit_context, validate_data
from ._base import BinaryClassifierMixin
from .._scaling import column_scales
from ..kernels import sq_distances

__all__ = ["GaussianSVC"]

_CHUNK = 4096  # windows per block when scoring (bounds memory to CHUNK x n_support_vectors)
#: eigenvalues of the centred training Gram matrix below this fraction of the largest are round-off (the data
#: lie in a lower-dimensional subspace); the squared distance they carry is < 1e-10 of the data's spread
_RANK_TOL = 1e-10


def _scale_gamma(X):
    """scikit-learn's ``gamma="scale"``: ``1 / (n_features * X.var())``."""
    var = float(np.asarray(X, dtype=np.float64).var())
    return 1.0 / (X.shape[1] * var) if var > 0 else 1.0


def _gaussian_gram(X, gamma, block=2048):
    """``exp(-gamma ||x_i - x_j||^2)`` of the rows of ``X`` (float64, exactly symmetric, unit diagonal).

    One ``n x n`` array: the products by one symmetric matrix product, the norms added and the
    exponential taken in place, a block of rows at a time.
    """
    X = np.ascontiguousarray(X, dtype=np.float64)
    xx = np.einsum("ij,ij->i", X, X)
    K = X @ X.T  # symmetric product (BLAS syrk): K[i, j] == K[j, i] exactly
    for start in range(0, K.shape[0], block):
        rows = K[start : start + block]
        rows *= -2.0
        rows += xx[start : start + block, None] + xx[None, :]  # xx_i + xx_j: the same sum both ways
        np.maximum(rows, 0.0, out=rows)  # round-off below zero
        rows *= -gamma
        np.exp(rows, out=rows)
    np.fill_diagonal(K, 1.0)
    return K


class GaussianSVC(BinaryClassifierMixin, BaseEstimator):
    """Gaussian-kernel SVM with optional class weights and an inner-CV grid over ``C`` and ``gamma``.

    Parameters
    ----------
    C : float, default=1.0
        Soft-margin parameter (thesis 4.3: C = 1); the centre of the grid.
    gamma : "scale" or float, default="scale"
        Factor of ``exp(-gamma ||x - x'||^2)`` on the standardised features;
        ``"scale"`` = ``1 / (n_features * X.var())`` as in scikit-learn.
    class_weight : "balanced", dict or None, default=None
        Passed to libsvm. ``"balanced"`` weighs each class by
        ``n_samples / (2 n_class)``: all positives and r times as many random
        negatives then weigh like a balanced set.
    Cs : sequence of float or None, default=None
        Multipliers of ``C`` tried by inner cross-validation (e.g. ``(0.3, 1, 3)``);
        ``None`` = no search over C.
    gamma_multipliers : sequence of float or None, default=None
        Multipliers of ``gamma`` tried by inner cross-validation; ``None`` = no
        search over gamma. With both ``None`` there is no inner CV.
    cv : int, default=3
        Inner folds (grouped by the ``groups`` passed to :meth:`fit`, e.g. the
        sequence of every window; stratified otherwise).
    tune_max_samples : int, default=3000
        The inner CV runs on a random subsample of at most this many training
        samples (stratified by class); the final SVM is fitted on all of them.
    standardize : bool, default=True
        Scale every feature to zero mean and unit variance (training statistics).
    cache_size : float, default=500
        libsvm's kernel cache (MB).
    precompute_kernel_mb : float, default=2048
        When the training Gram matrix (``n_samples^2`` doubles) takes at most
        this many MB, it is computed once by BLAS and libsvm fits on the
        precomputed kernel (the same solution, faster with many columns or
        many samples); 0 = always libsvm's own Gaussian kernel.
    reduce_rank : bool, default=True
        When the standardised training data span fewer dimensions than they
        have columns (fewer than 90%), work in an orthonormal basis of that
        span: exact for the Gaussian kernel (distances are kept; a new
        sample's component outside the span is added to its squared
        distances), and faster. No effect on full-rank data.
    random_state : int, RandomState instance or None, default=None
        Seeds the inner-CV subsample and folds.

    Attributes
    ----------
    C_, gamma_ : float
        The values used by the final SVM.
    cv_results_ : dict or None
        ``C``, ``gamma`` (the grid, flattened) and ``mean_auc`` (mean inner-CV
        ROC AUC of each grid point); ``None`` without a search.
    svc_ : sklearn.svm.SVC
        The fitted libsvm model (on standardised features, in the basis
        ``components_`` when that is not ``None``; a ``kernel="precomputed"``
        model when the Gram matrix was precomputed).
    components_ : ndarray of shape (n_features_in_, rank) or None
        Orthonormal basis of the span of the centred, standardised training
        data (``reduce_rank``); ``None`` = the standardised columns themselves.
    support_vectors_, dual_coef_, intercept_ : ndarray
        Copies used by :meth:`decision_function` (the support vectors
        standardised, in the basis ``components_`` when it is not ``None``).
    classes_ : ndarray of shape (2,)
    n_features_in_ : int

    Notes
    -----
    The inner-CV score is the ROC AUC of the decision values on the held-out
    fold: threshold-free and insensitive to the class ratio, it measures how
    well positives are ranked above negatives, which is what choosing the top
    window of a sequence needs. One squared-distance matrix of the tuning
    subsample serves every grid point (``exp(-gamma D2)`` per gamma, a
    precomputed-kernel SVC per C).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(300, 4)); y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4).astype(int)
    >>> clf = GaussianSVC(Cs=(0.3, 1, 3), gamma_multipliers=(0.5, 1, 2), random_state=0).fit(X, y)
    >>> bool(clf.score(X, y) > 0.9), len(clf.cv_results_["mean_auc"])
    (True, 9)
    """

    _parameter_constraints: dict = {
        "C": [Interval(Real, 0, None, closed="neither")],
        "gamma": [StrOptions({"scale"}), Interval(Real, 0, None, closed="neither")],
        "class_weight": [StrOptions({"balanced"}), dict, None],
        "Cs": ["array-like", None],
        "gamma_multipliers": ["array-like", None],
        "cv": [Interval(Integral, 2, None, closed="left")],
        "tune_max_samples": [Interval(Integral, 4, None, closed="left")],
        "standardize": ["boolean"],
        "cache_size": [Interval(Real, 0, None, closed="neither")],
        "precompute_kernel_mb": [Interval(Real, 0, None, closed="left")],
        "reduce_rank": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        C=1.0,
        gamma="scale",
        class_weight=None,
        Cs=None,
        gamma_multipliers=None,
        cv=3,
        tune_max_samples=3000,
        standardize=True,
        cache_size=500,
        precompute_kernel_mb=2048,
        reduce_rank=True,
        random_state=None,
    ):
        self.C = C
        self.gamma = gamma
        self.class_weight = class_weight
        self.Cs = Cs
        self.gamma_multipliers = gamma_multipliers
        self.cv = cv
        self.tune_max_samples = tune_max_samples
        self.standardize = standardize
        self.cache_size = cache_size
        self.precompute_kernel_mb = precompute_kernel_mb
        self.reduce_rank = reduce_rank
        self.random_state = random_state

    def _transform(self, X):
        return (X - self.mean_) / self.scale_ if self.standardize else X

    def _project(self, Xs):
        """Coordinates in ``components_`` and the squared norm left outside their span (zeros without a basis)."""
        if self.components_ is None:
            return Xs, np.zeros(Xs.shape[0])
        Xc = Xs - self.center_
        Z = Xc @ self.components_
        outside = np.maximum(np.einsum("ij,ij->i", Xc, Xc) - np.einsum("ij,ij->i", Z, Z), 0.0)
        return Z, outside

    def _fit_basis(self, Xs):
        """``components_`` (and ``center_``) when the training data span < 90% of their columns."""
        self.components_, self.center_ = None, None
        if not self.reduce_rank or Xs.shape[1] < 2:
            return
        center = Xs.mean(axis=0)
        Xc = Xs - center
        evals, evecs = np.linalg.eigh(Xc.T @ Xc)
        keep = evals > _RANK_TOL * max(float(evals[-1]), np.finfo(float).tiny)
        if keep.sum() < 0.9 * Xs.shape[1]:
            self.components_, self.center_ = np.ascontiguousarray(evecs[:, keep][:, ::-1]), center

    @staticmethod
    def _grid(values, name):
        if values is None:
            return np.ones(1)
        v = np.asarray(values, dtype=float).ravel()
        if v.size == 0 or np.any(~np.isfinite(v)) or np.any(v <= 0):
            raise ValueError(f"{name} must be a non-empty sequence of finite floats > 0; got {values!r}")
        return v

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, groups=None):
        """Standardise, choose ``C`` and ``gamma`` by inner CV (if a grid is given), fit libsvm.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Binary labels.
        groups : array-like of shape (n_samples,), default=None
            Group of every sample (e.g. its sequence) for grouped inner folds.

        Returns
        -------
        self : GaussianSVC
        """
        X, y = validate_data(self, X, y, dtype=[np.float64, np.float32])
        self._fit_classes(y)
        c_mult = self._grid(self.Cs, "Cs")
        g_mult = self._grid(self.gamma_multipliers, "gamma_multipliers")
        if self.standardize:
            self.mean_, self.scale_ = column_scales(X.astype(np.float64))
        Xs = np.asarray(self._transform(X), dtype=np.float64)
        gamma0 = _scale_gamma(Xs) if isinstance(self.gamma, str) else float(self.gamma)
        self._fit_basis(Xs)
        Xs = self._project(Xs)[0]  # the same distances in (often far) fewer columns
        self.cv_results_ = None
        C, gamma = float(self.C), gamma0
        if c_mult.size > 1 or g_mult.size > 1:
            C, gamma = self._tune(Xs, y, groups, c_mult * self.C, g_mult * gamma0)
        self.C_, self.gamma_ = C, gamma
        if Xs.shape[0] ** 2 * 8 <= self.precompute_kernel_mb * 2**20:
            self.svc_ = SVC(kernel="precomputed", C=C, class_weight=self.class_weight, cache_size=self.cache_size)
            self.svc_.fit(_gaussian_gram(Xs, gamma), y)
            self.support_vectors_ = Xs[self.svc_.support_]
        else:
            self.svc_ = SVC(kernel="rbf", C=C, gamma=gamma, class_weight=self.class_weight, cache_size=self.cache_size)
            self.svc_.fit(Xs, y)
            self.support_vectors_ = self.svc_.support_vectors_
        self.dual_coef_ = self.svc_.dual_coef_.ravel().copy()
        self.intercept_ = float(self.svc_.intercept_[0])
        return self

    def _tune(self, Xs, y, groups, Cs, gammas):
        rng = check_random_state(self.random_state)
        n = y.size
        idx = np.arange(n)
        if n > self.tune_max_samples:  # stratified subsample
            frac = self.tune_max_samples / n
            idx = np.sort(np.concatenate([
                rng.choice(np.flatnonzero(y == c), size=max(self.cv, int(round(frac * np.sum(y == c)))), replace=False)
                for c in self.classes_
            ]))
        Xt, yt = Xs[idx], y[idx]
        n_min = int(np.bincount(np.unique(yt, return_inverse=True)[1]).min())
        if groups is not None:
            g = np.asarray(groups)[idx]
            n_splits = min(self.cv, np.unique(g).size)
            splits = list(GroupKFold(n_splits=n_splits, shuffle=True, random_state=rng.randint(2**31 - 1)).split(Xt, yt, g))
        else:
            n_splits = min(self.cv, n_min)
            splits = list(StratifiedKFold(n_splits=n_splits, shuffle=True,
                                          random_state=rng.randint(2**31 - 1)).split(Xt, yt))
        if n_splits < 2:
            raise ValueError(f"inner CV needs at least 2 folds; the tuning sample has only {n_min} of one class")
        D2 = sq_distances(Xt)
        auc = np.zeros((gammas.size, Cs.size))
        for gi, g in enumerate(gammas):
            K = np.exp(-g * D2)
            for tr, te in splits:
                if np.unique(yt[te]).size < 2 or np.unique(yt[tr]).size < 2:
                    continue
                Ktr, Kte = K[np.ix_(tr, tr)], K[np.ix_(te, tr)]
                for ci, c in enumerate(Cs):
                    m = SVC(kernel="precomputed", C=c, class_weight=self.class_weight, cache_size=self.cache_size)
                    m.fit(Ktr, yt[tr])
                    auc[gi, ci] += roc_auc_score(yt[te] == self.classes_[1], m.decision_function(Kte)) / len(splits)
        gi, ci = np.unravel_index(int(np.argmax(auc)), auc.shape)  # first best: the grid's order breaks ties
        G, CC = np.meshgrid(gammas, Cs, indexing="ij")
        self.cv_results_ = {"C": CC.ravel(), "gamma": G.ravel(), "mean_auc": auc.ravel()}
        return float(Cs[ci]), float(gammas[gi])

    def decision_function(self, X):
        """Signed distance to the margin, ``sum_i dual_coef_i exp(-gamma ||sv_i - x||^2) + intercept``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,)
            > 0 for ``classes_[1]``; equal to ``svc_.decision_function`` of the
            standardised (and projected) ``X`` up to round-off.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        out = np.empty(X.shape[0])
        for start in range(0, X.shape[0], _CHUNK):
            Xc, outside = self._project(np.asarray(self._transform(X[start : start + _CHUNK]), dtype=np.float64))
            K = sq_distances(Xc, self.support_vectors_)
            K += outside[:, None]  # a sample's distance to the span adds to every squared distance to it
            K *= -self.gamma_
            np.exp(K, out=K)
            out[start : start + Xc.shape[0]] = K @ self.dual_coef_ + self.intercept_
        return out

