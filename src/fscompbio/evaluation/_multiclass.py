"""Multi-class selection: HSIC selectors with the one-hot label kernel against a one-vs-rest linear baseline.

The HSIC variants (randSel, FoHSIC, BaHSIC) take any label kernel; for ``K``
classes the one-hot kernel ``L_ij = [y_i = y_j]`` is the linear kernel on the
one-hot label vectors (thesis section 4.2 names multi-class structure as a
property of the HSIC variants). Their outer folds run the chapter-3/4 protocol
(:func:`fscompbio.evaluation.run_outer_fold`) with the alignment of the
one-hot kernel for the KTA model selection; the baseline is a sparse linear
one-vs-rest classifier whose selected features are the union over the classes.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegressionCV
from sklearn.model_selection import StratifiedKFold
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from .._compat import StrOptions
from ..model_selection import KTASelect, NestedCVSelect
from ..seeding import derive_seed
from ._folds import FoldSeeds
from ._metrics import accuracy

__all__ = ["BASELINE", "OneHotKTASelect", "multiclass_fold", "multiclass_seeds", "multiclass_table",
           "ovr_l1_logistic_fold"]


class OneHotKTASelect(KTASelect):
    """:class:`fscompbio.model_selection.KTASelect` that also accepts ``label_kind="onehot"``.

    Greedy KTA model selection (thesis algorithm 3) with the alignment to the
    one-hot label kernel ``L_ij = [y_i = y_j]`` of a multi-class target.
    """

    _parameter_constraints: dict = {
        **KTASelect._parameter_constraints,
        "label_kind": [StrOptions({"linear", "balanced", "onehot"})],
    }

    def __init__(self, selector=None, *, n_widths=7, low=-1.0, high=1.0, gammas=None, max_sizes=None,
                 label_kind="onehot"):
        super().__init__(selector, n_widths=n_widths, low=low, high=high, gammas=gammas, max_sizes=max_sizes,
                         label_kind=label_kind)


def ovr_l1_logistic_fold(X, y, train, test, *, Cs=(0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0), inner_folds=5, random_state=None):
    """One outer fold of the one-vs-rest linear baseline.

    On the training part: standardise the features, then one l1-regularised
    logistic regression per class against the rest, each with its own ``C``
    chosen by stratified inner cross-validation on the training part only
    (``LogisticRegressionCV``, liblinear). The selected features are the union
    of the non-zero coefficients of the classes; the prediction is the class of
    the largest one-vs-rest score.

    Parameters
    ----------
    X : ndarray of shape (m, n)
    y : ndarray of shape (m,)
    train, test : ndarray of int
    Cs : array-like, default=(0.01, 0.03, 0.1, 0.3, 1, 3, 10)
        The ``C`` grid of ``LogisticRegressionCV``, chosen per class by the
        inner log-loss (accuracy ties too often on small folds, and its ties go
        to the smallest ``C``, an empty model).
    inner_folds : int, default=5
    random_state : int or None
        Shuffling of the inner folds.

    Returns
    -------
    dict
        ``accuracy``, ``selected`` (sorted indices), ``n_selected``,
        ``C`` (per class), ``seconds_total``, ``n_train``, ``n_test``,
        ``n_features``, ``model_selection`` (``"cv"``).
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    train = np.asarray(train, dtype=int)
    test = np.asarray(test, dtype=int)
    t0 = time.perf_counter()
    ytr = y[train]
    n_inner = int(min(inner_folds, np.bincount(np.unique(ytr, return_inverse=True)[1]).min()))
    if n_inner < 2:
        raise ValueError(f"every class needs at least 2 training samples for the inner CV; got counts "
                         f"{np.unique(ytr, return_counts=True)[1].tolist()}")
    cv = StratifiedKFold(n_splits=n_inner, shuffle=True, random_state=random_state)
    lr = LogisticRegressionCV(Cs=Cs, cv=cv, l1_ratios=(1.0,), solver="liblinear", scoring="neg_log_loss",
                              max_iter=1000, use_legacy_attributes=False,
                              random_state=random_state)  # liblinear shuffles: seeded, same bytes every run
    model = make_pipeline(StandardScaler(), OneVsRestClassifier(lr)).fit(X[train], ytr)
    ovr = model[-1]
    coef = np.vstack([est.coef_.ravel() for est in ovr.estimators_])
    selected = np.flatnonzero(np.any(coef != 0, axis=0))
    acc = accuracy(y[test], model.predict(X[test]))
    return {
        "model_selection": "cv",
        "accuracy": acc,
        "selected": selected.tolist(),
        "n_selected": int(selected.size),
        "C": [float(np.ravel(est.C_)[0]) for est in ovr.estimators_],
        "seconds_total": time.perf_counter() - t0,
        "n_train": int(train.size),
        "n_test": int(test.size),
        "n_features": int(X.shape[1]),
    }


#: the baseline's method name in the workflow (the HSIC selectors use the METHODS registry)
BASELINE = "ovr_l1_logistic"


