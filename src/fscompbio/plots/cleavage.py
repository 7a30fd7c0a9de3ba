"""Figures and tables of cleavage-site prediction: accuracy by approach, protocol and CV scheme (table P1,
figure 5.3), the learning curve that explains the paper's ordering (figure 5.5), feature-label correlation on all
windows versus support vectors (figure 5.4), and the architecture and representation diagrams (figures 5.1, 5.2)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Rectangle

from ..cleavage import APPROACH_LABELS, APPROACH_SHORT_LABELS, PAPER_TABLE1, TABLE_ROWS
from ._style import PALETTE, apply_style

__all__ = [
    "PAPER_CITATION",
    "table_P1",
    "table_P1_wide",
    "plot_fig5_1",
    "plot_fig5_2",
    "plot_fig5_3",
    "plot_fig5_4",
    "plot_fig5_5",
]

#: how figures and tables cite the paper whose table 1 table P1 reproduces
PAPER_CITATION = "Athanasakis, Shawe-Taylor & Fernandez-Reyes (2013), Principled Non-Linear Feature Selection, table 1"

#: the training protocols (config chapter5.prediction.protocols; the captions give their sizes)
#: the training sets of table P1: "capped" is our hypothesis for the paper's accuracy of the original representation
#: (neither text states a cap), not a protocol the paper states; "paper" is its name in runs archived before 2026-11-26
_PROTOCOL_LABELS = {"capped": "capped per class (our hypothesis)", "paper": "capped per class (our hypothesis)",
                    "adequate": "all positives + more negatives (weighted)"}
#: the order of the training sets in the table and the figures
_PROTOCOL_ORDER = ["capped", "paper", "adequate"]
_CV_LABELS = {"random": "random CV", "homology": "homology-aware CV"}
#: the scalings of the 54 scales (fscompbio.sequences.SCALINGS), in table order; a row on raw scales is marked
_SCALES_ORDER = ["standardised", "raw"]
_SCALES_SUFFIX = {"raw": " (raw scales)"}


def _scales_of(table):
    """Table P1's ``scales`` column (a table of an older run, without one: every row standardised)."""
    return table["scales"] if "scales" in table.columns else pd.Series("standardised", index=table.index)


def _row_keys(table):
    """The (approach, scales) rows of table P1, approaches in :data:`TABLE_ROWS` order, standardised first."""
    scales = _scales_of(table)
    return [(a, sc) for a in _order(table["approach"], TABLE_ROWS) for sc in _order(scales, _SCALES_ORDER)
            if ((table["approach"] == a) & (scales == sc)).any()]


def _order(values, first):
    values = list(dict.fromkeys(values))
    return [v for v in first if v in values] + [v for v in values if v not in first]


def table_P1(records):
    """Accuracy by approach, training protocol and CV scheme, beside the paper's table 1.

    Parameters
    ----------
    records : iterable of dict
        One per fold: ``approach``, ``protocol``, ``cv``, ``accuracy`` (in
        ``[0, 1]``), and optionally ``scales`` (``"standardised"``, the
        default, or ``"raw"``), ``n_features``, ``C``, ``gamma``.

    Returns
    -------
    pandas.DataFrame
        One row per (approach, protocol, cv, scales), approaches in
        :data:`TABLE_ROWS` order: ``approach``, ``method``, ``protocol``,
        ``cv``, ``scales`` (only when some record is on raw scales; every
        row is on standardised scales otherwise), ``accuracy_mean``, ``accuracy_sd`` (percent, sample sd over folds),
        ``n_folds``, ``paper_mean``, ``paper_sd`` (NaN for rows the paper does
        not have), ``mean_features``, ``median_C``, ``median_gamma``.
    """
    df = pd.DataFrame(list(records))
    if df.empty:
        raise ValueError("table_P1 needs at least one fold record")
    for col in ("n_features", "C", "gamma"):
        if col not in df:
            df[col] = np.nan
    df["scales"] = df["scales"].fillna("standardised") if "scales" in df else "standardised"
    rows = []
    for approach in _order(df["approach"], TABLE_ROWS):
        for protocol in _order(df["protocol"], _PROTOCOL_ORDER):
            for cv, scales in [(c, sc) for c in _order(df["cv"], ["random", "homology"])
                               for sc in _order(df["scales"], _SCALES_ORDER)]:
                part = df[(df["approach"] == approach) & (df["protocol"] == protocol) & (df["cv"] == cv)
                          & (df["scales"] == scales)]
                if part.empty:
                    continue
                acc = 100.0 * part["accuracy"].to_numpy(dtype=float)
                p_mean, p_sd = PAPER_TABLE1.get(approach, (np.nan, np.nan))
                nf = pd.to_numeric(part["n_features"], errors="coerce")
                rows.append({
                    "approach": approach,
                    "method": APPROACH_LABELS.get(approach, approach),
                    "protocol": protocol,
                    "cv": cv,
                    "scales": scales,
                    "accuracy_mean": round(float(acc.mean()), 2),
                    "accuracy_sd": round(float(acc.std(ddof=1)), 2) if acc.size > 1 else 0.0,
                    "n_folds": int(acc.size),
                    "paper_mean": p_mean,
                    "paper_sd": p_sd,
                    "mean_features": round(float(nf.mean()), 1) if nf.notna().any() else np.nan,
                    "median_C": float(pd.to_numeric(part["C"], errors="coerce").median()),
                    "median_gamma": float(pd.to_numeric(part["gamma"], errors="coerce").median()),
                })
    out = pd.DataFrame(rows)
    # a run on standardised scales only writes the table it always did (no ``scales`` column)
    return out if (df["scales"] == "raw").any() else out.drop(columns="scales")


