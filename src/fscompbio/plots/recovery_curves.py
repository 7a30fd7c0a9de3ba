"""Regression figure: probability of correct recovery versus sample size (figR_2).

Sun, Yao and Goodison (2015), "Feature Selection for Nonlinear Regression and its
Application to Cancer Research", figure 2. Every function takes data and returns
a matplotlib Figure (see :mod:`fscompbio.plots`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ._style import PALETTE, apply_style

__all__ = ["DATASET_TITLES", "plot_recovery_curves"]

#: panel titles: the models of the paper's equations 4.18-4.21
DATASET_TITLES = {
    "additive": "Additive (eq. 4.18)",
    "nonadditive": "Non-additive (eq. 4.19)",
    "sine": "Sine (eq. 4.20)",
    "spiral": "Spiral (eq. 4.21)",
}


def plot_recovery_curves(table, *, labels=None, n_irrelevant=None):
    """One panel per data set: probability of correct recovery against the sample size, one line per method.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``dataset``, ``method``, ``n_samples``, ``probability`` and
        ``sem`` (standard error over the repeats), ``n_repeats``.
    labels : dict or None
        Method name -> legend label.
    n_irrelevant : int or None
        For the title.

    Returns
    -------
    matplotlib.figure.Figure
    """
    apply_style()
    labels = labels or {}
    datasets = list(dict.fromkeys(table["dataset"]))
    methods = list(dict.fromkeys(table["method"]))
    fig, axes = plt.subplots(1, len(datasets), figsize=(3.2 * len(datasets), 3.2), squeeze=False, sharey=True)
    markers = "osD^v<>p"
    sizes = np.unique(table["n_samples"].to_numpy())
    step = float(np.min(np.diff(sizes))) if sizes.size > 1 else 10.0
    dodge = 0.04 * step * (np.arange(len(methods)) - (len(methods) - 1) / 2)  # equal curves stay visible
    for ax, ds in zip(axes[0], datasets):
        sub = table[table["dataset"] == ds]
        for k, m in enumerate(methods):
            rows = sub[sub["method"] == m].sort_values("n_samples")
            if rows.empty:
                continue
            n = rows["n_samples"].to_numpy() + dodge[k]
            p = rows["probability"].to_numpy()
            e = rows["sem"].to_numpy()
            ax.errorbar(n, p, yerr=e, marker=markers[k % len(markers)], ms=4, lw=1.3, capsize=2,
                        color=PALETTE[k % len(PALETTE)], label=labels.get(m, m))
        ax.set_title(DATASET_TITLES.get(ds, ds))
        ax.set_xlabel("number of samples")
        ax.set_ylim(-0.03, 1.03)
        ax.grid(True, lw=0.3, alpha=0.5)
    axes[0, 0].set_ylabel("probability of correct recovery")
    handles, names = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, names, loc="lower center", ncol=len(methods), frameon=False, bbox_to_anchor=(0.5, -0.06))
    reps = sorted(set(int(r) for r in table["n_repeats"]))
    title = "Correct recovery of the relevant features"
    if n_irrelevant is not None:
        title += f" among {n_irrelevant:,} irrelevant ones"
    title += f" ({'/'.join(map(str, reps))} runs per point)"
    fig.suptitle(title, y=1.02)
    fig.tight_layout()
    return fig

