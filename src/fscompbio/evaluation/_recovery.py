"""Probability of correct recovery on the regression sets (Sun, Yao and Goodison 2015, figure 2).

Section 4.1 of "Feature Selection for Nonlinear Regression and its Application
to Cancer Research": every feature is scaled to [0, 1], each method ranks the
features, and with ``d`` useful features the recovery of one run is the
fraction of them among the top ``d``; the probability of correct recovery is
its mean over repeated runs (50 in the paper).
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ..datasets import DATASETS, make_dataset
from ..seeding import derive_seed
from .._scaling import minmax_scale
from ._methods import make_selector

__all__ = ["recovery_fraction", "recovery_trial", "recovery_trials", "recovery_table"]


def recovery_fraction(ranking, relevant):
    """Fraction of the ``relevant`` features among the top ``len(relevant)`` of ``ranking``.

    Parameters
    ----------
    ranking : array-like of shape (n_features,)
        1 = best; ties are broken by the lower index (stable), so callers permute
        the columns (the generators put the relevant features first).
    relevant : array-like of int

    Returns
    -------
    float in [0, 1]
    """
    ranking = np.asarray(ranking)
    relevant = np.asarray(relevant, dtype=int)
    if relevant.size == 0:
        raise ValueError("recovery needs at least one relevant feature; got none")
    top = np.argsort(ranking, kind="stable")[: relevant.size]
    return float(np.isin(relevant, top).mean())


def recovery_trial(dataset, n_samples, method, *, params=None, seed=0, n_irrelevant=None):
    """One run: draw the data set, permute and scale its columns, rank, score the recovery.

    Parameters
    ----------
    dataset : str
        A regression set of :data:`fscompbio.datasets.DATASETS` (``additive``,
        ``nonadditive``, ``sine``, ``spiral``).
    n_samples : int
    method : str
        A key of :data:`fscompbio.evaluation.METHODS`.
    params : dict or None
        Keyword arguments of the method's selector.
    seed : int
        Seeds the data, the column permutation and the selector; the same seed
        gives every method the same data.
    n_irrelevant : int or None
        Irrelevant N(0, 1) features added to the relevant ones (None: the
        registered size, 1,000 as in the paper).

    Returns
    -------
    dict
        ``recovery`` (fraction in [0, 1]), ``relevant`` and ``top`` (column indices
        after the permutation), ``seconds`` (the selector's fit).
    """
    n_features = None if n_irrelevant is None else DATASETS[dataset].n_relevant + int(n_irrelevant)
    ds = make_dataset(dataset, random_state=derive_seed(seed, "data"), n_samples=n_samples, n_features=n_features)
    if ds.task != "regression":
        raise ValueError(f"{dataset!r} is a {ds.task} data set; the recovery study needs a regression set")
    perm = np.random.default_rng(derive_seed(seed, "permutation")).permutation(ds.n_features)
    X = minmax_scale(ds.X[:, perm])  # the paper scales every feature to [0, 1] before learning
    relevant = np.flatnonzero(np.isin(perm, ds.relevant))
    selector = make_selector(method, params, random_state=derive_seed(seed, "selector"))
    if "n_features_to_select" in selector.get_params():
        selector.set_params(n_features_to_select=int(relevant.size))
    start = time.perf_counter()
    selector.fit(X, ds.y)
    seconds = time.perf_counter() - start
    top = np.argsort(selector.ranking_, kind="stable")[: relevant.size]
    return {
        "recovery": recovery_fraction(selector.ranking_, relevant),
        "relevant": relevant.tolist(),
        "top": np.sort(top).tolist(),
        "seconds": seconds,
    }


def recovery_trials(dataset, n_samples, method, *, n_repeats, params=None, seed=0, n_irrelevant=None):
    """:func:`recovery_trial` for repeats ``0..n_repeats-1`` (seeds derived from ``seed``).

    Returns
    -------
    dict
        ``dataset``, ``method``, ``n_samples``, ``recovery`` (per repeat),
        ``probability`` (their mean), ``seconds`` (per repeat), ``runs``.
    """
    runs = [
        recovery_trial(dataset, n_samples, method, params=params, seed=derive_seed(seed, dataset, n_samples, r),
                       n_irrelevant=n_irrelevant)
        for r in range(int(n_repeats))
    ]
    rec = [r["recovery"] for r in runs]
    return {
        "dataset": dataset,
        "method": method,
        "n_samples": int(n_samples),
        "recovery": rec,
        "probability": float(np.mean(rec)),
        "seconds": [r["seconds"] for r in runs],
        "runs": runs,
    }


def recovery_table(results):
    """Aggregate :func:`fscompbio.evaluation.recovery_trials` outputs into the table of the figure.

    Parameters
    ----------
    results : iterable of dict

    Returns
    -------
    pandas.DataFrame
        ``dataset, method, n_samples, n_repeats, probability, sem``, and ``seconds_mean`` when the
        results carry their wall-clock ``seconds`` (the workflow keeps them apart, in ``*.timing.json``,
        so that its tables reproduce byte for byte).
    """
    rows = []
    for r in results:
        rec = np.asarray(r["recovery"], dtype=float)
        sem = float(rec.std(ddof=1) / np.sqrt(rec.size)) if rec.size > 1 else 0.0
        row = {"dataset": r["dataset"], "method": r["method"], "n_samples": int(r["n_samples"]),
               "n_repeats": int(rec.size), "probability": float(rec.mean()), "sem": sem}
        if r.get("seconds") is not None:
            row["seconds_mean"] = float(np.mean(r["seconds"]))
        rows.append(row)
    return pd.DataFrame(rows)
