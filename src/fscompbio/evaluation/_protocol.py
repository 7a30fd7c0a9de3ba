"""The evaluation protocol of section 2.5.1: outer stratified k-fold, selection, model selection, SVM."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

from .._scaling import column_scales
from ..model_selection import KTASelect, NestedCVSelect, OwnModelSelect, ranking_order
from ._metrics import accuracy, consistency_log_likelihood, mean_variance, precision_recall, selection_matrix

__all__ = ["outer_splits", "run_outer_fold", "split_timing", "aggregate_folds", "summarise_fold_jobs", "METRICS",
           "MODEL_SELECTIONS", "ABSOLUTE_GAMMAS", "TIMING_KEYS", "absolute_gammas"]

#: the per-method quantities of figures 3.3-3.8 (and 4.4-4.9), in panel order
METRICS = ("accuracy", "n_selected", "precision", "recall", "mean_variance", "log_likelihood")

#: the model-selection settings: nested CV, greedy KTA (algorithm 3) on a relative or an absolute width grid,
#: the selector's own model (4.2.4)
MODEL_SELECTIONS = ("cv", "kta", "kta_abs", "own")


def absolute_gammas(low=0.0, high=2.0, n_gammas=5):
    """The absolute KTA grid of ``kta_abs``: ``gamma = 10**t`` for ``t`` in ``linspace(low, high, n_gammas)``
    (kernel ``exp(-gamma ||x - x'||^2)``; the thesis states no grid, see :func:`run_outer_fold`)."""
    return tuple(float(g) for g in 10.0 ** np.linspace(low, high, n_gammas))


#: ``kta_abs``'s default grid, :func:`absolute_gammas` with its defaults
ABSOLUTE_GAMMAS = absolute_gammas()

#: the wall-clock fields of :func:`run_outer_fold`, kept apart so that results reproduce byte for byte
TIMING_KEYS = ("seconds_selection", "seconds_model_selection", "seconds_fit", "seconds_total")


def outer_splits(y, n_folds=10, random_state=None):
    """Stratified outer folds: a list of ``(train, test)`` index arrays.

    Deterministic for a given ``random_state`` (shuffled StratifiedKFold), so
    separate jobs for the same dataset see the same folds.
    """
    y = np.asarray(y)
    cv = StratifiedKFold(n_splits=int(n_folds), shuffle=True, random_state=random_state)
    return [(tr, te) for tr, te in cv.split(np.zeros((y.size, 1)), y)]


def run_outer_fold(
    X,
    y,
    train,
    test,
    selector,
    *,
    model_selection="kta",
    relevant=None,
    kta=None,
    cv=None,
    own=None,
    kta_abs=None,
    C=1.0,
    feature_names=None,
    standardize=False,
):
    """One outer fold: fit the selector, choose the model, test a Gaussian SVM.

    Parameters
    ----------
    X : ndarray of shape (m, n)
    y : ndarray of shape (m,)
    train, test : ndarray of int
        Indices of the outer training and test parts.
    selector : estimator with ``fit(X, y)`` and ``ranking_`` (1 = best)
        Cloned, then fitted on the training part only. With nested CV and a
        ``NestedCVSelect(sizes="support")`` it also needs ``get_support()``.
    model_selection : {"kta", "kta_abs", "cv", "own"} or sequence of them, default="kta"
        Greedy KTA over the ranking (algorithm 3) with a width grid relative to
        the median distance of each prefix (``kta``) or with an absolute grid of
        kernel factors (``kta_abs``; the thesis does not state its grid, and on
        the linear Weston set the two readings disagree), nested CV (2.5.1), or the
        selector's own model (its ``get_support()``, e.g. randSel's selected
        set, thesis 4.2.4) with the width chosen by alignment. With a sequence,
        the selector is fitted once on the training part and every model
        selection reads that same fit (a paired comparison; nested CV still
        refits it on its inner folds).
    relevant : array-like of int or None
        Known relevant features (synthetic data): gives precision and recall.
    kta : KTASelect or None
        The KTA model selector (default ``KTASelect()``).
    cv : NestedCVSelect or None
        The nested-CV model selector (default ``NestedCVSelect()``).
    own : OwnModelSelect or None
        The own-model selector (default ``OwnModelSelect()``).
    kta_abs : KTASelect or None
        The KTA model selector of ``kta_abs``, with ``gammas`` set (default
        ``KTASelect(gammas=ABSOLUTE_GAMMAS)``).
    C : float, default=1.0
        Regularisation of the final Gaussian SVM (the thesis uses 1).
    feature_names : sequence of str or None
        The names of the ``n`` features. When given, every result also names its selected features
        (``selected_names``, in the order of ``selected``) and gives their ranks in the selector's ranking
        on the training part (``selected_ranks``: 1 = ranked first; ties of ``ranking_`` broken by feature
        index, as the model selections take prefixes).
    standardize : bool, default=False
        Scale every feature by the mean and standard deviation of the training part (a constant feature by 1),
        the test part with the same numbers, before the selector, the model selection and the SVM. The thesis'
        protocol does not (its data are micro-arrays and synthetic sets); features of very different scales
        (an area beside a ratio) otherwise leave the Gaussian kernel's distances to the largest.

    Returns
    -------
    dict, or dict of model selection -> dict for a sequence
        ``accuracy``, ``majority_accuracy`` (of always predicting the training
        majority class: the fold's chance level), ``selected`` (sorted indices), ``n_selected``,
        ``precision``, ``recall`` (None without ``relevant``), ``gamma``,
        ``sigma``, ``score`` (alignment or inner-CV accuracy),
        ``seconds_selection`` (selector fit on the training part),
        ``seconds_model_selection`` (KTA, or nested CV including the inner
        refits), ``seconds_fit`` (final SVM), ``seconds_total`` (the three),
        ``n_train``, ``n_test``, ``n_features``, ``model_selection``. The
        wall-clock fields (:data:`TIMING_KEYS`) vary from run to run; write
        them apart with :func:`split_timing`.
    """
    X, y, train, test, settings = _fold_inputs(X, y, train, test, model_selection, feature_names, standardize)
    Xtr, ytr = X[train], y[train]
    fitted, t_sel, position = _fit_selector(selector, Xtr, ytr, feature_names)

    labels, counts = np.unique(ytr, return_counts=True)
    majority = labels[np.argmax(counts)]
    # the chance baseline of this fold: always predicting the training majority class
    majority_accuracy = accuracy(y[test], np.full(test.size, majority))

    out = {}
    for ms in settings:
        res = _choose_model(ms, Xtr, ytr, selector, fitted, kta=kta, kta_abs=kta_abs, own=own, cv=cv)
        t_ms = res.seconds

        t0 = time.perf_counter()
        feats = np.sort(res.features)
        if feats.size:
            svm = SVC(C=C, kernel="rbf", gamma=res.gamma).fit(Xtr[:, feats], ytr)
            pred = svm.predict(X[test][:, feats])
        else:  # the empty model (an own model that selected nothing): the training majority class
            pred = np.full(test.size, majority)
        acc = accuracy(y[test], pred)
        t_fit = time.perf_counter() - t0

        out[ms] = _fold_result(ms, {"accuracy": acc, "majority_accuracy": majority_accuracy}, res, feats,
                               relevant=relevant, seconds=(t_sel, t_ms, t_fit), n_train=train.size,
                               n_test=test.size, n_features=X.shape[1], position=position,
                               feature_names=feature_names)
    return out[model_selection] if isinstance(model_selection, str) else out


def _fold_inputs(X, y, train, test, model_selection, feature_names, standardize, allowed=MODEL_SELECTIONS):
    """The arrays of one outer fold, its model selections as a list, the features scaled by the training part's
    mean and sd when ``standardize``."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    train = np.asarray(train, dtype=int)
    test = np.asarray(test, dtype=int)
    settings = [model_selection] if isinstance(model_selection, str) else list(model_selection)
    if not settings:
        raise ValueError("model_selection must name at least one setting")
    for ms in settings:
        if ms not in allowed:
            raise ValueError(f"model_selection must be one of {list(allowed)}; got {ms!r}")
    if feature_names is not None and len(feature_names) != X.shape[1]:
        raise ValueError(f"feature_names has {len(feature_names)} names for {X.shape[1]} features")
    if standardize:  # the training part's mean and sd, for both parts
        mean, sd = column_scales(X[train])
        X = (X - mean) / sd
    return X, y, train, test, settings


def _fit_selector(selector, Xtr, ytr, feature_names):
    """The selector fitted (a clone) on the training part, its seconds, and each feature's place in its ranking
    (1 = first; None without ``feature_names``)."""
    t0 = time.perf_counter()
    fitted = clone(selector).fit(Xtr, ytr)
    t_sel = time.perf_counter() - t0
    position = None
    if feature_names is not None:
        position = np.empty(Xtr.shape[1], dtype=int)
        position[ranking_order(fitted.ranking_)] = np.arange(1, Xtr.shape[1] + 1)
    return fitted, t_sel, position


def _choose_model(ms, Xtr, ytr, selector, fitted, *, kta=None, kta_abs=None, own=None, cv=None):
    """The :class:`ModelSelectionResult` of model selection ``ms`` on the training part."""
    if ms == "kta":
        return (kta if kta is not None else KTASelect()).select(Xtr, ytr, fitted.ranking_)
    if ms == "kta_abs":
        return (kta_abs if kta_abs is not None else KTASelect(gammas=ABSOLUTE_GAMMAS)).select(
            Xtr, ytr, fitted.ranking_)
    if ms == "own":
        return (own if own is not None else OwnModelSelect()).select(Xtr, ytr, fitted)
    return (cv if cv is not None else NestedCVSelect()).select(Xtr, ytr, selector, fitted=fitted)


def _fold_result(ms, metrics, res, feats, *, relevant, seconds, n_train, n_test, n_features, position,
                 feature_names):
    """One model selection's result on one outer fold: its ``metrics`` (a dict), then the selection, the chosen
    width, the timings (selector, model selection, final fit) and the sizes."""
    precision = recall = None
    if relevant is not None:
        precision, recall = precision_recall(feats, relevant)
    t_sel, t_ms, t_fit = seconds
    result = {
        "model_selection": ms,
        **metrics,
        "selected": feats.tolist(),
        "n_selected": int(feats.size),
        "precision": precision,
        "recall": recall,
        "gamma": res.gamma if feats.size else None,
        "sigma": res.sigma if feats.size else None,
        "score": res.score if feats.size else None,
        "seconds_selection": t_sel,
        "seconds_model_selection": t_ms,
        "seconds_fit": t_fit,
        "seconds_total": t_sel + t_ms + t_fit,
        "n_train": int(n_train),
        "n_test": int(n_test),
        "n_features": int(n_features),
    }
    if position is not None:
        result["selected_names"] = [str(feature_names[j]) for j in feats]
        result["selected_ranks"] = position[feats].tolist()
    return result


def split_timing(result):
    """Split a :func:`run_outer_fold` dict into (reproducible result, wall-clock timing).

    Returns
    -------
    result : dict
        Everything but the :data:`TIMING_KEYS`: the same config gives the same bytes.
    timing : dict
        The :data:`TIMING_KEYS` present, plus the job's identity keys
        (``dataset``, ``method``, ``model_selection``, ``fold``) when present.
    """
    ident = ("dataset", "method", "model_selection", "fold")
    timing = {k: result[k] for k in ident if k in result}
    timing.update({k: result[k] for k in TIMING_KEYS if k in result})
    return {k: v for k, v in result.items() if k not in TIMING_KEYS}, timing


def _stats(values):
    """mean, sd (ddof=1), min and max of the non-missing values (None when there are none)."""
    v = np.asarray([x for x in values if x is not None], dtype=float)
    if v.size == 0:
        return None, None, None, None
    return float(v.mean()), float(v.std(ddof=1)) if v.size > 1 else 0.0, float(v.min()), float(v.max())


def aggregate_folds(folds, n_features):
    """Aggregate the per-fold dicts of :func:`run_outer_fold` (or of
    :func:`fscompbio.evaluation.regression_fold`) over the outer folds.

    Parameters
    ----------
    folds : sequence of dict
    n_features : int

    Returns
    -------
    dict
        ``<q>_mean``, ``<q>_sd`` (sample sd over folds), ``<q>_min`` and
        ``<q>_max`` for accuracy, n_selected, precision and recall (None
        without ground truth); ``majority_accuracy_mean`` (the chance level:
        always predicting the training majority class; None when the folds
        do not record it); for the folds of a real-valued target
        (:func:`fscompbio.evaluation.regression_fold`) r2 and rmse in place of
        accuracy, and ``mean_rmse_mean`` (predicting the training mean) in
        place of ``majority_accuracy_mean``; ``mean_variance`` and ``log_likelihood``
        (eq. 2.8) of the selection indicators over the folds;
        ``union_is_all`` (True when the folds together select every feature:
        eq. 2.8 is then exactly 0, which is no sign of consistency);
        ``n_folds``. Wall-clock timings are not aggregated here (they would
        make the summary differ between runs): see :func:`split_timing`.
    """
    if len(folds) == 0:
        raise ValueError("aggregate_folds needs at least one fold")
    out = {"n_folds": len(folds)}
    regression = all("r2" in f for f in folds)  # folds of a real-valued target
    for q in ("r2", "rmse") if regression else ("accuracy",):
        out[f"{q}_mean"], out[f"{q}_sd"], out[f"{q}_min"], out[f"{q}_max"] = _stats([f.get(q) for f in folds])
    for q in ("n_selected", "precision", "recall"):
        out[f"{q}_mean"], out[f"{q}_sd"], out[f"{q}_min"], out[f"{q}_max"] = _stats([f.get(q) for f in folds])
    chance = "mean_rmse" if regression else "majority_accuracy"
    out[f"{chance}_mean"] = _stats([f.get(chance) for f in folds])[0]
    W = selection_matrix([f["selected"] for f in folds], n_features)
    out["mean_variance"] = mean_variance(W)
    out["log_likelihood"] = consistency_log_likelihood(W)
    out["union_is_all"] = bool(W.any(axis=0).all())
    return out


def summarise_fold_jobs(jobs, dataset):
    """The summary of one data set's outer folds: one row per (method, model selection) with
    :func:`aggregate_folds` over its folds (the rows of figures 3.3-3.13 and 4.4-4.14).

    Parameters
    ----------
    jobs : iterable of dict
        The fold jobs' results (one per method and group of outer folds): ``method`` and ``folds``, each fold
        with ``fold`` and ``results`` (model selection -> the dict of :func:`run_outer_fold`).
    dataset : str
        The data set's name, written in every row and in error messages.

    Returns
    -------
    DataFrame
        Sorted by method and model selection.
    """
    groups = {}
    for job in jobs:
        for fold in job["folds"]:
            for msel, r in fold["results"].items():
                groups.setdefault((job["method"], msel), []).append({**r, "fold": fold["fold"]})
    rows = []
    for (method, msel), folds in groups.items():
        n_features = {f["n_features"] for f in folds}
        if len(n_features) != 1:
            raise ValueError(f"{dataset}/{method}/{msel}: folds disagree on n_features {n_features}")
        agg = aggregate_folds(sorted(folds, key=lambda f: f["fold"]), n_features.pop())
        rows.append({"dataset": dataset, "method": method, "model_selection": msel, **agg})
    if not rows:
        raise ValueError(f"{dataset}: no outer fold results to summarise")
    return pd.DataFrame(rows).sort_values(["method", "model_selection"])
