"""randSel: randomised non-linear feature selection by kernel target alignment.

Thesis section 4.2 and algorithm 6; seed 004 ("Principled Non-Linear Feature
Selection") section 3 and its algorithm 1.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, RealNotInt, StrOptions, _fit_context, validate_data
from .._scaling import standardize
from ..kernels import label_kernel, task_of_target
from ._gaussian_updates import (
    check_target,
    CenteredTarget,
    PairLayout,
    batched_alignment,
    batched_unbiased_alignment,
    median_sq_distance,
    pair_sq_diffs,
)
from ._ranking import top_k_mask

__all__ = ["RandSel", "expected_contributions", "random_subset_masks", "balanced_subsample"]


def _median_d2(D2, rng, n_max=20000):
    """Median positive squared distance of a stack, from at most ``n_max`` entries."""
    flat = D2.ravel()
    if flat.size > n_max:
        flat = flat[rng.randint(0, flat.size, n_max)]
    return median_sq_distance(flat)


def _scale(med, mult, B):
    """Per-column factor ``-1 / (2 (mult * median)^2)`` for B minus- and B plus-subsets."""
    return np.repeat(-1.0 / (2.0 * mult**2 * med), B).astype(np.float32)[None, :]


def _kernel(D2, scale):
    """Gaussian kernels of a stack of squared distances: float32 exp, float64 result."""
    K = D2 * scale
    np.exp(K, out=K)  # float32 exp: ~6x the float64 throughput, ample for alignments
    return K.astype(np.float64)


def random_subset_masks(rng, n_features, size, n_subsets):
    """``(n_features, n_subsets)`` 0/1 mask of uniform random subsets of ``size`` features."""
    if size >= n_features:
        return np.ones((n_features, n_subsets))
    keys = rng.random((n_subsets, n_features))
    idx = np.argpartition(keys, size - 1, axis=1)[:, :size] if size > 0 else np.empty((n_subsets, 0), int)
    mask = np.zeros((n_subsets, n_features))
    np.put_along_axis(mask, idx, 1.0, axis=1)
    return mask.T


def balanced_subsample(rng, y, size, balanced):
    """Indices of a random subsample without replacement (equal counts per class if ``balanced``)."""
    m = y.shape[0]
    size = min(size, m)
    if not balanced:
        return np.sort(rng.choice(m, size=size, replace=False))
    classes, inv = np.unique(y, return_inverse=True)
    per = max(1, size // classes.size)
    parts = []
    for c in range(classes.size):
        members = np.flatnonzero(inv == c)
        parts.append(rng.choice(members, size=min(per, members.size), replace=False))
    return np.sort(np.concatenate(parts))


class RandSel(SelectorMixin, BaseEstimator):
    """Randomised selection by the expected alignment contribution of each feature.

    Each iteration draws ``n_subsets`` random feature subsets of size
    ``floor(n/2)`` and ``n_subsets`` of size ``floor(n/2) + 1`` (``n`` the
    number of surviving features), each on a random subsample of ``subsample``
    samples, and computes the centred kernel target alignment of an equal-width
    Gaussian kernel on each. The contribution of feature ``j`` is

    ``c_j = mean_{i: j in S_i^+} a_i^+  -  mean_{i: j not in S_i} a_i``

    (seed 004 algorithm 1). The bottom ``cull_fraction`` of the (non-fixed)
    features is culled and the loop repeats until ``min_features`` remain.

    Parameters
    ----------
    n_subsets : int, default=100
        Subsets of each size per iteration (the thesis' ``n_s``: 3,000 on the
        synthetic sets).
    subsample : int or float, default=0.25
        Samples per subsample ``m_a``: a count, or a fraction of ``n_samples``
        (thesis: ``m/4``). At least ``min(10, n_samples)`` samples are used.
    batch_size : int, default=50
        Subsets of each size that share one subsample and are evaluated in one
        batched matrix product (a fresh subsample is drawn per batch).
    cull_fraction : float, default=0.25
        Fraction ``z`` of the non-fixed features culled per iteration (at least one).
    width_multipliers : array-like of float, default=(0.25, 0.5, 1.0, 2.0)
        The width grid, as multiples of the median pairwise distance of the
        subsets of each size. Per iteration, the width with the largest mean
        alignment on the first batch is used for the whole iteration. The
        centred alignment (diagonal included) grows as the width shrinks, so
        the floor of the grid matters: a quarter of the median distance
        recovers XOR, the median does not (DESIGN.md section 2).
    fix_after : int or None, default=None
        Fix (never cull) a feature that ranks in the top ``top_fraction`` for
        this many consecutive iterations; None disables fixing.
    top_fraction : float, default=0.05
        The top percentile ``a`` used for fixing.
    min_features : int, default=2
        Stop when this many features remain (or when every survivor is fixed).
    balanced : bool, default=False
        Draw class-balanced subsamples (classification only).
    standardize : bool, default=True
        Scale every feature to zero mean and unit variance before fitting, so
        that an equal-width Gaussian kernel weighs the features equally (the
        noise features of the Weston sets have standard deviation 20).
    estimator : {"biased", "unbiased"}, default="biased"
        ``"biased"``: the centred alignment of definition 2.3.1 (diagonal
        included). ``"unbiased"``: ``HSIC1(K, L) / sqrt(HSIC1(K, K) HSIC1(L, L))``
        with the unbiased HSIC1 of seed 001 eq. 5 (diagonals removed), which
        does not favour vanishing widths when the width is chosen by maximum
        alignment.
    label_kernel : {"auto", "linear", "balanced", "onehot", "gaussian"}, default="auto"
        The kernel on the target (:func:`fscompbio.kernels.label_kernel`):
        ``"auto"`` follows the task (binary, multiclass, regression).
    n_features_to_select : int or None, default=None
        ``None``: :meth:`get_support` returns ``selected_`` (features of positive
        expected contribution, thesis 4.2.4); an int: the top of ``ranking_``.
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    contributions_ : ndarray of shape (n_iterations, n_features_in_), float64
        Estimated contribution of every feature at every iteration; ``nan``
        for features already culled.
    support_history_ : list of ndarray of int
        The surviving feature set at the start of each iteration and, last, the
        final survivors: nested, largest first. Chapter 5 builds its kernels on
        these sets.
    widths_ : ndarray of shape (n_iterations,)
        The chosen width multiplier per iteration.
    mean_alignment_ : ndarray of shape (n_iterations,)
        Mean alignment of all subsets of the iteration (at the chosen width).
    selected_per_iteration_ : list of ndarray of int
        Features with positive contribution at each iteration.
    selected_ : ndarray of int
        ``selected_per_iteration_`` at the iteration of highest mean alignment.
    fixed_ : ndarray of int
        Features fixed during the run.
    ranking_ : ndarray of shape (n_features_in_,), int
        1 = best; by elimination order (later = better), ties within an
        iteration broken by contribution (stable).
    scores_ : ndarray of shape (n_features_in_,), float64
        ``n_features_in_ + 1 - ranking_`` (higher = more relevant).
    n_iterations_ : int

    Notes
    -----
    Implements thesis algorithm 6 / seed 004 algorithm 1 with the centred
    alignment of definition 2.3.1. A batch of ``B`` subsets on one subsample
    of ``s`` points is computed as ``D2 = T @ M``: the per-feature squared
    difference tensor ``T`` (``s(s-1)/2`` pairs x ``n``) times the subset
    mask ``M`` (``n x B``), then one exponential and a batched alignment
    (:func:`fscompbio.selection._gaussian_updates.batched_alignment`).
    Proposition 4.2.3: an irrelevant feature has expected contribution at most 0.

    Deviation: the thesis draws one subsample per subset; here ``batch_size``
    subsets share a subsample so that they form one matrix product.

    References
    ----------
    Thesis chapter 4 (seed 000); "Principled Non-Linear Feature Selection" (seed 004).

    Examples
    --------
    >>> from fscompbio.datasets import make_dataset
    >>> ds = make_dataset("xor", random_state=0, n_features=20)
    >>> sel = RandSel(n_subsets=200, subsample=100, random_state=0).fit(ds.X, ds.y)
    >>> sorted(np.argsort(sel.ranking_)[:2].tolist())
    [0, 1]
    """

    _parameter_constraints: dict = {
        "n_subsets": [Interval(Integral, 1, None, closed="left")],
        "subsample": [
            Interval(Integral, 2, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "batch_size": [Interval(Integral, 1, None, closed="left")],
        "cull_fraction": [Interval(RealNotInt, 0, 1, closed="neither")],
        "width_multipliers": ["array-like"],
        "fix_after": [Interval(Integral, 1, None, closed="left"), None],
        "top_fraction": [Interval(Real, 0, 1, closed="right")],
        "min_features": [Interval(Integral, 1, None, closed="left")],
        "balanced": ["boolean"],
        "standardize": ["boolean"],
        "estimator": [StrOptions({"biased", "unbiased"})],
        "label_kernel": [StrOptions({"auto", "linear", "balanced", "onehot", "gaussian"})],
        "n_features_to_select": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        n_subsets=100,
        subsample=0.25,
        batch_size=50,
        cull_fraction=0.25,
        width_multipliers=(0.25, 0.5, 1.0, 2.0),
        fix_after=None,
        top_fraction=0.05,
        min_features=2,
        balanced=False,
        standardize=True,
        estimator="biased",
        label_kernel="auto",
        n_features_to_select=None,
        random_state=None,
    ):
        self.n_subsets = n_subsets
        self.subsample = subsample
        self.batch_size = batch_size
        self.cull_fraction = cull_fraction
        self.width_multipliers = width_multipliers
        self.fix_after = fix_after
        self.top_fraction = top_fraction
        self.min_features = min_features
        self.balanced = balanced
        self.standardize = standardize
        self.estimator = estimator
        self.label_kernel = label_kernel
        self.n_features_to_select = n_features_to_select
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Run randSel on ``X`` (``(n_samples, n_features)``) and target ``y``."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=False)
        check_target(y)
        rng = check_random_state(self.random_state)
        if self.standardize:
            X = standardize(X)
        mults = np.asarray(self.width_multipliers, dtype=float).ravel()
        if mults.size == 0 or np.any(~np.isfinite(mults)) or np.any(mults <= 0):
            raise ValueError(f"width_multipliers must be finite and > 0; got {self.width_multipliers!r}")
        task = task_of_target(y)
        if self.balanced and task == "regression":
            raise ValueError("balanced=True needs a classification target; got a real-valued y")
        m, d = X.shape
        s = self.subsample if isinstance(self.subsample, Integral) else int(round(self.subsample * m))
        s = int(min(m, max(s, min(10, m))))
        if s < 2:
            raise ValueError(f"subsample must give at least 2 samples; got subsample={self.subsample!r} with {m} samples")
        self._layout = PairLayout(s)  # reused: every subsample has s points (balanced may give fewer)

        surv = np.arange(d)
        fixed = np.zeros(d, dtype=bool)
        streak = np.zeros(d, dtype=int)
        order = []  # worst first
        contributions, support_history, widths, mean_align, positives = [], [], [], [], []
        while surv.size > self.min_features and not np.all(fixed[surv]):
            support_history.append(surv.copy())
            c, width, mean_a = self._iteration(X[:, surv], y, s, mults, rng)
            row = np.full(d, np.nan)
            row[surv] = c
            contributions.append(row)
            widths.append(width)
            mean_align.append(mean_a)
            positives.append(surv[c > 0])
            n = surv.size
            if self.fix_after is not None:
                n_top = max(1, int(np.ceil(self.top_fraction * n)))
                top = surv[np.argsort(-c, kind="stable")[:n_top]]
                hit = np.zeros(d, dtype=bool)
                hit[top] = True
                streak[surv] = np.where(hit[surv], streak[surv] + 1, 0)
                fixed |= streak >= self.fix_after
            free = ~fixed[surv]
            n_cull = max(1, int(np.floor(self.cull_fraction * n)))
            n_cull = min(n_cull, n - self.min_features, int(free.sum()))
            free_idx = np.flatnonzero(free)
            worst = free_idx[np.argsort(c[free_idx], kind="stable")[:n_cull]]
            order.extend(surv[worst].tolist())
            keep = np.ones(n, dtype=bool)
            keep[worst] = False
            surv = surv[keep]
        support_history.append(surv.copy())
        # survivors: best last, by their last contribution (fixed or not)
        if contributions:
            last = contributions[-1][surv]
            surv_sorted = surv[np.argsort(np.nan_to_num(last, nan=-np.inf), kind="stable")]
        else:
            surv_sorted = surv
        order.extend(surv_sorted.tolist())
        ranking = np.empty(d, dtype=int)
        ranking[np.asarray(order[::-1], dtype=int)] = np.arange(1, d + 1)

        self.contributions_ = np.array(contributions).reshape(len(contributions), d)
        self.support_history_ = support_history
        self.widths_ = np.asarray(widths, dtype=float)
        self.mean_alignment_ = np.asarray(mean_align, dtype=float)
        self.selected_per_iteration_ = positives
        if positives:
            best = int(np.argmax(self.mean_alignment_))
            self.selected_ = np.sort(positives[best])
        else:
            self.selected_ = np.arange(d)
        self.fixed_ = np.flatnonzero(fixed)
        self.n_iterations_ = len(contributions)
        self.ranking_ = ranking
        self.scores_ = (d + 1 - ranking).astype(np.float64)
        del self._layout
        return self

    def _iteration(self, Xs, y, s, mults, rng):
        """One iteration on the surviving columns ``Xs``: contributions, width, mean alignment."""
        m, n = Xs.shape
        h = n // 2
        align = batched_alignment if self.estimator == "biased" else batched_unbiased_alignment
        n_batches = int(np.ceil(self.n_subsets / self.batch_size))
        sums = np.zeros((2, n))  # [plus-subsets containing j, minus-subsets not containing j]
        counts = np.zeros((2, n))
        total_a, total_k = 0.0, 0
        scale = None  # (2B,) factor -1 / (2 sigma^2) per column, fixed for the iteration
        mult = None
        for b in range(n_batches):
            B = min(self.batch_size, self.n_subsets - b * self.batch_size)
            rows = balanced_subsample(rng, y, s, self.balanced)
            layout = self._layout if rows.size == s else PairLayout(rows.size)
            T = pair_sq_diffs(Xs[rows], layout, dtype=np.float32)
            target = CenteredTarget(label_kernel(y[rows], kind=self.label_kernel), layout)
            M_minus = random_subset_masks(rng, n, h, B)
            M_plus = random_subset_masks(rng, n, h + 1, B)
            # one matmul gives the squared distances of all 2B subsets: (P, n) @ (n, 2B)
            D2 = T @ np.hstack([M_minus, M_plus]).astype(np.float32)
            if scale is None:  # the first batch fixes the width of each subset size
                med = np.array([_median_d2(D2[:, :B], rng), _median_d2(D2[:, B:], rng)])
                scores = [align(_kernel(D2, _scale(med, mult_k, B)), target).mean() for mult_k in mults]
                mult = float(mults[int(np.argmax(scores))])
                scale = _scale(med, mult, B)
            a = align(_kernel(D2, scale), target)
            a_minus, a_plus = a[:B], a[B:]
            sums[0] += np.einsum("jb,b->j", M_plus, a_plus)
            counts[0] += M_plus.sum(axis=1)
            sums[1] += np.einsum("jb,b->j", 1.0 - M_minus, a_minus)
            counts[1] += (1.0 - M_minus).sum(axis=1)
            total_a += a.sum()
            total_k += a.size
        with np.errstate(invalid="ignore", divide="ignore"):
            means = np.where(counts > 0, sums / np.where(counts > 0, counts, 1.0), np.nan)
        # a feature never drawn on one side has no estimate: contribution 0
        c = np.nan_to_num(means[0] - means[1], nan=0.0)
        return c, mult, total_a / max(total_k, 1)

    def _get_support_mask(self):
        check_is_fitted(self)
        if self.n_features_to_select is not None:
            return top_k_mask(self.ranking_, self.n_features_to_select)
        mask = np.zeros(self.n_features_in_, dtype=bool)
        mask[self.selected_] = True
        return mask


def expected_contributions(X, y, **params):
    """One randSel pass over all features, without culling (seed 004 figure 1).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    **params
        :class:`RandSel` parameters (``n_subsets``, ``subsample``,
        ``batch_size``, ``width_multipliers``, ``estimator``, ``balanced``,
        ``label_kernel``, ``standardize``, ``random_state``).

    Returns
    -------
    contributions : ndarray of shape (n_features,)
        The estimated contribution ``c_j`` of every feature.
    width : float
        The chosen width multiplier.
    mean_alignment : float
    """
    sel = RandSel(**params)
    sel._validate_params()
    X, y = validate_data(sel, X, y, dtype=np.float64)
    check_target(y)
    rng = check_random_state(sel.random_state)
    if sel.standardize:
        X = standardize(X)
    mults = np.asarray(sel.width_multipliers, dtype=float).ravel()
    m = X.shape[0]
    s_ = sel.subsample if isinstance(sel.subsample, Integral) else int(round(sel.subsample * m))
    s_ = int(min(m, max(s_, min(10, m))))
    sel._layout = PairLayout(s_)
    return sel._iteration(X, y, s_, mults, rng)
