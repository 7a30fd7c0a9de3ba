"""Per-sequence evaluation of cleavage-site prediction (thesis 5.4-5.5, seed 004 section 6.2).

Every sequence contributes its windows (39 for a 50-residue prefix), exactly
one of which is positive. A prediction for a sequence is right when its
top-scoring window is the true cleavage window. Cross-validation splits by
sequence: all windows of a sequence are in the same fold.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import GroupKFold
from sklearn.svm import SVC
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._compat import HasMethods, _fit_context, validate_data

__all__ = [
    "APPROACHES",
    "PAPER_TABLE1",
    "cleavage_accuracy",
    "sequence_folds",
    "balanced_subsample",
    "run_fold",
    "cross_validate_cleavage",
    "summarise_accuracy",
    "make_approach",
    "RandSelMKL",
    "SelectThenSVM",
    "label_correlations",
    "support_vector_correlations",
]

#: the five approaches of seed 004 table 1, in its order
APPROACHES = ("original", "stability", "rfe", "randsel", "randsel_mkl")

#: seed 004 table 1: accuracy (%) mean and sd over folds
PAPER_TABLE1 = {
    "original": (67.20, 4.71),
    "stability": (71.46, 2.93),
    "rfe": (71.81, 2.79),
    "randsel": (72.75, 2.85),
    "randsel_mkl": (75.28, 1.91),
}

#: row labels as seed 004 table 1 prints them
APPROACH_LABELS = {
    "original": "Original Representation",
    "stability": "Sparse Filtering + Stab. Sel.",
    "rfe": "Sparse Filtering + RFE",
    "randsel": "Sparse Filtering + RandSel",
    "randsel_mkl": "Sparse Filtering + RandSel & MKL",
}


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
    """Fold index of every window, splitting by sequence (shuffled ``GroupKFold``).

    Parameters
    ----------
    groups : array-like of shape (n_windows,)
        Sequence identifier of each window.
    n_splits : int, default=10
    random_state : int or None, default=None
        Seed of the shuffle of the sequences.

    Returns
    -------
    folds : ndarray of shape (n_windows,), int
        ``folds[i]`` in ``0..n_splits-1``; all windows of a sequence share a fold.
    """
    groups = np.asarray(groups)
    n_groups = np.unique(groups).size
    if not isinstance(n_splits, Integral) or n_splits < 2 or n_splits > n_groups:
        raise ValueError(f"n_splits must be an int in [2, {n_groups}] (the number of sequences); got {n_splits!r}")
    folds = np.empty(groups.size, dtype=int)
    cv = GroupKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    for k, (_, test) in enumerate(cv.split(np.zeros((groups.size, 1)), groups=groups)):
        folds[test] = k
    return folds


def balanced_subsample(y, max_per_class, random_state=None):
    """Indices of a class-balanced subsample (the larger class is subsampled).

    Parameters
    ----------
    y : array-like of shape (n,)
    max_per_class : int or None
        Samples per class: ``min(max_per_class, smallest class)``; ``None``
        means the size of the smallest class.
    random_state : int, RandomState instance or None

    Returns
    -------
    idx : ndarray of int, sorted
    """
    rng = check_random_state(random_state)
    y = np.asarray(y)
    classes, inv = np.unique(y, return_inverse=True)
    k = np.bincount(inv).min()
    if max_per_class is not None:
        if max_per_class < 1:
            raise ValueError(f"max_per_class must be >= 1 or None; got {max_per_class!r}")
        k = min(k, int(max_per_class))
    return np.sort(np.concatenate([rng.choice(np.flatnonzero(inv == c), size=k, replace=False) for c in range(classes.size)]))


def _scores(model, X):
    if hasattr(model, "decision_function"):
        return np.asarray(model.decision_function(X), dtype=float).ravel()
    return np.asarray(model.predict_proba(X), dtype=float)[:, 1]


def run_fold(approach, X, y, groups, folds, fold, *, max_train_per_class=None, random_state=None):
    """Fit an approach on the training sequences of one fold and score the test sequences.

    Parameters
    ----------
    approach : estimator
        Anything with ``fit`` and ``decision_function`` (or ``predict_proba``);
        cloned, so feature selection inside it sees the training fold only.
    X : array-like of shape (n_windows, n_features)
    y, groups, folds : array-like of shape (n_windows,)
        Labels, sequence ids, and the fold of every window (:func:`sequence_folds`).
    fold : int
        The test fold.
    max_train_per_class : int or None, default=None
        Train on a class-balanced subsample of the training windows with at
        most this many per class (the thesis' answer to the 1:38 imbalance);
        ``None`` balances by the number of positives.
    random_state : int, RandomState instance or None

    Returns
    -------
    result : dict
        ``test_index`` (windows of the test sequences), ``scores`` (their
        scores), ``train_index`` (the balanced training windows used),
        ``accuracy`` (:func:`cleavage_accuracy` on the test sequences), and
        ``model`` (the fitted clone).
    """
    X = np.asarray(X)
    y = np.asarray(y)
    folds = np.asarray(folds)
    if fold not in set(np.unique(folds).tolist()):
        raise ValueError(f"fold {fold!r} is not one of the folds {np.unique(folds).tolist()}")
    rng = check_random_state(random_state)
    train_all = np.flatnonzero(folds != fold)
    test = np.flatnonzero(folds == fold)
    train = train_all[balanced_subsample(y[train_all], max_train_per_class, rng)]
    model = clone(approach)
    seeds = {k: int(rng.randint(np.iinfo(np.int32).max)) for k in sorted(model.get_params()) if k == "random_state" or k.endswith("__random_state")}
    model.set_params(**seeds)  # every random step of the approach (selector, SVM, MKL) seeded from random_state
    model.fit(X[train], y[train])
    scores = _scores(model, X[test])
    acc = cleavage_accuracy(scores, y[test], np.asarray(groups)[test])
    return {"test_index": test, "scores": scores, "train_index": train, "accuracy": acc, "model": model}


def summarise_accuracy(fold_accuracies):
    """Mean and sample standard deviation (ddof=1) over folds, in the input's units."""
    a = np.asarray(fold_accuracies, dtype=float)
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"fold_accuracies must be a non-empty 1-D sequence; got shape {a.shape}")
    return float(a.mean()), float(a.std(ddof=1)) if a.size > 1 else 0.0


