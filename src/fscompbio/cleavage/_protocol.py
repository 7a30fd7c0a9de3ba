"""Cross-validation of a cleavage-site approach: fit on the training sequences of a fold, score every
window of the test sequences, and learning curves over the training size."""

from __future__ import annotations

import inspect
import time

import numpy as np
from sklearn.base import clone
from sklearn.utils import check_random_state

from ._accuracy import cleavage_accuracy, summarise_accuracy
from ._folds import sequence_folds, training_windows

__all__ = ["fit_approach", "run_fold", "cross_validate_cleavage", "learning_curve_fold"]


def _scores(model, X):
    if hasattr(model, "decision_function"):
        return np.asarray(model.decision_function(X), dtype=float).ravel()
    return np.asarray(model.predict_proba(X), dtype=float)[:, 1]


def _fit(model, X, y, groups, split_groups):
    """Fit with the sequences and the units of the inner splits.

    An approach whose ``fit`` takes ``split_groups`` (the combined scorer) gets
    the sequences as ``groups`` and the units as ``split_groups``; one whose
    ``fit`` takes only ``groups`` (the SVM's tuning, the selectors' validation)
    uses them for its inner splits alone and gets the units.
    """
    params = inspect.signature(model.fit).parameters
    if "split_groups" in params:
        return model.fit(X, y, groups=groups, split_groups=split_groups)
    if "groups" in params:
        return model.fit(X, y, groups=split_groups)
    return model.fit(X, y)


def fit_approach(approach, X, y, groups, *, pool=None, train=None, split_groups=None, max_train_per_class=None,
                 negatives_per_positive=None, random_state=None):
    """Fit a clone of an approach on the training windows a protocol draws from ``pool`` (or on ``train``).

    Parameters
    ----------
    approach : estimator
        Cloned; its ``random_state`` (if any) is seeded from ``random_state``.
    X : array-like of shape (n_windows, n_features)
    y, groups : array-like of shape (n_windows,)
        Labels and sequence ids.
    pool : array-like of int, default=None
        The windows the training windows are drawn from (a fold's training
        sequences); ``None`` = every window.
    train : array-like of int, default=None
        The training windows themselves, already drawn (then ``pool`` and the
        protocol are not used): the saved model draws them first and encodes
        only those windows.
    split_groups, max_train_per_class, negatives_per_positive, random_state :
        As in :func:`run_fold`.

    Returns
    -------
    model : the fitted clone
    train : ndarray of int
        The training windows used (indices into ``X``), sorted.
    """
    X = np.asarray(X)
    y = np.asarray(y)
    groups = np.asarray(groups)
    units = groups if split_groups is None else np.asarray(split_groups)
    if units.shape != groups.shape:
        raise ValueError(f"split_groups must have one entry per window; got {units.shape} for {groups.shape[0]}")
    rng = check_random_state(random_state)
    if train is None:
        pool = np.arange(y.size) if pool is None else np.asarray(pool, dtype=int)
        train = pool[training_windows(y[pool], max_per_class=max_train_per_class,
                                      negatives_per_positive=negatives_per_positive, random_state=rng)]
    else:
        train = np.sort(np.asarray(train, dtype=int))
    model = clone(approach)
    if "random_state" in model.get_params(deep=False):
        model.set_params(random_state=int(rng.randint(np.iinfo(np.int32).max)))
    _fit(model, X[train], y[train], groups[train], units[train])
    return model, train


