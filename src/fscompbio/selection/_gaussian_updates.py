"""Batched Gaussian-kernel algebra shared by the chapter-4 selectors.

Everything here works on the *pairs* ``a < b`` of a sample: a Gaussian kernel
on ``m`` points has unit diagonal and is symmetric, so it is determined by its
``P = m (m - 1) / 2`` upper-triangle entries. A stack of ``B`` kernels is then
a ``(P, B)`` matrix, and

* the squared distances of ``B`` feature subsets are **one matrix product**
  ``D2 = T @ M`` of the per-feature squared-difference tensor ``T`` (``(P, d)``,
  ``T[p, i] = (x_ai - x_bi)^2``) with the 0/1 subset mask ``M`` (``(d, B)``);
* the product structure of the Gaussian kernel,
  ``K(S without i) = K(S) / exp(-gamma D_i)`` and
  ``K(S with j) = K(S) * exp(-gamma D_j)`` (elementwise), is applied in the log
  domain as ``exp(-gamma (D2_S -/+ T[:, i]))``, which is the same update without
  overflow;
* HSIC (biased HSIC0 or unbiased HSIC1 of Song et al. 2007) is a *linear* functional
  of the kernel, ``hsic = c0 + w . K_pairs`` (:func:`hsic_pair_weights`), so all
  candidates are scored by one matrix-vector product;
* the centred alignment of every kernel of a stack needs only ``<K, Lc>`` and
  ``||H K H||_F`` (:func:`batched_alignment`), both vectorised.

This module is private; its functions are tested against
:mod:`fscompbio.kernels` (the reference, one kernel at a time).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import type_of_target

from ..kernels import center

__all__ = [
    "PairLayout",
    "pair_sq_diffs",
    "hsic_pair_weights",
    "batched_alignment",
    "batched_hsic",
    "batched_unbiased_alignment",
    "batched_alignments_f32",
    "pairs_to_square",
]

#: memory budget (bytes) for one cached per-feature squared-difference tensor
TENSOR_BUDGET = 512 * 2**20

#: bytes of one block of candidate kernels in ``candidate_hsic``: small enough to stay in the cache
#: between the passes (combine, scale, exp, subtract, dot), large enough that
#: numpy's per-call overhead does not count (``bench/bench_hsic_candidates.py`` (b) times the block
#: sizes).
BLOCK_BYTES = 2 * 2**20


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
        Lt = L.copy()
        np.fill_diagonal(Lt, 0.0)
        l1 = Lt.sum(axis=0)
        W = layout.take(Lt) + l1.sum() / ((m - 1) * (m - 2)) - (l1[layout.ia] + l1[layout.ib]) / (m - 2)
        return 2.0 * W / (m * (m - 3)), 0.0
    raise ValueError(f"estimator must be 'biased' or 'unbiased'; got {estimator!r}")


def batched_hsic(Kp, weights):
    """HSIC of every kernel of a stack ``Kp`` (``(P, B)``) from :func:`hsic_pair_weights`."""
    w, c0 = weights
    return c0 + w @ Kp


class CenteredTarget:
    """What the centred alignment needs of the label kernel, computed once."""

    def __init__(self, L, layout):
        L = np.asarray(L, dtype=float)
        Lc = center(L)
        self.layout = layout
        self.lc_pairs = layout.take(Lc)
        self.lc_trace = float(np.trace(Lc))
        self.lc_norm = float(np.sqrt(np.einsum("ij,ij->", Lc, Lc)))
        m = layout.m
        if m >= 4:  # the unbiased form (HSIC1) needs m >= 4
            w, _ = hsic_pair_weights(L, layout, "unbiased")
            self.w1_pairs = w * (m * (m - 3)) / 2.0
            Lt = L.copy()
            np.fill_diagonal(Lt, 0.0)
            l1 = Lt.sum(axis=0)
            self.ll1 = float(
                np.einsum("ij,ij->", Lt, Lt) + l1.sum() ** 2 / ((m - 1) * (m - 2)) - 2.0 / (m - 2) * (l1 @ l1)
            )
        else:
            self.w1_pairs = np.zeros(layout.n_pairs)
            self.ll1 = 0.0


def batched_alignment(Kp, target):
    """Centred alignment (thesis definition 2.3.1) of a stack of kernels.

    Parameters
    ----------
    Kp : ndarray of shape (P, B)
        Upper-triangle entries of ``B`` symmetric kernels with unit diagonal.
    target : CenteredTarget

    Returns
    -------
    a : ndarray of shape (B,)

    Notes
    -----
    ``<H K H, Lc> = <K, Lc> = tr(Lc) + 2 Lc_pairs . K_pairs`` and
    ``||H K H||_F^2 = ||K||_F^2 - (2/m) ||K 1||^2 + (1'K1)^2 / m^2`` with
    ``||K||_F^2 = m + 2 sum K_p^2``, ``K 1 = 1 + incidence @ K_pairs``.
    """
    lay = target.layout
    m = lay.m
    # einsum, not BLAS gemv: when the cores are shared, a multi-threaded gemv of this size spends
    # longer waiting for its threads than computing
    num = target.lc_trace + 2.0 * np.einsum("p,pb->b", target.lc_pairs, Kp)
    k_sq = m + 2.0 * np.einsum("pb,pb->b", Kp, Kp)
    row = 1.0 + lay.incidence @ Kp  # (m, B) row sums
    total = row.sum(axis=0)
    kc_sq = k_sq - (2.0 / m) * np.einsum("ab,ab->b", row, row) + total**2 / m**2
    np.maximum(kc_sq, 0.0, out=kc_sq)  # clip round-off: a squared norm
    denom = np.sqrt(kc_sq) * target.lc_norm
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, num / np.where(denom > 0, denom, 1.0), 0.0)


def batched_unbiased_alignment(Kp, target):
    """Alignment built from the unbiased HSIC1 (Song et al. 2007, eq. 5) of a stack.

    ``A1(K, L) = HSIC1(K, L) / sqrt(HSIC1(K, K) HSIC1(L, L))``: the diagonals
    of K and L are removed, so a kernel close to the identity (a very small
    width) no longer gains alignment from its self-similarities (the bias of
    the centred alignment behind the falling curves of the thesis' figure
    4.1). ``0.0`` where either HSIC1 is not positive.
    """
    lay = target.layout
    m = lay.m
    c = 1.0 / ((m - 1) * (m - 2))
    num = 2.0 * np.einsum("p,pb->b", target.w1_pairs, Kp)  # HSIC1(K, L) * m (m - 3)
    k1 = lay.incidence @ Kp  # (m, B) row sums of K with zero diagonal
    s_k = k1.sum(axis=0)
    kk = 2.0 * np.einsum("pb,pb->b", Kp, Kp) + c * s_k**2 - 2.0 / (m - 2) * np.einsum("ab,ab->b", k1, k1)
    denom = np.sqrt(np.maximum(kk, 0.0) * max(target.ll1, 0.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, num / np.where(denom > 0, denom, 1.0), 0.0)


def pairs_to_square(kp, m):
    """Rebuild the full ``(m, m)`` kernel (unit diagonal) from its pairs."""
    K = np.eye(m)
    ia, ib = np.triu_indices(m, k=1)
    K[ia, ib] = kp
    K[ib, ia] = kp
    return K


def check_target(y):
    """Reject targets of unknown type with scikit-learn's 'Unknown label type' error."""
    type_of_target(y, input_name="y", raise_unknown=True)
    return y


def median_sq_distance(d2_pairs):
    """Median of the positive squared pair distances (1.0 if none)."""
    v = d2_pairs[d2_pairs > 0]
    return float(np.median(v)) if v.size else 1.0


def batched_alignments_f32(K, target, estimator="unbiased"):
    """Centred (``"biased"``) or HSIC1 (``"unbiased"``) alignments of a float32 stack of kernels.

    The same quantities as :func:`batched_alignment` and
    :func:`batched_unbiased_alignment`, with the three sums over pairs (a dot
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
    """
    lay = target.layout
    m = lay.m
    if not hasattr(target, "_f32"):
        target._f32 = (
            lay.incidence.astype(np.float32),
            np.ascontiguousarray(target.lc_pairs, dtype=np.float32),
            np.ascontiguousarray(target.w1_pairs, dtype=np.float32),
        )
    inc, lc, w1 = target._f32
    k1 = np.asarray(inc @ K, dtype=np.float64)  # (m, B) row sums without the diagonal
    ssq = np.einsum("pb,pb->b", K, K).astype(np.float64)
    if estimator == "biased":
        num = target.lc_trace + 2.0 * (K.T @ lc).astype(np.float64)
        row = 1.0 + k1
        total = row.sum(axis=0)
        kc_sq = m + 2.0 * ssq - (2.0 / m) * np.einsum("ab,ab->b", row, row) + total**2 / m**2
        np.maximum(kc_sq, 0.0, out=kc_sq)  # clip round-off: a squared norm
        denom = np.sqrt(kc_sq) * target.lc_norm
    else:
        num = 2.0 * (K.T @ w1).astype(np.float64)
        s_k = k1.sum(axis=0)
        kk = 2.0 * ssq + s_k**2 / ((m - 1) * (m - 2)) - 2.0 / (m - 2) * np.einsum("ab,ab->b", k1, k1)
        denom = np.sqrt(np.maximum(kk, 0.0) * max(target.ll1, 0.0))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denom > 0, num / np.where(denom > 0, denom, 1.0), 0.0)