def table_P1_wide(table):
    """Table P1 with one row per approach and one ``mean ± sd (folds)`` column per protocol x CV scheme.

    Parameters
    ----------
    table : pandas.DataFrame
        Output of :func:`table_P1`.

    Returns
    -------
    pandas.DataFrame
        ``method`` (a row on raw scales marked "(raw scales)", below the
        approach's standardised row), one column per (protocol, cv) present,
        ``features`` (mean number used, adequate protocol, random CV) and the
        paper's ``mean ± sd``.
    """
    out = []
    cols = [(p, c) for c in _order(table["cv"], ["random", "homology"])
            for p in _order(table["protocol"], _PROTOCOL_ORDER)
            if ((table["protocol"] == p) & (table["cv"] == c)).any()]
    scales_col = _scales_of(table)
    for approach, scales in _row_keys(table):
        part = table[(table["approach"] == approach) & (scales_col == scales)]
        row = {"method": APPROACH_LABELS.get(approach, approach) + _SCALES_SUFFIX.get(scales, "")}
        for p, c in cols:
            cell = part[(part["protocol"] == p) & (part["cv"] == c)]
            row[f"{_PROTOCOL_LABELS.get(p, p)}, {_CV_LABELS.get(c, c)}"] = (
                f"{cell['accuracy_mean'].iloc[0]:.2f} ± {cell['accuracy_sd'].iloc[0]:.2f} ({cell['n_folds'].iloc[0]})"
                if len(cell) else "")
        feats = part["mean_features"].dropna()
        row["features used"] = f"{feats.iloc[-1]:g}" if len(feats) else ""
        p_mean, p_sd = PAPER_TABLE1.get(approach, (np.nan, np.nan))
        row["paper (PrediSi)"] = f"{p_mean:.2f} ± {p_sd:.2f}" if np.isfinite(p_mean) else ""
        out.append(row)
    return pd.DataFrame(out)


