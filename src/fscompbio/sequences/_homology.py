"""Homology clusters of sequence prefixes, for cross-validation without close homologues across folds.

Random sequence-level cross-validation lets a test sequence keep a close
homologue (an ortholog, a paralog, a family member) in the training set, which
makes accuracy optimistic. :func:`homology_clusters` links two prefixes whose
ungapped identity, at the best of a few relative offsets, reaches a threshold,
and returns the single-linkage clusters (connected components): splitting folds
by cluster keeps every linked pair on one side.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components

from ._encoding import one_hot_windows, residue_codes

__all__ = ["prefix_identity", "homology_clusters"]


def _check(identity, max_shift):
    if isinstance(max_shift, bool) or not isinstance(max_shift, Integral) or max_shift < 0:
        raise ValueError(f"max_shift must be an int >= 0; got {max_shift!r}")
    if identity is not None and (not isinstance(identity, Real) or not 0 < identity <= 1):
        raise ValueError(f"identity must be a number in (0, 1]; got {identity!r}")


def prefix_identity(prefixes, *, max_shift=5):
    """Pairwise identity of equal-length prefixes, the best over offsets of up to ``max_shift`` residues.

    Parameters
    ----------
    prefixes : sequence of str
        Equal-length sequences of standard residues (e.g. the 50-residue prefixes).
    max_shift : int, default=5
        Offsets ``-max_shift .. max_shift`` of one sequence against the other
        are tried (an ungapped alignment on each diagonal of the dot plot).

    Returns
    -------
    identity : ndarray of shape (n, n), float32
        ``max_s #{p : a[p] == b[p + s]} / L`` for prefixes of length ``L``;
        symmetric, 1 on the diagonal.

    Notes
    -----
    One (n, L*20) x (L*20, n) product of one-hot codes per offset, so all pairs
    of the 2,849 study prefixes take a few seconds. Memory is ``n^2`` float32.
    An ungapped diagonal is a deliberately strict notion of similarity: on these
    hydrophobic, low-complexity signal sequences a gapped global alignment gives
    random pairs high identities, so a gapped threshold links unrelated
    sequences into one giant cluster (the identities of random pairs under both
    are in ``docs/deviations.md``, cross-validation of chapter 5).

    Examples
    --------
    >>> prefix_identity(["AAAAKLLV", "AAAAKLLV", "KLLVAAAA"], max_shift=0).round(2).tolist()[0]
    [1.0, 1.0, 0.0]
    """
    _check(None, max_shift)
    codes = residue_codes(prefixes)
    n, L = codes.shape
    if n == 0:
        return np.zeros((0, 0), dtype=np.float32)
    if max_shift >= L:
        raise ValueError(f"max_shift must be smaller than the prefix length {L}; got {max_shift}")
    O = one_hot_windows(codes).reshape(n, L, 20)
    best = np.zeros((n, n), dtype=np.float32)
    for s in range(0, max_shift + 1):
        A = O[:, s:, :].reshape(n, -1)
        B = O[:, : L - s, :].reshape(n, -1)
        M = A @ B.T  # M[i, j] = identities of i shifted by s against j
        np.maximum(best, M, out=best)
        np.maximum(best, M.T, out=best)
    best /= L
    return best


def homology_clusters(prefixes, *, identity=0.4, max_shift=5):
    """Single-linkage clusters of prefixes linked at ``identity`` or more.

    Parameters
    ----------
    prefixes : sequence of str
        Equal-length sequences of standard residues.
    identity : float, default=0.4
        Link two prefixes when :func:`prefix_identity` >= this. The default,
        40% over 50 residues, is far above the background of unrelated signal
        sequences (99th percentile 22%) and gives 1,697 clusters for the 2,849
        study prefixes, the largest of 81 sequences; at 30% a cluster of 953
        sequences forms, too large for 10 balanced folds.
    max_shift : int, default=5

    Returns
    -------
    labels : ndarray of shape (n,), int
        Cluster of every prefix, numbered by first appearance (0, 1, ...).
        Identical prefixes always share a cluster.

    Examples
    --------
    >>> homology_clusters(["AAAAKLLV", "AAAAKLLV", "WWWWPPPP"]).tolist()
    [0, 0, 1]
    """
    _check(identity, max_shift)
    S = prefix_identity(prefixes, max_shift=max_shift)
    n = S.shape[0]
    if n == 0:
        return np.zeros(0, dtype=int)
    linked = sparse.csr_matrix(S >= np.float32(identity) - np.float32(1e-6))  # guard: float32 round-off of k/L
    _, labels = connected_components(linked, directed=False)
    # renumber by first appearance, so the labels do not depend on scipy's traversal order
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first, kind="stable")
    remap = np.empty(order.size, dtype=int)
    remap[order] = np.arange(order.size)
    return remap[labels]
