"""FoHSIC and BaHSIC: greedy forward / backward HSIC feature selection.

Thesis section 4.1, algorithms 4 (FoHSIC) and 5 (BaHSIC); Song et al. (2007), "Supervised Feature Selection via
Dependence Estimation" (BAHSIC), algorithm 1, with the biased HSIC0 (Song et al. 2007, eq. 4) or unbiased HSIC1 (eq. 5).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, RealNotInt, StrOptions, _fit_context
from .._pairs import PairLayout, PairTensor, hsic_pair_weights
from .._validation import check_fit_data, check_target
from ..kernels import auto_label_kind, gamma_from_median_sq, label_kernel, median_sq_distance
from .._scaling import standardize
from ._ranking import ranking_from_order, top_k_mask

__all__ = ["FoHSIC", "BaHSIC", "candidate_hsic"]


def candidate_hsic(tensor, d2_set, candidates, gamma, weights, *, sign):
    """HSIC of the Gaussian kernel of ``S -/+ {i}`` for every candidate ``i``.

    Uses the product structure ``K(S without i) = K(S) / exp(-gamma D_i)``
    (``sign=-1``) and ``K(S with i) = K(S) * exp(-gamma D_i)`` (``sign=+1``),
    applied in the log domain: ``exp(-gamma (D2_S + sign * D_i))``, so each
    candidate costs O(m^2) instead of O(m^2 |S|).

    Parameters
    ----------
    tensor : PairTensor
    d2_set : ndarray of shape (P,)
        Squared distances of the current set over the sample pairs.
    candidates : ndarray of int
    gamma : float
    weights : tuple
        ``(w, c0)`` from :func:`hsic_pair_weights`.
    sign : {-1, +1}

    Returns
    -------
    h : ndarray of shape (len(candidates),)

    Notes
    -----
    The candidates are taken in blocks of ``tensor.block`` rows (about
    :data:`~fscompbio._pairs.BLOCK_BYTES`, 2 MB), so that
    after the one pass that reads the tensor (``D2_S -/+ D_i``, straight from
    the cached rows when the block's candidates are consecutive) the scaling,
    the float32 exponential, the subtraction of ``K_S`` and the dot product
    with the HSIC weights run on a block that is still in cache
    (``bench/bench_hsic_candidates.py`` times the block sizes,
    ``bench/bench_chapter4.py`` (a) the step against recomputing every
    candidate kernel). The HSIC of the current
    set is kept in float64 and only the candidates' differences from it are
    float32, so the round-off is relative to those differences. The product form
    ``h_i = h_S + (w K_S) . (exp(-gamma D_i) - 1)`` would be faster but rounds
    every candidate differently, which can reorder near-tied candidates; the
    exact arithmetic above is kept.
    """
    w, c0 = weights
    # HSIC of the current set in float64; the candidates add w . (K_cand - K_S), whose float32
    # round-off is relative to the (small) difference, not to the HSIC itself
    k_set = np.exp(-gamma * d2_set)
    h_set = c0 + np.einsum("p,p->", w, k_set)
    k_set32 = k_set.astype(np.float32)
    base = d2_set.astype(np.float32)
    w32 = w.astype(np.float32)
    g = np.float32(-gamma)
    op = np.subtract if sign < 0 else np.add
    candidates = np.asarray(candidates, dtype=np.intp)
    out = np.empty(candidates.size)
    n = tensor.block
    buf = np.empty((min(n, candidates.size), tensor.layout.n_pairs), dtype=np.float32)
    for start in range(0, candidates.size, n):
        cols = candidates[start : start + n]
        E = buf[: cols.size]  # (c, P), one row per candidate, C order
        tensor.combine_rows(base, cols, E, op)  # D2_S -/+ D_i
        E *= g
        np.exp(E, out=E)  # K(S -/+ {i}) = exp(-gamma (D2_S -/+ D_i)), float32
        E -= k_set32
        out[start : start + cols.size] = E @ w32
    return h_set + out


def _choose_gamma(d2_ref, multipliers, weights):
    """The grid width maximising the HSIC of the reference kernel ``exp(-gamma d2_ref)``."""
    w, c0 = weights
    gammas = gamma_from_median_sq(np.asarray(multipliers), median_sq_distance(d2_ref))
    values = [c0 + np.einsum("p,p->", w, np.exp(-g * d2_ref)) for g in gammas]  # einsum: no BLAS threads
    k = int(np.argmax(values))
    return float(gammas[k]), float(multipliers[k])


def _n_step(step, n_current):
    """Features per step: a fraction of the current count (at least 1) or a count."""
    if isinstance(step, Integral):
        return int(step)
    return max(1, int(np.floor(step * n_current)))


class _GreedyHSIC(SelectorMixin, BaseEstimator):
    """Shared parameters, validation and support logic of FoHSIC and BaHSIC."""

    _parameter_constraints: dict = {
        "n_features_to_select": [Interval(Integral, 1, None, closed="left"), None],
        "step": [Interval(Integral, 1, None, closed="left"), Interval(RealNotInt, 0, 1, closed="neither")],
        "estimator": [StrOptions({"biased", "unbiased"})],
        "width_multipliers": ["array-like"],
        "label_kernel": [StrOptions({"auto", "linear", "balanced", "onehot", "gaussian"})],
        "standardize": ["boolean"],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def _setup(self, X, y):
        if self.standardize:
            X = standardize(X)
        mults = np.asarray(self.width_multipliers, dtype=float).ravel()
        if mults.size == 0 or np.any(~np.isfinite(mults)) or np.any(mults <= 0):
            raise ValueError(f"width_multipliers must be finite and > 0; got {self.width_multipliers!r}")
        m = X.shape[0]
        if self.estimator == "unbiased" and 2 <= m < 4:
            raise ValueError(f"estimator='unbiased' needs at least 4 samples; got {m}")
        layout = PairLayout(m)
        kind = auto_label_kind(y, "label_kernel", kind=self.label_kernel)
        weights = hsic_pair_weights(label_kernel(y, kind=kind), layout, self.estimator)
        return mults, PairTensor(X, layout), weights

    def _finish(self, order_best_first, d):
        self.ranking_, self.scores_ = ranking_from_order(order_best_first, d)

    def _get_support_mask(self):
        check_is_fitted(self)
        d = self.n_features_in_
        k = self.n_features_to_select if self.n_features_to_select is not None else max(1, d // 2)
        return top_k_mask(self.ranking_, k)


class BaHSIC(_GreedyHSIC):
    """Backward elimination maximising HSIC (BAHSIC).

    Starting from all features, each step removes the features whose removal
    leaves the largest HSIC between the Gaussian kernel on the remaining
    features and the label kernel, ``step`` at a time, until one feature is
    left; the elimination order gives ``ranking_``.

    Parameters
    ----------
    n_features_to_select : int or None, default=None
        Size of :meth:`get_support` (the top of ``ranking_``); None: half.
        The elimination always runs down to one feature, whatever this is:
        the steps inside the selected set are the cheap ones (a step costs
        one exponential per sample pair and remaining feature), and they
        order the selected features; stopping at ``n_features_to_select``
        would save little and change nothing of the selected set, but leave
        its order undecided.
    step : int or float, default=0.1
        Features removed per step: a count, or a fraction of the current set
        (at least one). The thesis removes 25% per step, Song et al. (2007) 10%.
    estimator : {"biased", "unbiased"}, default="unbiased"
        HSIC0 (Song et al. 2007, eq. 4) or the unbiased HSIC1 (eq. 5). HSIC1 is the
        default: HSIC0's diagonal terms favour the narrowest width of the grid,
        so choosing the width by maximal HSIC0 is biased towards degenerate,
        nearly diagonal kernels.
    width_multipliers : array-like of float, default=(0.35, 0.5, 0.7, 1.0)
        The width grid as multiples of the median pairwise distance of the
        current feature set; at every step the width maximising the HSIC of the
        current set is used. The grid stops above a quarter of the median: in
        200 dimensions pairwise distances concentrate near the median, so at
        ``sigma = median / 4`` every off-diagonal entry is about ``exp(-8)``
        and the kernel carries no information (the XOR recovery behind this
        grid and HSIC1 is in ``docs/deviations.md``).
    label_kernel : {"auto", "linear", "balanced", "onehot", "gaussian"}, default="auto"
        Kernel on the target; ``"auto"`` follows the task.
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
    hsic_path_ : ndarray of shape (n_steps_,)
        HSIC of the current set before each step (at that step's width).
    widths_ : ndarray of shape (n_steps_,)
        The chosen width multiplier per step.
    n_steps_ : int

    Notes
    -----
    Implements thesis algorithm 5 / Song et al. (2007) algorithm 1. All candidates of a
    step are scored at once with the product structure of the Gaussian
    kernel, ``K(S without i) = K(S) / exp(-gamma D_i)`` (applied as
    ``exp(-gamma (D2_S - D_i))``), and HSIC's linearity in the kernel
    (:func:`fscompbio._pairs.hsic_pair_weights`): a step
    costs one exponential per sample pair and candidate.

    Examples
    --------
    >>> from fscompbio.datasets import make_dataset
    >>> ds = make_dataset("xor", random_state=0, n_features=20)
    >>> sel = BaHSIC(n_features_to_select=2).fit(ds.X, ds.y)
    >>> np.flatnonzero(sel.get_support()).tolist()
    [0, 1]
    """

    _parameter_constraints: dict = dict(_GreedyHSIC._parameter_constraints)

    def __init__(
        self,
        *,
        n_features_to_select=None,
        step=0.1,
        estimator="unbiased",
        width_multipliers=(0.35, 0.5, 0.7, 1.0),
        label_kernel="auto",
        standardize=True,
    ):
        self.n_features_to_select = n_features_to_select
        self.step = step
        self.estimator = estimator
        self.width_multipliers = width_multipliers
        self.label_kernel = label_kernel
        self.standardize = standardize

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Rank the features of ``X`` by backward elimination against ``y``."""
        X, y = check_fit_data(self, X, y, why_dense="Gaussian kernels on sample pairs")
        check_target(y)
        mults, tensor, weights = self._setup(X, y)
        d = X.shape[1]
        S = np.arange(d)
        d2 = tensor.matvec_mask(S)
        removed = []  # worst first
        path, widths = [], []
        while S.size > 1:
            gamma, mult = _choose_gamma(d2, mults, weights)
            path.append(float(weights[1] + np.einsum("p,p->", weights[0], np.exp(-gamma * d2))))
            widths.append(mult)
            h = candidate_hsic(tensor, d2, S, gamma, weights, sign=-1)
            k = min(_n_step(self.step, S.size), S.size - 1)
            # remove the k features whose removal keeps HSIC largest
            out = np.argsort(-h, kind="stable")[:k]
            removed.extend(S[out].tolist())
            d2 = d2 - tensor.matvec_mask(S[out])
            np.maximum(d2, 0.0, out=d2)  # clip round-off of the incremental update
            keep = np.ones(S.size, dtype=bool)
            keep[out] = False
            S = S[keep]
        removed.extend(S.tolist())
        self._finish(removed[::-1], d)
        self.hsic_path_ = np.asarray(path)
        self.widths_ = np.asarray(widths)
        self.n_steps_ = len(path)
        return self


class FoHSIC(_GreedyHSIC):
    """Forward selection maximising HSIC (FOHSIC).

    Starting from the empty set, each step adds the ``step`` features whose
    inclusion gives the largest HSIC between the Gaussian kernel on the
    selected features and the label kernel, for ``n_steps`` steps (thesis:
    150 steps of one feature).

    Parameters
    ----------
    n_features_to_select : int or None, default=None
        Size of :meth:`get_support` (the first included features); None: half
        of the features. Given (and ``n_steps`` not), the forward selection
        stops as soon as this many features are included: the cost grows with
        ``n_features_to_select``, not with the number of features squared,
        and the included features and their order are exactly those of the
        full run (each step depends only on the features included before it).
    n_steps : int or None, default=None
        Steps to run; None runs until ``n_features_to_select`` features are
        included or, if that is None too, until every feature is included (the
        full ranking). Features never included are ranked after the included
        ones by their candidate HSIC in the last step (the HSIC of the set
        before that step with each of them added), best first, ties to the
        lower index: the last step's runners-up, not the order that further
        steps would give.
    step : int or float, default=1
        Features added per step: a count, or a fraction of the remaining
        candidates (at least one).
    estimator : {"biased", "unbiased"}, default="unbiased"
    width_multipliers : array-like of float, default=(0.35, 0.5, 0.7, 1.0)
        Width grid as multiples of the median distance of the reference set: the
        current set plus one feature (its squared distances scaled by
        ``(|S| + 1) / |S|``), or, at the first step, the mean single-feature
        squared distance. The width maximising the reference kernel's HSIC is used.
    label_kernel : {"auto", "linear", "balanced", "onehot", "gaussian"}, default="auto"
    standardize : bool, default=True
        Scale every feature to zero mean and unit variance before fitting, so
        that an equal-width Gaussian kernel weighs the features equally (the
        noise features of the Weston sets have standard deviation 20).

    Attributes
    ----------
    ranking_ : ndarray of shape (n_features_in_,), int
        1 = included first; the features never included follow (see ``n_steps``).
    scores_ : ndarray of shape (n_features_in_,), float64
    hsic_path_ : ndarray of shape (n_steps_,)
        HSIC of the set after each step.
    widths_ : ndarray of shape (n_steps_,)
    n_steps_ : int

    Notes
    -----
    Implements thesis algorithm 4, with ``K(S with j) = K(S) * exp(-gamma D_j)``
    (see :class:`BaHSIC`). Greedy forward inclusion cannot see features that
    are only jointly relevant (XOR): the thesis' point in chapter 4.

    A step scores every remaining candidate, ``O(m^2 n)``; the full ranking
    takes ``n`` steps, ``O(m^2 n^2)`` in all, so on wide data give
    ``n_features_to_select`` (or ``n_steps``): 10 features of 2,000 on 500
    samples take 10 steps instead of 2,000.

    Examples
    --------
    >>> from fscompbio.datasets import make_dataset
    >>> ds = make_dataset("linear_weston", random_state=0, n_features=50)
    >>> sel = FoHSIC(n_features_to_select=3).fit(ds.X, ds.y)
    >>> sel.n_steps_, set(np.flatnonzero(sel.get_support())) <= set(ds.relevant)
    (3, True)
    """

    _parameter_constraints: dict = {
        **_GreedyHSIC._parameter_constraints,
        "n_steps": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self,
        *,
        n_features_to_select=None,
        n_steps=None,
        step=1,
        estimator="unbiased",
        width_multipliers=(0.35, 0.5, 0.7, 1.0),
        label_kernel="auto",
        standardize=True,
    ):
        self.n_features_to_select = n_features_to_select
        self.n_steps = n_steps
        self.step = step
        self.estimator = estimator
        self.width_multipliers = width_multipliers
        self.label_kernel = label_kernel
        self.standardize = standardize

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Rank the features of ``X`` by forward inclusion against ``y``."""
        X, y = check_fit_data(self, X, y, why_dense="Gaussian kernels on sample pairs")
        check_target(y)
        mults, tensor, weights = self._setup(X, y)
        d = X.shape[1]
        candidates = np.arange(d)
        d2 = np.zeros(tensor.layout.n_pairs)
        mean_single = tensor.matvec_mask(candidates) / d
        included, path, widths = [], [], []
        last_h = np.zeros(d)
        max_steps = self.n_steps if self.n_steps is not None else d
        # without n_steps, stop once n_features_to_select features are in (None: rank every feature)
        stop_at = self.n_features_to_select if self.n_steps is None and self.n_features_to_select is not None else d
        for _ in range(max_steps):
            if candidates.size == 0 or len(included) >= stop_at:
                break
            ref = mean_single if not included else d2 * (len(included) + 1) / len(included)
            gamma, mult = _choose_gamma(ref, mults, weights)
            h = candidate_hsic(tensor, d2, candidates, gamma, weights, sign=+1)
            last_h[candidates] = h
            k = min(_n_step(self.step, candidates.size), candidates.size)
            best = np.argsort(-h, kind="stable")[:k]
            included.extend(candidates[best].tolist())
            d2 = d2 + tensor.matvec_mask(candidates[best])
            path.append(float(h[best].max()) if k == 1 else float(weights[1] + np.einsum("p,p->", weights[0], np.exp(-gamma * d2))))
            widths.append(mult)
            keep = np.ones(candidates.size, dtype=bool)
            keep[best] = False
            candidates = candidates[keep]
        rest = candidates[np.argsort(-last_h[candidates], kind="stable")]
        self._finish(included + rest.tolist(), d)
        self.hsic_path_ = np.asarray(path)
        self.widths_ = np.asarray(widths)
        self.n_steps_ = len(path)
        return self
