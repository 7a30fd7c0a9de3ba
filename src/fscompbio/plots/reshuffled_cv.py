"""The randSel paper's synthetic table (tableP_2) as Markdown.

"Principled Non-Linear Feature Selection" (Athanasakis, Shawe-Taylor and Fernandez-Reyes, 2014): results on the
100-dimensional linear Weston, non-linear Weston and XOR sets.
"""

from __future__ import annotations

from ..evaluation import METHODS

__all__ = ["DATASET_LABELS", "tableP_2_markdown"]

DATASET_LABELS = {
    "linear_weston_100": "Linear Weston (5 of 100)",
    "nonlinear_weston_100": "Non-linear Weston (5 of 100)",
    "xor_100": "XOR (2 of 100)",
}


def _pm(mean, sd, digits):
    return f"{mean:.{digits}f} ± {sd:.{digits}f}"


def tableP_2_markdown(table):
    """One row per data set and method: accuracy, features, precision, recall as mean ± sd over the reshuffles.

    Parameters
    ----------
    table : pandas.DataFrame
        :func:`fscompbio.evaluation.reshuffle_table`.

    Returns
    -------
    str
    """
    head = "| data set | method | accuracy | features | precision | recall |"
    lines = [head, "| --- | --- | --- | --- | --- | --- |"]
    for row in table.itertuples(index=False):
        spec = METHODS.get(row.method)
        label = spec.label if spec is not None and spec.label else row.method
        lines.append(
            f"| {DATASET_LABELS.get(row.dataset, row.dataset)} | {label} | "
            f"{_pm(row.accuracy_mean, row.accuracy_sd, 3)} | {_pm(row.n_selected_mean, row.n_selected_sd, 1)} | "
            f"{_pm(row.precision_mean, row.precision_sd, 2)} | {_pm(row.recall_mean, row.recall_sd, 2)} |"
        )
    n_r = sorted(set(int(v) for v in table["n_reshuffles"]))
    lines.append("")
    lines.append(f"Mean ± sd over {'/'.join(map(str, n_r))} reshuffles of the samples and features (each the "
                 "mean of its outer folds).")
    return "\n".join(lines) + "\n"
