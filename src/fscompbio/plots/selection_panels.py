"""The per-data-set panels of the method comparison (figures 3.3-3.13 and 4.4-4.14, and the panels of
your own data sets): accuracy, number of features, precision, recall, mean variance and consistency
log-likelihood per method, one bar per model selection.

Every function takes data (DataFrames) and returns a Figure or a DataFrame; nothing here reads or
writes results files.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..evaluation import method_spec
from ._style import PALETTE, apply_style
from .datasets import LABELS

__all__ = ["PANELS", "dataset_panels", "plot_method_panels", "summary_frame"]

#: panel order and titles of figures 3.3-3.8 (summary column prefix, title); the first four are
#: means over the outer folds with min-max bars, the last two are computed from all folds' selections
PANELS = (
    ("accuracy", "Accuracy"),
    ("n_selected", "Number of features"),
    ("precision", "Precision"),
    ("recall", "Recall"),
    ("mean_variance", "Mean variance"),
    ("log_likelihood", "Log-likelihood (eq. 2.8)"),
)

#: the first panel for a real-valued label (:func:`fscompbio.evaluation.regression_fold`), in place of accuracy
REGRESSION_PANEL = ("r2", "R\u00b2 (held-out)")

#: the model-selection settings, their legend labels and colours
SETTINGS = (
    ("cv", "nested CV", PALETTE[0]),
    ("kta", "KTA", PALETTE[1]),
    ("kta_abs", "KTA, absolute width grid", PALETTE[3]),
    ("own", "own model (randSel's selected set)", PALETTE[2]),
)


def summary_frame(rows):
    """A tidy DataFrame from per-(method, model_selection) aggregate dicts.

    Parameters
    ----------
    rows : sequence of dict
        Each has ``method``, ``model_selection`` and the keys of
        :func:`fscompbio.evaluation.aggregate_folds`.
    """
    df = pd.DataFrame(list(rows))
    missing = {"method", "model_selection"} - set(df.columns)
    if missing:
        raise ValueError(f"summary rows need columns {sorted(missing)}")
    return df


def _column(sub, col, methods):
    if col not in sub:
        return np.full(len(methods), np.nan)
    return np.array([sub[col].get(m, np.nan) for m in methods], dtype=float)


def plot_method_panels(summary, *, title="", methods=None, labels=None, footer="", chance=None):
    """Panels of bars per method, one bar per model selection, with min-max bars over the folds.

    Parameters
    ----------
    summary : DataFrame
        One row per (method, model_selection) with ``<q>_mean``, ``<q>_min``
        and ``<q>_max`` for accuracy, n_selected, precision and recall,
        ``mean_variance``, ``log_likelihood`` and ``union_is_all`` (see
        :func:`fscompbio.evaluation.aggregate_folds`). Settings absent for a
        method (e.g. "own" for a method without an own model) leave a gap.
    title : str
    methods : sequence of str or None
        Order of the methods (default: order of first appearance).
    labels : dict or None
        Method name -> label on the axis.
    footer : str
        A line under the figure (the config and the sizes used).
    chance : float or None, default=None
        The accuracy of always predicting the majority class (the dotted line):
        about one half on a balanced set, the largest class's share otherwise.
        None reads it from the summary's ``majority_accuracy_mean`` (the mean
        over the outer folds of the training majority class's accuracy on the
        test part), or draws no line when the summary lacks it. A summary of
        a real-valued label (``r2_mean``, :func:`fscompbio.evaluation.regression_fold`)
        draws R^2 in place of accuracy, with the line at 0 (predicting the mean).

    Returns
    -------
    Figure
        Six panels; four (no precision, no recall) when the summary has no
        ground truth (real data). Error bars span the range over the outer
        folds, so they stay inside [0, 1] and above 0 features. A
        log-likelihood of exactly 0 because the folds together select every
        feature (eq. 2.8 then says nothing about consistency) is marked "all".
        A model that selected no feature in some outer fold (its accuracy there
        is that of predicting the training majority class) is marked with an
        empty-set sign above its accuracy and feature-count bars, and said so
        under the figure; a missing value is left as a gap, not drawn as 0.
    """
    apply_style()
    df = summary.copy()
    methods = list(methods) if methods is not None else list(dict.fromkeys(df["method"]))
    labels = labels or {}
    truth = any(c in df and df[c].notna().any() for c in ("precision_mean", "recall_mean"))
    panels = [p for p in PANELS if truth or p[0] not in ("precision", "recall")]
    regression = "r2_mean" in df  # a real-valued label: R^2 in place of accuracy, chance at 0
    if regression:
        panels = [REGRESSION_PANEL if p[0] == "accuracy" else p for p in panels]
        chance = 0.0 if chance is None else chance
    settings = [s for s in SETTINGS if s[0] in set(df["model_selection"])]
    if chance is None and "majority_accuracy_mean" in df and df["majority_accuracy_mean"].notna().any():
        chance = float(df["majority_accuracy_mean"].dropna().iloc[0])  # the same outer folds for every row
    if chance is not None and not regression and not 0.0 <= chance <= 1.0:
        raise ValueError(f"chance must be in [0, 1]; got {chance!r}")
    ncol = 3 if truth else 2
    fig, axes = plt.subplots(2, ncol, figsize=(3.8 * ncol, 6.4))
    x = np.arange(len(methods))
    width = 0.8 / max(len(settings), 1)
    any_empty = False
    for ax, (q, panel_title) in zip(axes.flat, panels):
        range_panel = q in ("accuracy", "r2", "n_selected", "precision", "recall")
        tops = []
        for s, (setting, legend, colour) in enumerate(settings):
            sub = df[df["model_selection"] == setting].set_index("method")
            vals = _column(sub, f"{q}_mean" if range_panel else q, methods)
            xs = x + (s - (len(settings) - 1) / 2) * width
            yerr = None
            if range_panel:
                lo, hi = _column(sub, f"{q}_min", methods), _column(sub, f"{q}_max", methods)
                ok = np.isfinite(vals) & np.isfinite(lo) & np.isfinite(hi)
                yerr = np.where(ok, np.vstack([vals - lo, hi - vals]), 0.0)
                tops.append(np.where(ok, hi, vals))
            drawn = np.isfinite(vals)
            ax.bar(xs[drawn], vals[drawn], width, yerr=None if yerr is None else yerr[:, drawn], color=colour,
                   label=legend, capsize=2, error_kw={"lw": 0.8})
            if q in ("accuracy", "r2", "n_selected"):
                empty = _column(sub, "n_selected_min", methods) == 0
                any_empty |= bool(empty.any())
                tops_here = np.nan_to_num(np.where(ok, hi, vals) if range_panel else vals)
                if q == "n_selected":
                    tops_here = np.maximum(tops_here, 1.0)  # visible on a log axis too
                for xi, top in zip(xs[empty], tops_here[empty]):
                    ax.annotate("\u2205", (xi, top), xytext=(0, 2), textcoords="offset points", ha="center",
                                va="bottom", fontsize=7, color=colour)
            if q == "log_likelihood":
                flag = np.array([bool(sub["union_is_all"].get(m, False)) if "union_is_all" in sub else False
                                 for m in methods])
                for xi in xs[flag]:  # under the zero line, where the (empty) bar would be: never into the title
                    ax.annotate("all", (xi, 0), xytext=(0, -2), textcoords="offset points", ha="center",
                                va="top", fontsize=6.5, rotation=90, color=colour)
        ax.set_xticks(x, [labels.get(m, m) for m in methods], rotation=35, ha="right")
        ax.set_title(panel_title)
        if q in ("accuracy", "precision", "recall"):
            ax.set_ylim(0, 1.05)
        if q == "r2":  # below 0 where a model predicts worse than the training mean
            low = df["r2_min"].min()
            ax.set_ylim(min(-0.05, low - 0.05) if np.isfinite(low) else -0.05, 1.05)
        if q in ("accuracy", "r2") and chance is not None:
            ax.axhline(chance, color="grey", lw=0.6, ls=":")
        if q == "n_selected":
            top = np.nanmax(np.concatenate(tops)) if tops else np.nan
            if np.isfinite(top) and top > 60:
                ax.set_yscale("log")
                ax.set_ylim(0.8, top * 1.5)
        ax.axhline(0, color="black", lw=0.5)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    handles, texts = axes.flat[0].get_legend_handles_labels()
    # the legend on its own line under the title, so that a long data-set title never runs into it
    fig.legend(handles, texts, frameon=False, loc="upper right", bbox_to_anchor=(0.995, 0.955), ncol=len(settings))
    if title:
        fig.suptitle(title, x=0.02, ha="left")
    if any_empty:
        note = ("\u2205: the model selected no feature in at least one outer fold (there its accuracy is the "
                "training majority class's)") if not regression else (
            "\u2205: the model selected no feature in at least one outer fold (there it predicts the training mean)")
        footer = f"{footer}\n{note}" if footer else note
    bottom = 0.0
    if footer:
        fig.text(0.01, 0.005, footer, fontsize=6.5, ha="left", va="bottom", wrap=True, color="0.3")
        bottom = 0.05
    fig.tight_layout(rect=(0, bottom, 1, 0.91))
    return fig


def dataset_panels(summary, dataset, methods, footer=""):
    """The panel figure of one data set (figures 3.3-3.13, 4.4-4.14, or one of your own data sets) from its
    summary (:func:`fscompbio.evaluation.summarise_fold_jobs`): the methods labelled as the method registry
    names them, in the order given, the data set titled as the study names it."""
    labels = {m: method_spec(m).label or m for m in methods}
    return plot_method_panels(summary, title=LABELS.get(dataset, dataset), methods=methods, labels=labels,
                              footer=footer)
