"""randSel's sampling passes: random partitions and halves on random subsamples, and their alignments.

Pure functions of a random state (``numpy.random.RandomState``) and the data: one exact iteration
(:func:`_iteration`), one screening iteration (:func:`_screen_iteration`) and the screened fit's test pass
(:func:`_screen_test_scores`), built on the pair algebra of ``fscompbio._pairs``. The estimator is
:class:`fscompbio.selection.RandSel`; the statistics turned into tests are in ``_randsel_inference``.
Thesis section 4.2 and algorithm 6; "Principled Non-Linear Feature Selection" (Athanasakis, Shawe-Taylor &
Fernandez-Reyes), section 3.
"""

from __future__ import annotations

import math
from numbers import Integral

import numpy as np
from scipy.stats import norm

from .._pairs import (
    CenteredTarget,
    CenteredTargets,
    PairLayout,
    Workspace,
    batched_alignment,
    batched_alignments_f32,
    pair_product,
    pair_sq_diffs32,
    transpose_product,
    whole_pair_tensor,
)
from ..kernels import (
    gamma_from_median_sq,
    label_kernel,
    label_kernels,
    local_label_kernels,
    median_sq_distance,
    neighbourhood,
    task_of_target,
)
from ._randsel_inference import _estimates, _max_of_k_scores, _normal_scores, _tail_scores

__all__ = ["random_subset_masks", "balanced_subsample", "auto_subsample", "auto_n_subsets"]

#: ``width_rule="select"``: a width's evidence is its features' normal scores above the family-wise
#: threshold at this level over the iteration's features, summed
SELECT_LEVEL = 0.05
#: ``width_rule="calibrated"`` and ``"tail"``: fixed permutations of the labels (null data sets: the same features, no
#: signal) evaluated on the same subsamples and partitions, enough for NULL_VALUES null contributions per
#: width (``ceil(NULL_VALUES / n)`` for ``n`` features) and at most NULL_MAX_PERMUTATIONS
NULL_VALUES = 500
NULL_MAX_PERMUTATIONS = 20

#: memory budget (bytes) of one batch: the squared distances and kernels of its subsets
BATCH_BUDGET = 96 * 2**20
#: memory budget (bytes) of one chunk of the per-feature squared-difference tensor
TENSOR_CHUNK_BUDGET = 32 * 2**20
#: largest subsample drawn by ``subsample="auto"`` (the pairs, and so the cost, grow with its square)
MAX_AUTO_SUBSAMPLE = 200
#: ``subsample="auto"`` draws this fraction of the samples
SUB_FRACTION = 1 / 3
#: ``n_subsets="auto"``: at least N_MIN partitions per iteration, and N_FACTOR per surviving feature
N_MIN = 300
N_FACTOR = 8
#: every iteration with at least this many partitions has this many batches (standard errors between batches)
MIN_BATCHES = 20
#: batches of the width rule when ``width`` is a grid
PILOT_BATCHES = 4
#: defaults of the screen: on data with more than SCREEN_ABOVE features, iterations estimate first-order
#: contributions from SCREEN_SUBSETS random halves at SCREEN_WIDTH x the median distance and cull
#: SCREEN_CULL_FRACTION of the features per iteration, until SCREEN_TO remain
SCREEN_ABOVE = 500
SCREEN_TO = 50
SCREEN_SUBSETS = 200
SCREEN_WIDTH = 2.0
SCREEN_CULL_FRACTION = 0.5
#: the members of this many pairs, best by the second-order screen, survive the first-order screen
SCREEN_PAIRS = 5
#: ``label_kernel="local"``: each sample's near pairs are its this many nearest samples (Euclidean, on the
#: standardised features of the fit), in either direction (RandSel's ``n_neighbors`` default)
LOCAL_NEIGHBOURS = 10
#: after a screen, ``selected_`` is tested against at most this many label permutations (``ceil(1 / alpha) - 1``)
MAX_AUTO_PERMUTATIONS = 99
#: the test pass of a screened fit draws TEST_SUBSETS_FACTOR x screen_subsets random halves in TEST_BATCHES
#: batches (its standard errors, between batches, have twice the degrees of freedom of a screening iteration's)
TEST_SUBSETS_FACTOR = 2
TEST_BATCHES = 40
#: width scales measured on every subset's own squared distances, and the pairs of a subsample they are measured on
OWN_SCALES = ("subset_median", "subset_spread")
OWN_SCALE_PAIRS = 2000


