"""Per-column scaling shared by the selectors and predictors."""

from __future__ import annotations

import numpy as np

__all__ = ["column_scales", "standardize"]


def column_scales(X):
    """Column means and standard deviations (a zero sd is replaced by 1)."""
    mean = X.mean(axis=0)
    sd = X.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)  # constant column: leave it at zero after centring
    return mean, sd


def standardize(X):
    """Zero mean, unit variance per column (constant columns are only centred)."""
    mean, sd = column_scales(X)
    return (X - mean) / sd