def multiclass_seeds(seed, dataset, method, fold):
    """The seeds of outer fold ``fold`` of ``method`` on ``dataset`` in the multi-class stage (figure figM_1).

    As :func:`fscompbio.evaluation.fold_seeds` for chapters 3 and 4, with the key ``"multiclass"``: the outer
    folds depend on the data set only (every method is tested on the same folds); the selector (or the
    baseline's inner folds) gets a seed per (data set, method, fold).

    Returns
    -------
    FoldSeeds
    """
    return FoldSeeds(
        outer=derive_seed(seed, "multiclass", dataset, "outer"),
        selector=derive_seed(seed, "multiclass", dataset, method, str(int(fold))),
        inner=derive_seed(seed, "multiclass", dataset, method, str(int(fold)), "inner"),
    )


def multiclass_fold(X, y, train, test, method, *, model_selection="kta", params=None, widths=None, kta=None,
                    cv=None, C=1.0, random_state=None, inner_seed=None, standardize=False):
    """One outer fold of figure figM_1 for ``method``.

    Parameters
    ----------
    X, y, train, test
        As in :func:`fscompbio.evaluation.run_outer_fold`.
    method : str
        ``"ovr_l1_logistic"`` (the baseline, :func:`ovr_l1_logistic_fold`) or a
        selector of :data:`fscompbio.evaluation.METHODS` (``randsel``,
        ``bahsic``, ``fohsic``), fitted with the one-hot label kernel and
        followed by model selection and a Gaussian SVM.
    model_selection : {"kta", "cv"}, default="kta"
        For the selectors: greedy KTA with the one-hot label kernel
        (:class:`OneHotKTASelect`), or nested CV (the selector refitted on every
        inner fold, :class:`fscompbio.model_selection.NestedCVSelect`). The
        baseline always chooses its ``C`` by its own inner CV.
    params : dict or None
        The selector's keyword arguments (or the baseline's: ``Cs``, ``inner_folds``).
    widths : dict or None
        ``n_widths``, ``low``, ``high`` of the KTA width grid.
    kta : dict or None
        Other :class:`OneHotKTASelect` arguments (``max_sizes``).
    cv : dict or None
        Other :class:`fscompbio.model_selection.NestedCVSelect` arguments
        (``inner_folds``, ``sizes``).
    C : float
        The Gaussian SVM's C (thesis: 1).
    random_state, inner_seed : int or None
        The selector's seed; the baseline's inner folds.
    standardize : bool, default=False
        For the selectors: the features scaled by the training part's mean and sd
        (:func:`fscompbio.evaluation.run_outer_fold`); the baseline always standardises.

    Returns
    -------
    dict
        The fields of :func:`fscompbio.evaluation.run_outer_fold` (or of the
        baseline), plus ``method``.
    """
    from ._methods import make_selector
    from ._protocol import run_outer_fold

    params = dict(params or {})
    if method == BASELINE:
        out = ovr_l1_logistic_fold(X, y, train, test, random_state=inner_seed, **params)
    else:
        selector = make_selector(method, params, random_state=random_state)
        if "label_kernel" in selector.get_params():
            selector.set_params(label_kernel="onehot")
        if model_selection == "kta":
            out = run_outer_fold(X, y, train, test, selector, model_selection="kta", C=C, standardize=standardize,
                                 kta=OneHotKTASelect(**(widths or {}), **(kta or {})))
        else:
            nested = NestedCVSelect(**(widths or {}), **(cv or {}), C=C, random_state=inner_seed)
            out = run_outer_fold(X, y, train, test, selector, model_selection="cv", cv=nested, C=C,
                                 standardize=standardize)
    out["method"] = method
    return out


def multiclass_table(folds):
    """Mean and sd over the outer folds per (dataset, method, model selection).

    Parameters
    ----------
    folds : iterable of dict
        Outputs of :func:`multiclass_fold` with ``dataset`` and ``fold`` added.

    Returns
    -------
    pandas.DataFrame
        ``dataset, method, model_selection, n_folds, accuracy_mean, accuracy_sd, n_selected_mean,
        n_selected_sd, n_features``, and ``seconds_mean`` when the folds carry their wall-clock
        ``seconds_total`` (the workflow keeps it apart, in ``*.timing.json``).
    """
    df = pd.DataFrame(list(folds))
    rows = []
    for (dataset, method, msel), g in df.groupby(["dataset", "method", "model_selection"], sort=False):
        rows.append({
            "dataset": dataset,
            "method": method,
            "model_selection": msel,
            "n_folds": int(len(g)),
            "accuracy_mean": float(g["accuracy"].mean()),
            "accuracy_sd": float(g["accuracy"].std(ddof=1)) if len(g) > 1 else 0.0,
            "n_selected_mean": float(g["n_selected"].mean()),
            "n_selected_sd": float(g["n_selected"].std(ddof=1)) if len(g) > 1 else 0.0,
            "n_features": int(g["n_features"].iloc[0]),
            **({"seconds_mean": float(g["seconds_total"].mean())} if "seconds_total" in g else {}),
        })
    return pd.DataFrame(rows)
