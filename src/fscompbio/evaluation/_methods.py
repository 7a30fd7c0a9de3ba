"""The method registry: a method name of the workflow -> a selector factory.

One place maps the names used in the config (``chapter3.methods``, and the
chapter-4 methods) to selector classes with their default parameters. The
per-fold workflow script is method-agnostic: it calls :func:`make_selector`.

To add a method, add one entry to ``METHODS``: ``name: MethodSpec(import
path of the class, default keyword arguments, cv_sizes)``. ``cv_sizes`` is
``None`` (nested CV chooses the number of top-ranked features) or
``"support"`` (nested CV keeps the selector's own ``get_support()`` and only
chooses the width: the thesis' random 10% baseline). ``own_model`` marks the
selectors that decide their own number of features (randSel's selected set,
thesis 4.2.4): they also run with the model selection ``"own"``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

__all__ = ["MethodSpec", "METHODS", "make_selector", "method_spec", "model_selections_for", "TASK_METHODS",
           "task_error", "for_real_target"]


@dataclass(frozen=True)
class MethodSpec:
    """How to build one method's selector."""

    path: str  # "module:Class"
    defaults: dict = field(default_factory=dict)
    cv_sizes: str | None = None
    label: str = ""  # the name in figures and tables
    own_model: bool = False  # get_support() is a model of its own (model selection "own")


METHODS = {
    # chapter 3 (linear rankings; figures 3.3-3.8, table 3.2)
    "correlation": MethodSpec("fscompbio.selection:CorrelationSelector", {}, None, "Corr"),
    "stabsel_lasso": MethodSpec("fscompbio.selection:StabilitySelection", {"learner": "lasso"}, None, "SS-Lasso"),
    "stabsel_logreg": MethodSpec("fscompbio.selection:StabilitySelection", {"learner": "logistic"}, None, "SS-LogReg"),
    "stabsel_lpboost": MethodSpec("fscompbio.selection:StabilitySelection", {"learner": "lpboost"}, None, "SS-LPBoost"),
    "linear_rfe": MethodSpec("fscompbio.selection:LinearRFE", {}, None, "Lin-RFE"),
    "random": MethodSpec("fscompbio.selection:RandomSelector", {"n_features_to_select": 0.1}, "support", "Rand"),
    # chapter 4 (non-linear; figures 4.4-4.9): randSel, Gaussian SVM-RFE, FoHSIC, BaHSIC
    # randSel's own defaults where the thesis states none (the width, the pair screen of wide data)
    "randsel": MethodSpec("fscompbio.selection:RandSel", {}, None, "randSel",
                          own_model=True),
    "gaussian_rfe": MethodSpec("fscompbio.selection:KernelRFE", {}, None, "RFE"),
    "fohsic": MethodSpec("fscompbio.selection:FoHSIC", {}, None, "FoHSIC"),
    "bahsic": MethodSpec("fscompbio.selection:BaHSIC", {}, None, "BaHSIC"),
    # regression (Sun, Yao & Goodison 2015, figure figR_2): local learning and its peer HSIC Lasso
    "local_learning": MethodSpec("fscompbio.selection:LocalLearningRegression", {}, None, "Local learning"),
    "hsic_lasso": MethodSpec("fscompbio.selection:HSICLasso", {}, None, "HSIC Lasso"),
}


def method_spec(name):
    """The :class:`MethodSpec` of a registered method name."""
    try:
        return METHODS[name]
    except KeyError:
        raise ValueError(f"unknown method {name!r}; registered: {sorted(METHODS)}") from None


def model_selections_for(name, settings):
    """The model selections of ``settings`` that apply to method ``name``.

    ``"own"`` applies only to methods with ``own_model``; ``"cv"`` and
    ``"kta"`` to every method.
    """
    spec = method_spec(name)
    return [s for s in settings if s != "own" or spec.own_model]


def make_selector(name, params=None, random_state=None):
    """A new selector for method ``name``.

    Parameters
    ----------
    name : str
        A key of ``METHODS``.
    params : dict or None
        Keyword arguments overriding the method's defaults (e.g. from the config).
    random_state : int or None
        Passed as ``random_state`` when the selector has that parameter.

    Returns
    -------
    selector : estimator
    """
    spec = method_spec(name)
    module, cls_name = spec.path.split(":")
    cls = getattr(importlib.import_module(module), cls_name)
    kwargs = {**spec.defaults, **(params or {})}
    est = cls(**kwargs)
    if "random_state" in est.get_params():
        est.set_params(random_state=random_state)
    return est


def for_real_target(estimator):
    """``estimator`` (set in place and returned) with a Gaussian label kernel where it would infer its label
    kernel from the target (``label_kernel="auto"`` of the HSIC selectors and randSel, ``label_kind="auto"`` of
    the KTA model selections, ``task="auto"`` of HSIC Lasso).

    For a target known to be real-valued: scikit-learn's rule, which the inference follows, takes a target of
    whole numbers (a score, a count of days, ``151.0``) for classes, one per value, and the one-hot label kernel
    of hundreds of classes is nearly the identity, so that the narrowest kernel aligns best.
    """
    params = estimator.get_params(deep=False)
    updates = {key: value for key, value in (("label_kernel", "gaussian"), ("label_kind", "gaussian"),
                                             ("task", "regression")) if params.get(key) == "auto"}
    return estimator.set_params(**updates)


#: which labels each stage of the workflow accepts: task -> (the config sections that run it, its methods).
#: Chapters 3 and 4 need two classes; a multi-class label goes to the HSIC selectors with the one-hot label
#: kernel and the one-vs-rest l1-logistic baseline (figure figM_1); a continuous label to the regression
#: selectors (figure figR_2, Sun, Yao & Goodison 2015).
TASK_METHODS = {
    "binary": (("chapter3", "chapter4"), ("correlation", "stabsel_lasso", "stabsel_logreg", "stabsel_lpboost",
                                          "linear_rfe", "random", "randsel", "gaussian_rfe", "fohsic", "bahsic")),
    "multiclass": (("multiclass",), ("randsel", "bahsic", "fohsic", "ovr_l1_logistic")),
    "regression": (("regression",), ("local_learning", "hsic_lasso", "bahsic", "randsel")),
}


def task_error(where, task, stages, detail=""):
    """The one-line error for a data set whose labels a stage cannot use, naming the methods that can.

    Parameters
    ----------
    where : str
        The file (and column) the labels come from.
    task : {"multiclass", "regression"}
        The data set's task.
    stages : sequence of str
        The config sections that list the data set and need two classes (e.g. ``["chapter3"]``).
    detail : str
        What the labels are (e.g. ``"4 classes"``).

    Returns
    -------
    str
    """
    sections, methods = TASK_METHODS[task]
    kind = {"multiclass": "a multi-class label", "regression": "a continuous label"}[task]
    runs = {"multiclass": "the multiclass stage (multiclass.datasets) runs them on a datasets.csv entry",
            "regression": "the workflow runs them on a datasets.csv entry listed under regression.folds.datasets, "
                          "with kernel ridge regression in place of the SVM"}[task]
    listed = " and ".join(f"{s}.datasets" for s in stages)
    return (f"{where}: {kind}{f' ({detail})' if detail else ''}, but {listed} need two classes (binary: "
            f"{', '.join(TASK_METHODS['binary'][1])}); the methods that accept {kind} are "
            f"{', '.join(methods)} ({runs}); or give the CSV two classes")
