"""Nested cross-validation repeated over reshuffles of the data (the randSel paper's synthetic table).

The early text of "Principled Non-Linear Feature Selection" (Athanasakis, Shawe-Taylor and
Fernandez-Reyes) evaluates every selector by nested 10-fold cross-validation on 300 x 100 synthetic sets
and repeats it "on three different reshuffles of the dataset to account for variance"; the inner loop
chooses the number of features, ties going to the smaller model. Here a reshuffle permutes both the
samples (so the folds differ) and the feature columns (so no selector profits from the relevant features
sitting first, where stable sorts put ties).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..model_selection import NestedCVSelect
from ..seeding import derive_seed
from ._methods import make_selector, method_spec
from ._protocol import aggregate_folds, outer_splits, run_outer_fold

__all__ = ["reshuffled_nested_cv", "reshuffle_table"]


def reshuffled_nested_cv(X, y, relevant, method, *, n_reshuffles=3, outer_folds=10, inner_folds=10, sizes=None,
                         widths=None, C=1.0, params=None, seed=0):
    """Nested CV of one method, repeated over reshuffles of samples and features.

    Parameters
    ----------
    X : ndarray of shape (m, n)
    y : ndarray of shape (m,)
    relevant : array-like of int
        The relevant features in the original column order.
    method : str
        A key of :data:`fscompbio.evaluation.METHODS`.
    n_reshuffles : int, default=3
    outer_folds, inner_folds : int, default=10
    sizes : array-like of int or None
        Candidate numbers of top-ranked features of the inner CV (None: the
        method's own rule or a geometric grid).
    widths : dict or None
        ``n_widths``, ``low``, ``high`` of the inner CV's Gaussian width grid.
    C : float, default=1.0
        The Gaussian SVM's C.
    params : dict or None
        The selector's keyword arguments.
    seed : int
        Seeds the reshuffles, the folds, the inner folds and the selector.

    Returns
    -------
    list of dict
        One :func:`fscompbio.evaluation.run_outer_fold` result per (reshuffle,
        fold), with ``reshuffle``, ``fold``, ``method`` added; ``selected`` and
        ``relevant`` in the original column numbering.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    relevant = np.asarray(relevant, dtype=int)
    spec = method_spec(method)
    out = []
    for r in range(int(n_reshuffles)):
        rng = np.random.default_rng(derive_seed(seed, "reshuffle", r))
        rows = rng.permutation(X.shape[0])
        cols = rng.permutation(X.shape[1])
        Xr, yr = X[rows][:, cols], y[rows]
        rel_r = np.flatnonzero(np.isin(cols, relevant))
        folds = outer_splits(yr, outer_folds, random_state=derive_seed(seed, "outer", r))
        for f, (train, test) in enumerate(folds):
            cv = NestedCVSelect(**(widths or {}), sizes=spec.cv_sizes or sizes, inner_folds=inner_folds, C=C,
                                random_state=derive_seed(seed, "inner", r, f))
            selector = make_selector(method, params, random_state=derive_seed(seed, "selector", r, f))
            res = run_outer_fold(Xr, yr, train, test, selector, model_selection="cv", relevant=rel_r, cv=cv, C=C)
            res["selected"] = np.sort(cols[np.asarray(res["selected"], dtype=int)]).tolist()
            res.update(method=method, reshuffle=r, fold=f, relevant=relevant.tolist())
            out.append(res)
    return out


def reshuffle_table(results):
    """Per (dataset, method): mean and sd over the reshuffles of each reshuffle's fold mean.

    Parameters
    ----------
    results : iterable of dict
        Each ``{"dataset": ..., "method": ..., "n_features": ..., "folds": [fold dicts]}``
        (the fold dicts of :func:`reshuffled_nested_cv`).

    Returns
    -------
    pandas.DataFrame
        ``dataset, method, n_reshuffles, n_folds`` and, for accuracy,
        n_selected, precision and recall, ``<q>_mean`` (over all reshuffles)
        and ``<q>_sd`` (sd of the per-reshuffle means: the variance the
        reshuffles account for), plus ``mean_variance`` and ``log_likelihood``
        (eq. 2.8) of the selections over all folds.
    """
    rows = []
    for res in results:
        folds = res["folds"]
        by_r = {}
        for f in folds:
            by_r.setdefault(f["reshuffle"], []).append(f)
        row = {"dataset": res["dataset"], "method": res["method"], "n_reshuffles": len(by_r),
               "n_folds": len(folds)}
        for q in ("accuracy", "n_selected", "precision", "recall"):
            per = np.array([np.mean([f[q] for f in fs]) for fs in by_r.values()], dtype=float)
            row[f"{q}_mean"] = float(per.mean())
            row[f"{q}_sd"] = float(per.std(ddof=1)) if per.size > 1 else 0.0
        agg = aggregate_folds(folds, int(res["n_features"]))
        row["mean_variance"] = agg["mean_variance"]
        row["log_likelihood"] = agg["log_likelihood"]
        # wall-clock, when the folds carry it (the workflow keeps it apart, in *.timing.json, so that its
        # tables reproduce byte for byte)
        secs = [f["seconds_total"] for f in folds if f.get("seconds_total") is not None]
        if secs:
            row["seconds_mean"] = float(np.mean(secs))
        rows.append(row)
    return pd.DataFrame(rows)
