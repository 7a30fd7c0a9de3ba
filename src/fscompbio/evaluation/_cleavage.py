"""Cleavage-site prediction as an evaluation protocol (thesis 5.4-5.5; "Principled Non-Linear Feature Selection", table 1).

Every sequence contributes its windows (39 for a 50-residue prefix), exactly
one of which is positive. A prediction for a sequence is right when its
top-scoring window is the true cleavage window. Cross-validation splits by
sequence (all windows of a sequence in one fold) or by homology cluster (no
test sequence keeps a close homologue in training).

Training protocols (:func:`training_windows`):

- the paper's: a class-balanced subsample of the training windows, at most
  ``max_train_per_class`` of each class (the thesis balanced its subsamples);
- the adequate one: every training positive and ``negatives_per_positive``
  times as many random negatives, the classifier weighting the classes
  equally (``class_weight="balanced"``).

The predictors themselves live in :mod:`fscompbio.prediction`
(:class:`~fscompbio.prediction.SelectThenSVM`,
:class:`~fscompbio.prediction.RandSelMKL`,
:class:`~fscompbio.prediction.GaussianSVC`,
:class:`~fscompbio.prediction.PositionWeightMatrix`); :func:`make_approach`
builds each row of table P1 from them.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import clone
from sklearn.model_selection import GroupKFold
from sklearn.svm import SVC
from sklearn.utils import check_random_state

from ..prediction._pipelines import RandSelMKL, SelectThenSVM, balanced_indices

__all__ = [
    "APPROACHES",
    "APPROACH_LABELS",
    "APPROACH_REPRESENTATION",
    "TABLE_ROWS",
    "PAPER_TABLE1",
    "cleavage_accuracy",
    "sequence_folds",
    "window_clusters",
    "balanced_subsample",
    "training_windows",
    "run_fold",
    "cross_validate_cleavage",
    "summarise_accuracy",
    "make_approach",
    "representation_matrix",
    "learning_curve_fold",
    "RandSelMKL",
    "SelectThenSVM",
    "label_correlations",
    "support_vector_correlations",
]

#: the five approaches of the paper's table 1, in its order
APPROACHES = ("original", "stability", "rfe", "randsel", "randsel_mkl")

#: Table 1 of Athanasakis, Shawe-Taylor & Fernandez-Reyes (2013), "Principled Non-Linear Feature Selection": accuracy (%),
#: mean and sd over 10 folds, on the PrediSi eukaryotic signal peptides (thesis figure 5.3)
PAPER_TABLE1 = {
    "original": (67.20, 4.71),
    "stability": (71.46, 2.93),
    "rfe": (71.81, 2.79),
    "randsel": (72.75, 2.85),
    "randsel_mkl": (75.28, 1.91),
}

#: every row of table P1: the paper's five, the thesis' randSel with a linear kernel (figure 5.3),
#: randSel + MKL on the original features, the single SVM on randSel's sets for the MKL comparison,
#: and three anchors from the cleavage-site literature
TABLE_ROWS = (
    "original",
    "stability",
    "rfe",
    "randsel",
    "randsel_linear",
    "randsel_mkl",
    "randsel_mkl_original",
    "pwm",
    "pwm_prior",
    "onehot_svm",
    "original_combined",
)

#: row labels (the paper's five as its table 1 prints them)
APPROACH_LABELS = {
    "original": "Original Representation",
    "stability": "Sparse Filtering + Stab. Sel.",
    "rfe": "Sparse Filtering + RFE",
    "randsel": "Sparse Filtering + RandSel",
    "randsel_linear": "Sparse Filtering + RandSel (linear kernel)",
    "randsel_mkl": "Sparse Filtering + RandSel & MKL",
    "randsel_mkl_original": "Original + RandSel & MKL",
    "pwm": "Anchor: position weight matrix",
    "pwm_prior": "Anchor: PWM + position prior",
    "onehot_svm": "Anchor: one-hot + Gaussian SVM",
    "original_combined": "Original + SVM, weight matrix & position prior",
}

#: the input each approach is trained on: "scales" = the 648 standardised scale values of the window,
#: "sf" = the sparse-filtering features, "onehot" = 12 x 20 residue indicators, "codes" = the 12 residue
#: codes (for the weight matrix), "codes_position" = the codes and the window's position in the sequence,
#: "scales_codes_position" = the scale values, then the codes and the position (for the combined scorer)
APPROACH_REPRESENTATION = {
    "original": "scales",
    "stability": "sf",
    "rfe": "sf",
    "randsel": "sf",
    "randsel_linear": "sf",
    "randsel_mkl": "sf",
    "randsel_mkl_original": "scales",
    "pwm": "codes",
    "pwm_prior": "codes_position",
    "onehot_svm": "onehot",
    "original_combined": "scales_codes_position",
}

#: randSel "with a linear kernel": the centred alignment (and HSIC) of exp(-d^2 / (2 sigma^2)) tends to that
#: of the linear kernel as sigma grows (1 - d^2 / (2 sigma^2), and centring removes the constant and the
#: norms), so randSel's width of this many median distances is the linear kernel to ~1e-3 (tests/test_cleavage.py)
LINEAR_WIDTH_MULTIPLIER = 30.0


def _check_scores_labels_groups(scores, y, groups):
    scores = np.asarray(scores, dtype=float)
    y = np.asarray(y)
    groups = np.asarray(groups)
    if not (scores.ndim == y.ndim == groups.ndim == 1) or not (scores.size == y.size == groups.size):
        raise ValueError(
            f"scores, y and groups must be 1-D of equal length; got shapes {scores.shape}, {y.shape}, {groups.shape}"
        )
    if scores.size == 0:
        raise ValueError("scores, y and groups are empty: no sequence to evaluate")
    if not np.all(np.isfinite(scores)):
        bad = np.flatnonzero(~np.isfinite(scores))
        raise ValueError(f"scores must be finite; windows {bad[:10].tolist()} have {scores[bad[:10]].tolist()}")
    labels = np.unique(y)
    if labels.size > 2:
        raise ValueError(f"y must be binary (positive = the cleavage window); got labels {labels.tolist()}")
    pos = y == labels.max() if labels.size == 2 else y > 0  # one label only: 1/+1 positive, 0/-1 not
    return scores, pos, groups


def cleavage_accuracy(scores, y, groups):
    """Fraction of sequences whose top-scoring window is the true cleavage window.

    Parameters
    ----------
    scores : array-like of shape (n_windows,)
        Higher = more likely the cleavage window (e.g. an SVM's
        ``decision_function`` or LPBoost-MKL's mean margin).
    y : array-like of shape (n_windows,)
        Binary labels; the larger label ({1} of {0, 1} or {+1} of {-1, +1})
        marks the cleavage window.
    groups : array-like of shape (n_windows,)
        Sequence identifier of each window; every sequence needs exactly one
        positive window.

    Returns
    -------
    accuracy : float
        In ``[0, 1]``. A sequence counts as right only when its true window's
        score is strictly larger than every other window's: a tie at the top
        counts as wrong, so a constant scorer scores 0, not an arbitrary value.

    Notes
    -----
    The criterion of thesis 5.4.1: "the window predicted as most likely to
    contain the cleavage site in its target position must coincide with the
    actual window containing the cleavage target site for the sequence".
    """
    scores, pos, groups = _check_scores_labels_groups(scores, y, groups)
    _, g = np.unique(groups, return_inverse=True)
    n_groups = g.max() + 1
    n_pos = np.bincount(g, weights=pos, minlength=n_groups).astype(int)
    if np.any(n_pos != 1):
        bad = np.flatnonzero(n_pos != 1)
        names = np.unique(groups)[bad[:10]].tolist()
        raise ValueError(
            f"every sequence needs exactly one positive window; sequences {names} have "
            f"{n_pos[bad[:10]].tolist()} positives"
        )
    true_score = np.empty(n_groups)
    true_score[g[pos]] = scores[pos]
    n_at_or_above = np.bincount(g, weights=scores >= true_score[g], minlength=n_groups)
    return float(np.mean(n_at_or_above == 1))


def sequence_folds(groups, *, n_splits=10, random_state=None):
    """Fold index of every window, splitting by group (shuffled ``GroupKFold``).

    Parameters
    ----------
    groups : array-like of shape (n_windows,)
        Sequence identifier of each window (random sequence-level CV), or the
        homology cluster of each window's sequence (:func:`window_clusters`) for
        homology-aware CV.
    n_splits : int, default=10
    random_state : int or None, default=None
        Seed of the shuffle of the groups.

    Returns
    -------
    folds : ndarray of shape (n_windows,), int
        ``folds[i]`` in ``0..n_splits-1``; all windows of a group share a fold.
    """
    groups = np.asarray(groups)
    n_groups = np.unique(groups).size
    if not isinstance(n_splits, Integral) or n_splits < 2 or n_splits > n_groups:
        raise ValueError(f"n_splits must be an int in [2, {n_groups}] (the number of groups); got {n_splits!r}")
    folds = np.empty(groups.size, dtype=int)
    cv = GroupKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    for k, (_, test) in enumerate(cv.split(np.zeros((groups.size, 1)), groups=groups)):
        folds[test] = k
    return folds


def window_clusters(groups, sequence_clusters):
    """The homology cluster of every window: ``sequence_clusters[groups]``.

    Parameters
    ----------
    groups : array-like of int, shape (n_windows,)
        Sequence index (0..n_sequences-1) of each window.
    sequence_clusters : array-like of int, shape (n_sequences,)
        Cluster of each sequence (:func:`fscompbio.sequences.homology_clusters`).

    Returns
    -------
    ndarray of shape (n_windows,), int
    """
    groups = np.asarray(groups)
    sequence_clusters = np.asarray(sequence_clusters)
    if groups.size and (groups.min() < 0 or groups.max() >= sequence_clusters.size):
        raise ValueError(f"groups must index the {sequence_clusters.size} sequences; got values in "
                         f"[{groups.min()}, {groups.max()}]")
    return sequence_clusters[groups]


def balanced_subsample(y, max_per_class, random_state=None):
    """Indices of a class-balanced subsample (see :func:`fscompbio.prediction._pipelines.balanced_indices`)."""
    return balanced_indices(y, max_per_class, random_state)


def training_windows(y, *, max_per_class=None, negatives_per_positive=None, random_state=None):
    """The training windows of a fold under one of the two protocols.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels of the fold's training windows (1 = cleavage window).
    max_per_class : int or None, default=None
        The paper's protocol: a class-balanced subsample with at most this many
        windows per class (``None``: as many negatives as positives).
    negatives_per_positive : float or None, default=None
        The adequate protocol: every positive and ``round(r * n_positives)``
        random negatives (all of them if fewer). Takes precedence over
        ``max_per_class``.
    random_state : int, RandomState instance or None

    Returns
    -------
    idx : ndarray of int, sorted
    """
    rng = check_random_state(random_state)
    y = np.asarray(y)
    if negatives_per_positive is None:
        return balanced_indices(y, max_per_class, rng)
    if not negatives_per_positive > 0:
        raise ValueError(f"negatives_per_positive must be > 0 or None; got {negatives_per_positive!r}")
    pos_label = np.unique(y).max()
    pos = np.flatnonzero(y == pos_label)
    neg = np.flatnonzero(y != pos_label)
    k = min(neg.size, int(round(negatives_per_positive * pos.size)))
    return np.sort(np.concatenate([pos, rng.choice(neg, size=k, replace=False)]))


def _scores(model, X):
    if hasattr(model, "decision_function"):
        return np.asarray(model.decision_function(X), dtype=float).ravel()
    return np.asarray(model.predict_proba(X), dtype=float)[:, 1]


def run_fold(approach, X, y, groups, folds, fold, *, max_train_per_class=None, negatives_per_positive=None,
             random_state=None):
    """Fit an approach on the training sequences of one fold and score every window of the test sequences.

    Parameters
    ----------
    approach : estimator
        Anything with ``fit`` and ``decision_function`` (or ``predict_proba``);
        cloned. Its ``random_state`` (if any) is seeded from ``random_state``;
        its ``fit`` gets the windows' sequence ids as ``groups`` if it accepts them.
    X : array-like of shape (n_windows, n_features)
    y, groups, folds : array-like of shape (n_windows,)
        Labels, sequence ids, and the fold of every window (:func:`sequence_folds`).
    fold : int
        The test fold.
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
    import inspect

    X = np.asarray(X)
    y = np.asarray(y)
    groups = np.asarray(groups)
    folds = np.asarray(folds)
    if fold not in set(np.unique(folds).tolist()):
        raise ValueError(f"fold {fold!r} is not one of the folds {np.unique(folds).tolist()}")
    rng = check_random_state(random_state)
    train_all = np.flatnonzero(folds != fold)
    test = np.flatnonzero(folds == fold)
    train = train_all[training_windows(y[train_all], max_per_class=max_train_per_class,
                                       negatives_per_positive=negatives_per_positive, random_state=rng)]
    model = clone(approach)
    if "random_state" in model.get_params(deep=False):
        model.set_params(random_state=int(rng.randint(np.iinfo(np.int32).max)))
    if "groups" in inspect.signature(model.fit).parameters:
        model.fit(X[train], y[train], groups=groups[train])
    else:
        model.fit(X[train], y[train])
    scores = _scores(model, X[test])
    acc = cleavage_accuracy(scores, y[test], groups[test])
    return {"test_index": test, "scores": scores, "train_index": train, "accuracy": acc, "model": model}


def summarise_accuracy(fold_accuracies):
    """Mean and sample standard deviation (ddof=1) over folds, in the input's units."""
    a = np.asarray(fold_accuracies, dtype=float)
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"fold_accuracies must be a non-empty 1-D sequence; got shape {a.shape}")
    return float(a.mean()), float(a.std(ddof=1)) if a.size > 1 else 0.0


