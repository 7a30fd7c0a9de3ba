"""randSel's inference: contributions and standard errors from batches, normal scores, their adjustment.

The tests built on them (the Bonferroni test confirmed at the next iteration, and the permutation test of the
maximum after a screen) are :class:`fscompbio.selection.RandSel`'s ``selected_``; see its Notes.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import log_ndtr, ndtri_exp
from scipy.stats import norm, pearson3, skew
from scipy.stats import t as student_t


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


def _normal_scores(c, se, n_batches):
    """``c / se`` as standard normal scores: through the t distribution with ``n_batches - 1`` degrees of
    freedom (the standard error is estimated between batches), so that its heavier tails do not pass for
    evidence. No standard error (a single batch): 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        t = c / se
    z = norm.isf(student_t.sf(t, max(n_batches - 1, 1)))
    return np.nan_to_num(np.clip(z, -40.0, 40.0), nan=0.0)


def _tail_scores(c, null_c):
    """Normal scores of contributions ``c`` against those of null data sets at the same width, ``null_c`` (the
    same features with permuted labels, on the same subsamples and partitions): the upper tail of a Pearson type
    III law with the null's mean, standard deviation and skewness.

    With many partitions on many samples a contribution's standard error measures only the partitions' Monte
    Carlo noise, given the data, and at a wide width an irrelevant feature's contribution is about its squared
    chance correlation with the label: positive given the data, chi-squared across features, so ``c / se`` grows
    with the partitions whatever the signal. The null data sets' contributions have that law, the same
    partitions' noise included; a Pearson type III (a shifted, scaled gamma; a normal when the skewness is 0)
    matches its first three moments and so its right skew. Scores are clipped to [-40, 40]; a p-value below
    1e-300 counts as 1e-300."""
    m0 = float(np.mean(null_c))
    s0 = max(float(np.std(null_c, ddof=1)), 1e-300)
    k0 = float(skew(null_c))
    k0 = k0 if np.isfinite(k0) else 0.0  # a constant null (no alignment anywhere): no skew
    p = pearson3.sf(c, k0, loc=m0, scale=s0)
    return np.clip(norm.isf(np.maximum(p, 1e-300)), -40.0, 40.0)


def _max_of_k_scores(z, k):
    """Normal scores ``z``, each the largest of ``k`` positively correlated tests, adjusted for the choice:
    Sidak's ``isf(1 - (1 - sf(z))^k)``, valid for the maximum of positively correlated normal scores
    (Slepian's inequality) and monotone over the whole line, so that the adjusted scores keep the order of
    the negative ones as well (a Bonferroni ``min(1, k sf(z))`` sends every score below ``isf(1 / k)`` to
    the same floor, which the evidence summed over the iterations must not see). In the tail, where the
    two agree, it is computed from ``log sf`` so that scores far out keep their order."""
    z = np.asarray(z, dtype=float)
    if k == 1:
        return z
    logsf = norm.logsf(z)
    tail = logsf + math.log(k) < math.log(1e-6)
    with np.errstate(over="ignore"):
        out = np.where(tail, norm.isf(np.exp(np.minimum(logsf + math.log(k), 0.0))),
                       ndtri_exp(k * log_ndtr(np.where(tail, 0.0, z))))
    return np.clip(out, -40.0, 40.0)


def confirmed_sets(P, n_tests, alpha):
    """The iterations' Bonferroni test of the contributions, confirmed at the next iteration.

    ``P`` (``(n_iterations, n_features)``): each iteration's one-sided p-values (1 where a feature was not
    tested). The set of iteration ``it``: the features significant at ``alpha / n_tests`` there and at
    ``alpha`` at ``it + 1`` (fresh partitions and subsamples); the last iteration's set is empty. Returns the
    sets and the iteration of the largest non-empty one (ties: the later; None when all are empty).
    """
    n_it, d = P.shape
    sig, confirmed = P <= alpha / max(n_tests, 1), P <= alpha
    best, best_size, sets = None, 0, []
    for it in range(n_it):
        ok = sig[it] & confirmed[it + 1] if it + 1 < n_it else np.zeros(d, dtype=bool)
        chosen = np.flatnonzero(ok)
        sets.append(chosen)
        if chosen.size > 0 and chosen.size >= best_size:
            best, best_size = it, chosen.size
    return sets, best
