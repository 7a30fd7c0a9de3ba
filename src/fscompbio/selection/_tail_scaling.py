"""Feature scales for a Gaussian kernel whose width is set from the distances' bulk: unit variance where a
feature's tails are no heavier than a normal's, its bulk scaled apart from its tails where they are.

:class:`~fscompbio.selection.RandSel`'s ``standardize="auto_skip"`` and ``"auto"`` (``docs/randsel.md``,
sections 7, 9 and 15).
"""

from __future__ import annotations

import numpy as np
from scipy.stats import norm

from .._scaling import normal_scores, standardize
from ..kernels import task_of_target

__all__ = ["heavy_tailed", "outlying_values", "tail_adaptive_scale", "within_class_kurtosis"]

#: under ``standardize="auto_skip"``, a value of a heavy-tailed feature further than this many robust standard
#: deviations (1.4826 times the median absolute deviation) from the feature's median is an outlier
SKIP_CUTOFF = 3.0


def _outliers(X, cutoff=SKIP_CUTOFF):
    """:func:`outlying_values`' mask, with the columns' medians and which columns have a robust scale."""
    X = np.asarray(X, dtype=float)
    med = np.median(X, axis=0)
    dev = np.abs(X - med)
    scale = 1.4826 * np.median(dev, axis=0)
    robust = scale > 0
    return (dev > cutoff * scale) & robust, med, robust


def outlying_values(X, cutoff=SKIP_CUTOFF):
    """Which values are outlying in their column, by the median-MAD rule of skipped estimators.

    A value is outlying when it is further than ``cutoff`` robust standard deviations from its column's median,
    the robust standard deviation being 1.4826 times the median absolute deviation (consistent for a normal).
    This is the outlier rule of Wilcox's skipped estimators (Wilcox, 2004, "Inferences based on a skipped
    correlation coefficient", with a cut-off of 2.24 there). A column whose median absolute deviation is 0
    (more than half of its values equal, as in a sparse feature) has no robust scale and no outlying value.
    The rule reads each column alone, never a label.
    """
    return _outliers(X, cutoff)[0]


#: family-wise level, over the features, of the one-sided kurtosis tests (Anscombe & Glynn) that flag a feature as
#: heavy-tailed under ``standardize="auto_skip"`` and ``"auto"``: on data whose features are all normal, every
#: feature keeps unit variance with probability at least 0.99; below MIN_TAIL_TEST_SAMPLES samples the test's normal
#: approximation is not valid and every feature keeps unit variance
HEAVY_TAIL_LEVEL = 0.01
MIN_TAIL_TEST_SAMPLES = 20
#: classes of fewer samples do not enter the within-class test (the kurtosis' null moments need 4)
MIN_TAIL_CLASS_SAMPLES = 5


def _kurtosis_null_moments(n):
    """Mean, variance and third cumulant of a normal sample's kurtosis ``b2`` on ``n`` values.

    Pearson's exact moments, as in D'Agostino, Belanger & D'Agostino (1990), "A suggestion for using
    powerful and informative tests of normality" (the moments ``scipy.stats.kurtosistest`` uses)."""
    n = np.asarray(n, dtype=float)
    mean = 3.0 * (n - 1) / (n + 1)
    var = 24.0 * n * (n - 2) * (n - 3) / ((n + 1) ** 2 * (n + 3) * (n + 5))
    skew = 6.0 * (n * n - 5 * n + 2) / ((n + 7) * (n + 9)) * np.sqrt(6.0 * (n + 3) * (n + 5) / (n * (n - 2) * (n - 3)))
    return mean, var, skew * var**1.5


def _anscombe_glynn_z(b2, mean, var, k3):
    """Anscombe & Glynn's (1983) normal deviate of a kurtosis with the given null mean, variance and third
    cumulant (a Pearson type III fitted to the three moments, then Wilson & Hilferty's cube root)."""
    x = (b2 - mean) / np.sqrt(var)
    sb1 = k3 / var**1.5
    A = 6.0 + 8.0 / sb1 * (2.0 / sb1 + np.sqrt(1.0 + 4.0 / sb1**2))
    term1 = 1.0 - 2.0 / (9.0 * A)
    denom = 1.0 + x * np.sqrt(2.0 / (A - 4.0))
    term2 = np.sign(denom) * np.cbrt((1.0 - 2.0 / A) / np.where(denom == 0.0, np.nan, np.abs(denom)))
    return (term1 - term2) / np.sqrt(2.0 / (9.0 * A))


