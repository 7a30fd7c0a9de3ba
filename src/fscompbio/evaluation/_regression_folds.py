"""Outer folds for a real-valued target: the protocol of section 2.5.1 with a regressor in place of the SVM.

The thesis tests its selections on two classes; for a real-valued target (a drug response, an expression level)
this module keeps every step of that protocol, the selector fitted on the training part, the model chosen on it
by nested cross-validation, by kernel target alignment (thesis algorithm 3, with a Gaussian kernel on the target
as the label kernel) or by the selector's own set, and replaces the Gaussian SVM by Gaussian kernel ridge
regression at the chosen width (:class:`fscompbio.prediction.GaussianKernelRidge`, its ridge chosen by
leave-one-out error on the training part; unlike a support vector regression's epsilon, nothing in it depends on
the target's units). The outer folds are plain shuffled k-fold (there are no classes to stratify). This protocol
is ours: the thesis and the papers it draws on state none for regression.
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.base import clone
from sklearn.metrics import r2_score
from sklearn.model_selection import KFold

from ..model_selection import KTASelect, NestedCVRegressionSelect, OwnModelSelect
from ..prediction import GaussianKernelRidge
from ..seeding import derive_seed
from ._folds import FoldSeeds, _run_folds
from ._methods import for_real_target, make_selector
from ._protocol import ABSOLUTE_GAMMAS, _choose_model, _fit_selector, _fold_inputs, _fold_result

__all__ = ["REGRESSION_MODEL_SELECTIONS", "evaluate_regression_folds", "regression_fold", "regression_seeds",
           "regression_splits"]

#: the model selections of a real-valued target: nested cross-validation of kernel ridge regression, alignment
#: with a Gaussian label kernel (relative or absolute width grid), the selector's own set
REGRESSION_MODEL_SELECTIONS = ("cv", "kta", "kta_abs", "own")


def regression_splits(n_samples, n_folds=10, random_state=None):
    """Shuffled k-fold outer folds of ``n_samples``: a list of ``(train, test)`` index arrays."""
    cv = KFold(n_splits=int(n_folds), shuffle=True, random_state=random_state)
    return [(tr, te) for tr, te in cv.split(np.zeros((int(n_samples), 1)))]


def regression_seeds(seed, dataset, method, fold):
    """The seeds of outer fold ``fold`` of ``method`` on ``dataset`` with a real-valued target: the outer folds
    depend on the data set only, the selector's seed on (data set, method, fold); as
    :func:`fscompbio.evaluation.fold_seeds` for two classes."""
    return FoldSeeds(
        outer=derive_seed(seed, "regression", dataset, "outer"),
        selector=derive_seed(seed, "regression", dataset, method, str(int(fold))),
        inner=derive_seed(seed, "regression", dataset, method, str(int(fold)), "inner"),
    )


def regression_fold(X, y, train, test, selector, *, model_selection="cv", relevant=None, cv=None, kta=None,
                    own=None, kta_abs=None, alphas=None, feature_names=None, standardize=False):
    """One outer fold for a real-valued target: fit the selector, choose the model, test kernel ridge regression.

    Parameters
    ----------
    X : ndarray of shape (m, n)
    y : ndarray of shape (m,), float
    train, test : ndarray of int
    selector : estimator with ``fit(X, y)`` for a real ``y`` and ``ranking_`` (1 = best)
        Cloned, then fitted on the training part only. Its label kernel, and the model selections', is the
        Gaussian one where it would be inferred from the target (:func:`fscompbio.evaluation.for_real_target`):
        a target of whole numbers is real-valued here.
    model_selection : {"cv", "kta", "kta_abs", "own"} or sequence of them, default="cv"
        Nested cross-validation of kernel ridge regression over the numbers of top-ranked features and the
        widths (:class:`fscompbio.model_selection.NestedCVRegressionSelect`), or as in
        :func:`fscompbio.evaluation.run_outer_fold` with the alignment to a Gaussian kernel on the target (median
        width, :func:`fscompbio.kernels.label_kernel`). Nested CV is the default: on Sun, Yao & Goodison's
        regression sets and scikit-learn's diabetes set its choices predicted better than the alignment's in most
        (set, method) pairs, at a few tens of times its cost (``bench/bench_regression_folds.py``).
    relevant : array-like of int or None
        Known relevant features: gives precision and recall.
    cv : NestedCVRegressionSelect or None
        Nested CV (default ``NestedCVRegressionSelect(random_state=0)``: 10 inner folds).
    kta, own, kta_abs : KTASelect, OwnModelSelect, KTASelect or None
        The model selectors (defaults as in :func:`fscompbio.evaluation.run_outer_fold`).
    alphas : array-like of float or None
        The ridges of :class:`fscompbio.prediction.GaussianKernelRidge` (None: its default).
    feature_names : sequence of str or None
        Names of the features: the result then gives ``selected_names`` and ``selected_ranks``.
    standardize : bool, default=False
        Scale the features by the training part's mean and sd, as in
        :func:`fscompbio.evaluation.run_outer_fold`.

    Returns
    -------
    dict, or dict of model selection -> dict for a sequence
        ``r2`` (coefficient of determination on the test part), ``rmse``, ``mean_rmse`` (of predicting the
        training part's mean: the fold's chance level), ``alpha`` (the ridge), ``selected``, ``n_selected``,
        ``precision``, ``recall``, ``gamma``, ``sigma``, ``score`` (the alignment, or nested CV's mean squared
        validation error negated), the timings of
        :data:`fscompbio.evaluation.TIMING_KEYS`, ``n_train``, ``n_test``, ``n_features``, ``model_selection``.
    """
    X, y, train, test, settings = _fold_inputs(X, y, train, test, model_selection, feature_names, standardize,
                                               allowed=REGRESSION_MODEL_SELECTIONS)
    y = y.astype(float)
    Xtr, ytr = X[train], y[train]
    # the target is real-valued even where its values are whole numbers: a Gaussian label kernel throughout
    selector = for_real_target(clone(selector))
    kta = for_real_target(clone(kta if kta is not None else KTASelect()))
    own = for_real_target(clone(own if own is not None else OwnModelSelect()))
    kta_abs = for_real_target(clone(kta_abs if kta_abs is not None else KTASelect(gammas=ABSOLUTE_GAMMAS)))
    cv = cv if cv is not None else NestedCVRegressionSelect(random_state=0)
    fitted, t_sel, position = _fit_selector(selector, Xtr, ytr, feature_names)
    mean_pred = np.full(test.size, ytr.mean())

    out = {}
    for ms in settings:
        res = _choose_model(ms, Xtr, ytr, selector, fitted, kta=kta, kta_abs=kta_abs, own=own, cv=cv)
        t0 = time.perf_counter()
        feats = np.sort(res.features)
        alpha = None
        if feats.size:
            model = GaussianKernelRidge(gamma=res.gamma, **({} if alphas is None else {"alphas": alphas}))
            model.fit(Xtr[:, feats], ytr)
            pred, alpha = model.predict(X[test][:, feats]), model.alpha_
        else:  # the empty model (an own set that kept nothing): the training part's mean
            pred = mean_pred
        t_fit = time.perf_counter() - t0
        metrics = {"r2": float(r2_score(y[test], pred)), "rmse": float(np.sqrt(np.mean((y[test] - pred) ** 2))),
                   "mean_rmse": float(np.sqrt(np.mean((y[test] - mean_pred) ** 2))), "alpha": alpha}
        out[ms] = _fold_result(ms, metrics, res, feats, relevant=relevant, seconds=(t_sel, res.seconds, t_fit),
                               n_train=train.size, n_test=test.size, n_features=X.shape[1], position=position,
                               feature_names=feature_names)
    return out[model_selection] if isinstance(model_selection, str) else out


def evaluate_regression_folds(ds, method, folds, *, seed, dataset, selector_params=None, model_selection=("cv",),
                              outer_folds=10, widths=None, kta=None, cv=None, standardize=False):
    """Outer folds ``folds`` of :func:`regression_fold` for one method on a data set with a real-valued label,
    with the seeds of :func:`regression_seeds`: the workflow's regression folds and ``fscompbio evaluate``'s.

    Parameters
    ----------
    ds : Dataset
        A data set with a real-valued label.
    method : str
        A method of :data:`fscompbio.evaluation.METHODS` that takes a real-valued label.
    folds : sequence of int
        The outer folds to run, in ``[0, outer_folds)``.
    seed, dataset
        The keys of :func:`regression_seeds`.
    selector_params : dict or None
        Keyword arguments of the method's selector.
    model_selection : sequence of str
        Model selections of :data:`REGRESSION_MODEL_SELECTIONS`, each reading the same selector fit.
    outer_folds : int
    widths : dict or None
        ``n_widths``, ``low``, ``high`` of the relative width grid.
    kta : dict or None
        ``max_sizes`` of the alignment's prefix sizes (None: every prefix).
    cv : dict or None
        ``inner_folds`` (default 10) and ``sizes`` of nested cross-validation.
    standardize : bool
        Scale the features by the training part's mean and sd; always so for a data set standardised when
        written (``ds.standardized``), as :func:`fscompbio.evaluation.evaluate_folds`.

    Returns
    -------
    results, timings : list of dict
        One ``{"fold": k, "results": {model selection: result}}`` (each naming its features) and one
        ``{"fold": k, "timings": {...}}`` per fold, as :func:`fscompbio.evaluation.evaluate_folds`.
    """
    widths, kta, cv = dict(widths or {}), dict(kta or {}), dict(cv or {})
    splits = regression_splits(ds.n_samples, outer_folds, random_state=regression_seeds(seed, dataset, method, 0).outer)
    names = [str(n) for n in ds.feature_names]

    def run(fold, train, test):
        seeds = regression_seeds(seed, dataset, method, fold)
        return regression_fold(
            ds.X, ds.y, train, test, make_selector(method, selector_params, random_state=seeds.selector),
            model_selection=list(model_selection), relevant=ds.relevant if ds.relevant.size else None,
            cv=NestedCVRegressionSelect(**widths, sizes=cv.get("sizes"), inner_folds=cv.get("inner_folds", 10),
                                        random_state=seeds.inner),
            kta=KTASelect(**widths, max_sizes=kta.get("max_sizes")), own=OwnModelSelect(**widths),
            feature_names=names, standardize=standardize or ds.standardized)

    return _run_folds(folds, splits, outer_folds, run)
