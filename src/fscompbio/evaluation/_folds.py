"""The outer folds of chapters 3 and 4, as the workflow and ``fscompbio evaluate`` both run them.

One seed function (:func:`fold_seeds`) and one fold runner (:func:`evaluate_folds`): the workflow's fold
rule and the command line call these two, so a command line run with the workflow's seed, data set name and
settings gives the workflow's selections byte for byte.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

from ..model_selection import KTASelect, NestedCVSelect, OwnModelSelect
from ..seeding import derive_seed
from ._methods import make_selector, method_spec
from ._protocol import absolute_gammas, outer_splits, run_outer_fold, split_timing

__all__ = ["FoldSeeds", "fold_seeds", "evaluate_folds", "CHAPTERS", "CHAPTER_METHODS"]

log = logging.getLogger(__name__)

#: the chapters whose protocol :func:`evaluate_folds` runs (their config sections and seed keys)
CHAPTERS = ("chapter3", "chapter4")

#: the methods of each chapter (linear rankings; non-linear selection), as the config schemas list them
CHAPTER_METHODS = {
    "chapter3": ("correlation", "stabsel_lasso", "stabsel_logreg", "stabsel_lpboost", "linear_rfe", "random"),
    "chapter4": ("randsel", "gaussian_rfe", "fohsic", "bahsic"),
}


class FoldSeeds(NamedTuple):
    """The seeds of one outer fold: the outer split, the selector and the inner (nested CV) folds."""

    outer: int
    selector: int
    inner: int


def fold_seeds(seed, chapter, dataset, method, fold):
    """The seeds of outer fold ``fold`` of ``method`` on ``dataset`` in ``chapter``.

    The outer folds depend on the data set only (keys ``"chapter3", dataset, "outer"``), so every method of
    both chapters is tested on the same folds and the chapters compare; the selector and the inner folds of
    nested cross-validation get a seed per (chapter, data set, method, fold), the same whatever the number
    of folds one job runs.

    Parameters
    ----------
    seed : int
        The master seed (the config's ``seed``; ``--seed`` of the command line).
    chapter : {"chapter3", "chapter4"}
    dataset : str
        The data set's name in the workflow (the ``.npz``'s name, a ``datasets.csv`` key).
    method : str
    fold : int

    Returns
    -------
    FoldSeeds
    """
    if chapter not in CHAPTERS:
        raise ValueError(f"chapter must be one of {list(CHAPTERS)}; got {chapter!r}")
    return FoldSeeds(
        outer=derive_seed(seed, "chapter3", dataset, "outer"),
        selector=derive_seed(seed, chapter, dataset, method, str(int(fold))),
        inner=derive_seed(seed, chapter, dataset, method, str(int(fold)), "inner"),
    )


def evaluate_folds(ds, method, folds, *, seed, chapter, dataset, selector_params=None, model_selection=("kta",),
                   outer_folds=10, widths=None, kta=None, cv=None, svm_C=1.0, standardize=False):
    """Outer folds ``folds`` of the protocol of chapters 3 and 4 (Athanasakis 2014, 2.5.1 and 4.2.4).

    On each fold the selector is fitted once on the training part; every model selection reads that fit
    (:func:`run_outer_fold`) and a Gaussian SVM is tested on the held-out part.

    Parameters
    ----------
    ds : Dataset
        A binary data set (:func:`fscompbio.datasets.load_dataset`).
    method : str
        A method of :data:`METHODS`.
    folds : sequence of int
        The outer folds to run, in ``[0, outer_folds)``.
    seed, chapter, dataset
        The keys of :func:`fold_seeds`.
    selector_params : dict or None
        Keyword arguments of the method's selector.
    model_selection : sequence of str
        Model selections of :data:`MODEL_SELECTIONS`.
    outer_folds : int
    widths : dict or None
        ``n_widths``, ``low``, ``high`` of the relative width grid (default that of :class:`KTASelect`).
    kta : dict or None
        ``max_sizes`` (None: every prefix) and, for ``kta_abs``, ``absolute_grid``.
    cv : dict or None
        ``inner_folds`` and ``sizes`` of nested cross-validation (default 10 folds, the default sizes), and
        ``inner_selectors``: by method, selector arguments of the inner-fold refits only
        (:class:`~fscompbio.model_selection.NestedCVSelect`'s ``inner_params``).
    svm_C : float
    standardize : bool
        Scale the features by the training part's mean and sd (:func:`run_outer_fold`); the thesis does not.
        Always so for a data set standardised when written (``ds.standardized``): that scaling, over all
        samples, cancels in the training part's, so no test sample's values reach a model.

    Returns
    -------
    results : list of dict
        One ``{"fold": k, "results": {model selection: result}}`` per fold; each result is
        :func:`run_outer_fold`'s without its wall-clock fields, naming its features (``selected_names``,
        ``selected_ranks``).
    timings : list of dict
        One ``{"fold": k, "timings": {model selection: timing}}`` per fold (:func:`split_timing`).
    """
    widths = dict(widths or {})
    kta = dict(kta or {})
    cv = dict(cv or {})
    spec = method_spec(method)
    inner_params = (cv.get("inner_selectors") or {}).get(method)
    splits = outer_splits(ds.y, outer_folds, random_state=fold_seeds(seed, chapter, dataset, method, 0).outer)
    kta_sel = KTASelect(**widths, max_sizes=kta.get("max_sizes"))
    absolute = kta.get("absolute_grid")
    kta_abs = KTASelect(gammas=absolute_gammas(**absolute), max_sizes=kta.get("max_sizes")) if absolute else None
    own = OwnModelSelect(**widths)
    relevant = ds.relevant if ds.relevant.size else None  # real data: no ground truth, no precision/recall
    names = [str(n) for n in ds.feature_names]

    def run(fold, train, test):
        seeds = fold_seeds(seed, chapter, dataset, method, fold)
        selector = make_selector(method, selector_params, random_state=seeds.selector)
        nested = NestedCVSelect(**widths, sizes=spec.cv_sizes or cv.get("sizes"), inner_folds=cv.get("inner_folds", 10),
                                C=svm_C, random_state=seeds.inner, inner_params=inner_params)
        log.info("%s: %d x %d, fold %d (%d train / %d test), %r, model selections %s", dataset, *ds.X.shape, fold,
                 train.size, test.size, selector, list(model_selection))
        out = run_outer_fold(ds.X, ds.y, train, test, selector, model_selection=list(model_selection),
                             relevant=relevant, kta=kta_sel, cv=nested, own=own, kta_abs=kta_abs, C=svm_C,
                             feature_names=names, standardize=standardize or ds.standardized)
        for ms, r in out.items():
            log.info("%s: accuracy %.3f with %d features (precision %s, recall %s), sigma %.3g; %.2f s (selection "
                     "%.2f s, model selection %.2f s)", ms, r["accuracy"], r["n_selected"], r["precision"],
                     r["recall"], r["sigma"] if r["sigma"] is not None else float("nan"), r["seconds_total"],
                     r["seconds_selection"], r["seconds_model_selection"])
        return out

    return _run_folds(folds, splits, outer_folds, run)


def _run_folds(folds, splits, outer_folds, run):
    """``run(fold, train, test)`` (a dict of model selection -> one outer fold's result) over ``folds`` of
    ``splits``: one ``{"fold": k, "results": ...}`` and one ``{"fold": k, "timings": ...}`` per fold, each result
    split from its wall-clock fields (:func:`split_timing`)."""
    results, timings = [], []
    for fold in folds:
        if not 0 <= fold < len(splits):
            raise ValueError(f"fold {fold!r} out of range for outer_folds={outer_folds!r}")
        res, tim = {}, {}
        for ms, r in run(fold, *splits[fold]).items():
            res[ms], tim[ms] = split_timing(r)
        results.append({"fold": fold, "results": res})
        timings.append({"fold": fold, "timings": tim})
    return results, timings