def cross_validate_cleavage(approach, X, y, groups, *, n_splits=10, split_groups=None, max_train_per_class=None,
                            negatives_per_positive=None, random_state=None):
    """Sequence-wise (or homology-cluster-wise) ``n_splits``-fold CV of an approach.

    ``split_groups`` (default: ``groups``) decides the folds, e.g. the windows'
    homology clusters (:func:`window_clusters`).

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
        r = run_fold(approach, X, y, groups, folds, k, max_train_per_class=max_train_per_class,
                     negatives_per_positive=negatives_per_positive, random_state=rng)
        scores[r["test_index"]] = r["scores"]
        accs.append(r["accuracy"])
    mean, sd = summarise_accuracy(accs)
    return {"fold_accuracy": np.asarray(accs), "mean": mean, "sd": sd, "folds": folds, "scores": scores}


def representation_matrix(kind, *, scales=None, codes=None, target=None, sf=None, first_target=None):
    """The input matrix of one representation (:data:`APPROACH_REPRESENTATION`).

    Parameters
    ----------
    kind : {"scales", "sf", "onehot", "codes", "codes_position", "scales_codes_position"}
    scales : ndarray (n, 648), the scale encoding; sf : ndarray (n, k), the learned features;
    codes : ndarray (n, 12) of residue codes; target : ndarray (n,), the 1-based target position;
    first_target : int, default=None
        The smallest target position (``before + 1``); positions are coded from 0.
        ``None`` = the smallest ``target`` given.

    Returns
    -------
    ndarray of shape (n, n_columns)
    """
    from ..sequences import one_hot_windows

    def need(name, value):
        if value is None:
            raise ValueError(f"representation {kind!r} needs {name}")
        return np.asarray(value)

    if kind == "scales":
        return need("scales", scales)
    if kind == "sf":
        return need("sf (the sparse-filtering features)", sf)
    if kind == "onehot":
        return one_hot_windows(need("codes", codes))
    if kind == "codes":
        return need("codes", codes).astype(np.int64)
    if kind == "codes_position":
        t = need("target", target).astype(np.int64)
        t0 = int(t.min()) if first_target is None else int(first_target)
        return np.column_stack([need("codes", codes).astype(np.int64), t - t0])
    if kind == "scales_codes_position":
        t = need("target", target).astype(np.int64)
        t0 = int(t.min()) if first_target is None else int(first_target)
        return np.column_stack([need("scales", scales), need("codes", codes), t - t0]).astype(np.float64)
    raise ValueError("representation must be one of scales, sf, onehot, codes, codes_position, scales_codes_position; "
                     f"got {kind!r}")


def _svm(params, *, class_weight="balanced"):
    from ..prediction import GaussianSVC

    p = dict(params or {})
    return GaussianSVC(
        C=float(p.get("C", 1.0)),
        gamma=p.get("gamma", "scale"),
        class_weight=class_weight,
        Cs=p.get("Cs"),
        gamma_multipliers=p.get("gamma_multipliers"),
        cv=int(p.get("cv", 3)),
        tune_max_samples=int(p.get("tune_max_samples", 3000)),
    )


def make_approach(name, params=None):
    """Build one row of table P1 as a scikit-learn estimator.

    Parameters
    ----------
    name : str
        One of :data:`TABLE_ROWS`. ``original``: Gaussian SVM on the 648
        scale values; ``stability`` / ``rfe`` / ``randsel``: l1-logistic
        stability selection / Gaussian SVM-RFE / randSel on the sparse-filtering
        features, then a Gaussian SVM; ``randsel_linear``: randSel with the
        linear-kernel limit of its Gaussian kernel; ``randsel_mkl``:
        randSel's nested sets and LPBoost-MKL; ``randsel_mkl_original``: the
        same on the 648 scale values; ``pwm`` / ``pwm_prior``: a position weight
        matrix on the residue codes, without / with the window's position;
        ``onehot_svm``: a Gaussian SVM on the 240 one-hot residue indicators;
        ``original_combined``: the Gaussian SVM on the scale values, a weight
        matrix on the residues and a log prior of the position, weighted by a
        conditional logit on held-out training sequences
        (:class:`~fscompbio.prediction.CombinedSiteScorer`).
        The input of each is :data:`APPROACH_REPRESENTATION`.
    params : dict, default=None
        ``svm`` (``C``, ``gamma``, and the inner-CV grid ``Cs``,
        ``gamma_multipliers``, ``cv``, ``tune_max_samples`` of
        :class:`~fscompbio.prediction.GaussianSVC`), ``stability``, ``rfe``,
        ``randsel`` (keyword arguments of the selectors), ``rfe_size`` and
        ``randsel_size`` (``"validate"``, the default: the nested set of best
        AUC on training windows the selector did not see; ``"support"``: the
        selector's own set), ``mkl`` (of LPBoostMKL), ``max_sets``,
        ``select_max_per_class`` (windows per class the selectors see),
        ``pseudocount`` (of the weight matrices), ``combination`` (``holdout_fraction``
        of :class:`~fscompbio.prediction.CombinedSiteScorer`).

    Returns
    -------
    estimator
    """
    from ..prediction import GaussianSVC, PositionWeightMatrix  # noqa: F401  (GaussianSVC via _svm)

    p = dict(params or {})
    svm = _svm(p.get("svm"))
    sel_n = p.get("select_max_per_class")
    if name in ("original", "onehot_svm"):
        return svm
    if name in ("pwm", "pwm_prior"):
        return PositionWeightMatrix(pseudocount=float(p.get("pseudocount", 1.0)))
    if name == "original_combined":
        from ..prediction import CombinedSiteScorer

        return CombinedSiteScorer(base=svm, pseudocount=float(p.get("pseudocount", 1.0)),
                                  **dict(p.get("combination") or {}))
    if name == "stability":
        from ..selection import StabilitySelection

        sel = StabilitySelection(**{"learner": "logistic", **dict(p.get("stability", {}))})
        return SelectThenSVM(selector=sel, svm=svm, select_max_per_class=sel_n)
    if name == "rfe":
        from ..selection import KernelRFE

        return SelectThenSVM(selector=KernelRFE(**dict(p.get("rfe", {}))), svm=svm,
                             size=p.get("rfe_size", "validate"), select_max_per_class=sel_n)
    if name in ("randsel", "randsel_linear"):
        from ..selection import RandSel

        kw = {"balanced": True, **dict(p.get("randsel", {}))}
        if name == "randsel_linear":
            kw["width"] = LINEAR_WIDTH_MULTIPLIER
        # randSel's error-controlled set is built to exclude false positives, not to predict: on 1,500 sparse-filtering
        # features it kept 2-5 (4-16 with the linear kernel) and the SVM on them found 5-19% of cleavage sites
        # (thesis config, 2026-11-22); its nested sets validated on held-out windows, as for RFE, by default
        return SelectThenSVM(selector=RandSel(**kw), svm=svm, size=p.get("randsel_size", "validate"),
                             select_max_per_class=sel_n)
    if name in ("randsel_mkl", "randsel_mkl_original"):
        from ..prediction import LPBoostMKL
        from ..selection import RandSel

        return RandSelMKL(
            selector=RandSel(**{"balanced": True, **dict(p.get("randsel", {}))}),
            mkl=LPBoostMKL(**dict(p.get("mkl", {}))),
            max_sets=p.get("max_sets"),
            select_max_per_class=sel_n,
        )
    raise ValueError(f"approach must be one of {TABLE_ROWS}; got {name!r}")


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
    import time

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


def label_correlations(X, y):
    """Pearson correlation of every column of ``X`` with the label ``y`` (0 for a constant column).

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,)

    Returns
    -------
    r : ndarray of shape (d,)
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],) or X.shape[0] < 2:
        raise ValueError(f"X must be (n, d) and y (n,) with n >= 2; got {X.shape} and {y.shape}")
    Xc = X - X.mean(axis=0)
    yc = y - y.mean()
    denom = np.sqrt(np.einsum("ij,ij->j", Xc, Xc) * (yc @ yc))
    num = yc @ Xc
    return np.where(denom > 0, num / np.where(denom > 0, denom, 1.0), 0.0)  # guard: constant column or label


def support_vector_correlations(X, y, *, max_per_class=None, C=1.0, gamma="scale", random_state=None):
    """Correlation of each feature with the label on all windows and on a Gaussian SVM's support vectors.

    The data behind thesis figure 5.4: the SVM (C = 1) is trained on a
    class-balanced subsample of the windows (``max_per_class`` per class),
    and the correlations are computed over all given windows and over the
    support vectors of that SVM.

    Returns
    -------
    result : dict
        ``corr_all`` and ``corr_sv`` (ndarray (d,)), ``support`` (row indices
        of the support vectors in ``X``), ``train_index``.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    train = balanced_subsample(y, max_per_class, random_state)
    svm = SVC(kernel="rbf", C=C, gamma=gamma).fit(X[train], y[train])
    support = train[svm.support_]
    return {
        "corr_all": label_correlations(X, y),
        "corr_sv": label_correlations(X[support], y[support]),
        "support": support,
        "train_index": train,
    }
