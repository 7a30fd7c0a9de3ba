"""Per-column scaling shared by the selectors and predictors."""

from __future__ import annotations

import numpy as np
from scipy.stats import norm, rankdata

__all__ = ["column_scales", "minmax_scale", "normal_scores", "standardize"]


def column_scales(X):
    """Column means and standard deviations; a constant column's are its value and 1, so that it is exactly zero
    after scaling (its computed mean and sd can be off by a rounding error, 1e-17 and 1e-16, which would make it a
    column of -1 or +1)."""
    mean = X.mean(axis=0)
    sd = X.std(axis=0)
    if X.shape[0]:
        constant = np.ptp(X, axis=0) == 0
        mean = np.where(constant, X[0], mean)
        sd = np.where(constant, 1.0, sd)
    sd = np.where(sd > 0, sd, 1.0)
    return mean, sd


def standardize(X):
    """Zero mean, unit variance per column (constant columns are only centred)."""
    mean, sd = column_scales(X)
    return (X - mean) / sd


def minmax_scale(X):
    """Scale every column to [0, 1] (the paper's preprocessing, section 4.1); constant columns become 0."""
    lo = X.min(axis=0)
    span = X.max(axis=0) - lo
    span = np.where(span > 0, span, 1.0)  # a constant column: all zeros, never a division by zero
    return (X - lo) / span


def normal_scores(X):
    """Every column replaced by its normal scores ``Phi^-1((rank - 1/2) / m)`` (ties: average ranks).

    A monotone transform of each column to a standard normal marginal. For features: an equal-width Gaussian
    kernel then weighs them equally in distribution, not only in variance, so that a feature with a few extreme
    values (linear Zhang with feature noise) no longer has its bulk compressed by them and its distances dominated
    by them. For a real-valued label: its correlations with fixed columns follow the normal law of a light-tailed
    label whatever the label's own tails. Constant columns become 0.
    """
    m = X.shape[0]
    return norm.ppf((rankdata(X, axis=0) - 0.5) / m)