def within_class_kurtosis(X, groups):
    """Pooled kurtosis of the values standardised within each group, with its null moments.

    Every column is centred and scaled to unit variance within each group (class) of at least
    :data:`MIN_TAIL_CLASS_SAMPLES` samples where it is not constant, and the fourth moment is averaged over
    the pooled values: ``b2 = sum_c (n_c / n) b2_c`` with ``b2_c`` the kurtosis within group ``c`` and ``n``
    the samples of the groups used. If the column is normal within each group (any means, any variances),
    the ``b2_c`` are independent with Pearson's exact moments, so ``b2``'s null mean, variance and third
    cumulant are their ``n_c / n``-weighted sums (weights to the first, second and third power). Returns
    ``b2``, those three moments (each ``(n_features,)``) and ``n`` (nan where no group is usable).
    """
    X = np.asarray(X, dtype=float)
    groups = np.asarray(groups)
    d = X.shape[1]
    b2w, mean, var, k3, n = (np.zeros(d) for _ in range(5))
    for g in np.unique(groups):
        Xg = X[groups == g]
        ng = Xg.shape[0]
        if ng < MIN_TAIL_CLASS_SAMPLES:
            continue
        Zg = Xg - Xg.mean(axis=0)
        m2 = np.mean(Zg**2, axis=0)
        ok = m2 > 1e-24 * np.maximum(np.mean(Xg**2, axis=0), np.finfo(float).tiny)
        with np.errstate(all="ignore"):
            b2g = np.where(ok, np.mean(Zg**4, axis=0) / np.where(ok, m2, 1.0) ** 2, 0.0)
        mg, vg, kg = _kurtosis_null_moments(ng)
        b2w += ok * ng * b2g
        mean += ok * ng * mg
        var += ok * ng**2 * vg
        k3 += ok * ng**3 * kg
        n += ok * ng
    with np.errstate(all="ignore"):
        return b2w / n, mean / n, var / n**2, k3 / n**3, np.where(n > 0, n, np.nan)


def heavy_tailed(X, y=None):
    """Which columns have tails significantly heavier than a normal's (one-sided kurtosis test).

    Anscombe & Glynn's test of the kurtosis at level :data:`HEAVY_TAIL_LEVEL` over all the columns
    (Bonferroni: each at ``HEAVY_TAIL_LEVEL / n_features``), so that on normal data no column is
    heavy-tailed with probability at least 0.99 and only a material excess of kurtosis is flagged on many
    samples. Without ``y``, or with a real-valued ``y``, the test is marginal (``scipy.stats.kurtosistest``,
    ``alternative="greater"``). With class labels ``y`` it is the tails of the noise that are tested, not
    of the signal: the kurtosis of the values standardised within each class, pooled over the classes
    (:func:`within_class_kurtosis`), whose null is a feature normal within every class with any class means
    and variances; a feature whose class means differ (a gene expressed in one class only) is then not
    heavy-tailed for that, while outlying values within the classes still are. Constant columns and data of
    fewer than :data:`MIN_TAIL_TEST_SAMPLES` samples (in the classes of at least
    :data:`MIN_TAIL_CLASS_SAMPLES`) are never heavy-tailed.
    """
    X = np.asarray(X, dtype=float)
    m, d = X.shape
    if y is None or task_of_target(y) == "regression":
        groups = np.zeros(m, dtype=int)
    else:
        groups = np.asarray(y)
    b2, mean, var, k3, n = within_class_kurtosis(X, groups)
    with np.errstate(all="ignore"):
        z = _anscombe_glynn_z(b2, mean, var, k3)
        # the transform turns a strongly negative excess kurtosis (a bimodal feature) into a large positive
        # statistic: only a kurtosis above a normal sample's mean can be heavy
        p = np.where((n >= MIN_TAIL_TEST_SAMPLES) & (b2 > mean), norm.sf(z), 1.0)
    return np.nan_to_num(p, nan=1.0) < HEAVY_TAIL_LEVEL / max(d, 1)


def tail_adaptive_scale(X, y=None, heavy="normal_scores"):
    """Normal scores for the heavy-tailed columns (:func:`heavy_tailed`), unit variance for the others.

    The Gaussian kernel's alignment is carried by the bulk of the pairs at a
    width set from their spread, so a feature's scale must be its bulk's.
    Unit variance gives that when the tails are no heavier than a normal's
    (Gaussian, uniform, multimodal features: their modes and gaps kept as
    they are); with heavy tails the variance is the tails', the bulk is
    compressed and a few extreme values dominate the feature's distances.
    Those features, and only those, get normal scores (:func:`normal_scores`),
    which give them a standard normal marginal, bulk and tails. On a normal
    feature the two coincide up to sampling error, so the test's level
    matters only for features whose tails are mildly heavy. With class labels
    ``y`` the tails are tested within the classes (:func:`heavy_tailed`): a
    feature whose classes are apart keeps its gap.

    With ``heavy="skip"`` the heavy-tailed columns' outlying values
    (:func:`outlying_values`) are told apart by their samples. A sample whose
    values are outlying in more than half of the heavy-tailed columns (with a
    robust scale) is an outlying *sample*: its values keep their normal
    scores, far from the bulk in most features, where the Gaussian kernel
    gives the sample no weight. In every other sample an outlying value is
    set to the column's median, so that it carries no information, and the
    column is standardised (the outlying samples' values counted at the
    median). A heavy-tailed column with no robust scale (more than half of
    its values equal, as in a sparse feature) gets its normal scores.
    ``heavy="skip"`` is :class:`RandSel`'s default (``standardize="auto_skip"``);
    ``heavy="normal_scores"`` is its ``standardize="auto"``.
    """
    if heavy not in ("normal_scores", "skip"):
        raise ValueError(f"heavy must be 'normal_scores' or 'skip'; got {heavy!r}")
    Z = standardize(X)
    flagged = heavy_tailed(X, y)
    if flagged.any():
        H = X[:, flagged]
        T = normal_scores(H)
        if heavy == "skip":
            out, med, robust = _outliers(H)
            if robust.any():
                samples = out[:, robust].mean(axis=1) > 0.5  # outlying samples: they keep their normal scores
                W = standardize(np.where(out | samples[:, None], med, H)[:, robust])
                T[:, robust] = np.where(samples[:, None], T[:, robust], W)
        Z[:, flagged] = T
    return Z