def plot_fig5_3(table, *, chance=None, config_label=""):
    """Accuracy by approach: each protocol and CV scheme measured here, and the paper (thesis figure 5.3).

    Parameters
    ----------
    table : pandas.DataFrame
        Output of :func:`table_P1`; an approach also run on raw scales gets a
        second group of bars, labelled "(raw scales)".
    chance : float, default=None
        Accuracy (percent) of a random ranking of the windows (1/39), drawn dotted.
    config_label : str, default=""
        Which configuration and sizes produced the numbers (printed under the axes).

    Returns
    -------
    matplotlib.figure.Figure
    """
    apply_style()
    rows = _row_keys(table)  # (approach, scales): a row on raw scales is an extra labelled bar group
    scales_col = _scales_of(table)
    series = [(p, c) for c in _order(table["cv"], ["random", "homology"])
              for p in _order(table["protocol"], _PROTOCOL_ORDER)
              if ((table["protocol"] == p) & (table["cv"] == c)).any()]
    n_bars = len(series) + 1
    # about an inch per approach, so that two-line labels of neighbouring approaches do not run together
    fig, ax = plt.subplots(figsize=(max(10.0, 0.95 * len(rows)), 4.6))
    x = np.arange(len(rows))
    w = 0.8 / n_bars
    colours = [PALETTE[0], PALETTE[4], PALETTE[2], PALETTE[3]]
    for k, (p, c) in enumerate(series):
        means, sds = [], []
        for a, sc in rows:
            cell = table[(table["approach"] == a) & (scales_col == sc) & (table["protocol"] == p) & (table["cv"] == c)]
            means.append(cell["accuracy_mean"].iloc[0] if len(cell) else np.nan)
            sds.append(cell["accuracy_sd"].iloc[0] if len(cell) else np.nan)
        counts = table[(table["protocol"] == p) & (table["cv"] == c)]["n_folds"]
        nf = str(int(counts.max())) if counts.min() == counts.max() else f"{int(counts.min())}-{int(counts.max())}"
        ax.bar(x - 0.4 + w * (k + 0.5), means, w, yerr=sds, capsize=2, color=colours[k % len(colours)],
               hatch="//" if c == "homology" else None, edgecolor="white", linewidth=0.3,
               label=f"{_PROTOCOL_LABELS.get(p, p)}, {_CV_LABELS.get(c, c)} ({nf} folds)")
    paper = [PAPER_TABLE1.get(a, (np.nan, np.nan)) for a, _ in rows]
    ax.bar(x - 0.4 + w * (len(series) + 0.5), [m for m, _ in paper], w, yerr=[s for _, s in paper], capsize=2,
           color=PALETTE[1], label="Athanasakis et al. (2013), table 1 (PrediSi)")
    if chance is not None:
        ax.axhline(chance, color="0.4", ls=":", lw=1, label=f"chance ({chance:.1f}%)")
    ax.set_xticks(x, [APPROACH_SHORT_LABELS.get(a, a) + ("\n(raw scales)" if sc == "raw" else "") for a, sc in rows],
                  fontsize=8)
    ax.set_ylabel("sequences with the cleavage window ranked first (%)")
    ax.set_ylim(0, 100)
    ax.legend(frameon=False, loc="upper left", ncol=2, fontsize=8)
    ax.set_title("Cleavage-site accuracy by approach, training protocol and cross-validation scheme")
    if config_label:
        fig.text(0.01, 0.005, config_label, fontsize=7, color="0.35", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    return fig


def plot_fig5_5(curve, *, config_label=""):
    """Learning curve: accuracy against the training windows, one line per representation (figure 5.5).

    Parameters
    ----------
    curve : pandas.DataFrame
        One row per representation x fold x training set: ``representation``,
        ``protocol`` ("balanced" or "ratio"), ``n_positive``, ``n_negative``,
        ``n_train``, ``accuracy`` (in ``[0, 1]``).
    config_label : str, default=""

    Returns
    -------
    matplotlib.figure.Figure
        Left: balanced training sets, accuracy against windows per class
        (mean and min-max over folds); right: all training positives with r
        times as many negatives, against r. The paper's table-1 range is
        shaded on the left.
    """
    apply_style()
    names = {"scales": "original (648 scale values)", "onehot": "one-hot residues (240)",
             "sf": "sparse filtering"}
    colours = {"scales": PALETTE[0], "onehot": PALETTE[2], "sf": PALETTE[5]}
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True, gridspec_kw={"width_ratios": [1.6, 1]})
    from matplotlib.ticker import NullFormatter

    balanced_x = set()
    for rep in _order(curve["representation"], ["scales", "onehot", "sf"]):
        part = curve[curve["representation"] == rep].copy()
        label = names.get(rep, rep)
        if "n_features" in part and part["n_features"].notna().any() and rep == "sf":
            label = f"sparse filtering ({int(part['n_features'].max())})"
        bal = part[part["protocol"] == "balanced"].copy()
        if len(bal):
            # the k-th balanced size of every fold together (the largest, all positives, differs by a window or two)
            bal["step"] = bal.groupby("fold")["n_positive"].rank(method="first")
            g = bal.groupby("step").agg(x=("n_positive", "mean"), mean=("accuracy", "mean"), lo=("accuracy", "min"),
                                        hi=("accuracy", "max"))
            balanced_x.update(g["x"].tolist())
            axes[0].plot(g["x"], 100 * g["mean"], "o-", color=colours.get(rep), label=label)
            axes[0].fill_between(g["x"], 100 * g["lo"], 100 * g["hi"], color=colours.get(rep), alpha=0.15)
        rat = part[part["protocol"] == "ratio"].copy()
        if len(rat):
            rat["r"] = (rat["n_negative"] / rat["n_positive"]).round(0)
            g = rat.groupby("r")["accuracy"].agg(["mean", "min", "max"])
            axes[1].plot(g.index, 100 * g["mean"], "s-", color=colours.get(rep), label=label)
            axes[1].fill_between(g.index, 100 * g["min"], 100 * g["max"], color=colours.get(rep), alpha=0.15)
    lo = min(m for m, _ in PAPER_TABLE1.values())
    hi = max(m for m, _ in PAPER_TABLE1.values())
    for ax in axes:
        ax.axhspan(lo, hi, color=PALETTE[1], alpha=0.12, lw=0)
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
    axes[0].text(0.99, (lo - axes[0].get_ylim()[0]) / np.ptp(axes[0].get_ylim()) + 0.01,
                 "range of the paper's table 1", transform=axes[0].transAxes, ha="right", va="bottom", fontsize=7,
                 color="0.35")
    ticks = sorted({int(round(v, -1)) if v > 100 else int(round(v)) for v in balanced_x})
    if ticks:
        axes[0].set_xticks(ticks, [f"{t:,}" for t in ticks])
    axes[0].set_xlabel("training windows per class (balanced; largest = all training positives)")
    axes[0].set_ylabel("cleavage-site accuracy (%)")
    axes[0].set_title("Balanced training sets")
    axes[0].legend(frameon=False, loc="lower right")
    axes[1].set_xlabel("negatives per positive (all training positives)")
    axes[1].set_title("All positives, class-weighted")
    rs = sorted(set((curve.loc[curve["protocol"] == "ratio", "n_negative"]
                     / curve.loc[curve["protocol"] == "ratio", "n_positive"]).round(0)))
    if rs:
        axes[1].set_xticks(rs, [f"{r:g}" for r in rs])
    if config_label:
        fig.text(0.01, 0.005, config_label + "; Gaussian SVM, C = 1, gamma = scale; band = min-max over folds",
                 fontsize=7, color="0.35", ha="left", va="bottom")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def _box(ax, xy, w, h, text, *, fc="#EAF2FB", ec=PALETTE[0], fontsize=10, **kw):
    ax.add_patch(FancyBboxPatch(xy, w, h, boxstyle="round,pad=0.02,rounding_size=0.05", fc=fc, ec=ec, lw=1.2))
    ax.text(xy[0] + w / 2, xy[1] + h / 2, text, ha="center", va="center", fontsize=fontsize, **kw)