def run_fold(approach, X, y, groups, folds, fold, *, split_groups=None, max_train_per_class=None,
             negatives_per_positive=None, random_state=None):
    """Fit an approach on the training sequences of one fold and score every window of the test sequences.

    Parameters
    ----------
    approach : estimator
        Anything with ``fit`` and ``decision_function`` (or ``predict_proba``);
        cloned. Its ``random_state`` (if any) is seeded from ``random_state``;
        its ``fit`` gets the units of its inner splits as ``groups`` if it
        accepts them (and the sequences as ``groups``, the units as
        ``split_groups``, if it accepts both).
    X : array-like of shape (n_windows, n_features)
    y, groups, folds : array-like of shape (n_windows,)
        Labels, sequence ids, and the fold of every window (:func:`sequence_folds`).
    fold : int
        The test fold.
    split_groups : array-like of shape (n_windows,), default=None
        The units of every split inside the training windows (the SVM's
        tuning folds, the combined scorer's held-out sequences, the selectors'
        validation of their size); ``None`` = ``groups``. Under homology-aware
        CV, the homology cluster of every window (:func:`window_clusters`), so
        that no inner validation window has a close homologue among the inner
        training windows.
    max_train_per_class, negatives_per_positive :
        The training protocol (:func:`training_windows`).
    random_state : int, RandomState instance or None

    Returns
    -------
    result : dict
        ``test_index`` (windows of the test sequences), ``scores`` (their
        scores), ``train_index`` (the training windows used), ``accuracy``
        (:func:`cleavage_accuracy` on the test sequences), ``model`` (the fitted clone).
    """
    X = np.asarray(X)
    y = np.asarray(y)
    groups = np.asarray(groups)
    folds = np.asarray(folds)
    if fold not in set(np.unique(folds).tolist()):
        raise ValueError(f"fold {fold!r} is not one of the folds {np.unique(folds).tolist()}")
    test = np.flatnonzero(folds == fold)
    model, train = fit_approach(approach, X, y, groups, pool=np.flatnonzero(folds != fold), split_groups=split_groups,
                                max_train_per_class=max_train_per_class,
                                negatives_per_positive=negatives_per_positive, random_state=random_state)
    scores = _scores(model, X[test])
    acc = cleavage_accuracy(scores, y[test], groups[test])
    return {"test_index": test, "scores": scores, "train_index": train, "accuracy": acc, "model": model}


def cross_validate_cleavage(approach, X, y, groups, *, n_splits=10, split_groups=None, max_train_per_class=None,
                            negatives_per_positive=None, random_state=None):
    """Sequence-wise (or homology-cluster-wise) ``n_splits``-fold CV of an approach.

    ``split_groups`` (default: ``groups``) decides the folds and every inner
    split of the approach, e.g. the windows' homology clusters (:func:`window_clusters`).

    Returns
    -------
    result : dict
        ``fold_accuracy`` (ndarray (n_splits,)), ``mean``, ``sd``, ``folds``
        (fold of every window) and ``scores`` (the out-of-fold score of every window).
    """
    rng = check_random_state(random_state)
    folds = sequence_folds(groups if split_groups is None else split_groups, n_splits=n_splits,
                           random_state=rng.randint(np.iinfo(np.int32).max))
    scores = np.empty(len(y))
    accs = []
    for k in range(n_splits):
        r = run_fold(approach, X, y, groups, folds, k, split_groups=split_groups,
                     max_train_per_class=max_train_per_class,
                     negatives_per_positive=negatives_per_positive, random_state=rng)
        scores[r["test_index"]] = r["scores"]
        accs.append(r["accuracy"])
    mean, sd = summarise_accuracy(accs)
    return {"fold_accuracy": np.asarray(accs), "mean": mean, "sd": sd, "folds": folds, "scores": scores}


def learning_curve_fold(estimator, X, y, groups, folds, fold, *, per_class=(250, 500, 1000, 2000),
                        negatives_per_positive=(2, 5, 10), random_state=None):
    """Cleavage accuracy of one fold against the number of training windows (figure 5.5).

    Balanced training sets of ``per_class`` windows of each class (capped at
    the number of training positives; the largest is all positives), then all
    positives with ``r`` times as many negatives for each ``r`` in
    ``negatives_per_positive``. Every training set is drawn from the fold's
    training sequences; the test windows are all windows of the test sequences.

    Returns
    -------
    rows : list of dict
        ``protocol`` ("balanced" or "ratio"), ``n_positive``, ``n_negative``,
        ``n_train``, ``accuracy``, ``seconds`` (fit and scoring).
    """
    rng = check_random_state(random_state)
    y = np.asarray(y)
    folds = np.asarray(folds)
    n_pos = int(np.sum(y[folds != fold] == y.max()))
    sizes = sorted({min(int(k), n_pos) for k in per_class} | {n_pos})
    plans = [("balanced", {"max_train_per_class": k}) for k in sizes]
    plans += [("ratio", {"negatives_per_positive": float(r)}) for r in negatives_per_positive]
    rows = []
    for protocol, kw in plans:
        start = time.perf_counter()
        r = run_fold(estimator, X, y, groups, folds, fold, random_state=int(rng.randint(np.iinfo(np.int32).max)), **kw)
        n_p = int(np.sum(y[r["train_index"]] == y.max()))
        rows.append({"protocol": protocol, "n_positive": n_p, "n_negative": int(r["train_index"].size - n_p),
                     "n_train": int(r["train_index"].size), "accuracy": float(r["accuracy"]),
                     "seconds": time.perf_counter() - start, **kw})
    return rows
