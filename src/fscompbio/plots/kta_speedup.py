"""Table 3.2: how many times faster KTA model selection is than nested CV, per method, from the
wall-clock timings of the fold jobs, beside the thesis' values.

Every function takes a DataFrame and returns a DataFrame or Markdown text.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["THESIS_TABLE3_2", "table3_2", "table3_2_markdown"]

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
