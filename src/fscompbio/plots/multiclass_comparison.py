"""Multi-class figure figM_1: accuracy and number of selected features per method and data set.

Every function takes data and returns a matplotlib Figure (see :mod:`fscompbio.plots`).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ._style import PALETTE, apply_style

__all__ = ["METHOD_LABELS", "plot_multiclass"]

#: legend labels of the figM_1 methods
METHOD_LABELS = {
    "randsel": "randSel (one-hot)",
    "bahsic": "BaHSIC (one-hot)",
    "fohsic": "FoHSIC (one-hot)",
    "ovr_l1_logistic": "one-vs-rest l1-logistic",
}


def plot_multiclass(table):
    """Two panels: test accuracy and number of selected features (log scale), mean +- sd over the outer folds.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`fscompbio.evaluation.multiclass_table`.

    Returns
    -------
    matplotlib.figure.Figure
    """
    apply_style()
    datasets = list(dict.fromkeys(table["dataset"]))
    table = table.assign(series=[f"{m}|{s}" for m, s in zip(table["method"], table["model_selection"])])
    methods = list(dict.fromkeys(table["series"]))
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    width = 0.8 / len(methods)
    x = np.arange(len(datasets))
    for k, m in enumerate(methods):
        rows = table[table["series"] == m].set_index("dataset").reindex(datasets)
        pos = x - 0.4 + width * (k + 0.5)
        color = PALETTE[k % len(PALETTE)]
        method, msel = m.split("|")
        label = METHOD_LABELS.get(method, method)
        if method != "ovr_l1_logistic":
            label += ", KTA" if msel == "kta" else ", nested CV"
        axes[0].bar(pos, rows["accuracy_mean"], width, yerr=rows["accuracy_sd"], color=color, label=label, capsize=2)
        mean, sd = rows["n_selected_mean"].to_numpy(), rows["n_selected_sd"].to_numpy()
        low = np.minimum(sd, mean - 1.0)  # a log axis: the whisker stops at one feature
        axes[1].bar(pos, mean, width, yerr=[low, sd], color=color, capsize=2)
    n_features = table.groupby("dataset", sort=False)["n_features"].first().reindex(datasets)
    n_folds = sorted(set(int(v) for v in table["n_folds"]))
    for ax in axes:
        ax.set_xticks(x, [f"{d}\n({n:,} features)" for d, n in zip(datasets, n_features)])
    axes[0].set_ylim(0, 1.05)
    axes[0].set_ylabel("test accuracy (outer folds)")
    axes[0].set_title(f"Accuracy, mean +- sd over {'/'.join(map(str, n_folds))} outer folds")
    axes[1].set_yscale("log")
    axes[1].set_ylim(bottom=1.0)
    axes[1].set_ylabel("selected features")
    axes[1].set_title("Number of selected features")
    # below both panels: inside the accuracy panel the legend covered the bars
    fig.legend(*axes[0].get_legend_handles_labels(), frameon=False, fontsize=8, loc="lower center",
               ncol=len(methods))
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig
