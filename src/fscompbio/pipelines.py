"""Predictors that select features first: a selector then a Gaussian SVM, and randSel's nested sets then LPBoost-MKL.

They compose the selectors of :mod:`fscompbio.selection` with the predictors of :mod:`fscompbio.prediction`
(the randSel paper, Athanasakis, Shawe-Taylor & Fernandez-Reyes 2013, "Principled Non-Linear Feature
Selection", section 4; thesis 5.5). Both fit their selector on a class-balanced subsample of the training windows
(selection need not see every window) and their final predictor on all of the
training windows they are given (e.g. all positives and r times as many
negatives, with class weights).
"""

from __future__ import annotations

import contextlib
import inspect
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin, clone
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, SVR
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted

from ._compat import HasMethods, Interval, StrOptions, _fit_context, validate_data
from ._validation import check_fit_data
from ._warnings import selected_set_unused
from .prediction import BinaryClassifierMixin, GaussianSVC

__all__ = ["SelectThenSVM", "SelectThenSVR", "RandSelMKL", "balanced_indices", "nested_sizes"]

_MAX_SEED = np.iinfo(np.int32).max


def balanced_indices(y, max_per_class, random_state=None):
    """Sorted indices of a class-balanced subsample (every class cut to ``min(max_per_class, smallest class)``).

    ``max_per_class=None`` keeps as many of each class as the smallest class has.

    Examples
    --------
    >>> balanced_indices([0, 0, 0, 1, 1], None, 0).size
    4
    """
    rng = check_random_state(random_state)
    y = np.asarray(y)
    classes, inv = np.unique(y, return_inverse=True)
    k = int(np.bincount(inv).min())
    if max_per_class is not None:
        if max_per_class < 1:
            raise ValueError(f"max_per_class must be >= 1 or None; got {max_per_class!r}")
        k = min(k, int(max_per_class))
    return np.sort(np.concatenate([rng.choice(np.flatnonzero(inv == c), size=k, replace=False)
                                   for c in range(classes.size)]))


def nested_sizes(n_features, *, min_features=1, ratio=0.75):
    """Decreasing subset sizes ``n, 0.75 n, 0.75^2 n, ...`` down to ``min_features`` (candidates for validation).

    Examples
    --------
    >>> nested_sizes(10, min_features=2).tolist()
    [10, 8, 6, 4, 3, 2]
    """
    sizes = [int(n_features)]
    while sizes[-1] > min_features:
        nxt = max(int(min_features), min(sizes[-1] - 1, int(round(sizes[-1] * ratio))))
        sizes.append(nxt)
    return np.asarray(sizes)


def _seed(rng):
    return int(rng.randint(_MAX_SEED))


def _set_seed(est, seed):
    if "random_state" in est.get_params(deep=False):
        est.set_params(random_state=seed)
    return est


def _fit_maybe_groups(est, X, y, groups):
    if groups is not None and "groups" in inspect.signature(est.fit).parameters:
        return est.fit(X, y, groups=groups)
    return est.fit(X, y)


