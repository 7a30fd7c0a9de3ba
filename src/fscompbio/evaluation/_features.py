"""Which features each method selects, how often and how high: the features table of one data set.

Over the outer folds of chapters 3 and 4 (Athanasakis 2014, 2.5.1), each (method, model selection) selects
a subset of the features on every training part. The table counts, per feature, the folds that selected it
(the selection frequency, the quantity behind the consistency measures of section 2.5.2), its mean rank in
the selector's ranking over those folds, and whether it belongs to the consensus set.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd

__all__ = ["CONSENSUS_RULE", "FEATURE_COLUMNS", "feature_table", "top_features"]

#: the consensus rule, as the table's captions state it
CONSENSUS_RULE = "selected in at least half of the outer folds evaluated (2 x n_folds_selected >= n_folds)"

#: the columns of :func:`feature_table`, in order
FEATURE_COLUMNS = ("chapter", "method", "model_selection", "feature", "feature_index", "n_folds_selected",
                   "n_folds", "selection_frequency", "mean_rank", "consensus", "relevant")


def feature_table(jobs, feature_names, relevant=None):
    """One row per (chapter, method, model selection, feature selected in at least one outer fold).

    Parameters
    ----------
    jobs : iterable of (str, dict)
        ``(chapter, job)`` with ``job`` a fold job's JSON of the workflow (``method`` and ``folds``: each
        ``{"fold": k, "results": {model selection: {"selected": [...], ...}}}``). A result's
        ``selected_ranks`` (the rank of each selected feature in the selector's ranking, 1 = first) give
        the mean rank; results written without them leave it empty.
    feature_names : sequence of str
        The data set's feature names (the CSV's column names), indexed as ``selected``.
    relevant : array-like of int or None
        Known relevant features (synthetic data) for the ``relevant`` column; None leaves it empty.

    Returns
    -------
    DataFrame
        Columns :data:`FEATURE_COLUMNS`: ``n_folds_selected`` of ``n_folds`` (the outer folds evaluated for
        that method and model selection), ``selection_frequency`` (their ratio), ``mean_rank`` (over the
        folds that selected the feature), ``consensus`` (:data:`CONSENSUS_RULE`) and ``relevant``. Rows are
        sorted by chapter, method and model selection, then most often selected first, then by mean rank
        and feature index. Features a method never selected are not listed.

    Raises
    ------
    ValueError
        If an outer fold appears twice for one (chapter, method, model selection), or a selected index
        lies outside the feature names.
    """
    names = np.asarray([str(n) for n in feature_names])
    known = None if relevant is None else set(int(j) for j in np.asarray(relevant).ravel())
    counts = defaultdict(lambda: defaultdict(int))
    ranks = defaultdict(lambda: defaultdict(list))
    folds_seen = defaultdict(set)
    for chapter, job in jobs:
        for fold in job["folds"]:
            for msel, res in fold["results"].items():
                key = (chapter, job["method"], msel)
                if fold["fold"] in folds_seen[key]:
                    raise ValueError(f"{chapter}/{job['method']}/{msel}: outer fold {fold['fold']} appears twice")
                folds_seen[key].add(fold["fold"])
                sel = [int(j) for j in res["selected"]]
                bad = [j for j in sel if not 0 <= j < names.size]
                if bad:
                    raise ValueError(f"{chapter}/{job['method']}/{msel}, fold {fold['fold']}: selected index "
                                     f"{bad[0]} outside the {names.size} features")
                fold_ranks = res.get("selected_ranks")
                for i, j in enumerate(sel):
                    counts[key][j] += 1
                    if fold_ranks is not None:
                        ranks[key][j].append(int(fold_ranks[i]))
    rows = []
    for key in sorted(folds_seen):
        n_folds = len(folds_seen[key])
        for j, n_sel in counts[key].items():
            r = ranks[key].get(j)
            rows.append({
                "chapter": key[0], "method": key[1], "model_selection": key[2],
                "feature": names[j], "feature_index": j,
                "n_folds_selected": n_sel, "n_folds": n_folds, "selection_frequency": n_sel / n_folds,
                "mean_rank": float(np.mean(r)) if r and len(r) == n_sel else np.nan,
                "consensus": 2 * n_sel >= n_folds,
                "relevant": (j in known) if known is not None else None,
            })
    table = pd.DataFrame(rows, columns=list(FEATURE_COLUMNS))
    if table.empty:
        return table
    table = table.sort_values(["chapter", "method", "model_selection", "n_folds_selected", "mean_rank",
                               "feature_index"], ascending=[True, True, True, False, True, True], kind="stable")
    return table.reset_index(drop=True)


def top_features(table, max_features=40):
    """The features worth drawing: those selected at least once, the most often selected first.

    Features are ordered by their highest selection frequency over the (method, model selection) columns,
    then by how many columns put them in the consensus set, then by their mean frequency, then by index;
    at most ``max_features`` are kept.

    Returns
    -------
    list of str
        Feature names.
    """
    if table.empty:
        return []
    g = table.groupby(["feature", "feature_index"], sort=False)
    order = pd.DataFrame({
        "max": g["selection_frequency"].max(),
        "consensus": g["consensus"].sum(),
        "sum": g["selection_frequency"].sum(),
    }).reset_index()
    order = order.sort_values(["max", "consensus", "sum", "feature_index"], ascending=[False, False, False, True],
                              kind="stable")
    return order["feature"].head(int(max_features)).tolist()
