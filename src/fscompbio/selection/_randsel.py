"""randSel: randomised non-linear feature selection by kernel target alignment.

Thesis section 4.2 and algorithm 6; "Principled Non-Linear Feature Selection"
(Athanasakis, Shawe-Taylor & Fernandez-Reyes) section 3 and its algorithm 1.
"""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

import numpy as np
from scipy.stats import norm
from scipy.stats import t as student_t
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, RealNotInt, StrOptions, _fit_context, validate_data
from .._scaling import standardize
from ..kernels import label_kernel, task_of_target
from ._gaussian_updates import (
    CenteredTarget,
    PairLayout,
    batched_alignments_f32,
    check_target,
    median_sq_distance,
)
from ._pair_screen import pair_product_screen
from ._ranking import ranking_from_order, top_k_mask

__all__ = [
    "RandSel",
    "EmptySelectionWarning",
    "expected_contributions",
    "random_subset_masks",
    "balanced_subsample",
]


class EmptySelectionWarning(UserWarning):
    """randSel's error-controlled set is empty: nothing passed the test at level ``alpha``."""

#: memory budget (bytes) of one batch: the squared distances and kernels of its subsets
BATCH_BUDGET = 96 * 2**20
#: memory budget (bytes) of one chunk of the per-feature squared-difference tensor
TENSOR_CHUNK_BUDGET = 32 * 2**20
#: bytes of one block of pair rows in ``_sq_distances`` (stays in the cache between the square and the product)
BLOCK_BYTES = 4 * 2**20
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
#: after a screen, ``selected_`` is tested against at most this many label permutations (``ceil(1 / alpha) - 1``)
MAX_AUTO_PERMUTATIONS = 99
#: the test pass of a screened fit draws TEST_SUBSETS_FACTOR x screen_subsets random halves in TEST_BATCHES
#: batches (its standard errors, between batches, have twice the degrees of freedom of a screening iteration's)
TEST_SUBSETS_FACTOR = 2
TEST_BATCHES = 40


def random_subset_masks(rng, n_features, size, n_subsets):
    """``(n_features, n_subsets)`` 0/1 mask of uniform random subsets of ``size`` features."""
    if size >= n_features:
        return np.ones((n_features, n_subsets))
    if size <= 0:
        return np.zeros((n_features, n_subsets))
    keys = rng.random_sample((n_subsets, n_features))
    idx = np.argpartition(keys, size - 1, axis=1)[:, :size]
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


class _Problem:
    """The data of one fit: standardised X, the target and how subsamples are drawn."""

    def __init__(self, X, y, *, subsample, balanced, label_kind, rng):
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
        self._layouts = {}

    def layout(self, s):
        if s not in self._layouts:
            self._layouts[s] = PairLayout(s)
        return self._layouts[s]

    def draw(self):
        """Rows of a random subsample; redrawn while it holds a single class (classification)."""
        while True:  # terminates: __init__ refused setups where a single class has probability > 1/2
            rows = balanced_subsample(self.rng, self.y_inv if self.classification else self.y, self.s, self.balanced)
            if not self.classification or np.unique(self.y_inv[rows]).size >= 2:
                return rows

    def target(self, rows):
        layout = self.layout(rows.size)
        return layout, CenteredTarget(label_kernel(self.y[rows], kind=self.kind), layout)


class _Workspace:
    """Reusable float32 buffers of one iteration (fresh multi-megabyte arrays per batch cost page faults
    comparable to the arithmetic)."""

    def __init__(self):
        self._buf = {}

    def get(self, name, shape):
        size = int(np.prod(shape))
        buf = self._buf.get(name)
        if buf is None or buf.size < size:
            buf = self._buf[name] = np.empty(size, dtype=np.float32)
        return buf[:size].reshape(shape)


def _pair_rows32(X, first, stop, out):
    """``(x_a - x_b)^2`` for the pairs ``(a, b > a)`` of the samples ``first <= a < stop`` of the float32 C-order
    ``X``, in :class:`PairLayout` order (one contiguous block of ``s - a - 1`` rows per sample), into ``out``.
    Returns the number of rows written."""
    s = X.shape[0]
    o = 0
    for a in range(first, stop):  # a loop over samples, each step a vectorised block of (s - a - 1) x c
        k = s - a - 1
        np.subtract(X[a + 1 :], X[a], out=out[o : o + k])
        o += k
    np.square(out[:o], out=out[:o])
    return o


