"""Figures of the linear models' background: the Lasso regularisation path (figure 2.1) and the loss
functions for classification (figure 3.2).

Every function takes arrays and returns a matplotlib Figure (see :mod:`fscompbio.plots`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ._style import apply_style

__all__ = ["plot_fig2_1", "plot_fig3_2"]


def plot_fig2_1(alphas, coefs, *, title=""):
    """The Lasso regularisation path: each line one feature's weight against lambda."""
    apply_style()
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    ax = axes[0]
    ax.plot(alphas, coefs.T, lw=0.8)
    ax.set_xscale("log")
    ax.invert_xaxis()
    ax.set_xlabel(r"regularisation $\lambda$ (decreasing)")
    ax.set_ylabel("coefficient")
    ax.set_title(title or "Lasso regularisation path")
    ax = axes[1]
    ax.plot(alphas, np.abs(coefs).sum(axis=0), color="black", label=r"$\|w\|_1$")
    ax2 = ax.twinx()
    ax2.plot(alphas, (coefs != 0).sum(axis=0), color="tab:red", label="non-zero weights")
    ax2.set_ylabel("non-zero weights", color="tab:red")
    ax.set_xscale("log")
    ax.invert_xaxis()
    ax.set_xlabel(r"regularisation $\lambda$ (decreasing)")
    ax.set_ylabel(r"$\|w\|_1$")
    ax.set_title("Sparsity against regularisation")
    return fig

def plot_fig3_2(margins, losses):
    """Loss functions for classification against the margin ``y f(x)``."""
    apply_style()
    colours = {"0-1": "black", "square": "tab:blue", "logistic": "magenta", "hinge": "tab:red"}
    names = {"0-1": "0-1 loss", "square": "square loss (Lasso)", "logistic": "logistic loss",
             "hinge": "hinge loss (SVM)"}
    fig, ax = plt.subplots(figsize=(5, 3.5))
    for key, vals in losses.items():
        ax.plot(margins, vals, color=colours.get(key), label=names.get(key, key),
                drawstyle="steps-post" if key == "0-1" else "default")
    ax.set_ylim(0, 4)
    ax.set_xlabel(r"margin $y f(x)$")
    ax.set_ylabel("loss")
    ax.set_title("Loss functions for classification")
    ax.legend(frameon=False)
    return fig
