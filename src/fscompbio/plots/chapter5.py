"""Chapter 5 figures and tables: signal-peptide accuracy by approach (table P1, figure 5.3) and
correlation of learned features with the label on all windows versus support vectors (figure 5.4)."""

from __future__ import annotations

import shutil
import subprocess

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..evaluation._cleavage import APPROACH_LABELS, APPROACHES, PAPER_TABLE1
from ._style import PALETTE, apply_style

__all__ = ["table_P1", "plot_fig5_3", "plot_fig5_4", "canonical_dot", "render_dot"]


def table_P1(fold_accuracies, *, meta=None):
    """Accuracy by approach beside seed 004 table 1.

    Parameters
    ----------
    fold_accuracies : dict of approach -> sequence of float
        Per-fold cleavage accuracy in ``[0, 1]`` (:func:`cleavage_accuracy`).
    meta : dict of approach -> dict, default=None
        Extra columns per approach (e.g. mean number of features used).

    Returns
    -------
    pandas.DataFrame
        One row per approach in table 1's order: ``approach``, ``method``
        (table 1's label), ``accuracy_mean``, ``accuracy_sd`` (percent,
        sample sd over folds), ``n_folds``, ``paper_mean``, ``paper_sd``,
        ``ours`` and ``seed 004 table 1`` (``mean +- sd`` strings), then ``meta``.
    """
    rows = []
    for name in [a for a in APPROACHES if a in fold_accuracies] + [a for a in fold_accuracies if a not in APPROACHES]:
        acc = 100.0 * np.asarray(fold_accuracies[name], dtype=float)
        mean = float(acc.mean())
        sd = float(acc.std(ddof=1)) if acc.size > 1 else 0.0
        p_mean, p_sd = PAPER_TABLE1.get(name, (np.nan, np.nan))
        row = {
            "approach": name,
            "method": APPROACH_LABELS.get(name, name),
            "accuracy_mean": round(mean, 2),
            "accuracy_sd": round(sd, 2),
            "n_folds": int(acc.size),
            "paper_mean": p_mean,
            "paper_sd": p_sd,
            "ours": f"{mean:.2f} ± {sd:.2f}",
            "seed 004 table 1": f"{p_mean:.2f} ± {p_sd:.2f}" if np.isfinite(p_mean) else "",
        }
        row.update((meta or {}).get(name, {}))
        rows.append(row)
    return pd.DataFrame(rows)


def plot_fig5_3(table, *, chance=None):
    """Accuracy by approach, ours beside seed 004 table 1 (thesis figure 5.3).

    Parameters
    ----------
    table : pandas.DataFrame
        Output of :func:`table_P1`.
    chance : float, default=None
        Accuracy (percent) of a random ranking of the windows (1/39 for 39
        windows per sequence), drawn as a dotted line.

    Returns
    -------
    matplotlib.figure.Figure
    """
    apply_style()
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    x = np.arange(len(table))
    w = 0.38
    ax.bar(x - w / 2, table["accuracy_mean"], w, yerr=table["accuracy_sd"], capsize=3, color=PALETTE[0],
           label=f"this reproduction ({int(table['n_folds'].max())}-fold CV by sequence)")
    ax.bar(x + w / 2, table["paper_mean"], w, yerr=table["paper_sd"], capsize=3, color=PALETTE[1],
           label="seed 004 table 1 (PrediSi)")
    for xi, m in zip(x, table["accuracy_mean"]):
        ax.text(xi - w / 2, m / 2, f"{m:.1f}", ha="center", va="center", color="white", fontsize=7, rotation=90)
    if chance is not None:
        ax.axhline(chance, color="0.4", ls=":", lw=1, label=f"chance ({chance:.1f}%)")
    ax.set_xticks(x, [m.replace(" + ", " +\n") for m in table["method"]], fontsize=7)
    ax.set_ylabel("sequences with the cleavage window ranked first (%)")
    ax.set_ylim(0, 100)
    ax.legend(frameon=False, loc="upper left")
    ax.set_title("Cleavage-site accuracy by approach")
    fig.tight_layout()
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


def canonical_dot(source):
    """A ``snakemake --rulegraph`` graph with its node and edge lines sorted.

    Snakemake prints the same graph with its lines in varying order; sorting
    the statements inside the braces makes the rendering byte-stable.
    """
    lines = source.strip().splitlines()
    try:
        open_i = next(i for i, line in enumerate(lines) if line.rstrip().endswith("{"))
        close_i = max(i for i, line in enumerate(lines) if line.strip().startswith("}"))
    except (StopIteration, ValueError):
        raise ValueError(f"not a graphviz digraph (no '{{ ... }}' block): {source[:200]!r}") from None
    body = [line.strip() for line in lines[open_i + 1 : close_i] if line.strip()]
    head = [b for b in body if b.startswith(("graph[", "node[", "edge["))]
    nodes = sorted((b for b in body if "[label" in b), key=lambda b: int(b.split("[", 1)[0]))
    edges = sorted((b for b in body if "->" in b), key=lambda b: tuple(int(t) for t in b.split("->")))
    return "\n".join(lines[: open_i + 1] + ["    " + b for b in head + nodes + edges] + ["}"]) + "\n"


def render_dot(source, *, fmt="png"):
    """Render a graphviz ``dot`` source (canonicalised) with the ``dot`` program.

    Parameters
    ----------
    source : str
        E.g. the output of ``snakemake --rulegraph``.
    fmt : str, default="png"

    Returns
    -------
    bytes
        The rendered image.
    """
    dot = shutil.which("dot")
    if dot is None:
        raise RuntimeError(
            "graphviz's `dot` program is not on PATH; install graphviz "
            "(apt-get install graphviz, or conda install -c conda-forge graphviz)"
        )
    done = subprocess.run([dot, f"-T{fmt}"], input=canonical_dot(source).encode(), capture_output=True)
    if done.returncode != 0:
        raise RuntimeError(f"dot -T{fmt} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return done.stdout
