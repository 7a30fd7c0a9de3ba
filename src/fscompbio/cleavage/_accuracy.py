"""Cleavage-site accuracy: a sequence is right when its top-scoring window is the true cleavage window
(thesis 5.4.1)."""

from __future__ import annotations

import numpy as np

__all__ = ["cleavage_accuracy", "site_accuracy", "summarise_accuracy"]


def _check_scores_labels_groups(scores, y, groups):
    scores = np.asarray(scores, dtype=float)
    y = np.asarray(y)
    groups = np.asarray(groups)
    if not (scores.ndim == y.ndim == groups.ndim == 1) or not (scores.size == y.size == groups.size):
        raise ValueError(
            f"scores, y and groups must be 1-D of equal length; got shapes {scores.shape}, {y.shape}, {groups.shape}"
        )
    if scores.size == 0:
        raise ValueError("scores, y and groups are empty: no sequence to evaluate")
    if not np.all(np.isfinite(scores)):
        bad = np.flatnonzero(~np.isfinite(scores))
        raise ValueError(f"scores must be finite; windows {bad[:10].tolist()} have {scores[bad[:10]].tolist()}")
    labels = np.unique(y)
    if labels.size > 2:
        raise ValueError(f"y must be binary (positive = the cleavage window); got labels {labels.tolist()}")
    pos = y == labels.max() if labels.size == 2 else y > 0  # one label only: 1/+1 positive, 0/-1 not
    return scores, pos, groups


def cleavage_accuracy(scores, y, groups):
    """Fraction of sequences whose top-scoring window is the true cleavage window.

    Parameters
    ----------
    scores : array-like of shape (n_windows,)
        Higher = more likely the cleavage window (e.g. an SVM's
        ``decision_function`` or LPBoost-MKL's mean margin).
    y : array-like of shape (n_windows,)
        Binary labels; the larger label ({1} of {0, 1} or {+1} of {-1, +1})
        marks the cleavage window.
    groups : array-like of shape (n_windows,)
        Sequence identifier of each window; every sequence needs exactly one
        positive window.

    Returns
    -------
    accuracy : float
        In ``[0, 1]``. A sequence counts as right only when its true window's
        score is strictly larger than every other window's: a tie at the top
        counts as wrong, so a constant scorer scores 0, not an arbitrary value.

    Notes
    -----
    The criterion of thesis 5.4.1: "the window predicted as most likely to
    contain the cleavage site in its target position must coincide with the
    actual window containing the cleavage target site for the sequence".
    """
    scores, pos, groups = _check_scores_labels_groups(scores, y, groups)
    _, g = np.unique(groups, return_inverse=True)
    n_groups = g.max() + 1
    n_pos = np.bincount(g, weights=pos, minlength=n_groups).astype(int)
    if np.any(n_pos != 1):
        bad = np.flatnonzero(n_pos != 1)
        names = np.unique(groups)[bad[:10]].tolist()
        raise ValueError(
            f"every sequence needs exactly one positive window; sequences {names} have "
            f"{n_pos[bad[:10]].tolist()} positives"
        )
    true_score = np.empty(n_groups)
    true_score[g[pos]] = scores[pos]
    n_at_or_above = np.bincount(g, weights=scores >= true_score[g], minlength=n_groups)
    return float(np.mean(n_at_or_above == 1))


def site_accuracy(scores, y, groups, target, *, tolerances=(0, 1, 2)):
    """Fraction of sequences whose top-scoring window lies within ``k`` residues of the true cleavage window.

    The exact position (``k = 0``) is the criterion of the thesis (5.4.1) and
    of Nielsen, Engelbrecht, Brunak & von Heijne (1997), "Identification of
    prokaryotic and eukaryotic signal peptides and prediction of their
    cleavage sites"; a tolerance of one or two residues shows how far off the
    misses are.

    Parameters
    ----------
    scores, y, groups : array-like of shape (n_windows,)
        As in :func:`cleavage_accuracy`.
    target : array-like of int, shape (n_windows,)
        The position of each window in its sequence (its target residue).
    tolerances : sequence of int, default=(0, 1, 2)
        ``k`` of each figure; ``k = 0`` is :func:`cleavage_accuracy`.

    Returns
    -------
    accuracy : dict of int -> float
        ``{k: fraction}`` in the order of ``tolerances``. A tie at the top
        counts as wrong at every tolerance (as in :func:`cleavage_accuracy`).

    Examples
    --------
    >>> scores = [0.1, 0.9, 0.2, 0.8, 0.1, 0.0]
    >>> y = [0, 0, 1, 1, 0, 0]; groups = [0, 0, 0, 1, 1, 1]; target = [10, 11, 12, 10, 11, 12]
    >>> site_accuracy(scores, y, groups, target)
    {0: 0.5, 1: 1.0, 2: 1.0}
    """
    scores, pos, groups = _check_scores_labels_groups(scores, y, groups)
    target = np.asarray(target)
    if target.shape != scores.shape:
        raise ValueError(f"target must have one entry per window; got shape {target.shape} for {scores.size} windows")
    tol = [int(k) for k in tolerances]
    if any(k < 0 for k in tol):
        raise ValueError(f"tolerances must be >= 0; got {list(tolerances)}")
    _, g = np.unique(groups, return_inverse=True)
    n_groups = g.max() + 1
    n_pos = np.bincount(g, weights=pos, minlength=n_groups).astype(int)
    if np.any(n_pos != 1):
        bad = np.flatnonzero(n_pos != 1)
        raise ValueError(f"every sequence needs exactly one positive window; sequences "
                         f"{np.unique(groups)[bad[:10]].tolist()} have {n_pos[bad[:10]].tolist()} positives")
    true_target = np.empty(n_groups, dtype=target.dtype)
    true_target[g[pos]] = target[pos]
    order = np.lexsort((-scores, g))  # by sequence, best window first
    first = order[np.r_[True, g[order][1:] != g[order][:-1]]]  # the top window of each sequence, in group order
    n_at_top = np.bincount(g, weights=scores == scores[first][g], minlength=n_groups)
    off = np.abs(target[first] - true_target)
    return {k: float(np.mean((n_at_top == 1) & (off <= k))) for k in tol}


def summarise_accuracy(fold_accuracies):
    """Mean and sample standard deviation (ddof=1) over folds, in the input's units."""
    a = np.asarray(fold_accuracies, dtype=float)
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"fold_accuracies must be a non-empty 1-D sequence; got shape {a.shape}")
    return float(a.mean()), float(a.std(ddof=1)) if a.size > 1 else 0.0
