"""Figures of kernel target alignment: alignment against the Gaussian kernel's width as irrelevant
features are added (figure 3.1), against the sample size (figure 4.1), and of random feature halves
of XOR (figure 4.2).

Every function takes arrays and returns a matplotlib Figure (see :mod:`fscompbio.plots`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ._style import PALETTE, apply_style

__all__ = ["plot_fig3_1", "plot_fig4_1", "plot_fig4_2"]


def plot_fig3_1(sigmas, curves, medians):
    """Alignment versus the Gaussian kernel's scale, one curve per number of irrelevant features.

    The kernel is ``exp(-||x - x'||^2 / (2 sigma^2)) = exp(-gamma ||x - x'||^2)``
    (docs/environment.md, "Kernel widths"). The thesis writes it ``exp(-sigma ||x - x'||^2)``:
    its sigma is our ``gamma = 1 / (2 sigma^2)``. The left panel is drawn
    against gamma, so it reads as the thesis' figure 3.1 ("smaller values of
    sigma tend to produce higher alignment" as irrelevant features are added:
    the best gamma falls); the right one against our width relative to the
    median pairwise distance.

    Parameters
    ----------
    sigmas : ndarray of shape (k,)
        Widths sigma of the grid.
    curves : dict of int -> ndarray of shape (k,)
    medians : dict of int -> float
        Median pairwise distance of each data set.
    """
    apply_style()
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5), sharey=True)
    gammas = 1.0 / (2.0 * np.asarray(sigmas, dtype=float) ** 2)
    for n_irr, a in sorted(curves.items()):
        k = int(np.argmax(a))
        for ax, x in ((axes[0], gammas), (axes[1], sigmas / medians[n_irr])):
            (line,) = ax.plot(x, a, label=f"{n_irr} irrelevant")
            ax.plot(x[k], a[k], "o", color=line.get_color(), ms=4)
    for ax in axes:
        ax.set_xscale("log")
    axes[0].set_xlabel(r"$\gamma = 1/(2\sigma^2)$ (the thesis' $\sigma$ in $e^{-\sigma\|x-x'\|^2}$)")
    axes[1].set_xlabel(r"width $\sigma$ / median pairwise distance")
    axes[0].set_ylabel("centred kernel target alignment")
    axes[0].set_title("Alignment versus kernel scale (dots: maxima)")
    axes[1].set_title("Against the relative width")
    axes[0].legend(frameon=False)
    fig.tight_layout()
    return fig


def plot_fig4_1(sample_sizes, results):
    """Mean alignment versus sample size; biased (centred KTA) and unbiased panels.

    Parameters
    ----------
    sample_sizes : sequence of int
    results : dict of label -> dict
        Per curve, the output of
        :func:`fscompbio.studies.alignment_vs_sample_size`.
    """
    apply_style()
    colours = ["black", "tab:red", "tab:green"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5), sharex=True)
    for ax, kind, title in ((axes[0], "biased", "centred alignment (def. 2.3.1)"),
                            (axes[1], "unbiased", "unbiased alignment (HSIC1, Song et al. 2007 eq. 5)")):
        for c, (label, r) in zip(colours, results.items()):
            mean, sd = r[f"{kind}_mean"], r[f"{kind}_sd"]
            ax.plot(sample_sizes, mean, "-o", ms=3, color=c, label=label)
            ax.fill_between(sample_sizes, mean - sd, mean + sd, color=c, alpha=0.12, lw=0)
        ax.axhline(0, color="grey", lw=0.5)
        ax.set_xscale("log")
        ax.set_xlabel("sample size")
        ax.set_title(title)
    axes[0].set_ylabel("mean alignment over bootstraps")
    axes[0].legend(frameon=False)
    return fig


def plot_fig4_2(results):
    """Scatter of the alignments of the two random feature halves, per number of irrelevant features.

    Parameters
    ----------
    results : dict of int -> dict
        Per number of irrelevant features, the output of
        :func:`fscompbio.studies.split_alignments`.
    """
    apply_style()
    fig, axes = plt.subplots(1, 2, figsize=(9, 4))
    ax = axes[0]
    for c, (n_irr, r) in zip(PALETTE, sorted(results.items())):
        ax.scatter(r["a"], r["b"], s=6, alpha=0.5, color=c, label=f"n = {n_irr} irrelevant", lw=0)
    ax.set_xlabel("alignment of half A")
    ax.set_ylabel("alignment of half B")
    ax.set_title("Random feature halves of XOR")
    ax.legend(frameon=False, markerscale=2)
    ax = axes[1]
    width = 0.8 / max(len(results), 1)
    for i, (c, (n_irr, r)) in enumerate(zip(PALETTE, sorted(results.items()))):
        a = np.concatenate([r["a"], r["b"]])
        has = np.concatenate([r["a_has"], r["b_has"]])
        means = [a[has == k].mean() if np.any(has == k) else np.nan for k in (0, 1, 2)]
        ax.bar(np.arange(3) + (i - len(results) / 2 + 0.5) * width, means, width, color=c, label=f"n = {n_irr}")
    ax.set_xticks(range(3), ["neither", "one", "both"])
    ax.set_xlabel("relevant features in the half")
    ax.set_ylabel("mean alignment")
    ax.set_title("Halves holding both XOR features align more")
    ax.legend(frameon=False, title="irrelevant features")
    fig.tight_layout()
    return fig
