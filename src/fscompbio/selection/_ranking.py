"""Small helpers shared by the selectors: ranks from scores, subset sizes, top-k masks."""

from __future__ import annotations

import math
from numbers import Integral

import numpy as np

__all__ = ["ranking_from_order", "ranking_from_scores", "resolve_n_features", "top_k_mask"]


def ranking_from_scores(scores, *tiebreak, rtol=0.0):
    """``ranking_`` (1 = best) from ``scores_`` (higher = better), stable.

    Parameters
    ----------
    scores : ndarray of shape (n_features,)
    *tiebreak : ndarray of shape (n_features,)
        Secondary keys (higher = better) to break ties of ``scores``, in order;
        remaining ties go to the lower feature index.
    rtol : float, default=0.0
        Scores are first rounded to multiples of ``rtol`` times the largest
        finite ``|score|``, so that scores closer than that rank as ties. A
        tie in exact arithmetic (two features of equal correlation with the
        target) can come out of floating point equal on one CPU and one unit
        in the last place apart on another (their BLAS kernels round
        differently): without the rounding, the ranking, and every subset
        taken from it, would depend on the machine.

    Returns
    -------
    ranking : ndarray of shape (n_features,), int
    """
    scores = np.asarray(scores, dtype=float)
    if rtol > 0:
        finite = np.isfinite(scores)
        scale = float(np.max(np.abs(scores[finite]))) if finite.any() else 0.0
        if scale > 0:
            scores = np.where(finite, np.round(scores / (rtol * scale)), scores)
    keys = [-np.asarray(t, dtype=float) for t in reversed(tiebreak)] + [-scores]
    order = np.lexsort(keys)  # last key is primary; lexsort is stable
    ranking = np.empty(scores.size, dtype=np.intp)
    ranking[order] = np.arange(1, scores.size + 1)
    return ranking


def ranking_from_order(order_best_first, n_features):
    """``(ranking, scores)`` of an ordering of all features, best first (ranking 1 = best; scores ``d + 1 - rank``).

    For the greedy selectors that order every feature by inclusion (FoHSIC) or, reversed, by elimination
    (BaHSIC, kernel RFE).
    """
    ranking = np.empty(n_features, dtype=int)
    ranking[np.asarray(order_best_first, dtype=int)] = np.arange(1, n_features + 1)
    return ranking, (n_features + 1 - ranking).astype(np.float64)


def resolve_n_features(n_features_to_select, n_features):
    """An int count from an int or a fraction in (0, 1] (at least 1, at most n)."""
    if isinstance(n_features_to_select, Integral):
        return int(min(max(n_features_to_select, 1), n_features))
    return int(min(max(math.ceil(n_features_to_select * n_features - 1e-9), 1), n_features))


def top_k_mask(ranking, k):
    """Boolean mask of the ``k`` best-ranked features (ranking 1 = best; stable ties)."""
    ranking = np.asarray(ranking)
    mask = np.zeros(ranking.size, dtype=bool)
    mask[np.argsort(ranking, kind="stable")[: min(int(k), ranking.size)]] = True
    return mask
