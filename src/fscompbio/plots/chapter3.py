"""Figures and tables of chapter 3: the consistency toy (figures 2.2-2.4), the per-dataset
method panels (figures 3.3-3.8, reused by chapter 4 for 4.4-4.9) and table 3.2.

Every function takes data (arrays or DataFrames) and returns a Figure or a
DataFrame; nothing here reads or writes results files.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ._style import PALETTE, apply_style

__all__ = [
    "plot_fig2_2",
    "plot_fig2_3",
    "plot_fig2_4",
    "plot_method_panels",
    "summary_frame",
    "table3_2",
    "table3_2_markdown",
    "PANELS",
]

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

#: the model-selection settings, their legend labels and colours
SETTINGS = (
    ("cv", "nested CV", PALETTE[0]),
    ("kta", "KTA", PALETTE[1]),
    ("own", "own model (randSel's selected set)", PALETTE[2]),
)


# --------------------------------------------------------------------------
# figures 2.2-2.4: the consistency toy
# --------------------------------------------------------------------------
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


# --------------------------------------------------------------------------
# figures 3.3-3.8 (and 4.4-4.9)
# --------------------------------------------------------------------------
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


def plot_method_panels(summary, *, title="", methods=None, labels=None, footer=""):
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

    Returns
    -------
    Figure
        Six panels; four (no precision, no recall) when the summary has no
        ground truth (real data). Error bars span the range over the outer
        folds, so they stay inside [0, 1] and above 0 features. A
        log-likelihood of exactly 0 because the folds together select every
        feature (eq. 2.8 then says nothing about consistency) is marked "all".
    """
    apply_style()
    df = summary.copy()
    methods = list(methods) if methods is not None else list(dict.fromkeys(df["method"]))
    labels = labels or {}
    truth = any(c in df and df[c].notna().any() for c in ("precision_mean", "recall_mean"))
    panels = [p for p in PANELS if truth or p[0] not in ("precision", "recall")]
    settings = [s for s in SETTINGS if s[0] in set(df["model_selection"])]
    ncol = 3 if truth else 2
    fig, axes = plt.subplots(2, ncol, figsize=(3.8 * ncol, 6.4))
    x = np.arange(len(methods))
    width = 0.8 / max(len(settings), 1)
    for ax, (q, panel_title) in zip(axes.flat, panels):
        range_panel = q in ("accuracy", "n_selected", "precision", "recall")
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
            ax.bar(xs, np.nan_to_num(vals), width, yerr=yerr, color=colour, label=legend, capsize=2,
                   error_kw={"lw": 0.8})
            if q == "log_likelihood":
                flag = np.array([bool(sub["union_is_all"].get(m, False)) if "union_is_all" in sub else False
                                 for m in methods])
                for xi in xs[flag]:
                    ax.annotate("all", (xi, 0), xytext=(0, 2), textcoords="offset points", ha="center",
                                va="bottom", fontsize=6.5, rotation=90, color=colour)
        ax.set_xticks(x, [labels.get(m, m) for m in methods], rotation=35, ha="right")
        ax.set_title(panel_title)
        if q in ("accuracy", "precision", "recall"):
            ax.set_ylim(0, 1.05)
        if q == "accuracy":
            ax.axhline(0.5, color="grey", lw=0.6, ls=":")
        if q == "n_selected":
            top = np.nanmax(np.concatenate(tops)) if tops else np.nan
            if np.isfinite(top) and top > 60:
                ax.set_yscale("log")
                ax.set_ylim(0.8, top * 1.5)
        ax.axhline(0, color="black", lw=0.5)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    handles, texts = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, texts, frameon=False, loc="upper right", ncol=len(settings))
    if title:
        fig.suptitle(title, x=0.02, ha="left")
    bottom = 0.0
    if footer:
        fig.text(0.01, 0.005, footer, fontsize=6.5, ha="left", va="bottom", wrap=True, color="0.3")
        bottom = 0.05
    fig.tight_layout(rect=(0, bottom, 1, 0.95))
    return fig


# --------------------------------------------------------------------------
# table 3.2
# --------------------------------------------------------------------------
#: Thesis table 3.2 (fold decrease of the time, nested CV over KTA): mean, sd
THESIS_TABLE3_2 = {
    "correlation": (6.05, 0.29),
    "stabsel_lasso": (9.38, 0.70),
    "stabsel_logreg": (9.32, 0.32),
    "stabsel_lpboost": (9.9737, 1.26),
    "linear_rfe": (7.6779, 0.05),
}


def table3_2(folds, *, labels=None):
    """Fold decrease in time, nested CV over KTA, per method (table 3.2).

    Parameters
    ----------
    folds : DataFrame
        One row per job with columns ``dataset``, ``method``, ``fold``,
        ``model_selection`` and ``seconds_total``.
    labels : dict or None
        Method name -> label.

    Returns
    -------
    DataFrame
        Per method: ``fold_decrease_mean``, ``fold_decrease_sd`` (sample sd
        over the paired (dataset, fold) ratios), ``n_pairs``,
        ``seconds_cv_mean``, ``seconds_kta_mean``, and the thesis' values
        where it has them.
    """
    labels = labels or {}
    wide = folds.pivot_table(index=["dataset", "method", "fold"], columns="model_selection", values="seconds_total")
    if not {"cv", "kta"} <= set(wide.columns):
        raise ValueError(f"table3_2 needs both 'cv' and 'kta' runs; got {sorted(wide.columns)}")
    wide = wide.dropna(subset=["cv", "kta"]).reset_index()
    wide["ratio"] = wide["cv"] / wide["kta"]
    rows = []
    for method, g in wide.groupby("method", sort=False):
        thesis = THESIS_TABLE3_2.get(method, (np.nan, np.nan))
        rows.append(
            {
                "method": method,
                "label": labels.get(method, method),
                "fold_decrease_mean": float(g["ratio"].mean()),
                "fold_decrease_sd": float(g["ratio"].std(ddof=1)) if len(g) > 1 else 0.0,
                "n_pairs": int(len(g)),
                "seconds_cv_mean": float(g["cv"].mean()),
                "seconds_kta_mean": float(g["kta"].mean()),
                "thesis_mean": thesis[0],
                "thesis_sd": thesis[1],
            }
        )
    return pd.DataFrame(rows)


def table3_2_markdown(table, note=""):
    """Table 3.2 as Markdown: 'Algorithm | Fold decrease (this run) | Thesis', and a note line under it."""
    lines = ["| Algorithm | Fold decrease (this run) | Thesis | pairs | CV s | KTA s |", "| --- | --- | --- | --- | --- | --- |"]
    for r in table.itertuples(index=False):
        thesis = "" if np.isnan(r.thesis_mean) else f"{r.thesis_mean:.2f} ± {r.thesis_sd:.2f}"
        lines.append(
            f"| {r.label} | {r.fold_decrease_mean:.2f} ± {r.fold_decrease_sd:.2f} | {thesis} | {r.n_pairs} | "
            f"{r.seconds_cv_mean:.2f} | {r.seconds_kta_mean:.2f} |"
        )
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"