def _arrow(ax, a, b, **kw):
    ax.add_patch(FancyArrowPatch(a, b, arrowstyle="-|>", mutation_scale=14, lw=1.2, color="0.3", **kw))


def plot_fig5_1():
    """The architecture of thesis figure 5.1, drawn as a diagram.

    Windows are encoded by 54 scales, sparse filtering learns an over-complete
    representation, randSel culls it into nested feature sets of increasing
    granularity, every set x Gaussian width gives kernel-ridge weak learners,
    and randomised LPBoost-MKL classifiers vote.

    Returns
    -------
    matplotlib.figure.Figure
    """
    apply_style()
    fig, ax = plt.subplots(figsize=(10, 4.4))
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 4.4)
    ax.axis("off")
    _box(ax, (0.05, 1.6), 1.45, 1.2, "windows\n12 residues\n(39 per sequence)")
    _box(ax, (1.85, 1.6), 1.45, 1.2, "54 scales\nper residue\n(648 values)")
    _box(ax, (3.65, 1.6), 1.45, 1.2, "sparse\nfiltering\n(1,500 learned)")
    _arrow(ax, (1.5, 2.2), (1.85, 2.2))
    _arrow(ax, (3.3, 2.2), (3.65, 2.2))
    # randSel's nested sets
    sizes = [1.0, 0.8, 0.62, 0.46, 0.32]
    for k, s in enumerate(sizes):
        ax.add_patch(Rectangle((5.45 + (1 - s) * 0.45, 0.6 + (1 - s) * 1.5), 0.9 * s, 3.0 * s, fc="none",
                               ec=PALETTE[5], lw=1.2))
    ax.text(5.9, 0.1, "randSel: nested sets\nS1 ⊃ S2 ⊃ ... (cull 12.5%)", ha="center", va="bottom", fontsize=10)
    _arrow(ax, (5.1, 2.2), (5.45, 2.2))
    # kernels
    for k in range(4):
        _box(ax, (6.75, 0.35 + k * 0.95), 1.3, 0.75, f"κ(S{k + 1}, σ) ridge\nweak learners", fc="#FDF1E0",
             ec=PALETTE[1], fontsize=9)
        _arrow(ax, (6.35, 2.2), (6.75, 0.72 + k * 0.95))
        _arrow(ax, (8.05, 0.72 + k * 0.95), (8.45, 2.2))
    _box(ax, (8.45, 1.45), 1.5, 1.5, "LPBoost-MKL\nx 500, each on\nhalf the learners\n→ majority vote",
         fc="#E6F4EF", ec=PALETTE[2], fontsize=9)
    ax.text(5.0, 4.15, "Thesis figure 5.1 / Athanasakis et al. (2013): representation learning, non-linear "
            "selection into kernels of increasing granularity, multiple kernel learning",
            ha="center", va="bottom", fontsize=8, color="0.3")
    return fig


