"""The shared figure style and an atomic figure writer."""

from __future__ import annotations

import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no screen on clusters and CI

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import font_manager  # noqa: E402

from ..io import atomic_path  # noqa: E402

__all__ = ["PALETTE", "apply_style", "bundled_fonts_problem", "save_figure"]

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


_FONTS_CHECKED = False


def bundled_fonts_problem():
    """None when matplotlib draws text and mathtext with its own DejaVu fonts, else what is wrong and the fix.

    The figures are the same bytes on every machine because their text is drawn with the DejaVu fonts that ship
    with matplotlib. matplotlib finds fonts through a font list cached in its cache directory; a list written
    by a process killed while it was being built can hold the system's fonts only, and then the text (and the
    italic of mathtext) is drawn with other fonts, or none.
    """
    bundled = Path(matplotlib.get_data_path()).resolve() / "fonts" / "ttf"
    found = []
    for style in ("normal", "italic"):
        prop = font_manager.FontProperties(family="DejaVu Sans", style=style)
        try:
            path = Path(font_manager.findfont(prop, fallback_to_default=False)).resolve()
        except ValueError:  # no DejaVu Sans at all
            path = None
        if path is None or path.parent != bundled:
            found.append(f"{style}: {path or 'none'}")
    if not found:
        return None
    cache = Path(matplotlib.get_cachedir()) / f"fontlist-v{font_manager.FontManager.__version__}.json"
    return (
        f"matplotlib does not find its own DejaVu Sans fonts ({'; '.join(found)}; expected in {bundled}), so "
        f"figures will not be the same bytes as on other machines. Its font list {cache} may have been written "
        "by an interrupted process: delete that file and run again (matplotlib rebuilds it)."
    )


def apply_style():
    """Set the project's matplotlib rcParams (idempotent); warn once if matplotlib's own fonts are not found."""
    global _FONTS_CHECKED
    plt.rcParams.update(_RC)
    if not _FONTS_CHECKED:
        _FONTS_CHECKED = True
        problem = bundled_fonts_problem()
        if problem:
            warnings.warn(problem, RuntimeWarning, stacklevel=2)


def save_figure(fig, path):
    """Save ``fig`` to ``path`` (format from the suffix) atomically and close it.

    PNG metadata is stripped of the software version and date so that the
    same data give the same bytes.
    """
    metadata = {"Software": None} if str(path).endswith(".png") else {"CreationDate": None} if str(path).endswith(".pdf") else None
    with atomic_path(path) as tmp:
        fig.savefig(tmp, bbox_inches="tight", metadata=metadata)
    plt.close(fig)
