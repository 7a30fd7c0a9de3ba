"""Figures and tables of the spine: table 3.1, figures 3.1, 3.2, 4.1, 4.2."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ._style import PALETTE, apply_style

__all__ = ["table3_1", "table_a2", "table_markdown", "plot_fig2_1", "plot_fig3_1", "plot_fig3_2", "plot_fig4_1", "plot_fig4_2"]

#: Thesis table 3.1 (one random draw of 300 per set; its non-linear Weston row is a typo: 161 + 154 != 300).
THESIS_TABLE3_1 = {
    "fake_class": (148, 152),
    "linear_zhang_feature_noise": (155, 145),
    "linear_zhang_sample_noise": (144, 156),
    "linear_weston": (161, 139),
    "nonlinear_weston": (161, 154),
    "xor": (144, 156),
}

LABELS = {
    "fake_class": "Fake Class",
    "linear_zhang_feature_noise": "Linear Zhang - Feature Noise",
    "linear_zhang_sample_noise": "Linear Zhang - Sample Noise",
    "linear_weston": "Linear Weston",
    "nonlinear_weston": "Non-Linear Weston",
    "xor": "Xor",
    # the real tasks (data/expression/README.md); the thesis' own TB sets are not public
    "tb_serum_metabolomics": "TB serum metabolomics, TB vs healthy (Weiner et al. 2012), stand-in for the TB "
                             "mass-spectrometry tasks",
    "allaml": "Leukaemia ALL vs AML micro-array (Golub et al. 1999)",
    "prostate_ge": "Prostate tumour vs normal micro-array (Singh et al. 2002)",
    "colon": "Colon tumour vs normal micro-array (Alon et al. 1999)",
    "tb_blood_gambia": "Whole-blood micro-array, TB vs healthy (Maertzdorf et al. 2011), stand-in for the TB "
                       "micro-array task",
}


def table3_1(proportions):
    """Class proportions beside the thesis' (table 3.1).

    Parameters
    ----------
    proportions : dict of name -> dict
        Output of :func:`fscompbio.studies.class_proportions` per data set.

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for name, p in proportions.items():
        t_pos, t_neg = THESIS_TABLE3_1.get(name, (np.nan, np.nan))
        rows.append({
            "dataset": LABELS.get(name, name),
            "+1": f"{p['pos_pct']:.2f} ({p['pos']})",
            "-1": f"{p['neg_pct']:.2f} ({p['neg']})",
            "thesis +1": f"{t_pos}" if np.isfinite(t_pos) else "",
            "thesis -1": f"{t_neg}" if np.isfinite(t_neg) else "",
        })
    return pd.DataFrame(rows)


#: what each real task stands in for in the thesis (appendix A.4: TB tasks 1-4, the TB micro-array)
STANDS_IN_FOR = {
    "tb_serum_metabolomics": "TB mass-spectrometry tasks 1-4 (523 peaks, not public)",
    "tb_blood_gambia": "TB micro-array task (6,247 probes, not public)",
}


def table_a2(tasks):
    """The real-data summary (thesis appendix table): samples, features, classes per task.

    Parameters
    ----------
    tasks : dict of name -> dict
        Per task: ``n_samples``, ``n_features`` (in the file), ``n_used``
        (after the config's label-blind variance filter; default all),
        ``classes`` (label -> count, in the CSV's own label names) and
        ``positive_label``.

    Returns
    -------
    pandas.DataFrame
    """
    rows = []
    for name, t in tasks.items():
        classes = ", ".join(f"{lab} {n}" + (" (+1)" if str(lab) == str(t["positive_label"]) else "")
                            for lab, n in sorted(t["classes"].items(), key=lambda kv: str(kv[0])))
        rows.append({
            "task": name,
            "data": LABELS.get(name, name),
            "samples": int(t["n_samples"]),
            "features": int(t["n_features"]),
            "features used": int(t.get("n_used", t["n_features"])),
            "classes": classes,
            "stands in for": STANDS_IN_FOR.get(name, ""),
        })
    return pd.DataFrame(rows)


def table_markdown(df):
    """A DataFrame as a GitHub Markdown table (no extra dependency)."""
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "| " + " | ".join("---" for _ in cols) + " |"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(v) for v in row) + " |")
    return "\n".join(lines) + "\n"


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


def plot_fig3_1(sigmas, curves, medians):
    """Alignment versus the Gaussian kernel's scale, one curve per number of irrelevant features.

    The kernel is ``exp(-||x - x'||^2 / (2 sigma^2)) = exp(-gamma ||x - x'||^2)``
    (README, "Kernel widths"). The thesis writes it ``exp(-sigma ||x - x'||^2)``:
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
