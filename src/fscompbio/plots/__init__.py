"""Figures: one function per figure, one shared style.

Chapter modules: :mod:`fscompbio.plots.spine` (tables 3.1, figures 3.1, 3.2,
4.1, 4.2), and one module per later chapter. Every plotting function takes
data (arrays or DataFrames), returns a matplotlib Figure, and never reads or
writes results files; :func:`save_figure` writes atomically.
"""

from ._style import PALETTE, apply_style, save_figure

__all__ = ["PALETTE", "apply_style", "save_figure"]
