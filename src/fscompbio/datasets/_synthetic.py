"""Synthetic data sets of the study, each driven by an explicit random generator.

Every generator takes ``rng`` (a :class:`numpy.random.Generator`), ``n_samples``
and ``n_features`` and returns ``(X, y)``; the relevant features are always a
prefix ``0..k-1`` (nothing is shuffled), so ``relevant = arange(k)``.

Recipes and the reading we take of the garbled parts of thesis appendix A.3
(Athanasakis 2014, "Feature Selection in Computational Biology", appendix A.3):

* Labels of the classification sets are drawn independently, +1 or -1 with
  probability 1/2 each. Thesis table 3.1 reports one random draw of 300, so
  the class balance is tested with a binomial tolerance, never exact counts.
* ``N(mu, v)`` in A.3 is read with ``v`` a *variance* where the text writes 100
  (linear Zhang outliers: standard deviation 10) and as a *standard deviation*
  for the Weston noise ``N(0, 20)`` (standard deviation 20, as in Weston et al.
  2000 and most reproductions of it).
* Linear Weston: A.3's "second ten features" and noise indices "21..500" are
  typos of Weston's recipe scaled to 10 relevant of 200: two groups of five.
* Non-linear Weston: the 10-dimensional mean vectors of A.3 are garbled; we take
  ``mu1 = linspace(-0.75, -3, k)``, ``mu2 = -mu1`` (class -1) and
  ``mu3 = linspace(3, -3, k)``, ``mu4 = -mu3`` (class +1), so each class is a
  symmetric two-component mixture and the class means coincide (mean-based
  linear selectors fail, as the thesis reports in chapter 3).
* XOR has no recipe in A.3: ``X ~ N(0, 1)``, ``y = sign(x_0 x_1)``.
* The 100-feature sets of the early randSel text (Athanasakis et al.) have 5 relevant features of 100: the linear Weston groups
  are split 3 + 2; the non-linear one uses the first 5 coordinates of the means.
* The regression sets of Sun, Yao & Goodison, "Feature Selection for Nonlinear Regression
  and its Application to Cancer Research" (section 4.1) follow its equations 4.18-4.21
  with 1000 irrelevant N(0, 1) features. ``N(0, 0.1)`` of the sine model is read
  as a standard deviation of 0.1. That paper scales every feature to [0, 1]
  before learning: that is preprocessing, not part of the generator.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "linear_zhang",
    "fake_class",
    "linear_zhang_feature_noise",
    "linear_zhang_sample_noise",
    "linear_weston",
    "nonlinear_weston",
    "xor",
    "additive",
    "nonadditive",
    "sine",
    "spiral",
]


def _labels(rng, n):
    """Labels +1/-1 with probability 1/2 each, independently."""
    return np.where(rng.random(n) < 0.5, -1, 1).astype(np.int64)


def linear_zhang(rng, n_samples, n_features, *, n_relevant=10, shift=0.25):
    """Zhang et al. (2006): relevant ``N(shift * y, 1)``, the others ``N(0, 1)``."""
    y = _labels(rng, n_samples)
    X = rng.standard_normal((n_samples, n_features))
    X[:, :n_relevant] += shift * y[:, None]
    return X, y


def fake_class(rng, n_samples, n_features, *, n_relevant=10):
    """Negative control: linear Zhang, then the labels randomly permuted (A.3 item 1).

    Nothing is relevant after the permutation; ``relevant`` still names the
    features that carried the signal before it, so precision and recall can
    be reported as the thesis does (and should be at chance level).
    """
    X, y = linear_zhang(rng, n_samples, n_features, n_relevant=n_relevant)
    return X, rng.permutation(y)


def linear_zhang_feature_noise(rng, n_samples, n_features, *, n_relevant=10, frac=0.05):
    """Linear Zhang with outlier values in the relevant features (A.3 item 4).

    In the ``n_samples x n_relevant`` block of relevant values, a random 5% of
    the entries are replaced by draws from ``N(0.25 y, 100)`` (variance 100,
    standard deviation 10), by the class of their sample.
    """
    X, y = linear_zhang(rng, n_samples, n_features, n_relevant=n_relevant)
    n_cells = n_samples * n_relevant
    n_out = int(round(frac * n_cells))
    cells = rng.choice(n_cells, size=n_out, replace=False)
    rows, cols = np.unravel_index(cells, (n_samples, n_relevant))
    X[rows, cols] = 0.25 * y[rows] + 10.0 * rng.standard_normal(n_out)
    return X, y


def linear_zhang_sample_noise(rng, n_samples, n_features, *, n_relevant=10, frac=0.05):
    """Linear Zhang with 5% outlier samples (A.3 item 3).

    In a random 5% of the samples the standard deviation of every feature is
    multiplied by 10 (the deviation from the class mean is scaled, the mean kept).
    """
    X, y = linear_zhang(rng, n_samples, n_features, n_relevant=n_relevant)
    n_out = int(round(frac * n_samples))
    rows = rng.choice(n_samples, size=n_out, replace=False)
    mean = np.zeros((n_out, n_features))
    mean[:, :n_relevant] = 0.25 * y[rows, None]
    X[rows] = mean + 10.0 * (X[rows] - mean)
    return X, y


def linear_weston(rng, n_samples, n_features, *, groups=(5, 5), p_first=0.7, noise_sd=20.0):
    """Weston et al. (2000)'s linear problem, scaled to two groups (A.3 item 2).

    With probability ``p_first`` the first group is ``x_i = y N(i, 1)``
    (``i = 1..g1``) and the second group ``N(0, 1)``; otherwise the first group
    is ``N(0, 1)`` and the second ``x_i = y N(i - g1, 1)``. The remaining
    features are noise ``N(0, 20^2)``. The thesis uses groups (5, 5) of 200
    features; the 100-feature version of the early randSel text uses (3, 2).
    """
    g1, g2 = groups
    k = g1 + g2
    y = _labels(rng, n_samples)
    X = np.empty((n_samples, n_features))
    first = rng.random(n_samples) < p_first
    signal1 = y[:, None] * (np.arange(1, g1 + 1) + rng.standard_normal((n_samples, g1)))
    signal2 = y[:, None] * (np.arange(1, g2 + 1) + rng.standard_normal((n_samples, g2)))
    null1 = rng.standard_normal((n_samples, g1))
    null2 = rng.standard_normal((n_samples, g2))
    X[:, :g1] = np.where(first[:, None], signal1, null1)
    X[:, g1:k] = np.where(first[:, None], null2, signal2)
    X[:, k:] = noise_sd * rng.standard_normal((n_samples, n_features - k))
    return X, y


def nonlinear_weston(rng, n_samples, n_features, *, n_relevant=10, noise_sd=20.0):
    """Weston et al. (2000)'s non-linear problem in ``n_relevant`` dimensions (A.3 item 5).

    Class -1 is an equal mixture of ``N(mu1, I)`` and ``N(-mu1, I)`` with
    ``mu1 = linspace(-0.75, -3, 10)``; class +1 of ``N(mu3, I)`` and
    ``N(-mu3, I)`` with ``mu3 = linspace(3, -3, 10)``. With fewer relevant
    features the first coordinates of these 10-vectors are used. The other
    features are noise ``N(0, 20^2)``.
    """
    mu1 = np.linspace(-0.75, -3.0, 10)[:n_relevant]
    mu3 = np.linspace(3.0, -3.0, 10)[:n_relevant]
    y = _labels(rng, n_samples)
    sign = np.where(rng.random(n_samples) < 0.5, -1.0, 1.0)
    centre = np.where((y == 1)[:, None], mu3, mu1) * sign[:, None]
    X = np.empty((n_samples, n_features))
    X[:, :n_relevant] = centre + rng.standard_normal((n_samples, n_relevant))
    X[:, n_relevant:] = noise_sd * rng.standard_normal((n_samples, n_features - n_relevant))
    return X, y


def xor(rng, n_samples, n_features):
    """XOR: ``X ~ N(0, 1)``, ``y = sign(x_0 x_1)``; features 2.. are noise."""
    X = rng.standard_normal((n_samples, n_features))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1).astype(np.int64)
    return X, y


def _with_noise(rng, relevant_block, n_features):
    n, k = relevant_block.shape
    X = np.empty((n, n_features))
    X[:, :k] = relevant_block
    X[:, k:] = rng.standard_normal((n, n_features - k))
    return X


def additive(rng, n_samples, n_features):
    """Sun, Yao & Goodison eq. 4.18: ``Y = -2 sin(2 X1) + X2^2 + X3 + exp(-X4) + N(0, 1)``."""
    Z = rng.standard_normal((n_samples, 4))
    y = -2 * np.sin(2 * Z[:, 0]) + Z[:, 1] ** 2 + Z[:, 2] + np.exp(-Z[:, 3])
    y = y + rng.standard_normal(n_samples)
    return _with_noise(rng, Z, n_features), y


def nonadditive(rng, n_samples, n_features):
    """Sun, Yao & Goodison eq. 4.19: ``Y = X1 exp(2 X2) + X3^2 + N(0, 1)``."""
    Z = rng.standard_normal((n_samples, 3))
    y = Z[:, 0] * np.exp(2 * Z[:, 1]) + Z[:, 2] ** 2 + rng.standard_normal(n_samples)
    return _with_noise(rng, Z, n_features), y


def sine(rng, n_samples, n_features):
    """Sun, Yao & Goodison eq. 4.20: ``Y = sin(2 pi X) + N(0, 0.1^2)``, ``X ~ U(0, 4)``."""
    Z = rng.uniform(0.0, 4.0, size=(n_samples, 1))
    y = np.sin(2 * np.pi * Z[:, 0]) + 0.1 * rng.standard_normal(n_samples)
    return _with_noise(rng, Z, n_features), y


def spiral(rng, n_samples, n_features):
    """Sun, Yao & Goodison eq. 4.21: ``X1 = Y sin Y + N(0,1)``, ``X2 = Y cos Y + N(0,1)``, ``Y ~ U(0, 20)``."""
    y = rng.uniform(0.0, 20.0, size=n_samples)
    Z = np.column_stack([y * np.sin(y), y * np.cos(y)]) + rng.standard_normal((n_samples, 2))
    return _with_noise(rng, Z, n_features), y
