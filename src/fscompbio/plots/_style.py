"""The shared figure style and an atomic figure writer."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # no screen on clusters and CI

import matplotlib.pyplot as plt  # noqa: E402

from ..io import atomic_path  # noqa: E402

__all__ = ["PALETTE", "apply_style", "save_figure"]

# colour-blind safe (Okabe-Ito); "relevant" red as in the thesis' figures
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]
RELEVANT = "#D62728"

_RC = {
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(color=PALETTE),
    "svg.hashsalt": "fscompbio",  # deterministic SVG ids
    "pdf.compression": 6,
}


def apply_style():
    """Set the project's matplotlib rcParams (idempotent)."""
    plt.rcParams.update(_RC)


def save_figure(fig, path):
    """Save ``fig`` to ``path`` (format from the suffix) atomically and close it.

    PNG metadata is stripped of the software version and date so that the
    same data give the same bytes.
    """
    metadata = {"Software": None} if str(path).endswith(".png") else {"CreationDate": None} if str(path).endswith(".pdf") else None
    with atomic_path(path) as tmp:
        fig.savefig(tmp, bbox_inches="tight", metadata=metadata)
    plt.close(fig)