def cross_validate_cleavage(approach, X, y, groups, *, n_splits=10, max_train_per_class=None, random_state=None):
    """Sequence-wise ``n_splits``-fold CV of an approach (thesis 5.5, seed 004 table 1).

    Returns
    -------
    result : dict
        ``fold_accuracy`` (ndarray (n_splits,)), ``mean``, ``sd``, ``folds``
        (fold of every window) and ``scores`` (the out-of-fold score of every window).
    """
    rng = check_random_state(random_state)
    folds = sequence_folds(groups, n_splits=n_splits, random_state=rng.randint(np.iinfo(np.int32).max))
    scores = np.empty(len(y))
    accs = []
    for k in range(n_splits):
        r = run_fold(approach, X, y, groups, folds, k, max_train_per_class=max_train_per_class, random_state=rng)
        scores[r["test_index"]] = r["scores"]
        accs.append(r["accuracy"])
    mean, sd = summarise_accuracy(accs)
    return {"fold_accuracy": np.asarray(accs), "mean": mean, "sd": sd, "folds": folds, "scores": scores}


class RandSelMKL(ClassifierMixin, BaseEstimator):
    """randSel's nested feature sets feeding LPBoost-MKL (thesis figure 5.1).

    Parameters
    ----------
    selector : estimator, default=None
        A fitted-on-``fit`` selector exposing ``support_history_`` (nested
        feature sets, largest first), e.g. :class:`fscompbio.selection.RandSel`.
        ``None`` means ``RandSel(balanced=True)``.
    mkl : estimator, default=None
        An :class:`fscompbio.prediction.LPBoostMKL`; its ``feature_sets`` is set
        from the selector. ``None`` means the default ``LPBoostMKL()``.
    max_sets : int or None, default=None
        Keep at most this many of the nested sets, evenly spaced from the
        largest to the smallest; ``None`` keeps all.
    random_state : int, RandomState instance or None, default=None
        Seeds both the selector and the MKL.

    Attributes
    ----------
    selector_, mkl_ : the fitted clones
    feature_sets_ : list of ndarray of int
    classes_ : ndarray of shape (2,)
    """

    _parameter_constraints: dict = {
        "selector": [HasMethods(["fit"]), None],
        "mkl": [HasMethods(["fit", "decision_function"]), None],
        "max_sets": [Integral, None],
        "random_state": ["random_state"],
    }

    def __init__(self, *, selector=None, mkl=None, max_sets=None, random_state=None):
        self.selector = selector
        self.mkl = mkl
        self.max_sets = max_sets
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Run the selector, then fit the MKL on its nested feature sets."""
        from ..prediction import LPBoostMKL
        from ..selection import RandSel

        X, y = validate_data(self, X, y)
        rng = check_random_state(self.random_state)
        check_classification_targets(y)
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        if y_type != "binary":
            raise ValueError(f"Only binary classification is supported. The type of the target is {y_type}.")
        self.classes_ = np.unique(y)
        seed_sel, seed_mkl = rng.randint(np.iinfo(np.int32).max, size=2)
        sel = clone(self.selector) if self.selector is not None else RandSel(balanced=True)
        if "random_state" in sel.get_params():
            sel.set_params(random_state=int(seed_sel))
        self.selector_ = sel.fit(X, y)
        sets = [np.asarray(s, dtype=int) for s in self.selector_.support_history_ if len(s) > 0]
        if self.max_sets is not None and len(sets) > self.max_sets:
            if self.max_sets < 1:
                raise ValueError(f"max_sets must be >= 1 or None; got {self.max_sets!r}")
            keep = np.unique(np.round(np.linspace(0, len(sets) - 1, self.max_sets)).astype(int))
            sets = [sets[i] for i in keep]
        self.feature_sets_ = sets
        mkl = clone(self.mkl) if self.mkl is not None else LPBoostMKL()
        mkl.set_params(feature_sets=sets, random_state=int(seed_mkl))
        self.mkl_ = mkl.fit(X, y)
        return self

    def decision_function(self, X):
        """The MKL ensemble's mean margin."""
        check_is_fitted(self)
        return self.mkl_.decision_function(X)

    def predict(self, X):
        """The MKL ensemble's majority vote."""
        check_is_fitted(self)
        return self.mkl_.predict(X)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags


