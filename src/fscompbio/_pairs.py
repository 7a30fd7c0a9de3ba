"""The pairwise-kernel algebra: Gaussian kernels on the sample pairs ``a < b``, their centred alignments,
HSIC and gradients, batched.

A Gaussian kernel on ``m`` points has unit diagonal and is symmetric, so it is determined by its
``P = m (m - 1) / 2`` upper-triangle entries. A stack of ``B`` kernels is then a ``(P, B)`` matrix, and

* the squared distances of ``B`` feature subsets are **one matrix product** ``D2 = T @ M`` of the
  per-feature squared-difference tensor ``T`` (``(P, d)``, ``T[p, i] = (x_ai - x_bi)^2``) with the 0/1
  subset mask ``M`` (``(d, B)``), formed whole (:func:`pair_sq_diffs`, :class:`PairTensor`) or block by
  block of pairs (:func:`pair_product`, :func:`transpose_product`);
* the product structure of the Gaussian kernel, ``K(S without i) = K(S) / exp(-gamma D_i)`` and
  ``K(S with j) = K(S) * exp(-gamma D_j)`` (elementwise), is applied in the log domain as
  ``exp(-gamma (D2_S -/+ T[:, i]))``, which is the same update without overflow;
* HSIC (biased HSIC0 or unbiased HSIC1 of Song et al. 2007) is a *linear* functional of the kernel,
  ``hsic = c0 + w . K_pairs`` (:func:`hsic_pair_weights`), so all candidates are scored by one
  matrix-vector product;
* the centred alignment (thesis definition 2.3.1; Cortes, Mohri & Rostamizadeh 2012) of every kernel of
  a stack needs only ``<K, Lc>`` and ``||H K H||_F`` (:func:`batched_alignment`), and its gradient with
  respect to the kernel's entries is as cheap (``gradient=True``).

Every function here is tested against :mod:`fscompbio.kernels` (the reference, one square kernel at a
time). The chapter-3 KTA model selection, randSel and the HSIC selectors are built on it.

References
----------
.. [1] Cortes, Mohri and Rostamizadeh (2012). Algorithms for learning kernels based on centered
   alignment. JMLR 13:795-828.
.. [2] Song, Smola, Gretton, Borgwardt and Bedo (2007). Supervised feature selection via dependence
   estimation. ICML.
"""

from __future__ import annotations

import math
from functools import cached_property, lru_cache

import numpy as np
import scipy.sparse as sp

from .kernels import center

__all__ = [
    "PairLayout",
    "PairTensor",
    "Workspace",
    "pair_sq_diffs",
    "pair_sq_diffs32",
    "pair_rows32",
    "pair_blocks",
    "pair_product",
    "transpose_product",
    "whole_pair_tensor",
    "hsic_pair_weights",
    "batched_hsic",
    "CenteredTarget",
    "CenteredTargets",
    "batched_alignment",
    "batched_alignments_f32",
    "pairs_to_square",
]

#: memory budget (bytes) for one cached per-feature squared-difference tensor (:class:`PairTensor`)
TENSOR_BUDGET = 512 * 2**20

#: bytes of one block of candidate kernels in ``candidate_hsic``: small enough to stay in the cache
#: between the passes (combine, scale, exp, subtract, dot), large enough that
#: numpy's per-call overhead does not count (``bench/bench_hsic_candidates.py`` (b) times the block
#: sizes).
BLOCK_BYTES = 2 * 2**20

#: bytes of one block of pair rows in :func:`pair_blocks` (stays in the cache between the square and the
#: product that follows)
PAIR_BLOCK_BYTES = 4 * 2**20

#: entries (pairs x features) up to which :func:`pair_rows32` gathers a block's pairs at once rather than looping
#: over its samples (a subsample of 20 has 190 pairs: the loop's per-sample calls cost more than the copies)
GATHER_MAX = 65536