def plot_fig5_2(sequence, site, *, before=9, after=2, n_learned=1500, n_scales=54):
    """The representation of thesis figure 5.2: a sequence, its windows, the 12 x 54 encoding, sparse filtering.

    Parameters
    ----------
    sequence : str
        A 50-residue prefix.
    site : int
        1-based last residue of its signal peptide (the positive window's
        target is ``site + 1``).
    before, after : int
    n_learned, n_scales : int
        Sizes printed in the diagram.

    Returns
    -------
    matplotlib.figure.Figure
    """
    from ..sequences import encode_windows

    apply_style()
    width = before + 1 + after
    fig = plt.figure(figsize=(10, 5.2))
    ax = fig.add_axes((0.02, 0.55, 0.96, 0.42))
    ax.set_xlim(-1, len(sequence) + 1)
    ax.set_ylim(-5.5, 2)
    ax.axis("off")
    for i, a in enumerate(sequence):
        mature = i >= site
        ax.text(i + 0.5, 1.0, a, ha="center", va="center", fontsize=9, family="monospace",
                color=PALETTE[5] if mature else "0.1", fontweight="bold" if i == site else "normal")
    ax.text(-0.8, 1.0, "prefix", ha="right", va="center", fontsize=9)
    ax.annotate("cleavage site", xy=(site, 1.5), xytext=(site, 2.1), ha="center", fontsize=8,
                arrowprops={"arrowstyle": "->", "color": PALETTE[5]})
    n_win = len(sequence) - before - after
    shown = [0, 1, 2, site - before, n_win - 1]
    for row, k in enumerate(sorted(set(s for s in shown if 0 <= s < n_win))):
        y = -0.6 - row * 0.95
        positive = k == site - before
        ax.add_patch(Rectangle((k, y - 0.35), width, 0.7, fc="#FBE3D6" if positive else "#EAF2FB",
                               ec=PALETTE[5] if positive else PALETTE[0], lw=1))
        ax.text(k - 0.3, y, f"window {k + 1}" + (" (positive)" if positive else ""), ha="right", va="center",
                fontsize=8)
        ax.add_patch(Rectangle((k + before, y - 0.35), 1, 0.7, fc="none", ec="0.2", lw=1.2))
    ax.text(len(sequence) + 0.5, -2.5, f"{n_win} windows of {width}:\n{before} before the target,\n"
            f"the target, {after} after", fontsize=8, va="center")
    # the encoding of the positive window
    window = sequence[site - before : site + after + 1]
    X = encode_windows([window]).reshape(width, -1)
    ax2 = fig.add_axes((0.06, 0.07, 0.42, 0.38))
    im = ax2.imshow(X.T, aspect="auto", cmap="RdBu_r", vmin=-3, vmax=3, interpolation="nearest")
    ax2.set_xticks(range(width), list(window), family="monospace")
    ax2.set_yticks([0, X.shape[1] - 1], ["scale 1", f"scale {n_scales}"])
    ax2.set_title(f"positive window: {width} residues x {n_scales} standardised scales = {width * n_scales} values",
                  fontsize=9)
    fig.colorbar(im, ax=ax2, fraction=0.03, pad=0.01, label="z-score")
    ax3 = fig.add_axes((0.55, 0.07, 0.43, 0.38))
    ax3.axis("off")
    ax3.set_xlim(0, 10)
    ax3.set_ylim(0, 4)
    _box(ax3, (0.2, 1.3), 2.8, 1.4, f"x ∈ R^{width * n_scales}", fontsize=10)
    _arrow(ax3, (3.0, 2.0), (4.0, 2.0))
    _box(ax3, (4.0, 0.8), 5.8, 2.4, f"sparse filtering (Ngiam et al. 2011)\nf = |W x|, W: {n_learned} x "
         f"{width * n_scales}\nnormalise features, then windows;\nminimise Σ ||f̂||₁ (L-BFGS)\n→ "
         f"{n_learned} learned features", fc="#FDF1E0", ec=PALETTE[1], fontsize=9)
    return fig


