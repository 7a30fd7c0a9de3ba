"""Which features each method selects on one data set: a heat map of selection frequencies (features x
(method, model selection)) drawn from the features table (:func:`fscompbio.evaluation.feature_table`).

Every function takes data (DataFrames) and returns a Figure; nothing here reads or writes results files.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ._style import RELEVANT, apply_style

__all__ = ["plot_selection_frequency", "MAX_FEATURES"]

#: at most this many features (rows) are drawn, the most often selected first
MAX_FEATURES = 40

_SHORT = {"cv": "CV", "kta": "KTA", "kta_abs": "KTA abs", "own": "own"}


def plot_selection_frequency(table, *, title="", labels=None, max_features=MAX_FEATURES, footer=""):
    """Selection frequency of the most often selected features, per method and model selection.

    Parameters
    ----------
    table : DataFrame
        The features table (:func:`fscompbio.evaluation.feature_table`).
    title : str
    labels : dict or None
        Method name -> label in the figure.
    max_features : int
        Rows drawn: the features of :func:`fscompbio.evaluation.top_features`.
    footer : str
        A line printed under the figure (the rule and how many features are shown).

    Returns
    -------
    Figure
        Rows: features (known relevant ones, on synthetic data, in red); columns: (method, model selection)
        in the table's order, grouped by chapter; colour: the fraction of outer folds that selected the
        feature; a dot marks the consensus set (selected in at least half of the folds).
    """
    from ..evaluation import top_features

    apply_style()
    labels = labels or {}
    features = top_features(table, max_features)
    columns = list(dict.fromkeys(zip(table["chapter"], table["method"], table["model_selection"])))
    if not features or not columns:
        fig, ax = plt.subplots(figsize=(5, 2))
        ax.axis("off")
        ax.text(0.5, 0.5, "no feature was selected in any outer fold", ha="center", va="center")
        ax.set_title(title)
        return fig
    row = {f: i for i, f in enumerate(features)}
    col = {c: i for i, c in enumerate(columns)}
    freq = np.zeros((len(features), len(columns)))
    consensus = np.zeros_like(freq, dtype=bool)
    shown = table[table["feature"].isin(row)]
    for r in shown.itertuples(index=False):
        i, j = row[r.feature], col[(r.chapter, r.method, r.model_selection)]
        freq[i, j], consensus[i, j] = r.selection_frequency, r.consensus
    fig, ax = plt.subplots(figsize=(max(4.0, 0.32 * len(columns) + 2.5), max(2.5, 0.22 * len(features) + 1.8)))
    im = ax.imshow(freq, cmap="viridis", vmin=0.0, vmax=1.0, aspect="auto", interpolation="nearest")
    yi, xi = np.nonzero(consensus)
    ax.scatter(xi, yi, s=7, c="white", marker="o", edgecolors="black", linewidths=0.3)
    ax.set_xticks(range(len(columns)))
    ax.set_xticklabels([f"{labels.get(m, m)} {_SHORT.get(ms, ms)}" for _, m, ms in columns], rotation=90)
    ax.set_yticks(range(len(features)))
    ax.set_yticklabels(features)
    if "relevant" in table and table["relevant"].notna().any():
        rel = set(table.loc[table["relevant"] == True, "feature"])  # noqa: E712 (object column of bools)
        for tick, name in zip(ax.get_yticklabels(), features):
            if name in rel:
                tick.set_color(RELEVANT)
    chapters = [c[0] for c in columns]
    for j in range(1, len(columns)):
        if chapters[j] != chapters[j - 1]:
            ax.axvline(j - 0.5, color="white", linewidth=2)
    ax.set_xlabel("method and model selection")
    ax.set_ylabel("feature")
    ax.spines[:].set_visible(False)
    cbar = fig.colorbar(im, ax=ax, fraction=0.04, pad=0.02)
    cbar.set_label("fraction of outer folds selecting it")
    ax.set_title(title)
    if footer:  # under the rotated column labels and the axis label
        fig.canvas.draw()
        box = ax.get_tightbbox(fig.canvas.get_renderer()).transformed(fig.transFigure.inverted())
        fig.text(max(box.x0, 0.0), box.y0 - 0.01, footer, fontsize=7, ha="left", va="top", wrap=True)
    return fig