# --------------------------------------------------------------------------
# The pairs and their squared differences
# --------------------------------------------------------------------------
class PairLayout:
    """Indices of the upper-triangle pairs ``a < b`` of ``m`` samples.

    Attributes
    ----------
    m : int
    ia, ib : ndarray of shape (P,)
        The two ends of each pair, ``P = m (m - 1) / 2``.
    incidence : scipy.sparse.csr_matrix of shape (m, P)
        ``incidence[a, p] = 1`` when sample ``a`` is an end of pair ``p``; so the
        row sums of a stack of kernels are ``1 + incidence @ K_pairs``.
    incidence32 : scipy.sparse.csr_matrix of shape (m, P)
        The same in float32, made once per layout (every subsample of a size shares it).
    """

    def __init__(self, m):
        m = int(m)
        if m < 2:
            raise ValueError(f"Gaussian-kernel selection needs at least 2 samples; got one sample (m={m})")
        self.m = m
        self.ia, self.ib = np.triu_indices(m, k=1)
        P = self.ia.size
        rows = np.concatenate([self.ia, self.ib])
        cols = np.concatenate([np.arange(P), np.arange(P)])
        self.incidence = sp.csr_matrix((np.ones(2 * P), (rows, cols)), shape=(m, P))

    @property
    def n_pairs(self):
        return self.ia.size

    @cached_property
    def incidence32(self):
        return self.incidence.astype(np.float32)

    def take(self, A):
        """Upper-triangle entries of a square ``(m, m)`` matrix as ``(P,)``."""
        return np.asarray(A)[self.ia, self.ib]


def pair_sq_diffs(X, layout, features=None, *, dtype=np.float64):
    """Per-feature squared differences ``T[p, i] = (x_{a_p i} - x_{b_p i})^2``.

    Parameters
    ----------
    X : ndarray of shape (m, d)
    layout : PairLayout
    features : array-like of int, default=None
        Columns to use (all when None).

    Returns
    -------
    T : ndarray of shape (P, len(features))
    """
    Xf = X if features is None else X[:, features]
    Xf = np.asarray(Xf, dtype=dtype)
    T = Xf[layout.ia] - Xf[layout.ib]
    np.square(T, out=T)
    return T


