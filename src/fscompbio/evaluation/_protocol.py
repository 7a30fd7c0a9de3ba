"""The evaluation protocol of section 2.5.1: outer stratified k-fold, selection, model selection, SVM."""

from __future__ import annotations

import time

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC

from ..model_selection import KTASelect, NestedCVSelect
from ._metrics import accuracy, consistency_log_likelihood, mean_variance, precision_recall, selection_matrix

__all__ = ["outer_splits", "run_outer_fold", "aggregate_folds", "METRICS"]

#: the per-method quantities of figures 3.3-3.8 (and 4.4-4.9), in panel order
METRICS = ("accuracy", "n_selected", "precision", "recall", "mean_variance", "log_likelihood")


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
    C=1.0,
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
    model_selection : {"kta", "cv"}, default="kta"
    relevant : array-like of int or None
        Known relevant features (synthetic data): gives precision and recall.
    kta : KTASelect or None
        The KTA model selector (default ``KTASelect()``).
    cv : NestedCVSelect or None
        The nested-CV model selector (default ``NestedCVSelect()``).
    C : float, default=1.0
        Regularisation of the final Gaussian SVM (the thesis uses 1).

    Returns
    -------
    dict
        ``accuracy``, ``selected`` (sorted indices), ``n_selected``,
        ``precision``, ``recall`` (None without ``relevant``), ``gamma``,
        ``sigma``, ``score`` (alignment or inner-CV accuracy),
        ``seconds_selection`` (selector fit on the training part),
        ``seconds_model_selection`` (KTA, or nested CV including the inner
        refits), ``seconds_fit`` (final SVM), ``seconds_total`` (the three),
        ``n_train``, ``n_test``, ``n_features``, ``model_selection``.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    train = np.asarray(train, dtype=int)
    test = np.asarray(test, dtype=int)
    if model_selection not in ("kta", "cv"):
        raise ValueError(f"model_selection must be 'kta' or 'cv'; got {model_selection!r}")
    Xtr, ytr = X[train], y[train]

    t0 = time.perf_counter()
    fitted = clone(selector).fit(Xtr, ytr)
    t_sel = time.perf_counter() - t0

    if model_selection == "kta":
        res = (kta if kta is not None else KTASelect()).select(Xtr, ytr, fitted.ranking_)
    else:
        res = (cv if cv is not None else NestedCVSelect()).select(Xtr, ytr, selector, fitted=fitted)
    t_ms = res.seconds

    t0 = time.perf_counter()
    feats = np.sort(res.features)
    svm = SVC(C=C, kernel="rbf", gamma=res.gamma).fit(Xtr[:, feats], ytr)
    acc = accuracy(y[test], svm.predict(X[test][:, feats]))
    t_fit = time.perf_counter() - t0

    precision = recall = None
    if relevant is not None:
        precision, recall = precision_recall(feats, relevant)
    return {
        "model_selection": model_selection,
        "accuracy": acc,
        "selected": feats.tolist(),
        "n_selected": int(feats.size),
        "precision": precision,
        "recall": recall,
        "gamma": res.gamma,
        "sigma": res.sigma,
        "score": res.score,
        "seconds_selection": t_sel,
        "seconds_model_selection": t_ms,
        "seconds_fit": t_fit,
        "seconds_total": t_sel + t_ms + t_fit,
        "n_train": int(train.size),
        "n_test": int(test.size),
        "n_features": int(X.shape[1]),
    }


def _mean_sd(values):
    v = np.asarray([x for x in values if x is not None], dtype=float)
    if v.size == 0:
        return None, None
    return float(v.mean()), float(v.std(ddof=1)) if v.size > 1 else 0.0


def aggregate_folds(folds, n_features):
    """Aggregate the per-fold dicts of :func:`run_outer_fold` over the outer folds.

    Parameters
    ----------
    folds : sequence of dict
    n_features : int

    Returns
    -------
    dict
        ``<q>_mean`` and ``<q>_sd`` (sample sd over folds) for accuracy,
        n_selected, precision, recall and seconds_total; ``mean_variance`` and
        ``log_likelihood`` (eq. 2.8) of the selection indicators over the
        folds; ``n_folds``.
    """
    if len(folds) == 0:
        raise ValueError("aggregate_folds needs at least one fold")
    out = {"n_folds": len(folds)}
    for q in ("accuracy", "n_selected", "precision", "recall", "seconds_total"):
        out[f"{q}_mean"], out[f"{q}_sd"] = _mean_sd([f.get(q) for f in folds])
    W = selection_matrix([f["selected"] for f in folds], n_features)
    out["mean_variance"] = mean_variance(W)
    out["log_likelihood"] = consistency_log_likelihood(W)
    return out