def _pair_sq_diffs32(Xr, start, stop, out=None):
    """``T[p, i] = (x_{a_p i} - x_{b_p i})^2`` for columns ``start:stop``, pairs ``a < b`` in
    :class:`PairLayout` order, float32 C-order: one contiguous row block per sample ``a``."""
    X = np.ascontiguousarray(Xr[:, start:stop], dtype=np.float32)
    s, c = X.shape
    T = np.empty((s * (s - 1) // 2, c), dtype=np.float32) if out is None else out
    _pair_rows32(X, 0, s - 1, T)
    return T


def _sq_distances(Xr, layout, Mm, extra=None, ws=None):
    """Squared distances, on the pairs of a subsample, of the minus- and plus-subsets of a batch.

    ``Mm`` (``(n, B)``) holds the minus-subsets ``S``; the plus-subsets are
    their complements, plus feature ``extra[k]`` for partition ``k`` when
    given. Returns ``D2`` of shape ``(P, 2B)`` (float32), minus first: the
    matrix product ``T @ [Mm, 1]`` of the per-feature squared differences
    ``T`` (``(P, n)``) with the masks and a column of ones (the distance over
    all features), formed block by block of pairs (:data:`BLOCK_BYTES`), so
    that memory stays bounded whatever the subsample.
    """
    ws = _Workspace() if ws is None else ws
    P = layout.n_pairs
    n, B = Mm.shape
    chunk = max(1, int(TENSOR_CHUNK_BUDGET // (4 * max(P, 1))))
    M1 = np.ones((n, B + 1), dtype=np.float32)
    M1[:, :B] = Mm
    prod = ws.get("prod", (P, B + 1))
    X = np.ascontiguousarray(Xr, dtype=np.float32)
    # T is never formed whole: the pairs of consecutive samples are squared into a cache-sized block and
    # multiplied at once (at 300 x 1,500 T would be 270 MB and the product with B + 1 ~ 11 columns
    # memory-bound; bench/bench_randsel_pairs.py times it). Features are summed in chunks of `chunk` as
    # when T was formed in chunks, so each entry adds the same float32 partial sums.
    for o, T in _pair_blocks(X, ws):
        r = T.shape[0]
        if chunk >= n:
            np.matmul(T, M1, out=prod[o : o + r])
        else:
            acc = prod[o : o + r]
            acc[...] = 0.0
            for start in range(0, n, chunk):
                acc += T[:, start : start + chunk] @ M1[start : start + chunk]
    ext = _pair_sq_diffs32(Xr[:, extra], 0, len(extra)) if extra is not None else None
    D2 = ws.get("D2", (P, 2 * B))
    D2[:, :B] = prod[:, :B]
    np.subtract(prod[:, B:], prod[:, :B], out=D2[:, B:])  # the complements
    if ext is not None:  # n even: plus one member k of S
        D2[:, B:] += ext
    np.maximum(D2, 0.0, out=D2)  # clip the round-off of the subtraction
    return D2


def _kernel_alignments(D2, gamma, target, estimator, ws=None):
    """Alignments of the Gaussian kernels ``exp(-gamma D2)`` of every column of ``D2`` (float32)."""
    K = np.multiply(D2, np.float32(-gamma), out=(ws or _Workspace()).get("K", D2.shape))
    np.exp(K, out=K)  # float32 exp: several times the float64 throughput, ample for alignments
    return batched_alignments_f32(K, target, estimator)


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

    ``width_scale="subset_size"`` gives a subset of ``k`` features the squared
    width ``k / h`` times that of the minus-subsets (``h`` features): the
    plus-subsets' distances are scaled by ``h / (h + 1)``. With a grid of
    widths, ``width_rule="alignment"`` keeps the width of largest mean
    alignment over the first batches; ``"evidence"`` evaluates every width on
    every batch and gives each feature its largest normal score over the grid,
    Bonferroni-adjusted for the grid's size.

    Returns
    -------
    c : ndarray of shape (n,)
    se : ndarray of shape (n,)
        Standard error of ``c`` over the random partitions and subsamples
        (between batches), given the data.
    width : float
        The chosen multiple of the median distance (``"evidence"``: that of the
        best-scoring feature).
    mean_alignment : float
    z : ndarray of shape (n,)
        ``c / se`` as normal scores (:func:`_normal_scores`; adjusted for the
        grid under ``"evidence"``).
    """
    Xs = problem.X[:, cols]
    n = cols.size
    h = n // 2
    # at least MIN_BATCHES batches (when there are enough partitions): the standard error is
    # estimated between batches, and a handful of batches gives a heavy-tailed t
    n_batches = _n_batches(n_subsets, batch_size)
    sizes = np.diff(np.round(np.linspace(0, n_subsets, n_batches + 1)).astype(int))
    grid = np.atleast_1d(np.asarray(width, dtype=float))
    every = width_rule == "evidence" and grid.size > 1
    n_pilot = min(n_batches, PILOT_BATCHES) if grid.size > 1 and not every else 0
    W = grid.size if every else 1
    sums = np.zeros((W, n_batches, n))  # per batch and feature: sum of a(S+) - a(S) over its usable partitions
    counts = np.zeros((n_batches, n))
    align_sum, align_n = np.zeros(W), 0
    pilot = []  # the pilot batches' usable masks and alignments at every width
    pilot_score = np.zeros(grid.size)
    gammas = None
    chosen = 0 if grid.size == 1 else None
    ws = _Workspace()
    for b, B in enumerate(sizes):
        rows = problem.draw()
        Xr = Xs[rows]
        layout, target = problem.target(rows)
        Mm = random_subset_masks(rng, n, h, B)
        extra = None
        if n % 2 == 0 and h > 0:  # n even: the plus-subset is the complement plus one member k of S
            extra = np.argmax(Mm * rng.random_sample(Mm.shape), axis=0)  # a uniform member of each S
        usable = 1.0 - Mm  # j in S+ and not in S (k, added to S+, is in S)
        widths_here = list(range(grid.size)) if (chosen is None or every) else [chosen]
        a_m = {g: np.empty(B) for g in widths_here}
        a_p = {g: np.empty(B) for g in widths_here}
        # memory: cap the partitions evaluated at once (a subsample of 2,000 has 2e6 pairs)
        step = max(1, int(BATCH_BUDGET // (layout.n_pairs * 4 * 6)))
        if gammas is None:  # one width scale per iteration: the median distance of minus-subsets
            gammas = 1.0 / (2.0 * grid**2 * _median_sq_distance(Xr, layout, Mm, rng))
        for c0 in range(0, B, step):
            sl = slice(c0, min(B, c0 + step))
            D2 = _sq_distances(Xr, layout, Mm[:, sl], extra[sl] if extra is not None else None, ws)
            k = D2.shape[1] // 2
            if width_scale == "subset_size" and h > 0:
                # the plus-subsets hold h + 1 features: their squared width is (h + 1) / h that of the
                # minus-subsets, i.e. their distances are scaled by h / (h + 1) at the same gamma
                D2[:, k:] *= np.float32(h / (h + 1))
            for g in widths_here:
                a = _kernel_alignments(D2, gammas[g], target, estimator, ws)
                a_m[g][sl] = a[:k]
                a_p[g][sl] = a[k:]
        if every:
            for g in widths_here:
                sums[g, b] = usable @ (a_p[g] - a_m[g])
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
    best = np.argmax(Z, axis=0)
    cols_ = np.arange(n)
    c = np.array([e[0] for e in est])[best, cols_]
    se = np.array([e[1] for e in est])[best, cols_]
    # the largest of W scores: Bonferroni over the grid (log-space so that large scores keep their order)
    z = _bonferroni_scores(Z[best, cols_], W)
    top = int(best[np.argmax(z)]) if n else 0
    return c, se, float(grid[top]), align_sum[top] / max(align_n, 1), z


def _bonferroni_scores(z, k):
    """Normal scores ``z`` of the largest of ``k`` tests, adjusted: ``isf(min(1, k sf(z)))``, computed from
    ``log sf`` so that scores far in the tail keep their order."""
    if k == 1:
        return z
    logp = np.minimum(norm.logsf(z) + math.log(k), 0.0)
    return np.clip(norm.isf(np.exp(logp)), -40.0, 40.0)


def _estimates(sums, counts):
    """Contributions and their standard errors from per-batch sums (see :class:`RandSel`, Notes)."""
    nb, n = sums.shape
    C = counts.sum(axis=0)
    safe = np.where(C > 0, C, 1.0)
    c = np.where(C > 0, sums.sum(axis=0) / safe, 0.0)  # a feature never usable: no evidence, 0
    if nb < 2:
        return c, np.full(n, np.nan)
    # ratio estimator with the batches as independent draws (each its own subsample and partitions)
    resid = sums - c[None, :] * counts
    se = np.sqrt(nb / (nb - 1) * (resid**2).sum(axis=0)) / safe
    return c, np.where(C > 0, se, np.nan)


def _n_batches(n_subsets, batch_size):
    """Batches of one iteration: ``ceil(n_subsets / batch_size)``, at least ``MIN_BATCHES`` when possible."""
    return int(min(n_subsets, max(math.ceil(n_subsets / batch_size), MIN_BATCHES)))


def _normal_scores(c, se, n_batches):
    """``c / se`` as standard normal scores: through the t distribution with ``n_batches - 1`` degrees of
    freedom (the standard error is estimated between batches), so that its heavier tails do not pass for
    evidence. No standard error (a single batch): 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        t = c / se
    z = norm.isf(student_t.sf(t, max(n_batches - 1, 1)))
    return np.nan_to_num(np.clip(z, -40.0, 40.0), nan=0.0)


def _row(d, surv, values):
    """A length-``d`` row: ``values`` at ``surv``, ``nan`` elsewhere."""
    row = np.full(d, np.nan)
    row[surv] = values
    return row


def _median_sq_distance(Xr, layout, Mm, rng, n_pairs=2000, n_sets=10):
    """Median squared distance of the first (at most) ``n_sets`` minus-subsets of a batch over (at most)
    ``n_pairs`` random pairs of its subsample: the width scale of an iteration."""
    P = layout.n_pairs
    idx = np.sort(rng.choice(P, size=min(P, n_pairs), replace=False))
    M = Mm[:, :n_sets]
    # in chunks of pairs within TENSOR_CHUNK_BUDGET (whole on up to ~2,000 features: the exact iterations)
    step = max(1, int(TENSOR_CHUNK_BUDGET // (8 * max(Xr.shape[1], 1))))
    d2 = np.concatenate([
        ((Xr[layout.ia[idx[i : i + step]]] - Xr[layout.ib[idx[i : i + step]]]) ** 2) @ M
        for i in range(0, idx.size, step)
    ])
    return median_sq_distance(d2.ravel())


# --- the screen: first-order contributions of every feature at once -------------------------------


def _pair_blocks(X, ws, name="T"):
    """Yield ``(offset, T_block)``: the per-feature squared differences of the float32 C-order ``X`` on
    consecutive blocks of pairs in :class:`PairLayout` order (whole samples, about :data:`BLOCK_BYTES`
    each), so that ``T`` is never formed whole (the exact iterations' :func:`_sq_distances` and the
    screen's products both walk the pairs this way)."""
    s, n = X.shape
    rows = max(64, BLOCK_BYTES // (4 * max(n, 1)))
    buf = ws.get(name, (rows + s, n))
    o = a = 0
    while a < s - 1:
        first, r = a, 0
        while a < s - 1 and r < rows:  # whole samples until the block holds `rows` pairs
            r += s - a - 1
            a += 1
        yield o, buf[: _pair_rows32(X, first, a, buf)]
        o += r


def _alignment_gradients(K, target, estimator):
    """Alignments ``a`` (``(B,)``) of a float32 stack of kernels ``K`` (``(P, B)``, pairs) and their
    gradients ``da/dK_p`` (``(P, B)``, float64), for the forms of :func:`batched_alignments_f32`."""
    lay = target.layout
    m = lay.m
    Kd = K.astype(np.float64)
    k1 = np.asarray(lay.incidence @ Kd)  # (m, B) row sums without the diagonal
    ia, ib = lay.ia, lay.ib
    ssq = np.einsum("pb,pb->b", Kd, Kd)
    if estimator == "biased":
        num = target.lc_trace + 2.0 * (Kd.T @ target.lc_pairs)
        row = 1.0 + k1
        total = row.sum(axis=0)
        kk = m + 2.0 * ssq - (2.0 / m) * np.einsum("ab,ab->b", row, row) + total**2 / m**2
        d_num = 2.0 * target.lc_pairs[:, None]
        d_kk = 4.0 * Kd - (4.0 / m) * (row[ia] + row[ib]) + 4.0 * total / m**2
        norm_l = target.lc_norm
    else:
        num = 2.0 * (Kd.T @ target.w1_pairs)
        s_k = k1.sum(axis=0)
        c = 1.0 / ((m - 1) * (m - 2))
        kk = 2.0 * ssq + c * s_k**2 - 2.0 / (m - 2) * np.einsum("ab,ab->b", k1, k1)
        d_num = 2.0 * target.w1_pairs[:, None]
        d_kk = 4.0 * Kd + 4.0 * c * s_k - (4.0 / (m - 2)) * (k1[ia] + k1[ib])
        norm_l = math.sqrt(max(target.ll1, 0.0))
    kk = np.maximum(kk, 0.0)  # clip round-off: a squared norm
    ok = (kk > 0) & (norm_l > 0)
    root = np.sqrt(np.where(ok, kk, 1.0))
    a = np.where(ok, num / (root * (norm_l if norm_l > 0 else 1.0)), 0.0)
    # d(num / sqrt(kk) / |L|) = d_num / (sqrt(kk) |L|) - a d_kk / (2 kk)
    grad = d_num / (root * (norm_l if norm_l > 0 else 1.0)) - (a / (2.0 * np.where(ok, kk, 1.0))) * d_kk
    grad[:, ~ok] = 0.0
    return a, grad


def _screen_iteration(problem, cols, n_sets, batch_size, width, estimator, rng):
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
    ws = _Workspace()
    for b, B in enumerate(sizes):
        rows = problem.draw()
        X = np.ascontiguousarray(Xs[rows], dtype=np.float32)
        layout, target = problem.target(rows)
        M = random_subset_masks(rng, n, h, B).astype(np.float32)
        if gammas is None:  # one width scale per iteration: the median distance of the random halves
            gammas = 1.0 / (2.0 * grid**2 * _median_sq_distance(Xs[rows], layout, M, rng))
        D2 = ws.get("D2", (layout.n_pairs, B))
        for o, T in _pair_blocks(X, ws):
            np.matmul(T, M, out=D2[o : o + T.shape[0]])
        np.maximum(D2, 0.0, out=D2)  # clip round-off
        if chosen is None:  # a grid: the width of largest mean alignment on the first batch
            scores = [_kernel_alignments(D2, g, target, estimator, ws).mean() for g in gammas]
            chosen = int(np.argmax(scores)) if grid.size > 1 else 0
        gamma = gammas[chosen]
        K = np.exp(np.multiply(D2, np.float32(-gamma)))
        a, grad = _alignment_gradients(K, target, estimator)
        # d a / d w_j = sum_p G_p T_pj for each half; only their sum over the batch's halves is needed, so
        # the halves are summed before the product (one matrix-vector product with T)
        Gs = (grad * K * -gamma).sum(axis=1).astype(np.float32)
        sums[b] = _transpose_product(X, ws, Gs[:, None])[:, 0]
        counts[b] = B
        align_sum += a.sum()
        align_n += a.size
    c, se = _estimates(sums, counts)
    return c, se, float(grid[chosen]), align_sum / max(align_n, 1)


def _transpose_product(X, ws, V):
    """``T' V`` (float64, ``(n, k)``) for the pair differences ``T`` of ``X`` and ``V`` (``(P, k)``, float32),
    walking the pairs in blocks."""
    out = np.zeros((X.shape[1], V.shape[1]))
    for o, T in _pair_blocks(X, ws):
        out += T.T @ V[o : o + T.shape[0]]
    return out


def _screen_test_scores(X, ys, kind, s, n_sets, batch_size, width, estimator, rng):
    """Normal scores of the first-order contributions of every feature of ``X`` for each label vector of
    ``ys`` (``(L, n_samples)``), as in :func:`_screen_iteration` but with every label vector on the same
    subsamples (uniform, whatever the labels) and random halves, so that the real labels and their
    permutations are exchangeable under the null. Returns ``(L, n_features)``."""
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
    ws = _Workspace()
    for b, B in enumerate(sizes):
        rows = np.sort(rng.choice(m, s, replace=False))
        Xb = np.ascontiguousarray(X[rows], dtype=np.float32)
        layout = PairLayout(s)
        M = random_subset_masks(rng, n, h, B).astype(np.float32)
        if gamma is None:
            gamma = 1.0 / (2.0 * width**2 * _median_sq_distance(X[rows], layout, M, rng))
        D2 = ws.get("D2", (layout.n_pairs, B))
        for o, T in _pair_blocks(Xb, ws):
            np.matmul(T, M, out=D2[o : o + T.shape[0]])
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
            _, grad = _alignment_gradients(K, CenteredTarget(label_kernel(yb, kind=kind), layout), estimator)
            V[:, i] = (grad * K * -gamma).sum(axis=1)
        batch = _transpose_product(Xb, ws, V).T  # (L, n)
        s1 += batch
        s2 += batch**2
        s1c += batch * B
    C, C2 = float(sizes.sum()), float((sizes.astype(float) ** 2).sum())
    c = s1 / C
    # sum_b (sums_b - c B_b)^2 = sum sums_b^2 - 2 c sum sums_b B_b + c^2 sum B_b^2
    resid2 = np.maximum(s2 - 2.0 * c * s1c + c**2 * C2, 0.0)
    se = np.sqrt(n_batches / (n_batches - 1) * resid2) / C
    return np.array([_normal_scores(c[i], se[i], n_batches) for i in range(L)])


class RandSel(SelectorMixin, BaseEstimator):
    """Randomised non-linear feature selection by expected alignment contributions (randSel).

    Each iteration draws ``n_subsets`` random partitions of the ``n``
    surviving features into a minus-subset ``S`` of ``floor(n/2)`` features
    and a plus-subset ``S+`` of ``floor(n/2) + 1`` (the complement of ``S``,
    plus one random member of ``S`` when ``n`` is even), each on a random
    subsample of the samples, and computes the alignment ``a`` of an
    equal-width Gaussian kernel with the label kernel on both. The
    contribution of feature ``j`` (thesis definition 4.2.1; "Principled
    Non-Linear Feature Selection", definition 3.2),

    ``c_j = E[a(S+) | j in S+] - E[a(S) | j not in S]``,

    is estimated by the mean of ``a(S+) - a(S)`` over the partitions with
    ``j`` in ``S+`` and not in ``S`` (``S`` is uniform over the
    ``floor(n/2)``-subsets and ``S+`` over the ``(floor(n/2)+1)``-subsets, as
    the definition asks), with a standard error from the batches of
    partitions. The bottom ``cull_fraction`` of the non-fixed features is
    culled and the loop repeats until ``min_features`` remain (thesis
    algorithm 6; the paper's algorithm 1). On data with more than
    ``screen_above`` features, screening iterations first estimate the same
    contributions to first order, all features at once, and halve the
    features until ``screen_to`` remain (see Notes, "Wide data").

    Parameters
    ----------
    n_subsets : "auto" or int, default="auto"
        Random partitions per (exact, non-screening) iteration (the thesis'
        ``n_s``: 3,000 on the synthetic sets). ``"auto"``: ``max(300, 8 n)``
        for ``n`` surviving features (rounded up to a hundred), so that every
        feature is on the plus side of about ``4 n`` partitions whatever ``n``:
        1,600 in the first iteration on 200 features, 300 once 37 or fewer
        remain. With the default screen, exact iterations see at most 500
        features (4,000 partitions).
    subsample : "auto", int or float, default="auto"
        Samples per subsample ``m_a``: ``"auto"`` is a third of the samples
        (the thesis' choice for its mass-spectrometry sets), at least 20 and at
        most 200; an int is a count, a float a fraction of ``n_samples``. The
        cost of a partition grows with the square of the subsample.
    batch_size : int, default=100
        Partitions that share one subsample and one matrix product. Every
        iteration has at least 20 batches when it has 20 partitions or more
        (smaller batches then): the standard errors are computed between
        batches.
    cull_fraction : float, default=0.25
        Fraction ``z`` of the non-fixed features culled per iteration (thesis
        4.3: 25%; the paper: 12.5%). At least one.
    width : float or array-like of float, default=0.22
        Width ``sigma`` of the Gaussian kernel of the minus-subsets as a
        multiple of their median pairwise distance (re-measured every
        iteration on 20,000 distances of its first subsample). A list is a
        grid, used as ``width_rule`` says. See Notes for why 0.22 of the
        median.
    width_scale : {"subset_size", "minus"}, default="subset_size"
        ``"subset_size"``: the squared width of a subset grows with its size
        (the plus-subsets, one feature larger, have ``(h + 1) / h`` the
        squared width of the minus-subsets of ``h`` features), so that a
        feature of average spread leaves the kernel's width relative to the
        distances unchanged and ``a(S+) - a(S)`` measures the feature, not a
        narrower kernel. ``"minus"``: both subsets at the minus-subsets' width
        (the thesis' "Gaussian kernel with equal width"; the default before
        the measurements in Notes, "Width").
    width_rule : {"evidence", "alignment"}, default="evidence"
        With a grid of widths: ``"alignment"`` keeps, per iteration, the width
        of largest mean alignment over its first 4 batches (the thesis' rule);
        ``"evidence"`` evaluates every width on every batch and gives each
        feature its largest normal score over the grid, Bonferroni-adjusted
        for the grid's size. Unused with a single width.
    cull_by : {"evidence", "contribution"}, default="evidence"
        ``"contribution"``: cull by this iteration's contributions (the
        thesis). ``"evidence"``: by the sum, over the iterations a feature has
        survived, of its ``c_j / se_j`` as normal scores (Stouffer's sum), so
        that one unlucky iteration does not cull a feature that every earlier
        iteration found useful. See Notes.
    alpha : float, default=0.05
        Level of the selected set: the family-wise error rate over every test
        of the run (Bonferroni), see ``selected_``.
    fix_after : int or None, default=None
        Fix (never cull) a feature that ranks in the top ``top_fraction`` by
        contribution for this many consecutive iterations; a miss resets the
        count. None disables fixing (as in the thesis' experiments).
    top_fraction : float, default=0.05
        The top percentile ``a`` used for fixing (at least one feature).
    min_features : int, default=2
        Stop when this many features remain (or when every survivor is fixed).
    screen_above : int or None, default=500
        Data with more features than this are screened first: screening
        iterations estimate every feature's contribution to first order from
        ``screen_subsets`` random halves and cull half of the features per
        iteration, until ``screen_to`` remain; the exact iterations then
        continue on these. None: no screen (the thesis' scheme on any width).
        See Notes, "Wide data".
    screen_to : int, default=50
        Features left by the screen.
    screen_subsets : int, default=200
        Random halves per screening iteration (in at least 20 batches, each on
        its own subsample, as the partitions).
    screen_width : float, default=2.0
        Width of the screening iterations' Gaussian kernel as a multiple of
        the median pairwise distance of the random halves.
    screen_pairs : int, default=5
        On screened data, the members of the ``screen_pairs`` feature pairs
        whose product is most correlated with the centred label (the
        second-order term of the alignment,
        :func:`fscompbio.selection._pair_screen.pair_product_screen`) are never
        culled by the first-order screen, so that an interaction without
        marginal effects (an XOR pair) reaches the exact iterations. 0: the
        first-order screen only. See Notes, "Wide data".
    n_permutations : "auto" or int, default="auto"
        Label permutations that calibrate ``selected_`` after a screen (see
        Notes, "Error control after a screen"). ``"auto"``: ``ceil(1 / alpha) -
        1`` (19 at ``alpha=0.05``, the fewest for a test at level ``alpha``)
        when the fit screens and ``selected_`` is the model
        (``n_features_to_select=None``), else 0. They share one extra pass
        over all features. With 0 on a screened fit ``selected_`` is empty.
        Unused on data of up to ``screen_above`` features.
    balanced : bool, default=False
        Draw class-balanced subsamples (classification only). With
        ``balanced=False`` a subsample that holds a single class (no alignment)
        is redrawn; a setup where that happens more often than not is refused.
    standardize : bool, default=True
        Scale every feature to zero mean and unit variance first, so that an
        equal-width Gaussian kernel weighs the features equally (the noise
        features of the Weston sets have standard deviation 20).
    estimator : {"unbiased", "biased"}, default="unbiased"
        ``"unbiased"``: ``HSIC1(K, L) / sqrt(HSIC1(K, K) HSIC1(L, L))`` with the
        unbiased HSIC1 of Song et al., "Feature selection via dependence
        maximization" (eq. 5: the diagonals removed). ``"biased"``: the centred
        alignment of thesis definition 2.3.1, whose diagonal term tends to
        ``1 / sqrt(m - 1)`` for a narrow kernel and so hides what the
        off-diagonal entries carry (see Notes).
    label_kernel : {"auto", "linear", "balanced", "onehot", "gaussian"}, default="auto"
        The kernel on the target (:func:`fscompbio.kernels.label_kernel`):
        ``"auto"`` follows the task (binary, multiclass, regression).
    n_features_to_select : int or None, default=None
        ``None``: :meth:`get_support` returns ``selected_`` (randSel's own
        model, thesis 4.2.4, with error control); an int: the top of
        ``ranking_``.
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    ranking_ : ndarray of shape (n_features_in_,), int
        1 = best: by elimination order (later = better), the final survivors
        by the culling key (evidence, or their last contribution).
    scores_ : ndarray of shape (n_features_in_,), float64
        ``n_features_in_ + 1 - ranking_`` (higher = more relevant).
    selected_ : ndarray of int
        The error-controlled model: the features whose contribution is
        significantly positive at one iteration and again at the next (fresh
        partitions and subsamples), each test at level ``alpha / n_tests``
        with ``n_tests`` the number of (feature, iteration) tests of the run
        (Bonferroni), taken at the iteration where this set is largest (ties:
        the later). Empty when nothing is significant. After a screen: the
        features whose score in a test pass (``test_zscores_``) exceeds the
        maximum over all features of the same pass on each of
        ``n_permutations_`` permuted labels (a permutation test of the
        maximum, family-wise level ``alpha``). See Notes.
    selected_iteration_ : int or None
        The iteration (0-based) of ``selected_``.
    pvalues_ : ndarray of shape (n_features_in_,)
        Adjusted one-sided p-values of ``H0: c_j <= 0`` at
        ``selected_iteration_`` (iteration 0 when nothing is selected):
        ``max(n_tests * p_it, p_it+1)``, capped at 1, so that ``selected_`` is
        exactly ``pvalues_ <= alpha``; 1 for features no longer alive. After a
        screen: the permutation p-values ``(1 + #{null maxima >= z_j}) /
        (1 + n_permutations_)`` (1 without permutations).
    zscores_ : ndarray of shape (n_features_in_,)
        ``c_j / se_j`` at that iteration as normal scores (nan when not alive;
        after a screen, ``test_zscores_``).
    screen_pairs_ : ndarray of shape (n_pairs, 2), int
        The second-order screen's pairs, best first (empty when the fit did
        not screen or ``screen_pairs=0``).
    screen_pair_scores_ : ndarray of shape (n_pairs,)
        Their squared correlations with the centred label.
    n_permutations_ : int
        Label permutations run (0 unless the fit screened).
    test_zscores_ : ndarray of shape (n_features_in_,) or None
        After a screen with permutations: the normal scores of every
        feature's first-order contribution in the test pass with the real
        labels. None otherwise.
    null_max_zscores_ : ndarray of shape (n_permutations_,) or None
        The largest normal score of the test pass for each permuted label
        vector. None without permutations.
    zscores_history_, pvalues_history_ : ndarray of shape (n_iterations_, n_features_in_)
        The normal scores and the unadjusted one-sided p-values of every
        iteration (nan for culled features).
    selected_per_iteration_ : list of ndarray of int
        The confirmed significant set at each iteration.
    contributions_ : ndarray of shape (n_iterations_, n_features_in_), float64
        Estimated contribution of every feature at every iteration; ``nan``
        for features already culled.
    contribution_se_ : ndarray of shape (n_iterations_, n_features_in_)
        Their standard errors over partitions and subsamples (between batches).
    support_history_ : list of ndarray of int
        The surviving feature set at the start of each iteration and, last, the
        final survivors: nested, largest first. Chapter 5 builds its kernels on
        these sets.
    widths_ : ndarray of shape (n_iterations_,)
        The width multiplier used per iteration.
    mean_alignment_ : ndarray of shape (n_iterations_,)
        Mean alignment of all subsets of the iteration: it rises as noise
        features are culled (thesis figure 4.3).
    n_subsets_, n_batches_ : ndarray of shape (n_iterations_,), int
        Partitions (random halves in a screening iteration) and batches per
        iteration.
    screened_ : ndarray of shape (n_iterations_,), bool
        Which iterations were screening iterations (first-order estimates;
        their ``contributions_`` carry no test, ``zscores_history_`` is nan).
    subsample_ : int
        Samples per subsample.
    fixed_ : ndarray of int
        Features fixed during the run.
    evidence_ : ndarray of shape (n_features_in_,)
        Stouffer's sum of each feature's normal scores over the iterations it
        was alive (the culling key of ``cull_by="evidence"``).
    n_iterations_ : int

    Notes
    -----
    **Width relative to the subset.** With one width for both subsets of a
    partition (``width_scale="minus"``), the plus-subset, one feature larger,
    has distances about ``(h + 1) / h`` times larger at the same width, so
    every contribution carries the change of the alignment with a narrower
    kernel besides the feature's information. At 0.22 of the median this
    term dominates on few, redundant features: on breast cancer (569 x 30,
    standardised) the mean contribution of one pass is -0.0105, of which
    -0.0096 is reproduced by narrowing the minus-subset's own kernel by
    ``(h + 1) / h`` with no feature added; no feature's contribution is
    positive and nothing is selected. With ``width_scale="subset_size"`` 17
    of 30 contributions are positive (the largest 7.6 standard errors
    above 0). On 200 features the term is ``1 / 100`` of the distance and XOR
    and the Weston sets rank as before. Its price: irrelevant features'
    contributions are no longer pushed below 0, so the test of
    ``selected_`` lets slightly more false positives through (fake class,
    seeds 0-4: 0.8 features on average against 0). Measured in
    ``bench/bench_randsel_width.py``, whose candidates also show why the
    width stays a single 0.22: wider kernels or a grid help the linear and
    redundant sets and lose the XOR pair (``docs/randsel.md`` has the
    tables).

    **Width.** The thesis chooses the width by maximal alignment, but the
    centred alignment of a kernel that tends to the identity tends to
    ``1 / sqrt(m - 1)`` (its diagonal term), so that rule picks the floor of
    any grid and reports a flat mean alignment. The width is therefore a fixed
    0.22 of the median distance, where the relevant features of XOR and the
    non-linear Weston sets rank best with the centred or the HSIC1 alignment
    alike, and the alignment is HSIC1, so that the contributions and the mean
    alignment carry the off-diagonal signal only: the mean alignment then rises
    as noise features are culled (thesis figure 4.3). The width scan and the
    recovery behind 0.22 are in ``docs/deviations.md``.

    **Subsets and culling.** On XOR 300 x 200 the first iterations are nearly
    blind (a random half of 200 features holds the pair with probability 1/4,
    diluted by 98 noise features), so recovery is a matter of surviving them:
    ``n_subsets="auto"`` puts every feature on the plus side of about ``4 n``
    partitions, and ``cull_by="evidence"`` culls by the evidence accumulated
    over the iterations a feature survived instead of by the current
    contribution (the thesis' rule, ``cull_by="contribution"``). The ranking
    criterion is estimated as in the thesis; only one noisy iteration can no
    longer undo the earlier ones. The recovery behind these defaults is in
    ``docs/deviations.md``.

    **Wide data.** With ``n_subsets="auto"`` an exact iteration on ``n``
    features costs ``8 n`` partitions of ``n`` features each, so a fit grows
    with ``n^2``: minutes at 10,000 features, and no better for it, since one
    difference ``a(S+) - a(S)`` is shared by all ``n / 2`` members of ``S+``
    and its spread grows with the effects of all of them. The screen
    estimates the same contribution differently: by the definition (thesis
    definition 4.2.1), ``c_j = E[a(S u {j}) - a(S)]`` over uniform ``S`` of
    ``floor(n/2)`` features without ``j``; with feature weights ``w`` in the
    kernel ``exp(-gamma sum_i w_i T_i)`` (``T_i`` the squared differences of
    feature ``i``), adding ``j`` moves ``w_j`` from 0 to 1, so to first order
    (a remainder of relative size ``gamma T ~ 1/n``) the paired difference is
    the derivative ``da/dw_j`` at ``w = 1_S`` (the scaling-factor gradient of
    Weston et al., "Feature selection for SVMs", NIPS 2000, here of the
    alignment). One random half gives it for every feature at once at the
    cost of two matrix products ``T @ masks`` and ``T' @ gradients``, and its
    spread no longer grows with the other features' effects. A screening
    iteration draws ``screen_subsets`` halves (its cost grows linearly with
    ``n``: two products with ``screen_subsets`` columns in all) and culls half of the
    features by evidence, so the screen's total cost is about twice that of
    its first iteration and a fit grows linearly with the number of
    features; the exact iterations then run on ``screen_to`` features. The
    screen's kernel is wide (2 x the median distance): on the micro-arrays
    of the thesis (prostate, AML/ALL, colon) a wide screen ranks as well as
    a univariate F test or MultiSURF, whereas at 0.22 it ranks worse. What
    the screen cannot do is find an interaction with no marginal effect
    among thousands of features (nor can MultiSURF): in a half of ``n``
    features an XOR pair's share of the kernel is of order ``1/n^2``. Data
    of up to ``screen_above`` features (the thesis' synthetic sets) run the
    exact scheme only.

    **Interactions among thousands of features.** The second-order term of
    the same expansion of the alignment in the kernel's inverse width holds,
    for every pair of features, the squared covariance of the centred label
    with their product (:func:`~fscompbio.selection._pair_screen.pair_product_screen`
    derives it). Before the first-order screen, all pairs are scored at once,
    blockwise (``Z' diag(y_c) Z`` in blocks of columns, memory bounded at any
    width; ``n d^2 / 2`` multiply-adds, about 5 s at 300 x 10,000 on one
    core) and the members of the ``screen_pairs`` best pairs are kept through
    the screen, so that both members of a strong pair reach the exact
    iterations, which rank them. On XOR 300 x 10,000 (columns permuted) the
    pair ranks first of all 5 x 10^7 pairs and the fit puts it in its top 2.
    ``selected_`` after a screen is still the first-order permutation test: a
    pair without marginal effect is ranked, not selected. The evidence of the exact iterations starts afresh
    after the screen.

    **Error control after a screen.** The test described below is a test
    given the data, valid for features that the data did not choose. After a
    screen has kept the 50 of thousands of features most aligned with the
    label, those 50 are aligned with it in these data whether or not they are
    relevant, and the exact iterations' test confirms it: on prostate, AML/ALL
    and colon with permuted labels it selected 1-3 features where none is
    relevant. After a screen ``selected_`` is therefore a permutation test of
    the maximum, on every feature (none chosen yet): one test pass computes
    the first-order contributions of all features, as a screening iteration
    does (twice its random halves, in 40 batches), for the real labels and
    for ``n_permutations_`` permutations of them, all on the same uniform
    subsamples and random halves (so that under the null the ``1 +
    n_permutations_`` label vectors are exchangeable). A
    feature is selected when its score with the real labels exceeds the
    largest score of every permuted label vector, which under the complete
    null happens for any feature with probability at most ``1 / (1 +
    n_permutations_) <= alpha`` (family-wise). On the real labels of prostate
    and AML/ALL it selects dozens of features, on colon a few, and on
    permuted labels almost never one (``bench/bench_randsel_wide.py`` prints
    both). The label vectors share the pass's distances and kernels; each
    adds one gradient and one matrix-vector product per batch.

    **An empty selection.** When nothing passes the test, ``fit`` warns
    (:class:`EmptySelectionWarning`) with the smallest p-value and what to
    set: ``n_features_to_select=k`` (the top ``k`` of ``ranking_``, which is
    always complete) or a larger ``alpha``. ``transform`` then returns no
    column, as scikit-learn's selectors do, and warns again, so that in a
    pipeline the next step's failure follows a message naming the cause; no
    feature is substituted behind the test's back.

    **Error control.** ``c_j / se_j`` is referred to a t distribution with
    ``n_batches - 1`` degrees of freedom (the batches are independent draws of
    subsample and partitions given the data) and turned into a normal score
    (``zscores_``). For an irrelevant feature (definition 4.2.2) the variation
    of ``c_j`` between data sets is of smaller order than its Monte Carlo
    error (a degenerate U-statistic), so the test given the data is the test
    that matters; but the tails of one iteration's statistic are heavier than
    the t distribution's, so a single test per feature at ``alpha / n_tests``
    lets false positives through. A feature is therefore selected when it is
    significant at level ``alpha / n_tests`` at one iteration and confirmed at
    level ``alpha`` at the next, whose partitions and subsamples are fresh:
    under the null both happen with probability of order
    ``alpha^2 / n_tests`` per test, and the union over the run stays below
    ``alpha`` (Bonferroni). Shadow features (permuted copies, as Boruta does)
    would calibrate the same null but dilute the subsets. The false positives
    and recovery with the defaults are in ``docs/deviations.md`` and checked
    by ``tests/test_randsel.py``.

    A batch of ``B`` partitions on one subsample of ``s`` points costs one
    matrix product ``T @ [M, 1]`` of the per-feature squared differences ``T``
    (``s(s-1)/2 x n``, float32) with the minus-subset masks (the plus-subsets
    are complements: the distance over all features minus that of ``S``), one
    float32 exponential of ``s(s-1) B`` entries and a batched alignment
    (:func:`fscompbio.selection._gaussian_updates.batched_alignments_f32`).
    Memory is bounded whatever ``n_samples``: the subsample is capped
    (``"auto"``), the feature tensor is formed in chunks of
    :data:`TENSOR_CHUNK_BUDGET` and the partitions of a batch are evaluated a
    few at a time within :data:`BATCH_BUDGET`.

    Deviations from the thesis: subsets come as partitions (the thesis draws
    the two sizes independently; the distributions of each are the same);
    ``batch_size`` partitions share a subsample; the defaults above; culling
    by evidence; the HSIC1 alignment; the error-controlled ``selected_``
    (``docs/deviations.md`` gives the evidence for each).

    References
    ----------
    D. Athanasakis, "Feature Selection in Computational Biology", PhD thesis,
    University College London, 2014, chapter 4. D. Athanasakis, J.
    Shawe-Taylor and D. Fernandez-Reyes, "Principled Non-Linear Feature
    Selection". L. Song, A. Smola, A. Gretton, J. Bedo and K. Borgwardt,
    "Feature selection via dependence maximization", JMLR 13, 2012.

    Examples
    --------
    >>> import numpy as np
    >>> from fscompbio.datasets import make_dataset
    >>> ds = make_dataset("xor", random_state=0, n_features=20)
    >>> sel = RandSel(random_state=0).fit(ds.X, ds.y)
    >>> sorted(np.argsort(sel.ranking_)[:2].tolist()), sel.selected_.tolist()
    ([0, 1], [0, 1])
    """

    _parameter_constraints: dict = {
        "n_subsets": [StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
        "subsample": [
            StrOptions({"auto"}),
            Interval(Integral, 4, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "batch_size": [Interval(Integral, 1, None, closed="left")],
        "cull_fraction": [Interval(RealNotInt, 0, 1, closed="neither")],
        "width": [Interval(Real, 0, None, closed="neither"), "array-like"],
        "width_scale": [StrOptions({"subset_size", "minus"})],
        "width_rule": [StrOptions({"evidence", "alignment"})],
        "cull_by": [StrOptions({"evidence", "contribution"})],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "fix_after": [Interval(Integral, 1, None, closed="left"), None],
        "top_fraction": [Interval(Real, 0, 1, closed="right")],
        "min_features": [Interval(Integral, 1, None, closed="left")],
        "screen_above": [Interval(Integral, 1, None, closed="left"), None],
        "screen_to": [Interval(Integral, 1, None, closed="left")],
        "screen_subsets": [Interval(Integral, 2, None, closed="left")],
        "screen_width": [Interval(Real, 0, None, closed="neither")],
        "screen_pairs": [Interval(Integral, 0, None, closed="left")],
        "n_permutations": [StrOptions({"auto"}), Interval(Integral, 0, None, closed="left")],
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
        n_subsets="auto",
        subsample="auto",
        batch_size=100,
        cull_fraction=0.25,
        width=0.22,
        width_scale="subset_size",
        width_rule="evidence",
        cull_by="evidence",
        alpha=0.05,
        fix_after=None,
        top_fraction=0.05,
        min_features=2,
        screen_above=SCREEN_ABOVE,
        screen_to=SCREEN_TO,
        screen_subsets=SCREEN_SUBSETS,
        screen_width=SCREEN_WIDTH,
        screen_pairs=SCREEN_PAIRS,
        n_permutations="auto",
        balanced=False,
        standardize=True,
        estimator="unbiased",
        label_kernel="auto",
        n_features_to_select=None,
        random_state=None,
    ):
        self.n_subsets = n_subsets
        self.subsample = subsample
        self.batch_size = batch_size
        self.cull_fraction = cull_fraction
        self.width = width
        self.width_scale = width_scale
        self.width_rule = width_rule
        self.cull_by = cull_by
        self.alpha = alpha
        self.fix_after = fix_after
        self.top_fraction = top_fraction
        self.min_features = min_features
        self.screen_above = screen_above
        self.screen_to = screen_to
        self.screen_subsets = screen_subsets
        self.screen_width = screen_width
        self.screen_pairs = screen_pairs
        self.n_permutations = n_permutations
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

    def _width_grid(self):
        grid = np.atleast_1d(np.asarray(self.width, dtype=float)).ravel()
        if grid.size == 0 or np.any(~np.isfinite(grid)) or np.any(grid <= 0):
            raise ValueError(f"width must be a float > 0 or a non-empty list of floats > 0; got {self.width!r}")
        return grid

    def _setup(self, X, y, rng):
        """Validated problem, width grid and label kind (shared by fit and expected_contributions)."""
        check_target(y)
        if self.standardize:
            X = standardize(X)
        grid = self._width_grid()
        task = task_of_target(y)
        if self.balanced and task == "regression":
            raise ValueError("balanced=True needs a classification target; got a real-valued y")
        kind = self.label_kernel
        if kind == "auto":
            kind = {"binary": "linear", "multiclass": "onehot", "regression": "gaussian"}[task]
        if kind in ("linear", "balanced") and task != "binary":
            raise ValueError(f"label_kernel={kind!r} needs a binary target; got a {task} target")
        problem = _Problem(X, y, subsample=self.subsample, balanced=self.balanced, label_kind=kind, rng=rng)
        return problem, grid

    def _n_subsets(self, n):
        return auto_n_subsets(n) if self.n_subsets == "auto" else int(self.n_subsets)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Run randSel on ``X`` (``(n_samples, n_features)``) and target ``y``."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=False)
        rng = check_random_state(self.random_state)
        problem, grid = self._setup(X, y, rng)
        d = X.shape[1]
        # a screened fit's test pass draws from its own stream, so that its selected_ does not depend on how
        # many draws the screens and the exact iterations made
        test_rng = rng
        if self.screen_above is not None and d > self.screen_above:
            test_rng = np.random.RandomState(rng.randint(2**31 - 1))
        surv = np.arange(d)
        fixed = np.zeros(d, dtype=bool)
        streak = np.zeros(d, dtype=int)
        evidence = np.zeros(d)
        order = []  # culled features, worst first
        protected = np.zeros(d, dtype=bool)  # the second-order screen's pairs: never culled by the screen
        self.screen_pairs_ = np.empty((0, 2), dtype=int)
        self.screen_pair_scores_ = np.empty(0)
        if self.screen_above is not None and d > self.screen_above and self.screen_pairs > 0:
            self.screen_pairs_, self.screen_pair_scores_ = pair_product_screen(problem.X, y, self.screen_pairs)
            protected[self.screen_pairs_.ravel()] = True
        hist = dict(c=[], se=[], z=[], width=[], align=[], n_subsets=[], n_batches=[], screen=[], support=[])
        while surv.size > self.min_features and not np.all(fixed[surv]):
            hist["support"].append(surv.copy())
            n = surv.size
            n_prot = int(protected[surv].sum())
            screening = self.screen_above is not None and d > self.screen_above and n - n_prot > self.screen_to
            if hist["screen"] and hist["screen"][-1] and not screening:
                evidence[surv] = 0.0  # the exact iterations start their own evidence (see Notes)
            if screening:
                N = self.screen_subsets
                c, se, mult, mean_a = _screen_iteration(
                    problem, surv, N, self.batch_size, self.screen_width, self.estimator, rng
                )
                z = _normal_scores(c, se, _n_batches(N, self.batch_size))
            else:
                N = self._n_subsets(n)
                c, se, mult, mean_a, z = _iteration(
                    problem, surv, N, self.batch_size, grid, self.estimator, rng, self.width_scale,
                    self.width_rule,
                )
            for key, row_vals in (("c", c), ("se", se), ("z", z)):
                row = np.full(d, np.nan)
                row[surv] = row_vals
                hist[key].append(row)
            hist["width"].append(mult)
            hist["align"].append(mean_a)
            hist["n_subsets"].append(N)
            hist["n_batches"].append(_n_batches(N, self.batch_size))
            hist["screen"].append(screening)
            if self.fix_after is not None:
                n_top = max(1, int(np.ceil(self.top_fraction * n)))
                top = surv[np.argsort(-c, kind="stable")[:n_top]]
                hit = np.zeros(d, dtype=bool)
                hit[top] = True
                streak[surv] = np.where(hit[surv], streak[surv] + 1, 0)
                fixed |= streak >= self.fix_after
            free_idx = np.flatnonzero(~fixed[surv] & ~(protected[surv] if screening else False))
            if screening:  # down by SCREEN_CULL_FRACTION, but not below screen_to (besides the protected pairs)
                n_cull = min(max(1, int(np.floor(SCREEN_CULL_FRACTION * n))), n - n_prot - self.screen_to)
            else:
                n_cull = max(1, int(np.floor(self.cull_fraction * n)))
            n_cull = min(n_cull, n - self.min_features, free_idx.size)
            evidence[surv] += z
            key = evidence[surv] if self.cull_by == "evidence" else c
            worst = free_idx[np.argsort(key[free_idx], kind="stable")[:n_cull]]
            order.extend(surv[worst].tolist())
            surv = np.delete(surv, worst)
        hist["support"].append(surv.copy())
        if hist["c"]:  # the final survivors, worst first by the culling key
            last = evidence[surv] if self.cull_by == "evidence" else hist["c"][-1][surv]
            surv_sorted = surv[np.argsort(np.nan_to_num(last, nan=-np.inf), kind="stable")]
        else:
            surv_sorted = surv
        order.extend(surv_sorted.tolist())
        ranking, scores = ranking_from_order(order[::-1], d)

        n_it = len(hist["c"])
        self.contributions_ = np.array(hist["c"]).reshape(n_it, d)
        self.contribution_se_ = np.array(hist["se"]).reshape(n_it, d)
        self._scores_history = np.array(hist["z"]).reshape(n_it, d)
        self.support_history_ = hist["support"]
        self.widths_ = np.asarray(hist["width"], dtype=float)
        self.mean_alignment_ = np.asarray(hist["align"], dtype=float)
        self.n_subsets_ = np.asarray(hist["n_subsets"], dtype=int)
        self.n_batches_ = np.asarray(hist["n_batches"], dtype=int)
        self.screened_ = np.asarray(hist["screen"], dtype=bool)
        self.fixed_ = np.flatnonzero(fixed)
        self.evidence_ = evidence
        self.n_iterations_ = n_it
        self.subsample_ = problem.s
        self.ranking_ = ranking
        self.scores_ = scores
        self.n_permutations_ = self._n_permutations_for(bool(self.screened_.any()))
        self.test_zscores_ = self.null_max_zscores_ = None
        if self.n_permutations_:  # the real labels and their permutations on shared subsamples and halves
            ys = np.array([y] + [y[test_rng.permutation(y.shape[0])] for _ in range(self.n_permutations_)])
            n_sets = TEST_SUBSETS_FACTOR * self.screen_subsets
            z = _screen_test_scores(problem.X, ys, problem.kind, problem.s, n_sets, max(1, n_sets // TEST_BATCHES),
                                    self.screen_width, self.estimator, test_rng)
            self.test_zscores_, self.null_max_zscores_ = z[0], z[1:].max(axis=1)
        self._select()
        if self.n_features_to_select is None and self.selected_.size == 0:
            warnings.warn(self._empty_message("fit"), EmptySelectionWarning, stacklevel=2)
        return self

    def _empty_message(self, where):
        """What an empty ``selected_`` means and what to set (the fit's warning and transform's error)."""
        test = (
            f"a permutation test of the maximum with {self.n_permutations_} label permutations"
            if self.screened_.any()
            else "a Bonferroni test over the run's iterations, confirmed at the next one"
        )
        head = {
            "fit": "RandSel selected no feature",
            "transform": "RandSel.transform returns no column (the next step of a pipeline will fail on it)",
        }[where]
        return (
            f"{head}: no feature's contribution was significantly positive at alpha={self.alpha} ({test}; "
            f"smallest p-value {float(np.min(self.pvalues_)) if self.pvalues_.size else 1.0:.3g}). "
            "Set n_features_to_select=k to keep the top k features of ranking_ instead, or a larger alpha."
        )

    def transform(self, X):
        """Keep the selected columns of ``X``.

        With ``n_features_to_select=None`` and an empty ``selected_`` this
        returns an array of no column, as scikit-learn's selectors do, and
        warns (:class:`EmptySelectionWarning`) with what to set, so that the
        next step of a pipeline, which fails on it, is not the first word on
        the cause. Features are never substituted: a fixed-size selection is
        ``n_features_to_select``.
        """
        check_is_fitted(self)
        if self.n_features_to_select is None and self.selected_.size == 0:
            warnings.warn(self._empty_message("transform"), EmptySelectionWarning, stacklevel=2)
            with warnings.catch_warnings():  # scikit-learn's own, less specific warning of the same event
                warnings.filterwarnings("ignore", message="No features were selected", category=UserWarning)
                return super().transform(X)
        return super().transform(X)

    def _n_permutations_for(self, screened):
        if not screened:
            return 0
        if self.n_permutations != "auto":
            return int(self.n_permutations)
        if self.n_features_to_select is not None:
            return 0
        return min(MAX_AUTO_PERMUTATIONS, math.ceil(1.0 / self.alpha - 1e-9) - 1)

    def _select(self):
        """Per-iteration statistics, p-values and the error-controlled selected set."""
        d = self.n_features_in_
        n_it = self.n_iterations_
        Z = np.full((n_it, d), np.nan)  # c / se as normal scores (through t with n_batches - 1 df)
        tested = ~self.screened_
        for it in range(n_it):
            surv = self.support_history_[it]
            if not tested[it]:  # a screen's first-order statistics are not tested (see Notes)
                continue
            Z[it, surv] = self._scores_history[it, surv]
        P = norm.sf(Z)
        n_tests = sum(s.size for s, t in zip(self.support_history_[:n_it], tested) if t)
        level = self.alpha / max(n_tests, 1)
        P0 = np.nan_to_num(P, nan=1.0)
        sig, confirmed = P0 <= level, P0 <= self.alpha
        best, best_size = None, 0
        sets = []
        for it in range(n_it):
            # significant at iteration it, confirmed at it + 1 (fresh partitions and subsamples)
            ok = sig[it] & confirmed[it + 1] if it + 1 < n_it else np.zeros(d, dtype=bool)
            chosen = np.flatnonzero(ok)
            sets.append(chosen)
            if chosen.size > 0 and chosen.size >= best_size:
                best, best_size = it, chosen.size
        self.zscores_history_ = Z
        self.pvalues_history_ = P
        if self.screened_.any():  # the exact iterations' test is biased by the screen: a permutation test
            self._select_by_permutations()
            return
        self.selected_per_iteration_ = sets
        self.selected_ = sets[best] if best is not None else np.array([], dtype=int)
        self.selected_iteration_ = best
        it = best if best is not None else int(np.argmax(tested)) if tested.any() else 0
        if n_it:
            # adjusted so that selected_ == (pvalues_ <= alpha) at that iteration: Bonferroni at it,
            # the confirmation at it + 1 as it is
            nxt = P0[it + 1] if it + 1 < n_it else np.ones(d)
            self.zscores_ = Z[it]
            self.pvalues_ = np.minimum(1.0, np.maximum(P0[it] * max(n_tests, 1), nxt))
        else:
            self.zscores_ = np.full(d, np.nan)
            self.pvalues_ = np.ones(d)

    def _select_by_permutations(self):
        """``selected_`` of a screened fit: the test pass's scores against the permuted maxima."""
        d, n_it = self.n_features_in_, self.n_iterations_
        if self.n_permutations_:
            z, null = self.test_zscores_, self.null_max_zscores_
            p = (1.0 + np.sum(null[None, :] >= z[:, None], axis=1)) / (1.0 + null.size)
        else:
            z, p = np.full(d, np.nan), np.ones(d)
        chosen = np.flatnonzero(p <= self.alpha)
        self.selected_per_iteration_ = [chosen] + [np.array([], dtype=int)] * (n_it - 1)
        self.selected_ = chosen
        self.selected_iteration_ = 0 if chosen.size else None
        self.zscores_ = z
        self.pvalues_ = p

    def _get_support_mask(self):
        check_is_fitted(self)
        if self.n_features_to_select is not None:
            return top_k_mask(self.ranking_, self.n_features_to_select)
        mask = np.zeros(self.n_features_in_, dtype=bool)
        mask[self.selected_] = True
        return mask


def expected_contributions(X, y, **params):
    """One randSel pass over all features, without culling.

    Figure 1 of "Principled Non-Linear Feature Selection" (200-d XOR, a
    subsample of 1,000 and 10,000 partitions): with enough partitions and
    samples the relevant features' contributions stand clear of all others.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    **params
        :class:`RandSel` parameters (``n_subsets``, ``subsample``,
        ``batch_size``, ``width``, ``estimator``, ``balanced``,
        ``label_kernel``, ``standardize``, ``random_state``).

    Returns
    -------
    contributions : ndarray of shape (n_features,)
        The estimated contribution ``c_j`` of every feature.
    standard_errors : ndarray of shape (n_features,)
        Their standard errors over partitions and subsamples.
    width : float
        The width multiplier used.
    mean_alignment : float

    Examples
    --------
    >>> from fscompbio.datasets import make_dataset
    >>> ds = make_dataset("xor", random_state=0, n_features=10)
    >>> c, se, width, _ = expected_contributions(ds.X, ds.y, n_subsets=400, random_state=0)
    >>> sorted(np.argsort(-c)[:2].tolist())
    [0, 1]
    """
    sel = RandSel(**params)
    sel._validate_params()
    X, y = validate_data(sel, X, y, dtype=np.float64)
    rng = check_random_state(sel.random_state)
    problem, grid = sel._setup(X, y, rng)
    d = X.shape[1]
    return _iteration(
        problem, np.arange(d), sel._n_subsets(d), sel.batch_size, grid, sel.estimator, rng, sel.width_scale,
        sel.width_rule,
    )[:4]