def random_subset_masks(rng, n_features, size, n_subsets):
    """``(n_features, n_subsets)`` 0/1 mask of uniform random subsets of ``size`` features."""
    if size >= n_features:
        return np.ones((n_features, n_subsets))
    if size <= 0:
        return np.zeros((n_features, n_subsets))
    keys = rng.random_sample((n_subsets, n_features))
    # each subset: the features of the `size` smallest keys, i.e. those at or below the size-th smallest key
    # (one partition of the keys, no index arrays); where that key is tied (probability ~ n^2 / 2^53), the
    # exact choice of an index partition
    mask = (keys <= np.partition(keys, size - 1, axis=1)[:, size - 1 : size]).astype(np.float64)
    tied = np.flatnonzero(mask.sum(axis=1) != size)
    if tied.size:
        idx = np.argpartition(keys[tied], size - 1, axis=1)[:, :size]
        rows = np.zeros((tied.size, n_features))
        np.put_along_axis(rows, idx, 1.0, axis=1)
        mask[tied] = rows
    return mask.T


def class_members(y):
    """The indices of each class of ``y``, in the order of ``np.unique(y)``."""
    _, inv = np.unique(y, return_inverse=True)
    return [np.flatnonzero(inv == c) for c in range(inv.max() + 1)]


def balanced_subsample(rng, y, size, balanced, members=None):
    """Indices of a random subsample without replacement (equal counts per class if ``balanced``).

    ``members``: :func:`class_members` of ``y``, when the caller draws many subsamples of one ``y``."""
    m = y.shape[0]
    size = min(size, m)
    if not balanced:
        return np.sort(rng.choice(m, size=size, replace=False))
    members = class_members(y) if members is None else members
    per = max(1, size // len(members))
    parts = [rng.choice(idx, size=min(per, idx.size), replace=False) for idx in members]
    return np.sort(np.concatenate(parts))


def auto_subsample(n_samples):
    """``subsample="auto"``: a third of the samples, at least 20 and at most :data:`MAX_AUTO_SUBSAMPLE`."""
    return int(min(n_samples, max(20, min(MAX_AUTO_SUBSAMPLE, round(n_samples * SUB_FRACTION)))))


def auto_n_subsets(n_features):
    """``n_subsets="auto"``: ``max(N_MIN, N_FACTOR * n_features)`` partitions, rounded up to a hundred."""
    n = max(N_MIN, N_FACTOR * int(n_features))
    return int(math.ceil(n / 100) * 100)


def _log_comb(n, k):
    """``log C(n, k)``."""
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def _label_kernels(labels, kind, near, rows):
    """The label kernel of ``labels`` on the subsample ``rows`` (``(s,)``: one kernel; ``(q, s)``: a stack):
    of ``kind``, or Relief's local target on the near pairs ``near`` of all the samples when it is given
    (``label_kernel="local"``)."""
    labels = np.asarray(labels)
    if near is not None:
        return local_label_kernels(labels, near[np.ix_(rows, rows)])
    return label_kernel(labels, kind=kind) if labels.ndim == 1 else label_kernels(labels, kind=kind)


class _Problem:
    """The data of one fit: standardised X, the target and how subsamples are drawn."""

    def __init__(self, X, y, *, subsample, balanced, label_kind, rng, n_neighbors=LOCAL_NEIGHBOURS):
        self.X = X
        self.y = y
        self.rng = rng
        self.balanced = balanced
        m = X.shape[0]
        self.task = task_of_target(y)
        self.kind = label_kind
        self.classification = self.task != "regression"
        if self.classification:
            self.classes, self.y_inv = np.unique(y, return_inverse=True)
            if self.classes.size < 2:
                raise ValueError(f"y has one class only ({self.classes[0]!r}): randSel needs at least two")
        if subsample == "auto":
            s = auto_subsample(m)
        elif isinstance(subsample, Integral):
            s = int(subsample)
        else:
            s = int(round(float(subsample) * m))
        if s > m:
            raise ValueError(f"subsample={subsample!r} asks for {s} samples but X has only {m}")
        if s < 4:
            raise ValueError(
                f"subsample={subsample!r} gives {s} samples per subsample with {m} samples; "
                "the unbiased alignment needs at least 4"
            )
        if balanced:
            per = s // self.classes.size
            if per < 2:
                raise ValueError(
                    f"balanced=True with subsample={subsample!r} gives {per} sample(s) per class "
                    f"({self.classes.size} classes); use a larger subsample"
                )
        if self.classification and not balanced:
            # the chance that a subsample of s holds one class only (hypergeometric); the subsample is
            # redrawn when it does, which is cheap when rare and hopeless when likely
            counts = np.bincount(self.y_inv)
            p_single = float(sum(np.exp(_log_comb(k, s) - _log_comb(m, s)) for k in counts if k >= s))
            if p_single > 0.5:
                raise ValueError(
                    f"subsample={subsample!r} draws {s} of {m} samples with class counts {counts.tolist()}: "
                    f"a subsample holds a single class with probability {p_single:.2f}, and a single-class "
                    "subsample carries no alignment; use balanced=True or a larger subsample"
                )
        self.s = s
        #: the near pairs of label_kernel="local" (label-free: permuted labels share them), else None
        self.near = None
        if label_kind == "local":
            if not self.classification:
                raise ValueError("label_kernel='local' needs class labels; got a real-valued y")
            self.near = neighbourhood(X, n_neighbors)
        self._layouts = {}
        self._members = class_members(self.y_inv) if self.classification and balanced else None

    def layout(self, s):
        if s not in self._layouts:
            self._layouts[s] = PairLayout(s)
        return self._layouts[s]

    def draw(self):
        """Rows of a random subsample; redrawn while it holds a single class (classification)."""
        while True:  # terminates: __init__ refused setups where a single class has probability > 1/2
            rows = balanced_subsample(self.rng, self.y_inv if self.classification else self.y, self.s, self.balanced,
                                      self._members)
            if not self.classification or (codes := self.y_inv[rows]).min() != codes.max():  # two classes at least
                return rows

    def target(self, rows):
        layout = self.layout(rows.size)
        return layout, CenteredTarget(_label_kernels(self.y[rows], self.kind, self.near, rows), layout)


def _sq_distances(Xr, layout, Mm, extra=None, ws=None):
    """Squared distances, on the pairs of a subsample, of the minus- and plus-subsets of a batch.

    ``Mm`` (``(n, B)``) holds the minus-subsets ``S``; the plus-subsets are
    their complements, plus feature ``extra[k]`` for partition ``k`` when
    given. Returns ``D2`` of shape ``(P, 2B)`` (float32), minus first: the
    matrix product ``T @ [Mm, 1]`` of the per-feature squared differences
    ``T`` (``(P, n)``) with the masks and a column of ones (the distance over
    all features), formed block by block of pairs (:func:`~fscompbio._pairs.pair_blocks`), so
    that memory stays bounded whatever the subsample.
    """
    ws = Workspace() if ws is None else ws
    P = layout.n_pairs
    n, B = Mm.shape
    chunk = max(1, int(TENSOR_CHUNK_BUDGET // (4 * max(P, 1))))
    M1 = np.ones((n, B + 1), dtype=np.float32)
    M1[:, :B] = Mm
    prod = ws.get("prod", (P, B + 1))  # T @ [Mm, 1]
    X = np.ascontiguousarray(Xr, dtype=np.float32)
    # T is never formed whole: the pairs of consecutive samples are squared into a cache-sized block and
    # multiplied at once (at 300 x 1,500 T would be 270 MB and the product with B + 1 ~ 11 columns
    # memory-bound; bench/bench_randsel_pairs.py times it). Features are summed in chunks of `chunk` as
    # when T was formed in chunks, so each entry adds the same float32 partial sums.
    pair_product(X, ws, M1, prod, chunk)
    ext = pair_sq_diffs32(Xr[:, extra], 0, len(extra)) if extra is not None else None
    D2 = ws.get("D2", (P, 2 * B))
    D2[:, :B] = prod[:, :B]
    np.subtract(prod[:, B:], prod[:, :B], out=D2[:, B:])  # the complements
    if ext is not None:  # n even: plus one member k of S
        D2[:, B:] += ext
    np.maximum(D2, 0.0, out=D2)  # clip the round-off of the subtraction
    return D2


def _kernel_alignments(D2, gamma, target, estimator, ws=None, others=()):
    """Alignments of the Gaussian kernels ``exp(-gamma D2)`` of every column of ``D2`` (float32).

    With ``others`` (further targets on the same subsample), also their alignments with the same
    kernels, as a second array of shape ``(len(others), D2.shape[1])``.
    """
    K = np.multiply(D2, np.float32(-gamma), out=(ws or Workspace()).get("K", D2.shape))
    np.exp(K, out=K)  # float32 exp: several times the float64 throughput, ample for alignments
    return batched_alignments_f32(K, target, estimator, others)


def _null_targets(problem, perms, rows, layout):
    """The targets of permuted labels on a subsample: ``perms`` (``(Q, n_samples)``, one permutation of all the
    labels per row) taken at the subsample's ``rows``.

    Returns the :class:`CenteredTargets` of the permutations whose labels on these rows hold two classes or
    more, and their indices (``None`` and an empty array when there are none). The others contribute 0 on the
    batch: a constant label carries no alignment (the real labels' subsample always holds two classes;
    permuted ones can miss a rare class on a small subsample).
    """
    if perms.shape[0] == 0:
        return None, np.empty(0, dtype=int)
    if problem.classification:  # the class codes: the same kernels as the labels', whatever their type
        codes = problem.y_inv[perms[:, rows]]
        live = np.flatnonzero(codes.min(axis=1) != codes.max(axis=1))
        labels = codes[live]
    else:
        labels, live = problem.y[perms[:, rows]], np.arange(perms.shape[0])
    if live.size == 0:
        return None, live
    return CenteredTargets(_label_kernels(labels, problem.kind, problem.near, rows), layout), live


def _iteration(problem, cols, n_subsets, batch_size, width, estimator, rng, width_scale="minus",
               width_rule="alignment"):
    """One pass over the columns ``cols``: contributions, standard errors, width, mean alignment, scores.

    Each of ``n_subsets`` random partitions splits the ``n`` columns into a
    minus-subset ``S`` of ``floor(n/2)`` features and a plus-subset ``S+``: the
    complement of ``S`` (``n`` odd) or the complement plus one random member
    of ``S`` (``n`` even). ``S`` is uniform over the ``floor(n/2)``-subsets and
    ``S+`` over the ``(floor(n/2) + 1)``-subsets, so for every feature ``j``
    in ``S+`` and not in ``S``, ``a(S+) - a(S)`` is one draw of the difference
    whose mean is ``c_j`` (thesis definition 4.2.1); ``c_j`` is estimated by the
    mean of these draws. Partitions come in batches that share one subsample.

    The width of an iteration is ``width`` times the minus-subsets' median
    distance (``"minus"``, ``"subset_size"``), or ``sigma^2 = width^2`` times
    the interquartile range of their squared distances (``"spread"``);
    ``width_scale="subset_size"`` and ``"spread"`` give a subset of ``k``
    features the squared width ``k / h`` times that of the minus-subsets
    (``h`` features): the plus-subsets' distances are scaled by
    ``h / (h + 1)``. ``"subset_median"`` and ``"subset_spread"`` divide every
    subset's distances by its own median or interquartile range (on
    :data:`OWN_SCALE_PAIRS` pairs of the subsample). With a grid of
    widths, ``width_rule="alignment"`` keeps the width of largest mean
    alignment over the first batches; ``"evidence"`` evaluates every width on
    every batch and gives each feature its largest normal score over the grid;
    ``"select"`` evaluates every width on every batch and keeps the width whose
    normal scores above the family-wise threshold (:data:`SELECT_LEVEL`,
    Bonferroni over the ``n`` columns) sum to the most, the grid's first on a
    tie; ``"calibrated"`` evaluates every width on every batch, and on the
    same subsamples and partitions with fixed permutations of the labels
    (null data sets, :data:`NULL_VALUES`), and keeps the width at which the
    most features' contributions exceed the largest contribution of the null
    data sets at that width, the grid's first on a tie; ``"tail"`` evaluates
    the same null data sets and scores each feature at each width by the upper
    tail of its contribution under a Pearson type III law fitted to the null
    data sets' contributions at that width (:func:`_tail_scores`), then gives it
    its largest score over the grid. Under the last four the scores are
    adjusted for the choice among the grid's widths (:func:`_max_of_k_scores`).

    Returns
    -------
    c : ndarray of shape (n,)
    se : ndarray of shape (n,)
        Standard error of ``c`` over the random partitions and subsamples
        (between batches), given the data.
    width : float
        The chosen multiple of the scale (``"evidence"``: that of the
        best-scoring feature).
    mean_alignment : float
    z : ndarray of shape (n,)
        ``c / se`` as normal scores (:func:`_normal_scores`; under ``"tail"``
        the null's tail, :func:`_tail_scores`; adjusted for the grid under
        ``"evidence"``, ``"select"``, ``"calibrated"`` and ``"tail"``).
    """
    Xs = problem.X[:, cols]
    n = cols.size
    h = n // 2
    # at least MIN_BATCHES batches (when there are enough partitions): the standard error is
    # estimated between batches, and a handful of batches gives a heavy-tailed t
    n_batches = _n_batches(n_subsets, batch_size)
    sizes = np.diff(np.round(np.linspace(0, n_subsets, n_batches + 1)).astype(int))
    grid = np.atleast_1d(np.asarray(width, dtype=float))
    every = width_rule in ("evidence", "select", "calibrated", "tail") and grid.size > 1
    n_pilot = min(n_batches, PILOT_BATCHES) if grid.size > 1 and not every else 0
    W = grid.size if every else 1
    n_null = 0
    if width_rule in ("calibrated", "tail") and every:
        n_null = min(NULL_MAX_PERMUTATIONS, -(-NULL_VALUES // max(n, 1)))
    # the null: fixed permutations of all the labels (one null data set each: the same features, no signal)
    n_samples = problem.y.shape[0]
    perms = np.empty((n_null, n_samples), dtype=np.intp)
    for q in range(n_null):
        perms[q] = rng.permutation(n_samples)
    null_sums = np.zeros((n_null, W, n_batches, n))
    sums = np.zeros((W, n_batches, n))  # per batch and feature: sum of a(S+) - a(S) over its usable partitions
    counts = np.zeros((n_batches, n))
    align_sum, align_n = np.zeros(W), 0
    pilot = []  # the pilot batches' usable masks and alignments at every width
    pilot_score = np.zeros(grid.size)
    gammas = None
    chosen = 0 if grid.size == 1 else None
    ws = Workspace()
    for b, B in enumerate(sizes):
        rows = problem.draw()
        Xr = Xs[rows]
        layout, target = problem.target(rows)
        nulls, live = _null_targets(problem, perms, rows, layout)
        Mm = random_subset_masks(rng, n, h, B)
        extra = None
        if n % 2 == 0 and h > 0:  # n even: the plus-subset is the complement plus one member k of S
            extra = np.argmax(Mm * rng.random_sample(Mm.shape), axis=0)  # a uniform member of each S
        usable = 1.0 - Mm  # j in S+ and not in S (k, added to S+, is in S)
        widths_here = list(range(grid.size)) if (chosen is None or every) else [chosen]
        a_m = {g: np.empty(B) for g in widths_here}
        a_p = {g: np.empty(B) for g in widths_here}
        null_d = np.zeros((n_null, W, B))  # the null's a(S+) - a(S) (0 where its labels hold one class)
        # memory: cap the partitions evaluated at once (a subsample of 2,000 has 2e6 pairs)
        step = max(1, int(BATCH_BUDGET // (layout.n_pairs * 4 * 6)))
        own = width_scale in OWN_SCALES
        if own:  # every subset its own scale (below): the width is a multiple of it
            gammas = 1.0 / (2.0 * grid**2)
            ref_rows = np.sort(rng.choice(layout.n_pairs, size=min(layout.n_pairs, OWN_SCALE_PAIRS), replace=False))
        elif gammas is None and width_scale == "spread":  # one per iteration: the minus-subsets' spread
            gammas = gamma_from_median_sq(grid, _spread_sq_distance(Xr, layout, Mm, rng))
        elif gammas is None:  # one width scale per iteration: the median distance of minus-subsets
            gammas = gamma_from_median_sq(grid, _median_sq_distance(Xr, layout, Mm, rng))
        for c0 in range(0, B, step):
            sl = slice(c0, min(B, c0 + step))
            D2 = _sq_distances(Xr, layout, Mm[:, sl], extra[sl] if extra is not None else None, ws)
            k = D2.shape[1] // 2
            if width_scale in ("subset_size", "spread") and h > 0:
                # the plus-subsets hold h + 1 features: their squared width is (h + 1) / h that of the
                # minus-subsets, i.e. their distances are scaled by h / (h + 1) at the same gamma
                D2[:, k:] *= np.float32(h / (h + 1))
            elif own:
                D2 /= _own_scales(D2[ref_rows], width_scale)
            for g in widths_here:
                a = _kernel_alignments(D2, gammas[g], target, estimator, ws, nulls or ())
                if nulls:
                    a, a0 = a
                    null_d[live, g, sl] = a0[:, k:] - a0[:, :k]
                a_m[g][sl] = a[:k]
                a_p[g][sl] = a[k:]
        if every:
            for g in widths_here:
                sums[g, b] = usable @ (a_p[g] - a_m[g])
                for q in range(n_null):
                    null_sums[q, g, b] = usable @ null_d[q, g]
                align_sum[g] += a_m[g].sum() + a_p[g].sum()
            counts[b] = usable.sum(axis=1)
            align_n += 2 * B
            continue
        if chosen is None:  # a pilot batch of the width rule: keep every width's alignments
            pilot.append((b, usable, a_m, a_p))
            pilot_score += [np.r_[a_m[g], a_p[g]].mean() for g in widths_here]
            if len(pilot) < n_pilot:
                continue
            chosen = int(np.argmax(pilot_score))
            batches = [(pb, pu, pm[chosen], pp[chosen]) for pb, pu, pm, pp in pilot]
        else:
            batches = [(b, usable, a_m[chosen], a_p[chosen])]
        for pb, pu, am, ap in batches:
            sums[0, pb] = pu @ (ap - am)
            counts[pb] = pu.sum(axis=1)
            align_sum[0] += am.sum() + ap.sum()
            align_n += am.size + ap.size
    if not every:
        c, se = _estimates(sums[0], counts)
        return c, se, float(grid[chosen]), align_sum[0] / max(align_n, 1), _normal_scores(c, se, n_batches)
    est = [_estimates(sums[g], counts) for g in range(W)]
    Z = np.array([_normal_scores(c, se, n_batches) for c, se in est])  # (W, n)
    # the null data sets' contributions per width, (W, n_null * n): the calibrated and the tail rule's reference
    null_c = np.array([np.concatenate([_estimates(null_sums[q, g], counts)[0] for q in range(n_null)])
                       for g in range(W)]) if n_null else None
    if width_rule in ("select", "calibrated"):
        t = norm.isf(SELECT_LEVEL / max(n, 1))
        if n_null:  # each width: the features whose contribution exceeds every one of the null data sets
            top0 = null_c.max(axis=1)
            mass = np.array([float((est[g][0] > top0[g]).sum()) for g in range(W)])
        else:
            mass = np.maximum(Z - t, 0.0).sum(axis=1)
        g = int(np.argmax(mass))  # ties (no evidence at any width): the grid's first width
        return est[g][0], est[g][1], float(grid[g]), align_sum[g] / max(align_n, 1), _max_of_k_scores(Z[g], W)
    if width_rule == "tail":  # each width's contributions against the null data sets' at that width
        for g in range(W):
            Z[g] = _tail_scores(est[g][0], null_c[g])
    best = np.argmax(Z, axis=0)
    cols_ = np.arange(n)
    c = np.array([e[0] for e in est])[best, cols_]
    se = np.array([e[1] for e in est])[best, cols_]
    # the largest of W scores, adjusted for the grid
    z = _max_of_k_scores(Z[best, cols_], W)
    top = int(best[np.argmax(z)]) if n else 0
    return c, se, float(grid[top]), align_sum[top] / max(align_n, 1), z


def _spread_sq_distance(Xr, layout, Mm, rng, n_pairs=2000, n_sets=10):
    """Interquartile range of the squared distances of the first (at most) ``n_sets`` minus-subsets of a
    batch over (at most) ``n_pairs`` random pairs of its subsample (each subset's own, averaged)."""
    q = np.percentile(_sampled_sq_distances(Xr, layout, Mm, rng, n_pairs, n_sets), [25.0, 75.0], axis=0)
    iqr = float(np.mean(q[1] - q[0]))
    return iqr if iqr > 0 else 1.0


def _own_scales(d2_rows, width_scale):
    """Each column's own scale of its squared distances (``d2_rows``: a random sample of pair rows):
    ``"subset_median"`` their median, ``"subset_spread"`` their interquartile range (float32, > 0)."""
    if width_scale == "subset_median":
        ref = np.median(d2_rows, axis=0)
    else:
        q = np.percentile(d2_rows, [25.0, 75.0], axis=0)
        ref = q[1] - q[0]
    return np.where(ref > 0, ref, 1.0).astype(np.float32)


def _n_batches(n_subsets, batch_size):
    """Batches of one iteration: ``ceil(n_subsets / batch_size)``, at least ``MIN_BATCHES`` when possible."""
    return int(min(n_subsets, max(math.ceil(n_subsets / batch_size), MIN_BATCHES)))


def _sampled_sq_distances(Xr, layout, Mm, rng, n_pairs=2000, n_sets=10):
    """Squared distances ``(pairs, sets)`` of the first (at most) ``n_sets`` minus-subsets of a batch over (at
    most) ``n_pairs`` random pairs of its subsample: the sample an iteration's width scale is taken from."""
    P = layout.n_pairs
    idx = np.sort(rng.choice(P, size=min(P, n_pairs), replace=False))
    M = Mm[:, :n_sets]
    # in chunks of pairs within TENSOR_CHUNK_BUDGET (whole on up to ~2,000 features: the exact iterations)
    step = max(1, int(TENSOR_CHUNK_BUDGET // (8 * max(Xr.shape[1], 1))))
    return np.concatenate([
        ((Xr[layout.ia[idx[i : i + step]]] - Xr[layout.ib[idx[i : i + step]]]) ** 2) @ M
        for i in range(0, idx.size, step)
    ])


def _median_sq_distance(Xr, layout, Mm, rng, n_pairs=2000, n_sets=10):
    """Median squared distance of the first (at most) ``n_sets`` minus-subsets of a batch over (at most)
    ``n_pairs`` random pairs of its subsample: the width scale of an iteration."""
    return median_sq_distance(_sampled_sq_distances(Xr, layout, Mm, rng, n_pairs, n_sets).ravel())


# --- the screen: first-order contributions of every feature at once -------------------------------


def _screen_iteration(problem, cols, n_sets, batch_size, width, estimator, rng, hold_norm=False):
    """One screening pass over ``cols``: first-order contributions, standard errors, width, mean alignment.

    By definition 4.2.1 of the thesis, ``c_j = E[a(S u {j}) - a(S)]`` over
    uniform random ``S`` of ``floor(n/2)`` features without ``j`` (``S u {j}`` is
    then uniform over the larger subsets holding ``j``). With the feature
    weights ``w`` of the kernel ``exp(-gamma sum_i w_i T_i)`` (``T_i`` the
    squared differences of feature ``i``), adding ``j`` moves ``w_j`` from 0 to
    1, so to first order ``a(S u {j}) - a(S) = da/dw_j`` at ``w = 1_S``:
    ``-gamma sum_p (da/dK_p) K_p T_pj``. One random half ``S`` thus gives this
    paired difference for every feature at once (for the members of ``S`` the
    derivative at their inclusion, equal to first order), at the cost of two
    matrix products with ``T``, instead of one difference shared by all the
    members of ``S+`` (whose spread grows with the effects of all the other
    features). The second-order remainder is of relative size
    ``gamma T ~ 1 / n`` (the width grows with the subset).

    ``hold_norm``: the derivative with each half's kernel norm held fixed (``screen_by="hsic"``): the change of
    HSIC1 with the label, on the alignment's scale.

    Returns ``(c, se, width, mean_alignment)`` as :func:`_iteration`.
    """
    Xs = problem.X[:, cols]
    n = cols.size
    h = max(1, n // 2)
    n_batches = _n_batches(n_sets, batch_size)
    sizes = np.diff(np.round(np.linspace(0, n_sets, n_batches + 1)).astype(int))
    grid = np.atleast_1d(np.asarray(width, dtype=float))
    sums = np.zeros((n_batches, n))
    counts = np.zeros((n_batches, n))
    gammas = chosen = None
    align_sum, align_n = 0.0, 0
    ws = Workspace()
    for b, B in enumerate(sizes):
        rows = problem.draw()
        X = np.ascontiguousarray(Xs[rows], dtype=np.float32)
        layout, target = problem.target(rows)
        M = random_subset_masks(rng, n, h, B).astype(np.float32)
        if gammas is None:  # one width scale per iteration: the median distance of the random halves
            gammas = gamma_from_median_sq(grid, _median_sq_distance(Xs[rows], layout, M, rng))
        T = whole_pair_tensor(X, ws)  # the pairs squared once for both products, when they fit one block
        D2 = pair_product(X, ws, M, ws.get("D2", (layout.n_pairs, B)), T=T)
        np.maximum(D2, 0.0, out=D2)  # clip round-off
        if chosen is None:  # a grid: the width of largest mean alignment on the first batch
            scores = [_kernel_alignments(D2, g, target, estimator, ws).mean() for g in gammas]
            chosen = int(np.argmax(scores)) if grid.size > 1 else 0
        gamma = gammas[chosen]
        K = np.exp(np.multiply(D2, np.float32(-gamma)))
        a, grad = batched_alignment(K, target, estimator, gradient=True, hold_norm=hold_norm)
        # d a / d w_j = sum_p G_p T_pj for each half; only their sum over the batch's halves is needed, so
        # the halves are summed before the product (one matrix-vector product with T)
        Gs = (grad * K * -gamma).sum(axis=1).astype(np.float32)
        sums[b] = transpose_product(X, ws, Gs[:, None], T=T)[:, 0]
        counts[b] = B
        align_sum += a.sum()
        align_n += a.size
    c, se = _estimates(sums, counts)
    return c, se, float(grid[chosen]), align_sum / max(align_n, 1)


def _screen_test_scores(X, ys, kind, s, n_sets, batch_size, width, estimator, rng, near=None):
    """Normal scores of the first-order contributions of every feature of ``X`` for each label vector of
    ``ys`` (``(L, n_samples)``), as in :func:`_screen_iteration` but with every label vector on the same
    subsamples (uniform, whatever the labels) and random halves, so that the real labels and their
    permutations are exchangeable under the null. ``near``: the near pairs of ``label_kernel="local"``
    (the same for every label vector), else None. Returns ``(L, n_features)``."""
    m, n = X.shape
    L = ys.shape[0]
    h = max(1, n // 2)
    n_batches = _n_batches(n_sets, batch_size)
    sizes = np.diff(np.round(np.linspace(0, n_sets, n_batches + 1)).astype(int))
    # running sums over the batches (not the per-batch sums: (n_batches, L, n) would dominate the memory of
    # a wide fit): the batch sums, their squares and the batch sizes give c and its standard error exactly as
    # _estimates does
    s1 = np.zeros((L, n))
    s2 = np.zeros((L, n))
    s1c = np.zeros((L, n))
    gamma = None
    ws = Workspace()
    layout = PairLayout(s)
    for b, B in enumerate(sizes):
        rows = np.sort(rng.choice(m, s, replace=False))
        Xb = np.ascontiguousarray(X[rows], dtype=np.float32)
        M = random_subset_masks(rng, n, h, B).astype(np.float32)
        if gamma is None:
            gamma = gamma_from_median_sq(width, _median_sq_distance(X[rows], layout, M, rng))
        T = whole_pair_tensor(Xb, ws)  # the pairs squared once for both products, when they fit one block
        D2 = pair_product(Xb, ws, M, ws.get("D2", (layout.n_pairs, B)), T=T)
        np.maximum(D2, 0.0, out=D2)
        K = np.exp(np.multiply(D2, np.float32(-gamma)))
        V = np.zeros((layout.n_pairs, L), dtype=np.float32)
        for i in range(L):
            yb = ys[i, rows]
            if np.all(yb == yb[0]):
                # one label on the whole subsample (uniform rows can draw a single class): its centred label
                # kernel is zero, so the subsample says nothing about any feature: contribution 0, for the
                # real labels and a permutation alike (they stay exchangeable)
                continue
            target = CenteredTarget(_label_kernels(yb, kind, near, rows), layout)
            _, grad = batched_alignment(K, target, estimator, gradient=True)
            V[:, i] = (grad * K * -gamma).sum(axis=1)
        batch = transpose_product(Xb, ws, V, T=T).T  # (L, n)
        s1 += batch
        s2 += batch**2
        s1c += batch * B
    C, C2 = float(sizes.sum()), float((sizes.astype(float) ** 2).sum())
    c = s1 / C
    # sum_b (sums_b - c B_b)^2 = sum sums_b^2 - 2 c sum sums_b B_b + c^2 sum B_b^2
    resid2 = np.maximum(s2 - 2.0 * c * s1c + c**2 * C2, 0.0)
    se = np.sqrt(n_batches / (n_batches - 1) * resid2) / C
    return np.array([_normal_scores(c[i], se[i], n_batches) for i in range(L)])