class _SelectThenPredict(BaseEstimator):
    """What :class:`SelectThenSVM` and :class:`SelectThenSVR` share: the parameters and ``fit``."""

    _parameter_constraints: dict = {
        "selector": [HasMethods(["fit", "get_support"]), None],
        "svm": [HasMethods(["fit", "decision_function"]), None],
        "size": [StrOptions({"support", "validate"})],
        "select_max_per_class": [Interval(Integral, 1, None, closed="left"), None],
        "validation_max_samples": [Interval(Integral, 2, None, closed="left")],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "min_features": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(self, *, selector=None, svm=None, size="support", select_max_per_class=None,
                 validation_max_samples=4000, validation_fraction=0.25, min_features=1, random_state=None):
        self.selector = selector
        self.svm = svm
        self.size = size
        self.select_max_per_class = select_max_per_class
        self.validation_max_samples = validation_max_samples
        self.validation_fraction = validation_fraction
        self.min_features = min_features
        self.random_state = random_state

    def _ranking(self):
        sel = self.selector_
        while not (hasattr(sel, "ranking_") or hasattr(sel, "scores_")) and hasattr(sel, "selector_"):
            sel = sel.selector_  # a model selector (KTASelect, OwnModelSelect): the ranking it chose from
        ranking = getattr(sel, "ranking_", None)
        if ranking is None:
            ranking = np.argsort(np.argsort(-np.asarray(sel.scores_), kind="stable"), kind="stable") + 1
        return np.asarray(ranking)

    def _held_out_groups(self, y, groups, rng):
        """Rows of a random ``validation_fraction`` of the groups (None: no groups, or a split without both classes)."""
        if groups is None or self.size != "validate" or self.selector is None:
            return None
        units = np.unique(groups)
        n_hold = int(round(self.validation_fraction * units.size))
        if n_hold < 1 or n_hold >= units.size:
            return None
        held = np.isin(groups, rng.choice(units, size=n_hold, replace=False))
        if np.unique(y[held]).size < 2 or np.unique(y[~held]).size < 2:
            return None
        return np.flatnonzero(held)

    def _validate(self, X, y, sel_idx, rng, rest=None):
        d = X.shape[1]
        history = getattr(self.selector_, "support_history_", None)
        if history is not None:
            candidates = [np.sort(np.asarray(s, dtype=int)) for s in history if len(s) >= self.min_features]
        else:
            order = np.argsort(self._ranking(), kind="stable")
            candidates = [np.sort(order[:k]) for k in nested_sizes(d, min_features=min(self.min_features, d))]
        if rest is None:
            rest = np.setdiff1d(np.arange(y.size), sel_idx)
        if np.unique(y[rest]).size < 2:  # nothing held out: validate on the selection sample (optimistic)
            rest = sel_idx
        if rest.size > self.validation_max_samples:
            frac = self.validation_max_samples / rest.size
            rest = np.sort(np.concatenate([
                rng.choice(rest[y[rest] == c], size=max(1, int(round(frac * np.sum(y[rest] == c)))), replace=False)
                for c in self.classes_
            ]))
        aucs = []
        for s in candidates:
            m = GaussianSVC().fit(X[np.ix_(sel_idx, s)], y[sel_idx])
            aucs.append(roc_auc_score(y[rest] == self.classes_[1], m.decision_function(X[np.ix_(rest, s)])))
        best = int(np.argmax(aucs))
        self.validation_ = {"sizes": [int(len(s)) for s in candidates], "auc": [float(a) for a in aucs]}
        return candidates[best]

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, groups=None):
        """Fit the selector on a balanced subsample, choose the features, fit the SVM on all windows.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        groups : array-like of shape (n_samples,), default=None
            Passed to the SVM's ``fit`` when it accepts ``groups`` (grouped inner
            CV); with ``size="validate"``, the candidate sets are scored on held-out groups.

        Returns
        -------
        self : SelectThenSVM
        """
        X, y = check_fit_data(self, X, y, dtype="numeric", why_dense="a Gaussian SVM")
        self._fit_target(y)
        rng = check_random_state(self.random_state)
        groups = None if groups is None else np.asarray(groups)
        held = self._held_out_groups(y, groups, rng)
        if held is None:
            sel_idx = self._selection_sample(y, rng)
        else:  # the selection subsample from the groups not held out for validation
            pool = np.setdiff1d(np.arange(y.size), held)
            sel_idx = pool[balanced_indices(y[pool], self.select_max_per_class, rng)]
        seed_sel, seed_svm = _seed(rng), _seed(rng)
        self.selection_index_ = sel_idx
        self.validation_ = None
        if self.selector is None:
            self.selector_ = None
            support = np.arange(X.shape[1])
        else:
            # size="validate" chooses a prefix of the ranking: the selector's own set is not read
            with selected_set_unused() if self.size == "validate" else contextlib.nullcontext():
                self.selector_ = _set_seed(clone(self.selector), seed_sel).fit(X[sel_idx], y[sel_idx])
            if self.size == "validate":
                support = self._validate(X, y, sel_idx, rng, rest=held)
            else:
                support = np.flatnonzero(self.selector_.get_support())
                k = min(int(self.min_features), X.shape[1])
                if support.size < k:
                    support = np.sort(np.argsort(self._ranking(), kind="stable")[:k])
        self.support_ = np.asarray(support, dtype=int)
        self.svm_ = _set_seed(clone(self.svm) if self.svm is not None else self._default_svm(), seed_svm)
        _fit_maybe_groups(self.svm_, X[:, self.support_], y, groups)
        return self

