"""The consistency toy (figures 2.2-2.4): selection matrices of simulated selections whose relevant
features are selected with decreasing probability, their mean variance and their consistency
log-likelihood (eq. 2.8).

Every function takes arrays and returns a matplotlib Figure (see :mod:`fscompbio.plots`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ._style import PALETTE, apply_style

__all__ = ["plot_fig2_2", "plot_fig2_3", "plot_fig2_4"]


def plot_fig2_2(matrices, probabilities):
    """Selection matrices of the toy (figure 2.2): one panel per relevant-feature probability.

    Parameters
    ----------
    matrices : sequence of ndarray of shape (n_folds, n_features), bool
    probabilities : sequence of float
    """
    apply_style()
    k = len(matrices)
    ncol = min(5, k)
    nrow = int(np.ceil(k / ncol))
    fig, axes = plt.subplots(nrow, ncol, figsize=(2.0 * ncol, 2.6 * nrow), squeeze=False)
    for ax, W, p in zip(axes.flat, matrices, probabilities):
        ax.imshow(~np.asarray(W, dtype=bool), cmap="gray", vmin=0, vmax=1, aspect="auto", interpolation="nearest")
        ax.set_title(f"p = {p:.1f}")
        ax.set_xticks([0, W.shape[1] - 1], [1, W.shape[1]])
        ax.set_yticks([0, W.shape[0] - 1], [1, W.shape[0]])
    for ax in axes.flat[k:]:
        ax.set_visible(False)
    for ax in axes[:, 0]:
        ax.set_ylabel("fold")
    for ax in axes[-1, :]:
        ax.set_xlabel("feature")
    fig.suptitle("Selected features over folds (black = selected); relevant features first")
    fig.tight_layout()
    return fig


def _toy_curve(probabilities, single, repeats, ylabel, title):
    apply_style()
    fig, ax = plt.subplots(figsize=(4.5, 3.2))
    p = np.asarray(probabilities, dtype=float)
    if repeats is not None:
        r = np.asarray(repeats, dtype=float)
        lo, hi = np.percentile(r, [5, 95], axis=1)
        ax.fill_between(p, lo, hi, color=PALETTE[4], alpha=0.35, lw=0,
                        label=f"5-95% of {r.shape[1]} repeated draws")
        ax.plot(p, r.mean(axis=1), "-", color=PALETTE[0], lw=1.5, label="mean over the draws")
    ax.plot(p, single, "o", color="black", ms=4, label="the draws of figure 2.2")
    ax.set_xlabel("selection probability of the relevant features")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.invert_xaxis()
    ax.legend(frameon=False)
    fig.tight_layout()
    return fig


def plot_fig2_3(probabilities, mean_variances, repeats=None):
    """Mean variance of the selection indicators against the probability (figure 2.3)."""
    return _toy_curve(probabilities, mean_variances, repeats, "mean variance", "Mean variance of the selections")


def plot_fig2_4(probabilities, log_likelihoods, repeats=None):
    """Consistency log-likelihood (eq. 2.8) against the probability (figure 2.4)."""
    return _toy_curve(probabilities, log_likelihoods, repeats, "log-likelihood (eq. 2.8)", "Consistency log-likelihood")
