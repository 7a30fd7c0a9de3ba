"""randSel's feature contributions: per iteration of a run with culling (thesis figure 4.3, the randSel
paper's figure 2: figP_2), and of one pass without culling (the paper's figure 1: figP_1).

Every function takes arrays and returns a matplotlib Figure (see :mod:`fscompbio.plots`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ._style import PALETTE, RELEVANT, apply_style

__all__ = ["plot_contributions_per_iteration", "plot_expected_contributions"]

_GREY = "#9E9E9E"


def plot_contributions_per_iteration(contributions, relevant, *, title="", mean_alignment=None):
    """Thesis figure 4.3: the estimated contribution of every feature at every randSel iteration.

    Parameters
    ----------
    contributions : ndarray of shape (n_iterations, n_features)
        ``RandSel.contributions_`` (``nan`` once a feature is culled).
    relevant : array-like of int
        Indices of the relevant features, drawn in red.
    title : str
    mean_alignment : ndarray of shape (n_iterations,) or None
        ``RandSel.mean_alignment_``, drawn in a second panel when given.
    """
    apply_style()
    C = np.asarray(contributions, dtype=float)
    n_it, d = C.shape
    rel = np.zeros(d, dtype=bool)
    rel[np.asarray(relevant, dtype=int)] = True
    it = np.arange(1, n_it + 1)
    ncols = 2 if mean_alignment is not None else 1
    fig, axes = plt.subplots(1, ncols, figsize=(5.5 * ncols, 4), squeeze=False)
    ax = axes[0, 0]
    rng = np.random.default_rng(0)  # fixed jitter: same figure bytes for the same data
    jitter = rng.uniform(-0.18, 0.18, size=d)
    for j in np.flatnonzero(~rel):
        ax.plot(it + jitter[j], C[:, j], ".", color=_GREY, ms=2.5, alpha=0.6)
    for j in np.flatnonzero(rel):
        ax.plot(it, C[:, j], "o-", color=RELEVANT, ms=4, lw=1.2)
    ax.axhline(0.0, color="black", lw=0.6)
    ax.set_xlabel("iteration")
    ax.set_ylabel("estimated contribution $\\hat c_j$")
    ax.set_title(title or "randSel contributions per iteration")
    ax.plot([], [], "o-", color=RELEVANT, label="relevant")
    ax.plot([], [], ".", color=_GREY, label="irrelevant")
    ax.legend(frameon=False, loc="upper left")
    if mean_alignment is not None:
        ax = axes[0, 1]
        surv = np.isfinite(C).sum(axis=1)
        ax.plot(surv, np.asarray(mean_alignment), "o-", color=PALETTE[0])
        ax.set_xscale("log")
        ax.invert_xaxis()
        ax.set_xlabel("surviving features (log scale)")
        ax.set_ylabel("mean HSIC1 alignment of the subsets")
        ax.set_title("Mean alignment as features are culled")
    fig.tight_layout()
    return fig


def plot_expected_contributions(contributions, relevant, *, title="", se=None):
    """Figure 1 of "Principled Non-Linear Feature Selection": every feature's expected contribution in
    one randSel pass without culling (relevant in red).

    Parameters
    ----------
    contributions : ndarray of shape (n_features,)
    relevant : array-like of int
    title : str
    se : ndarray of shape (n_features,) or None
        Standard errors: when given, 2 se bars are drawn on the relevant features and a dashed line
        marks the largest irrelevant contribution.
    """
    apply_style()
    c = np.asarray(contributions, dtype=float)
    rel = np.zeros(c.size, dtype=bool)
    rel[np.asarray(relevant, dtype=int)] = True
    fig, ax = plt.subplots(figsize=(6.5, 3.8))
    idx = np.arange(c.size)
    ax.vlines(idx[~rel], 0, c[~rel], color=_GREY, lw=1)
    ax.vlines(idx[rel], 0, c[rel], color=RELEVANT, lw=2.2, label="relevant")
    if se is not None:
        se = np.asarray(se, dtype=float)
        ax.errorbar(idx[rel], c[rel], yerr=2 * se[rel], fmt="none", ecolor=RELEVANT, capsize=3, lw=1)
        ax.axhline(c[~rel].max(), color=_GREY, lw=0.8, ls="--", label="largest irrelevant")
    ax.axhline(0.0, color="black", lw=0.6)
    ax.set_xlabel("feature index")
    ax.set_ylabel("expected contribution $\\hat c_j$")
    ax.set_title(title or "Expected contributions, one randSel pass")
    ax.legend(frameon=False)
    fig.tight_layout()
    return fig