class PairTensor:
    """The per-feature squared-difference tensor, cached when it fits in memory.

    The cache holds one contiguous float32 row of ``P`` pair values per feature
    (``rows``, shape ``(d, P)``, C order; ``T = rows.T``), so the rows of a block
    of candidates are read with one streaming pass (a single slice when the
    candidates are consecutive). ``get(cols)`` returns ``T[:, cols]``. When
    ``P * d`` float32 entries exceed :data:`TENSOR_BUDGET` the rows are
    recomputed from ``X`` on demand (one subtraction per element, comparable
    to the exponential that follows).

    Attributes
    ----------
    cached : bool
    rows : ndarray of shape (d, P), float32, or None
        The cached tensor, one row per feature (None when not cached).
    chunk : int
        Columns per ~32 MB float32 chunk (for callers that gather columns).
    block : int
        Rows per block of :data:`BLOCK_BYTES` in :func:`~fscompbio.selection._hsic.candidate_hsic`.
    """

    def __init__(self, X, layout, *, budget=None):
        budget = TENSOR_BUDGET if budget is None else budget
        self.X = X
        self.layout = layout
        P = max(layout.n_pairs, 1)
        self.cached = layout.n_pairs * X.shape[1] * 4 <= budget
        self.rows = self.compute_rows(np.arange(X.shape[1])) if self.cached else None
        # columns per chunk so that one float32 chunk stays within ~32 MB
        self.chunk = max(1, int(32 * 2**20 // (4 * P)))
        self.block = max(1, int(BLOCK_BYTES // (4 * P)))

    @property
    def T(self):
        """The cached tensor as ``(P, d)`` (a transposed view of ``rows``), or None."""
        return None if self.rows is None else self.rows.T

    def _check_cols(self, cols):
        """``cols`` as intp, rejecting indices outside ``[0, d)`` (the gathers use ``mode="clip"``)."""
        cols = np.asarray(cols, dtype=np.intp)
        d = self.X.shape[1]
        if cols.size and (cols.min() < 0 or cols.max() >= d):
            raise IndexError(f"feature indices must lie in [0, {d}); got {cols.min()}..{cols.max()}")
        return cols

    def compute_rows(self, cols, out=None):
        """``T[:, cols].T`` computed from ``X``: ``(len(cols), P)`` float32, C order.

        The pairs ``(a, b > a)`` of one sample ``a`` are consecutive in the
        layout, so the tensor is built with one vectorised subtraction per
        sample, ``(x_a - x_b)^2`` in float32 (the same arithmetic as gathering
        both ends of every pair, without gathers or temporaries of the
        tensor's size; ``bench/bench_hsic_candidates.py`` times the build).
        Fewer than ``m`` rows (a block of candidates when the tensor is not
        cached) are gathered instead.
        """
        cols = np.asarray(cols, dtype=np.intp)
        m = self.layout.m
        if out is None:
            out = np.empty((cols.size, self.layout.n_pairs), dtype=np.float32)
        Xt = np.ascontiguousarray(self.X[:, cols].T, dtype=np.float32)  # (c, m)
        if cols.size < m:  # a few rows (a block of candidates, uncached): gather both ends of every pair
            # mode="clip": the pair indices are valid, and take(..., out=) with the default
            # mode="raise" goes through a temporary buffer
            np.take(Xt, self.layout.ia, axis=1, out=out, mode="clip")
            out -= np.take(Xt, self.layout.ib, axis=1, mode="clip")
            np.square(out, out=out)
            return out
        start = 0
        for a in range(m - 1):
            o = out[:, start : start + m - 1 - a]  # the pairs (a, a+1), ..., (a, m-1)
            np.subtract(Xt[:, a : a + 1], Xt[:, a + 1 :], out=o)
            np.square(o, out=o)
            start += m - 1 - a
        return out

    def combine_rows(self, base, cols, out, op):
        """``out[k] = op(base, T[:, cols[k]])`` for a block of candidates (``out``: ``(len(cols), P)``).

        With the cache and consecutive ``cols`` the rows are read straight from
        the cache by ``op`` (one pass); otherwise they are gathered (or
        computed) into ``out`` first.
        """
        cols = self._check_cols(cols)
        if self.cached:
            if cols.size and cols[-1] - cols[0] == cols.size - 1 and np.all(np.diff(cols) == 1):
                return op(base, self.rows[cols[0] : cols[-1] + 1], out=out)
            np.take(self.rows, cols, axis=0, out=out, mode="clip")  # cols checked above
        else:
            self.compute_rows(cols, out=out)
        return op(base, out, out=out)

    def get(self, cols, out=None):
        """``T[:, cols]`` as a column-major float32 array (written into ``out``, shape
        ``(len(cols), P)`` C-order, when given: reusing one buffer avoids page faults)."""
        cols = self._check_cols(cols)
        if out is None:
            out = np.empty((cols.size, self.layout.n_pairs), dtype=np.float32)
        if self.cached:
            np.take(self.rows, cols, axis=0, out=out, mode="clip")  # cols checked above
        else:
            self.compute_rows(cols, out=out)
        return out.T

    def matvec_mask(self, features, weights=None):
        """``sum_{i in features} w_i T[:, i]`` (the squared distance of a set), accumulated in float64."""
        features = np.asarray(features, dtype=np.intp)
        out = np.zeros(self.layout.n_pairs)
        if self.cached and weights is None:
            for c in features:  # one contiguous row per feature, accumulated in float64
                out += self.rows[c]
            return out
        for start in range(0, features.size, self.chunk):
            cols = features[start : start + self.chunk]
            Tc = self.get(cols)
            if weights is None:
                out += Tc.sum(axis=1, dtype=np.float64)
            else:
                out += Tc.astype(np.float64) @ weights[start : start + self.chunk]
        return out


class Workspace:
    """Reusable float32 buffers, by name, for the blockwise pair products of one pass (fresh multi-megabyte
    arrays per batch cost page faults comparable to the arithmetic)."""

    def __init__(self):
        self._buf = {}

    def get(self, name, shape):
        size = int(np.prod(shape))
        buf = self._buf.get(name)
        if buf is None or buf.size < size:
            buf = self._buf[name] = np.empty(size, dtype=np.float32)
        return buf[:size].reshape(shape)


@lru_cache(maxsize=8)
def _triu_pairs(s):
    """``np.triu_indices(s, k=1)`` (the pairs of :class:`PairLayout` order), made once per size."""
    return np.triu_indices(s, k=1)


def pair_rows32(X, first, stop, out):
    """``(x_a - x_b)^2`` for the pairs ``(a, b > a)`` of the samples ``first <= a < stop`` of the float32 C-order
    ``X``, in :class:`PairLayout` order (one contiguous block of ``s - a - 1`` rows per sample), into ``out``.
    Returns the number of rows written.

    A block of at most :data:`GATHER_MAX` entries gathers both ends of its pairs at once; a larger one
    subtracts sample by sample (no copies of the block). Both compute ``x_b - x_a`` in float32, so the
    entries are the same bit for bit."""
    s, n = X.shape
    lo, hi = first * s - first * (first + 1) // 2, stop * s - stop * (stop + 1) // 2  # the pairs' rows
    o = hi - lo
    if o * n <= GATHER_MAX:
        ia, ib = _triu_pairs(s)
        np.subtract(X.take(ib[lo:hi], axis=0), X.take(ia[lo:hi], axis=0), out=out[:o])
    else:
        r = 0
        for a in range(first, stop):  # a loop over samples, each step a vectorised block of (s - a - 1) x n
            k = s - a - 1
            np.subtract(X[a + 1 :], X[a], out=out[r : r + k])
            r += k
    np.square(out[:o], out=out[:o])
    return o


def pair_sq_diffs32(Xr, start, stop, out=None):
    """``T[p, i] = (x_{a_p i} - x_{b_p i})^2`` for columns ``start:stop``, pairs ``a < b`` in
    :class:`PairLayout` order, float32 C-order: one contiguous row block per sample ``a``."""
    X = np.ascontiguousarray(Xr[:, start:stop], dtype=np.float32)
    s, c = X.shape
    T = np.empty((s * (s - 1) // 2, c), dtype=np.float32) if out is None else out
    pair_rows32(X, 0, s - 1, T)
    return T


def pair_blocks(X, ws, name="T"):
    """Yield ``(offset, T_block)``: the per-feature squared differences of the float32 C-order ``X`` on
    consecutive blocks of pairs in :class:`PairLayout` order (whole samples, about :data:`PAIR_BLOCK_BYTES`
    each), so that ``T`` is never formed whole (:func:`pair_product` and :func:`transpose_product` walk the
    pairs this way)."""
    s, n = X.shape
    rows = max(64, PAIR_BLOCK_BYTES // (4 * max(n, 1)))
    buf = ws.get(name, (rows + s, n))
    o = a = 0
    while a < s - 1:
        first, r = a, 0
        while a < s - 1 and r < rows:  # whole samples until the block holds `rows` pairs
            r += s - a - 1
            a += 1
        yield o, buf[: pair_rows32(X, first, a, buf)]
        o += r


def whole_pair_tensor(X, ws, name="T_whole"):
    """``T`` of the float32 C-order ``X`` in one piece when :func:`pair_blocks` walks it in a single block (the
    same entries, bit for bit), else None: a caller that needs ``T`` twice (:func:`pair_product`, then
    :func:`transpose_product`) passes it to both instead of squaring the pairs twice."""
    s, n = X.shape
    if s < 2 or s * (s - 1) // 2 > max(64, PAIR_BLOCK_BYTES // (4 * max(n, 1))):
        return None
    _, T = next(pair_blocks(X, ws, name))
    assert T.shape[0] == s * (s - 1) // 2  # one block holds every pair when they number at most its rows
    return T


def _blocks(X, ws, T):
    return pair_blocks(X, ws) if T is None else [(0, T)]


def pair_product(X, ws, M, out, chunk=None, T=None):
    """``T @ M`` for the pair differences ``T`` of the float32 C-order ``X`` (``(s, n)``) and ``M``
    (``(n, B)``, float32), written into ``out`` (``(P, B)``) walking the pairs in blocks (:func:`pair_blocks`),
    so that ``T`` is never formed whole. With ``chunk < n`` the features are summed in chunks of ``chunk``
    columns (float32 partial sums, as when ``T`` is formed a chunk of columns at a time). ``T``: the
    :func:`whole_pair_tensor` of ``X``, if the caller has it."""
    n = X.shape[1]
    for o, T in _blocks(X, ws, T):
        r = T.shape[0]
        if chunk is None or chunk >= n:
            np.matmul(T, M, out=out[o : o + r])
        else:
            acc = out[o : o + r]
            acc[...] = 0.0
            for start in range(0, n, chunk):
                acc += T[:, start : start + chunk] @ M[start : start + chunk]
    return out


def transpose_product(X, ws, V, T=None):
    """``T' V`` (float64, ``(n, k)``) for the pair differences ``T`` of ``X`` and ``V`` (``(P, k)``, float32),
    walking the pairs in blocks (``T``: the :func:`whole_pair_tensor` of ``X``, if the caller has it)."""
    out = np.zeros((X.shape[1], V.shape[1]))
    for o, T in _blocks(X, ws, T):
        out += T.T @ V[o : o + T.shape[0]]
    return out


# --------------------------------------------------------------------------
# HSIC and the centred alignment of a stack of kernels
# --------------------------------------------------------------------------
def hsic_pair_weights(L, layout, estimator="biased"):
    """HSIC as a linear functional of a unit-diagonal symmetric kernel.

    Returns ``(w, c0)`` with ``hsic(K, L) = c0 + w @ K_pairs`` for every
    symmetric ``K`` with ``diag(K) = 1`` (Gaussian kernels), where
    ``K_pairs = K[ia, ib]``.

    * ``"biased"`` (HSIC0, Song et al. 2007, eq. 4): ``tr(K H L H) / (m-1)^2 =
      (tr(Lc) + 2 sum_p K_p Lc_p) / (m-1)^2``.
    * ``"unbiased"`` (HSIC1, Song et al. 2007, eq. 5, diagonals of K and L zeroed):
      ``2 / (m (m-3)) sum_p K_p [L_p + 1'L~1 / ((m-1)(m-2)) - (l_a + l_b) / (m-2)]``
      with ``l = L~ 1``; the diagonal of K does not enter.
    """
    L = np.asarray(L, dtype=float)
    m = layout.m
    if L.shape != (m, m):
        raise ValueError(f"L must have shape ({m}, {m}); got {L.shape}")
    if estimator == "biased":
        Lc = center(L)
        scale = 1.0 / (m - 1) ** 2
        return 2.0 * scale * layout.take(Lc), float(np.trace(Lc) * scale)
    if estimator == "unbiased":
        if m < 4:
            raise ValueError(f"the unbiased HSIC needs m >= 4 samples; got {m}")
        return _hsic1_weights(*_without_diagonal(L), layout), 0.0
    raise ValueError(f"estimator must be 'biased' or 'unbiased'; got {estimator!r}")


def _without_diagonal(L):
    """``L~`` (``L`` with its diagonal zeroed) and its row sums ``l = L~ 1``."""
    Lt = L.copy()
    np.fill_diagonal(Lt, 0.0)
    return Lt, Lt.sum(axis=0)


def _hsic1_weights(Lt, l1, layout):
    """The HSIC1 pair weights of :func:`hsic_pair_weights` from :func:`_without_diagonal`'s ``L~`` and ``l``."""
    m = layout.m
    W = layout.take(Lt) + l1.sum() / ((m - 1) * (m - 2)) - (l1[layout.ia] + l1[layout.ib]) / (m - 2)
    return 2.0 * W / (m * (m - 3))


def batched_hsic(Kp, weights):
    """HSIC of every kernel of a stack ``Kp`` (``(P, B)``) from :func:`hsic_pair_weights`."""
    w, c0 = weights
    return c0 + w @ Kp


class CenteredTarget:
    """What the centred alignment needs of the label kernel, each part computed once, when first used.

    ``lc_pairs``, ``lc_trace``, ``lc_norm``: the centred label kernel (the ``"biased"`` alignment);
    ``w1_pairs``, ``ll1``: the HSIC1 weights and norm (``"unbiased"``); ``lc_pairs32``, ``w1_pairs32``: the
    weights in float32 (:func:`batched_alignments_f32`). An estimator's pass reads only its own parts.
    """

    def __init__(self, L, layout):
        self.L = np.asarray(L, dtype=float)
        self.layout = layout

    @cached_property
    def _biased(self):
        Lc = center(self.L)
        return self.layout.take(Lc), float(np.trace(Lc)), float(np.sqrt(np.einsum("ij,ij->", Lc, Lc)))

    lc_pairs = property(lambda self: self._biased[0])
    lc_trace = property(lambda self: self._biased[1])
    lc_norm = property(lambda self: self._biased[2])

    @cached_property
    def _unbiased(self):
        L, layout = self.L, self.layout
        m = layout.m
        if m < 4:  # the unbiased form (HSIC1) needs m >= 4
            return np.zeros(layout.n_pairs), 0.0
        Lt, l1 = _without_diagonal(L)
        w = _hsic1_weights(Lt, l1, layout)
        ll1 = float(np.einsum("ij,ij->", Lt, Lt) + l1.sum() ** 2 / ((m - 1) * (m - 2)) - 2.0 / (m - 2) * (l1 @ l1))
        return w * (m * (m - 3)) / 2.0, ll1

    w1_pairs = property(lambda self: self._unbiased[0])
    ll1 = property(lambda self: self._unbiased[1])

    @cached_property
    def lc_pairs32(self):
        return np.ascontiguousarray(self.lc_pairs, dtype=np.float32)

    @cached_property
    def w1_pairs32(self):
        return np.ascontiguousarray(self.w1_pairs, dtype=np.float32)


class CenteredTargets:
    """A stack of ``Q`` label kernels on the same samples (e.g. permuted labels), with what
    :func:`batched_alignments_f32` needs of each as arrays over the stack, each part computed once, when
    first used: the parts of :class:`CenteredTarget`, ``lc_pairs32`` and ``w1_pairs32`` of shape ``(P, Q)``,
    ``lc_trace``, ``lc_norm`` and ``ll1`` of shape ``(Q,)``. Built in a few array operations rather than one
    target at a time: on a small subsample the set-up of a target costs more than its alignments.
    """

    def __init__(self, Ls, layout):
        self.L = np.asarray(Ls, dtype=float)
        if self.L.ndim != 3 or self.L.shape[1:] != (layout.m, layout.m):
            raise ValueError(f"Ls must have shape (Q, {layout.m}, {layout.m}); got {self.L.shape}")
        self.layout = layout

    def __len__(self):
        return self.L.shape[0]

    @cached_property
    def _biased(self):
        Lc = center(self.L)
        lay = self.layout
        pairs = np.ascontiguousarray(Lc[:, lay.ia, lay.ib].T, dtype=np.float32)
        # the full reductions one target at a time: the same sums as CenteredTarget's, bit for bit
        return pairs, np.trace(Lc, axis1=1, axis2=2), np.sqrt([np.einsum("ij,ij->", A, A) for A in Lc])

    lc_pairs32 = property(lambda self: self._biased[0])
    lc_trace = property(lambda self: self._biased[1])
    lc_norm = property(lambda self: self._biased[2])

    @cached_property
    def _unbiased(self):
        lay, Q = self.layout, len(self)
        m = lay.m
        if m < 4:  # the unbiased form (HSIC1) needs m >= 4
            return np.zeros((lay.n_pairs, Q), dtype=np.float32), np.zeros(Q)
        Lt = self.L.copy()
        Lt[:, np.arange(m), np.arange(m)] = 0.0
        l1 = Lt.sum(axis=1)  # (Q, m): row sums without the diagonal (L is symmetric)
        s = l1.sum(axis=1)
        W = Lt[:, lay.ia, lay.ib] + (s / ((m - 1) * (m - 2)))[:, None] - (l1[:, lay.ia] + l1[:, lay.ib]) / (m - 2)
        sq = np.array([np.einsum("ij,ij->", A, A) for A in Lt])  # one target at a time, as CenteredTarget's
        ll1 = sq + s**2 / ((m - 1) * (m - 2)) - 2.0 / (m - 2) * np.array([v @ v for v in l1])
        return np.ascontiguousarray(W.T, dtype=np.float32), ll1

    w1_pairs32 = property(lambda self: self._unbiased[0])
    ll1 = property(lambda self: self._unbiased[1])


def _safe_ratio(num, denom):
    """``num / denom`` where ``denom > 0``, else 0 (an alignment with a zero centred kernel)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, num / np.where(denom > 0, denom, 1.0), 0.0)


def _centred_sq_norm(m, ssq, k1):
    """``||H K H||_F^2`` of a stack of unit-diagonal kernels, from the sums of their squared pair entries
    ``ssq`` (``(B,)``) and their row sums without the diagonal ``k1`` (``(m, B)``).

    ``||H K H||_F^2 = ||K||_F^2 - (2/m) ||K 1||^2 + (1'K1)^2 / m^2`` with ``||K||_F^2 = m + 2 ssq`` and
    ``K 1 = 1 + k1``; clipped at zero (round-off). Returns ``(norm^2, K 1, 1'K1)``.
    """
    row = 1.0 + k1
    total = row.sum(axis=0)
    kc_sq = m + 2.0 * ssq - (2.0 / m) * np.einsum("ab,ab->b", row, row) + total**2 / m**2
    return np.maximum(kc_sq, 0.0), row, total


def batched_alignment(Kp, target, estimator="biased", *, gradient=False, hold_norm=False):
    """Centred alignment (thesis definition 2.3.1) of every kernel of a stack, in float64.

    Parameters
    ----------
    Kp : ndarray of shape (P, B)
        Upper-triangle entries of ``B`` symmetric kernels with unit diagonal (float32 entries are
        taken in float64).
    target : CenteredTarget
    estimator : {"biased", "unbiased"}, default="biased"
        ``"biased"``: ``<H K H, H L H>_F / (||H K H||_F ||H L H||_F)``, equal to
        :func:`fscompbio.kernels.alignment`. ``"unbiased"``: the alignment built from the unbiased HSIC1
        of Song et al. (2007, eq. 5), ``HSIC1(K, L) / sqrt(HSIC1(K, K) HSIC1(L, L))``: the diagonals of K
        and L are removed, so a kernel close to the identity (a very small width) gains no alignment from
        its self-similarities (the bias of the centred alignment behind the falling curves of the thesis'
        figure 4.1).
    gradient : bool, default=False
        Also return ``da / dK_p``.
    hold_norm : bool, default=False
        With ``gradient``: the derivative with the kernel's norm held at its value, ``d num / dK_p /
        (||K|| ||L||)`` (the change of the numerator, HSIC1 or the centred inner product, on the alignment's
        scale), without the normalisation's term ``-a d||K|| / dK_p / ||K||``, which lowers an entry that adds
        to structure the kernel already has.

    Returns
    -------
    a : ndarray of shape (B,)
        ``0.0`` where the centred kernel (or an HSIC1) is zero.
    grad : ndarray of shape (P, B)
        Only with ``gradient=True``: the derivative of each alignment with respect to each pair entry of
        its kernel (a change of ``K_p`` moves both ``K_ab`` and ``K_ba``); zero where ``a`` is.

    Notes
    -----
    ``<H K H, Lc> = <K, Lc> = tr(Lc) + 2 Lc_pairs . K_pairs``; ``||H K H||_F^2`` as in
    :func:`_centred_sq_norm`, with ``K 1 = 1 + incidence @ K_pairs``. ``HSIC1(K, L) m (m - 3) =
    2 w1 . K_pairs`` (:func:`hsic_pair_weights`) and ``HSIC1(K, K) m (m - 3) = 2 ||K_pairs||^2 +
    (1'K~1)^2 / ((m-1)(m-2)) - 2 ||K~1||^2 / (m-2)`` with ``K~`` the kernel without its diagonal.
    """
    lay = target.layout
    m = lay.m
    Kd = np.asarray(Kp, dtype=np.float64)
    k1 = np.asarray(lay.incidence @ Kd)  # (m, B) row sums without the diagonal
    ssq = np.einsum("pb,pb->b", Kd, Kd)
    if estimator == "biased":
        num = target.lc_trace + 2.0 * (Kd.T @ target.lc_pairs)
        kk, row, total = _centred_sq_norm(m, ssq, k1)
        norm_l = target.lc_norm
    elif estimator == "unbiased":
        num = 2.0 * (Kd.T @ target.w1_pairs)
        s_k = k1.sum(axis=0)
        c = 1.0 / ((m - 1) * (m - 2))
        kk = np.maximum(2.0 * ssq + c * s_k**2 - 2.0 / (m - 2) * np.einsum("ab,ab->b", k1, k1), 0.0)
        norm_l = math.sqrt(max(target.ll1, 0.0))
    else:
        raise ValueError(f"estimator must be 'biased' or 'unbiased'; got {estimator!r}")
    denom = np.sqrt(kk) * norm_l
    a = _safe_ratio(num, denom)
    if not gradient:
        return a
    ia, ib = lay.ia, lay.ib
    if estimator == "biased":
        d_num = 2.0 * target.lc_pairs[:, None]
        d_kk = 4.0 * Kd - (4.0 / m) * (row[ia] + row[ib]) + 4.0 * total / m**2
    else:
        d_num = 2.0 * target.w1_pairs[:, None]
        d_kk = 4.0 * Kd + 4.0 * c * s_k - (4.0 / (m - 2)) * (k1[ia] + k1[ib])
    ok = denom > 0
    # d(num / sqrt(kk) / |L|) = d_num / (sqrt(kk) |L|) - a d_kk / (2 kk)
    grad = d_num / np.where(ok, denom, 1.0)
    if not hold_norm:
        grad = grad - (a / (2.0 * np.where(ok, kk, 1.0))) * d_kk
    grad[:, ~ok] = 0.0
    return a, grad


def batched_alignments_f32(K, target, estimator="unbiased", others=()):
    """Centred (``"biased"``) or HSIC1 (``"unbiased"``) alignments of a float32 stack of kernels.

    The same quantities as :func:`batched_alignment`, with the three sums over pairs (a dot
    product with the target's weights, the sum of squares and the row sums)
    taken in float32 and the rest in float64: half the memory traffic, and no
    float64 copy of the stack. Each sum has a relative rounding error of order
    ``1e-7 sqrt(P)``, far below the sampling noise of an alignment on ``m``
    points.

    Parameters
    ----------
    K : ndarray of shape (P, B), float32
        Upper-triangle entries of ``B`` symmetric kernels with unit diagonal.
    target : CenteredTarget
    estimator : {"biased", "unbiased"}
    others : CenteredTargets, optional
        Further targets on the same samples (e.g. permuted labels). Their
        alignments with the same kernels share the kernels' sums (one matrix
        product with all their weights) and are returned as a second array
        of shape ``(len(others), B)``; ``target``'s are computed as without them.
    """
    lay = target.layout
    m = lay.m
    k1 = np.asarray(lay.incidence32 @ K, dtype=np.float64)  # (m, B) row sums without the diagonal
    ssq = np.einsum("pb,pb->b", K, K).astype(np.float64)
    if estimator == "biased":
        kc = np.sqrt(_centred_sq_norm(m, ssq, k1)[0])
        num = target.lc_trace + 2.0 * (K.T @ target.lc_pairs32).astype(np.float64)
        a = _safe_ratio(num, kc * target.lc_norm)
        if not others:
            return a
        num_o = others.lc_trace[:, None] + 2.0 * (K.T @ others.lc_pairs32).T.astype(np.float64)
        return a, _safe_ratio(num_o, kc[None, :] * others.lc_norm[:, None])
    num = 2.0 * (K.T @ target.w1_pairs32).astype(np.float64)
    s_k = k1.sum(axis=0)
    # the rounding of this path's own (``/ ((m-1)(m-2))``, one square root of the product) is kept: its
    # alignments, and so randSel's exact iterations, stay bit for bit what they were
    kk = np.maximum(2.0 * ssq + s_k**2 / ((m - 1) * (m - 2)) - 2.0 / (m - 2) * np.einsum("ab,ab->b", k1, k1), 0.0)
    a = _safe_ratio(num, np.sqrt(kk * max(target.ll1, 0.0)))
    if not others:
        return a
    num_o = 2.0 * (K.T @ others.w1_pairs32).T.astype(np.float64)
    ll1_o = np.maximum(others.ll1, 0.0)
    return a, _safe_ratio(num_o, np.sqrt(kk[None, :] * ll1_o[:, None]))


def pairs_to_square(kp, m):
    """Rebuild the full ``(m, m)`` kernel (unit diagonal) from its pairs."""
    K = np.eye(m)
    ia, ib = np.triu_indices(m, k=1)
    K[ia, ib] = kp
    K[ib, ia] = kp
    return K
