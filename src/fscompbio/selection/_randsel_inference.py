"""randSel's inference: contributions and standard errors from batches, normal scores, their adjustment.

The tests built on them (the Bonferroni test confirmed at the next iteration, and the permutation test of the
maximum after a screen) are :class:`fscompbio.selection.RandSel`'s ``selected_``; see its Notes.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import norm
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


def _bonferroni_scores(z, k):
    """Normal scores ``z`` of the largest of ``k`` tests, adjusted: ``isf(min(1, k sf(z)))``, computed from
    ``log sf`` so that scores far in the tail keep their order."""
    if k == 1:
        return z
    logp = np.minimum(norm.logsf(z) + math.log(k), 0.0)
    return np.clip(norm.isf(np.exp(logp)), -40.0, 40.0)