def plot_fig5_4(corr_all, corr_sv, *, n_windows=None, n_sv=None):
    """Correlation of each learned feature with the label: all windows versus support vectors.

    Parameters
    ----------
    corr_all, corr_sv : ndarray of shape (n_features,)
        Pearson correlation of every learned feature with the label over all
        (training) windows and over the SVM's support vectors only.
    n_windows, n_sv : int, default=None
        Sample counts, for the titles.

    Returns
    -------
    matplotlib.figure.Figure
        Top: the two correlation profiles as colour strips (thesis figure 5.4:
        top row all windows, bottom row support vectors), features ordered by
        their correlation on all windows. Bottom left: one against the other.
        Bottom right: the ranks by absolute correlation, one against the other.
    """
    corr_all = np.asarray(corr_all, dtype=float)
    corr_sv = np.asarray(corr_sv, dtype=float)
    apply_style()
    fig = plt.figure(figsize=(9, 5.5))
    gs = fig.add_gridspec(2, 2, height_ratios=[1.0, 2.2])
    ax_strip = fig.add_subplot(gs[0, :])
    order = np.argsort(-corr_all, kind="stable")
    lim = float(np.nanmax(np.abs(np.r_[corr_all, corr_sv]))) or 1.0
    im = ax_strip.imshow(np.vstack([corr_all[order], corr_sv[order]]), aspect="auto", cmap="RdBu_r",
                         vmin=-lim, vmax=lim, interpolation="nearest")
    ax_strip.set_yticks([0, 1], [f"all windows\n(n={n_windows})" if n_windows else "all windows",
                                 f"support vectors\n(n={n_sv})" if n_sv else "support vectors"])
    ax_strip.set_xlabel("learned feature (ordered by correlation on all windows)")
    fig.colorbar(im, ax=ax_strip, fraction=0.02, pad=0.01, label="corr. with label")
    ax1 = fig.add_subplot(gs[1, 0])
    ax1.scatter(corr_all, corr_sv, s=6, color=PALETTE[0], alpha=0.7)
    ax1.axline((0, 0), slope=1, color="0.5", lw=0.8, ls="--")
    r = np.corrcoef(corr_all, corr_sv)[0, 1] if corr_all.size > 1 else np.nan
    ax1.set_xlabel("correlation with label, all windows")
    ax1.set_ylabel("correlation, support vectors")
    ax1.set_title(f"Pearson r between the profiles = {r:.2f}")
    ax2 = fig.add_subplot(gs[1, 1])
    rank_all = np.argsort(np.argsort(-np.abs(corr_all), kind="stable"), kind="stable") + 1
    rank_sv = np.argsort(np.argsort(-np.abs(corr_sv), kind="stable"), kind="stable") + 1
    ax2.scatter(rank_all, rank_sv, s=6, color=PALETTE[5], alpha=0.7)
    ax2.axline((1, 1), slope=1, color="0.5", lw=0.8, ls="--")
    rho = np.corrcoef(rank_all, rank_sv)[0, 1] if corr_all.size > 1 else np.nan
    ax2.set_xlabel("rank by |correlation|, all windows")
    ax2.set_ylabel("rank, support vectors")
    ax2.set_title(f"Spearman rank correlation = {rho:.2f}")
    fig.tight_layout()
    return fig