class SelectThenSVM(ClassifierMixin, BaseEstimator):
    """A feature selector followed by a Gaussian SVM on the selected features.

    Parameters
    ----------
    selector : estimator, default=None
        A ``SelectorMixin`` with ``get_support()`` and ``ranking_`` (or
        ``scores_``); ``None`` selects every feature.
    svm : estimator, default=None
        ``None`` means ``SVC(kernel="rbf", C=1.0, gamma="scale")`` (thesis 4.3: C = 1).
    min_features : int, default=1
        If the selector keeps fewer features (stability selection can keep
        none), its top ``min_features`` by ``ranking_`` are used instead.
    random_state : int, RandomState instance or None, default=None
        Seeds the selector.

    Attributes
    ----------
    selector_, svm_ : the fitted clones
    support_ : ndarray of int
        The features the SVM uses.
    classes_ : ndarray of shape (2,)
    """

    _parameter_constraints: dict = {
        "selector": [HasMethods(["fit", "get_support"]), None],
        "svm": [HasMethods(["fit", "decision_function"]), None],
        "min_features": [Integral],
        "random_state": ["random_state"],
    }

    def __init__(self, *, selector=None, svm=None, min_features=1, random_state=None):
        self.selector = selector
        self.svm = svm
        self.min_features = min_features
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Fit the selector, then the SVM on the selected columns."""
        X, y = validate_data(self, X, y)
        rng = check_random_state(self.random_state)
        self.classes_ = np.unique(y)
        if self.selector is None:
            self.selector_ = None
            support = np.arange(X.shape[1])
        else:
            sel = clone(self.selector)
            if "random_state" in sel.get_params():
                sel.set_params(random_state=int(rng.randint(np.iinfo(np.int32).max)))
            self.selector_ = sel.fit(X, y)
            support = np.flatnonzero(self.selector_.get_support())
            k = max(1, int(self.min_features))
            if support.size < k:
                ranking = getattr(self.selector_, "ranking_", None)
                if ranking is None:
                    ranking = np.argsort(np.argsort(-np.asarray(self.selector_.scores_), kind="stable"), kind="stable")
                support = np.sort(np.argsort(np.asarray(ranking), kind="stable")[:k])
        self.support_ = support
        self.svm_ = clone(self.svm) if self.svm is not None else SVC(kernel="rbf", C=1.0, gamma="scale")
        self.svm_.fit(X[:, support], y)
        return self

    def decision_function(self, X):
        """The SVM's decision function on the selected features."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return self.svm_.decision_function(X[:, self.support_])

    def predict(self, X):
        """The SVM's prediction on the selected features."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return self.svm_.predict(X[:, self.support_])


def _svm(params):
    return SVC(kernel="rbf", C=float(params.get("C", 1.0)), gamma=params.get("gamma", "scale"))


def make_approach(name, params=None):
    """Build one of the five approaches of seed 004 table 1 as a scikit-learn estimator.

    Parameters
    ----------
    name : {"original", "stability", "rfe", "randsel", "randsel_mkl"}
        ``original``: Gaussian SVM on the given features (the 648 encoded
        values); ``stability``: l1-logistic stability selection, then a Gaussian
        SVM; ``rfe``: Gaussian-kernel SVM-RFE, then a Gaussian SVM; ``randsel``:
        randSel, then a Gaussian SVM; ``randsel_mkl``: randSel's nested sets
        and LPBoost-MKL (:class:`RandSelMKL`). The four last ones are meant for
        the sparse-filtering features.
    params : dict, default=None
        ``svm`` (``C``, ``gamma`` of the SVC; thesis 4.3: C=1), ``selector``
        (keyword arguments of the selector), ``mkl`` (of LPBoostMKL) and
        ``max_sets`` (of :class:`RandSelMKL`).

    Returns
    -------
    estimator
    """
    params = dict(params or {})
    svm = _svm(params.get("svm", {}))
    sel_kw = dict(params.get("selector", {}))
    if name == "original":
        return SelectThenSVM(svm=svm)
    if name == "stability":
        from ..selection import StabilitySelection

        return SelectThenSVM(selector=StabilitySelection(**{"learner": "logistic", **sel_kw}), svm=svm)
    if name == "rfe":
        from ..selection import KernelRFE

        return SelectThenSVM(selector=KernelRFE(**sel_kw), svm=svm)
    if name == "randsel":
        from ..selection import RandSel

        return SelectThenSVM(selector=RandSel(**{"balanced": True, **sel_kw}), svm=svm)
    if name == "randsel_mkl":
        from ..prediction import LPBoostMKL
        from ..selection import RandSel

        return RandSelMKL(
            selector=RandSel(**{"balanced": True, **sel_kw}),
            mkl=LPBoostMKL(**params.get("mkl", {})),
            max_sets=params.get("max_sets"),
        )
    raise ValueError(f"approach must be one of {APPROACHES}; got {name!r}")


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
