"""Gaussian-kernel SVM recursive feature elimination (thesis 2.4.2 and 4.3)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.svm import SVC, SVR
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, RealNotInt, _fit_context
from .._pairs import PairLayout, PairTensor, hsic_pair_weights, pairs_to_square
from .._validation import check_fit_data, check_target
from ..kernels import AUTO_LABEL_KINDS, label_kernel, task_of_target
from .._scaling import standardize
from ._ranking import ranking_from_order, top_k_mask
from ._hsic import _choose_gamma

__all__ = ["KernelRFE", "dual_sensitivities", "one_vs_one_rows"]


def dual_sensitivities(coef, d2_sv, t_sv, gamma):
    """Sensitivity of ``||w||^2`` to removing each feature (definition 2.4.2).

    ``|a^T K a - a^T K^(i) a| / 2`` with ``a = alpha * y`` (the SVM's dual
    coefficients, one row per binary sub-problem, summed), ``K`` the Gaussian
    kernel on the support vectors and ``K^(i) = K / exp(-gamma D_i)``
    elementwise (computed as ``exp(-gamma (D2 - D_i))``).

    Parameters
    ----------
    coef : ndarray of shape (r, n_sv)
        Dual coefficients (``dual_coef_``).
    d2_sv : ndarray of shape (Q,)
        Squared distances of the current feature set over the support-vector
        pairs ``u < v``.
    t_sv : ndarray of shape (Q, n_candidates)
        Per-feature squared differences over the same pairs.
    gamma : float

    Returns
    -------
    s : ndarray of shape (n_candidates,)
    """
    n_sv = coef.shape[1]
    iu, iv = np.triu_indices(n_sv, k=1)
    # a^T K a = sum_u a_u^2 + 2 sum_{u<v} a_u a_v K_uv, summed over rows of coef
    aa = np.einsum("ru,rv->uv", coef, coef)[iu, iv]
    base = np.exp(-gamma * d2_sv)
    w2 = 2.0 * aa @ base
    Ki = np.exp(-gamma * (d2_sv[:, None] - t_sv))
    w2i = 2.0 * aa @ Ki
    # the diagonal terms sum_u a_u^2 cancel in the difference
    return np.abs(w2 - w2i) / 2.0


def one_vs_one_rows(dual_coef, n_support):
    """The dual coefficients of every binary sub-problem of a one-vs-one multiclass SVC, one row each.

    libsvm (and so scikit-learn's ``SVC``) stores a ``k``-class model's ``dual_coef_`` as ``k - 1`` rows over
    the support vectors grouped by class (``n_support_`` of each): the coefficient of a support vector of
    class ``i`` in the classifier of classes ``i`` and ``j`` is in row ``j - 1`` if ``j > i``, else in row
    ``j`` (the layout scikit-learn's ``_one_vs_one_coef`` reads). Returns the ``k (k - 1) / 2`` sub-problems'
    coefficients in the order ``(0, 1), (0, 2), ..., (k - 2, k - 1)``, zero on the support vectors of the
    other classes; two classes (and a regression's one row) are returned as they are.
    """
    dual_coef = np.atleast_2d(np.asarray(dual_coef, dtype=float))
    k = dual_coef.shape[0] + 1
    if k == 2:
        return dual_coef
    locs = np.concatenate([[0], np.cumsum(n_support)])
    if locs[-1] != dual_coef.shape[1]:
        raise ValueError(f"n_support sums to {locs[-1]}, but dual_coef has {dual_coef.shape[1]} columns")
    rows = np.zeros((k * (k - 1) // 2, dual_coef.shape[1]))
    r = 0
    for i in range(k):
        for j in range(i + 1, k):
            rows[r, locs[i]:locs[i + 1]] = dual_coef[j - 1, locs[i]:locs[i + 1]]
            rows[r, locs[j]:locs[j + 1]] = dual_coef[i, locs[j]:locs[j + 1]]
            r += 1
    return rows


#: bytes of one block of per-feature pair values in :func:`_sensitivities` (a few MB stay in the cache
#: between the passes; bench/bench_kernel_rfe.py times the method)
_BLOCK_BYTES = 4 * 2**20


def _sensitivities(coef, d2_sv, X_sv, features, gamma):
    """:func:`dual_sensitivities` of every feature of ``features``, from the support vectors' rows ``X_sv``.

    ``a^T K a - a^T K^(i) a = 2 sum_{u<v} a_u a_v K_uv (1 - exp(gamma t_uv,i))
    = -2 (aa * K) . expm1(gamma t_i)``: one ``expm1`` and one product per pair
    and feature, and no cancellation between two nearly equal quadratic forms.
    The per-feature squared differences ``t_i`` are computed over the
    support-vector pairs only (as float32, the values of the pair tensor), in
    blocks of :data:`_BLOCK_BYTES`.
    """
    n_sv = X_sv.shape[0]
    sv_tensor = PairTensor(X_sv, PairLayout(n_sv), budget=0)  # rows computed block by block
    iu, iv = sv_tensor.layout.ia, sv_tensor.layout.ib
    aa = np.einsum("ru,rv->uv", coef, coef)[iu, iv]
    v = aa * np.exp(-gamma * d2_sv)
    Q = v.size
    block = max(1, int(_BLOCK_BYTES // (8 * max(Q, 1))))
    out = np.empty(len(features))
    buf = np.empty((min(block, len(features)), Q), dtype=np.float32)
    for start in range(0, len(features), block):
        cols = features[start : start + block]
        t = sv_tensor.compute_rows(cols, out=buf[: cols.size]).astype(np.float64)
        t *= gamma
        np.expm1(t, out=t)
        out[start : start + cols.size] = np.abs(t @ v)
    return out


class KernelRFE(SelectorMixin, BaseEstimator):
    """Recursive feature elimination with a Gaussian-kernel SVM.

    Each step trains an SVM (``SVC``, or ``SVR`` for a real target) with a
    precomputed Gaussian kernel on the current features and removes the
    features whose removal changes ``||w||^2`` least (the dual sensitivity of
    thesis definition 2.4.2, the SVM's dual coefficients held fixed). With
    more than two classes the SVC is one-vs-one, and the sensitivity is the
    sum over its binary classifiers (:func:`one_vs_one_rows`).

    Parameters
    ----------
    n_features_to_select : int or None, default=None
        Size of :meth:`get_support`; None: half of the features.
    step : int or float, default=0.25
        Features removed per step: a count, or a fraction of the current set
        (at least one). The thesis removes 25% per step (section 4.3).
    C : float, default=1.0
        SVM regularisation (thesis: C = 1).
    width_multipliers : array-like of float, default=(1.0,)
        Width grid as multiples of the median pairwise distance of the current
        features; each step uses the width of largest HSIC with the label
        kernel (the rule of FoHSIC/BaHSIC; the centred alignment, diagonal
        included, would always pick the smallest width, where the SVM
        memorises the sample and the sensitivities are noise). The default is
        the median heuristic: on a grid reaching down to a quarter of the
        median, HSIC too prefers the smallest width and RFE loses a planted
        circle that it finds at the median.
    standardize : bool, default=True
        Scale every feature to zero mean and unit variance before fitting, so
        that an equal-width Gaussian kernel weighs the features equally (the
        noise features of the Weston sets have standard deviation 20).

    Attributes
    ----------
    ranking_ : ndarray of shape (n_features_in_,), int
        1 = removed last (best).
    scores_ : ndarray of shape (n_features_in_,), float64
        ``n_features_in_ + 1 - ranking_``.
    widths_ : ndarray of shape (n_steps_,)
    n_steps_ : int

    Notes
    -----
    Definition 2.4.2 (Guyon et al. 2002): ``DJ(i) = |a^T K a - a^T K^(i) a| / 2``
    with ``a_k = alpha_k y_k``; ``K^(i) = K / exp(-gamma D_i)`` elementwise for
    the Gaussian kernel, which factorises over the features: removing feature
    ``i`` divides each entry by its factor ``exp(-gamma D_i)``, ``D_i`` the
    squared differences of feature ``i``. Only support-vector pairs enter, so a
    step costs one exponential per support-vector pair and feature. For
    multiclass targets the one-versus-one sub-problems' terms are summed.

    Examples
    --------
    >>> from fscompbio.datasets import make_dataset
    >>> ds = make_dataset("linear_weston", random_state=0, n_features=30)
    >>> sel = KernelRFE(n_features_to_select=5).fit(ds.X, ds.y)
    >>> int(np.isin(np.flatnonzero(sel.get_support()), ds.relevant).sum()) >= 3
    True
    """

    _parameter_constraints: dict = {
        "n_features_to_select": [Interval(Integral, 1, None, closed="left"), None],
        "step": [Interval(Integral, 1, None, closed="left"), Interval(RealNotInt, 0, 1, closed="neither")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "width_multipliers": ["array-like"],
        "standardize": ["boolean"],
    }

    def __init__(
        self,
        *,
        n_features_to_select=None,
        step=0.25,
        C=1.0,
        width_multipliers=(1.0,),
        standardize=True,
    ):
        self.n_features_to_select = n_features_to_select
        self.step = step
        self.C = C
        self.width_multipliers = width_multipliers
        self.standardize = standardize

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Rank the features of ``X`` by Gaussian SVM-RFE against ``y``."""
        X, y = check_fit_data(self, X, y, why_dense="Gaussian kernels on sample pairs")
        check_target(y)
        mults = np.asarray(self.width_multipliers, dtype=float).ravel()
        if mults.size == 0 or np.any(~np.isfinite(mults)) or np.any(mults <= 0):
            raise ValueError(f"width_multipliers must be finite and > 0; got {self.width_multipliers!r}")
        task = task_of_target(y)
        if self.standardize:
            X = standardize(X)
        m, d = X.shape
        layout = PairLayout(m)
        tensor = PairTensor(X, layout)
        weights = hsic_pair_weights(label_kernel(y, kind=AUTO_LABEL_KINDS[task]), layout, "biased")
        S = np.arange(d)
        d2 = tensor.matvec_mask(S)
        removed, widths = [], []
        while S.size > 1:
            gamma, mult = _choose_gamma(d2, mults, weights)
            K = pairs_to_square(np.exp(-gamma * d2), m)
            widths.append(mult)
            svm = SVR(kernel="precomputed", C=self.C) if task == "regression" else SVC(kernel="precomputed", C=self.C)
            svm.fit(K, y)
            sv = np.sort(svm.support_)
            order = np.argsort(svm.support_)
            # one row per binary sub-problem (a multiclass SVC is one-vs-one), columns in the order of sv
            coef = (np.atleast_2d(svm.dual_coef_) if task == "regression"
                    else one_vs_one_rows(svm.dual_coef_, svm.n_support_))[:, order]
            k = min(self._n_step(S.size), S.size - 1)
            if sv.size >= 2:
                iu, iv = np.triu_indices(sv.size, k=1)
                a, b = sv[iu], sv[iv]
                # index of pair (a, b), a < b, in the upper-triangle layout of m samples
                pidx = a * m - a * (a + 1) // 2 + (b - a - 1)
                sens = _sensitivities(coef, d2[pidx], X[sv], S, gamma)
            else:  # fewer than two support vectors: no pair carries information
                sens = np.zeros(S.size)
            out = np.argsort(sens, kind="stable")[:k]  # least sensitive first
            removed.extend(S[out].tolist())
            d2 = d2 - tensor.matvec_mask(S[out])
            np.maximum(d2, 0.0, out=d2)  # clip round-off of the incremental update
            keep = np.ones(S.size, dtype=bool)
            keep[out] = False
            S = S[keep]
        removed.extend(S.tolist())
        self.ranking_, self.scores_ = ranking_from_order(removed[::-1], d)
        self.widths_ = np.asarray(widths)
        self.n_steps_ = len(widths)
        return self

    def _n_step(self, n_current):
        if isinstance(self.step, Integral):
            return int(self.step)
        return max(1, int(np.floor(self.step * n_current)))

    def _get_support_mask(self):
        check_is_fitted(self)
        d = self.n_features_in_
        k = self.n_features_to_select if self.n_features_to_select is not None else max(1, d // 2)
        return top_k_mask(self.ranking_, k)