class SelectThenSVM(BinaryClassifierMixin, _SelectThenPredict):
    """A feature selector, then a Gaussian SVM on the selected features.

    Two classes or several: for two the default SVM is :class:`GaussianSVC`
    (the cleavage-site predictor of thesis 5.5); for several it is
    scikit-learn's one-vs-one ``SVC`` (C = 1, ``gamma="scale"``) on
    standardised features, the same kernel, and the selector sees every class
    cut to the same size (a selector with a label kernel, e.g. the HSIC
    selectors and :class:`fscompbio.model_selection.KTASelect`, then uses the
    one-hot kernel of the classes). For a real-valued target see
    :class:`SelectThenSVR`.

    Parameters
    ----------
    selector : estimator, default=None
        A ``SelectorMixin`` with ``get_support()`` (and ``ranking_`` or
        ``scores_`` for ``size="validate"``); ``None`` keeps every feature.
    svm : estimator, default=None
        The final classifier; ``None`` = :class:`GaussianSVC` (C = 1, thesis 4.3)
        for two classes, ``make_pipeline(StandardScaler(), SVC())`` for more.
        When its ``fit`` takes ``groups``, the groups given to :meth:`fit` are passed on.
    size : {"support", "validate"}, default="support"
        How many features the SVM uses. ``"support"``: the selector's own set
        (``get_support()``: stability selection's thresholded set, randSel's
        error-controlled set). ``"validate"``: the nested sets of the ranking
        (``support_history_`` when the selector has it, else the top
        ``n, 0.75 n, 0.75^2 n, ...`` features) are compared by the ROC AUC of a
        Gaussian SVM trained on the selection subsample and scored on training
        windows the selector did not see; the best set is kept. With ``groups``
        (sequences, or homology clusters), a ``validation_fraction`` of the
        groups is held out for this comparison and the selection subsample is
        drawn from the others, so no validation window shares a group with it.
        Two classes only (it compares ROC AUCs).
    select_max_per_class : int or None, default=None
        The selector (and the validation SVMs) see a class-balanced subsample
        with at most this many windows per class; ``None`` = as many of each
        class as the smaller class has.
    validation_max_samples : int, default=4000
        At most this many held-out windows (stratified) score the candidate sets.
    validation_fraction : float, default=0.25
        With ``groups`` and ``size="validate"``: the fraction of the groups held
        out to score the candidate sets.
    min_features : int, default=1
        If the selector keeps fewer features (stability selection can keep
        none), its top ``min_features`` by ``ranking_`` are used instead; also
        the smallest validated set.
    random_state : int, RandomState instance or None, default=None
        Seeds the selection subsample, the selector and the SVM.

    Attributes
    ----------
    selector_, svm_ : the fitted clones
    support_ : ndarray of int
        The features the SVM uses.
    selection_index_ : ndarray of int
        Training rows the selector was fitted on.
    validation_ : dict or None
        ``sizes`` and ``auc`` of the candidate sets (``size="validate"``).
    classes_ : ndarray of shape (n_classes,)
    """
    def _fit_target(self, y):
        """``classes_`` of two or more classes (``size="validate"`` needs two)."""
        if type_of_target(y) != "multiclass":
            return self._fit_classes(y)  # two classes, or scikit-learn's message for anything else
        check_classification_targets(y)
        if self.size == "validate":
            raise ValueError(f"size='validate' compares the ROC AUCs of a binary SVM; y has "
                             f"{np.unique(y).size} classes: use size='support' for several classes")
        self.classes_ = np.unique(y)
        return None

    def _selection_sample(self, y, rng):
        return balanced_indices(y, self.select_max_per_class, rng)

    def _default_svm(self):
        if len(self.classes_) == 2:
            return GaussianSVC()
        return make_pipeline(StandardScaler(), SVC(C=1.0, kernel="rbf", gamma="scale"))

    def decision_function(self, X):
        """The SVM's decision function on the selected features (one column per class for several)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return self.svm_.decision_function(X[:, self.support_])

    def predict(self, X):
        """The class of every sample (the SVM's own prediction for several classes).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        if len(self.classes_) == 2:
            return super().predict(X)
        X = validate_data(self, X, reset=False)
        return self.svm_.predict(X[:, self.support_])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = True
        return tags


class SelectThenSVR(RegressorMixin, _SelectThenPredict):
    """A feature selector, then a Gaussian support vector regression on the selected features.

    :class:`SelectThenSVM` for a real-valued target: the selector (e.g. an
    HSIC selector or :class:`fscompbio.model_selection.KTASelect`, which use a
    Gaussian label kernel on a real target) is fitted on a random subsample
    of at most ``select_max_per_class`` samples (``None``: all of them), then
    the regressor on every sample.

    Parameters
    ----------
    selector : estimator, default=None
        As in :class:`SelectThenSVM`; ``None`` keeps every feature.
    svm : estimator, default=None
        The final regressor; ``None`` = ``make_pipeline(StandardScaler(), SVR())``
        (C = 1, ``gamma="scale"``, epsilon = 0.1).
    size : {"support"}, default="support"
        The selector's own ``get_support()`` (``"validate"`` is for two classes).
    select_max_per_class : int or None, default=None
        At most this many samples for the selector.
    validation_max_samples, validation_fraction
        Unused (kept for the shared parameters).
    min_features : int, default=1
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    selector_, svm_ : the fitted clones
    support_ : ndarray of int
    selection_index_ : ndarray of int
    validation_ : None

    Examples
    --------
    >>> import numpy as np
    >>> from fscompbio.selection import BaHSIC
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 8)); y = np.sin(2 * X[:, 3])
    >>> SelectThenSVR(selector=BaHSIC(n_features_to_select=1)).fit(X, y).support_.tolist()
    [3]
    """

    _parameter_constraints: dict = {
        **_SelectThenPredict._parameter_constraints,
        "svm": [HasMethods(["fit", "predict"]), None],
        "size": [StrOptions({"support"})],
    }

    def _fit_target(self, y):
        return None

    def _selection_sample(self, y, rng):
        if self.select_max_per_class is None or self.select_max_per_class >= y.size:
            return np.arange(y.size)
        return np.sort(rng.choice(y.size, size=int(self.select_max_per_class), replace=False))

    def _default_svm(self):
        return make_pipeline(StandardScaler(), SVR(C=1.0, kernel="rbf", gamma="scale"))

    def predict(self, X):
        """The regressor's prediction on the selected features."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return self.svm_.predict(X[:, self.support_])




class RandSelMKL(BinaryClassifierMixin, BaseEstimator):
    """randSel's nested feature sets feeding LPBoost-MKL (thesis figure 5.1).

    Parameters
    ----------
    selector : estimator, default=None
        A selector exposing ``support_history_`` (nested feature sets, largest
        first), e.g. :class:`fscompbio.selection.RandSel`; ``None`` means
        ``RandSel(balanced=True, n_permutations=0)``.
    mkl : estimator, default=None
        An :class:`fscompbio.prediction.LPBoostMKL`; its ``feature_sets`` is set
        from the selector. ``None`` means the default ``LPBoostMKL()``.
    max_sets : int or None, default=None
        Keep at most this many of the nested sets, evenly spaced from the
        largest to the smallest; ``None`` keeps all.
    select_max_per_class : int or None, default=None
        The selector sees a class-balanced subsample with at most this many
        windows per class (the same draw as :class:`SelectThenSVM` with the same
        ``random_state``, so both see one selection); the MKL sees all windows.
    random_state : int, RandomState instance or None, default=None
        Seeds the subsample, the selector and the MKL.

    Attributes
    ----------
    selector_, mkl_ : the fitted clones
    feature_sets_ : list of ndarray of int
    selection_index_ : ndarray of int
    classes_ : ndarray of shape (2,)
    """

    _parameter_constraints: dict = {
        "selector": [HasMethods(["fit"]), None],
        "mkl": [HasMethods(["fit", "decision_function"]), None],
        "max_sets": [Interval(Integral, 1, None, closed="left"), None],
        "select_max_per_class": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
    }

    def __init__(self, *, selector=None, mkl=None, max_sets=None, select_max_per_class=None, random_state=None):
        self.selector = selector
        self.mkl = mkl
        self.max_sets = max_sets
        self.select_max_per_class = select_max_per_class
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, groups=None):
        """Run the selector, then fit the MKL on its nested feature sets (``groups`` is unused)."""
        from .prediction import LPBoostMKL  # imported when used: it loads cvxpy
        from .selection import RandSel

        X, y = validate_data(self, X, y)
        self._fit_classes(y)
        rng = check_random_state(self.random_state)
        sel_idx = balanced_indices(y, self.select_max_per_class, rng)
        seed_sel, seed_mkl = _seed(rng), _seed(rng)
        self.selection_index_ = sel_idx
        if self.selector is not None:
            sel = clone(self.selector)
        else:
            sel = RandSel(balanced=True, n_permutations=0)  # the nested sets only, not selected_
        with selected_set_unused():  # the nested sets feed the MKL, not the selector's own set
            self.selector_ = _set_seed(sel, seed_sel).fit(X[sel_idx], y[sel_idx])
        sets = [np.asarray(s, dtype=int) for s in self.selector_.support_history_ if len(s) > 0]
        if self.max_sets is not None and len(sets) > self.max_sets:
            keep = np.unique(np.round(np.linspace(0, len(sets) - 1, self.max_sets)).astype(int))
            sets = [sets[i] for i in keep]
        self.feature_sets_ = sets
        mkl = clone(self.mkl) if self.mkl is not None else LPBoostMKL()
        mkl.set_params(feature_sets=sets, random_state=seed_mkl)
        self.mkl_ = mkl.fit(X, y)
        return self

    def decision_function(self, X):
        """The MKL ensemble's score (vote share, ties broken by the mean margin)."""
        check_is_fitted(self)
        return self.mkl_.decision_function(X)

