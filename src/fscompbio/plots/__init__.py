"""Figures and tables: one function per figure or table, one shared style.

One module per kind of figure, named by what it draws:

- :mod:`~fscompbio.plots.linear_models`: the Lasso path (figure 2.1), loss functions (figure 3.2);
- :mod:`~fscompbio.plots.consistency`: the consistency toy (figures 2.2-2.4);
- :mod:`~fscompbio.plots.alignment`: kernel target alignment (figures 3.1, 4.1, 4.2);
- :mod:`~fscompbio.plots.datasets`: the data sets' names, tables 3.1 and A.2;
- :mod:`~fscompbio.plots.selection_panels`: the per-data-set method panels (figures 3.3-3.13, 4.4-4.14);
- :mod:`~fscompbio.plots.kta_speedup`: the time of KTA against nested CV (table 3.2);
- :mod:`~fscompbio.plots.randsel_contributions`: randSel's contributions (figures 4.3, P.1, P.2);
- :mod:`~fscompbio.plots.cleavage`: cleavage-site prediction (table P1, figures 5.1-5.5);
- :mod:`~fscompbio.plots.rule_graph`: the workflow's rule graph;
- :mod:`~fscompbio.plots.multiclass_comparison`: the multi-class comparison (figure M.1);
- :mod:`~fscompbio.plots.recovery_curves`: recovery against sample size in regression (figure R.2);
- :mod:`~fscompbio.plots.reshuffled_cv`: the randSel paper's synthetic table (table P.2).

docs/reproduction.md, "Where each figure is made", maps every figure and table id to its rule, script and function.
Every plotting function takes data (arrays or DataFrames), returns a matplotlib Figure, and never reads or
writes results files; :func:`save_figure` writes a figure atomically, :func:`table_markdown` turns a
DataFrame into a Markdown table.
"""

from ._markdown import table_markdown
from ._style import PALETTE, apply_style, save_figure

__all__ = ["PALETTE", "apply_style", "save_figure", "table_markdown"]
