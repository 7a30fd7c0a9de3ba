"""The ``fscompbio`` command: run the study's methods on your own data without Snakemake.

Subcommands (``fscompbio SUBCOMMAND --help`` shows each one's options and an example):

``list``
    the registered methods and synthetic data sets;
``make-dataset``
    write a synthetic data set of the study (``.npz``);
``select``
    rank the features of a CSV matrix (``sample_id``, ``label``, features; two
    classes, several, or a real-valued label) and choose a subset and Gaussian
    width by kernel target alignment, or by randSel's own test;
``evaluate``
    the evaluation protocol of chapters 3 and 4 (outer stratified folds,
    selection and model selection on each training part, a Gaussian SVM on
    each test part) for one method on one data set, printing the fold table
    (for several classes, the workflow's multi-class folds; for a real-valued
    label, Gaussian kernel ridge regression in place of the SVM);
``encode``
    cut signal peptides (FASTA + TSV of cleavage sites) into windows around
    each candidate site and encode them by the 54 amino-acid scales;
``predict-cleavage``
    predict the signal-peptide cleavage site of every protein of a FASTA file
    (``.gz`` or standard input too) with the default model (the approach of
    table P1 chosen by homology-aware cross-validation, trained from the
    shipped sequences on first use and cached) or a model the workflow trained
    (``results/chapter5/model/cleavage_model.pkl``): one TSV row per sequence,
    GFF3, or the mature sequences as FASTA.

``fscompbio --version`` prints the installed package's version.

Exit codes: 0 success, 1 bad input (the message names the file, the record or
column and the problem), 2 bad command line. Outputs given by ``--output`` are
written atomically: a file appears whole or not at all; an output into a
folder that does not exist, or cannot be written, fails before any work.

To add a subcommand, write ``_args_NAME(parser)`` and ``_run_NAME(args)`` and
add one :class:`Subcommand` to :data:`SUBCOMMANDS`.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

__all__ = ["main", "SUBCOMMANDS", "Subcommand"]

log = logging.getLogger("fscompbio")


class UsageError(Exception):
    """A bad command line found after parsing (exit code 2)."""


# --------------------------------------------------------------------------
# helpers shared by the subcommands
# --------------------------------------------------------------------------
def _int_at_least(low):
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer; got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be >= {low}; got {value}")
        return value

    parse.__name__ = f"int >= {low}"
    return parse


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number; got {text!r}") from None
    if not np.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a finite number > 0; got {text}")
    return value


def _progress(iterable, **kwargs):
    """A tqdm progress bar on stderr when it is a terminal; the bare iterable otherwise."""
    if not sys.stderr.isatty():
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, file=sys.stderr, leave=False, dynamic_ncols=True, **kwargs)


@contextmanager
def _about(path):
    """Prefix the file name to a ValueError raised inside the block when it does not name it yet."""
    try:
        yield
    except ValueError as exc:
        if str(path) in str(exc):
            raise
        raise ValueError(f"{path}: {exc}") from exc


def _key_value(text):
    """``KEY=VALUE`` with VALUE read as YAML (3, 0.5, true, null, [0.7, 0.9], text)."""
    import yaml

    key, sep, value = text.partition("=")
    if not sep or not key.strip().isidentifier():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE; got {text!r}")
    try:
        return key.strip(), yaml.safe_load(value)
    except yaml.YAMLError:
        raise argparse.ArgumentTypeError(f"cannot read the value of {text!r}") from None


def _check_method(args):
    """Refuse an unknown --method, or a --param the method does not have or does not allow, before any work."""
    from sklearn.utils._param_validation import InvalidParameterError

    from .evaluation import METHODS, make_selector

    if args.method not in METHODS:
        raise UsageError(f"argument --method: unknown method {args.method!r}; choose from {', '.join(METHODS)}")
    params = dict(args.param)
    if "random_state" in params:
        raise UsageError("argument --param: give the seed with --seed, not random_state")
    selector = make_selector(args.method)
    unknown = sorted(set(params) - set(selector.get_params()))
    if unknown:
        raise UsageError(f"argument --param: {args.method} has no parameter {unknown[0]!r}; its parameters are "
                         f"{', '.join(sorted(selector.get_params()))}")
    try:
        selector.set_params(**params)._validate_params()
    except InvalidParameterError as exc:
        raise UsageError(f"argument --param: {_one_line(exc)}") from None
    return params


def _check_own_model(args):
    """Refuse ``--model-selection own`` for a method without a test of its own. Silence the test's warning that
    it kept nothing where its set is not used, and in ``evaluate``, which counts the empty folds once."""
    from .evaluation import METHODS, method_spec
    from .selection import EmptySelectionWarning

    if args.model_selection != "own" or args.command == "evaluate":
        warnings.filterwarnings("ignore", category=EmptySelectionWarning)
    if args.model_selection != "own":
        return
    if not method_spec(args.method).own_model:
        own = ", ".join(m for m in METHODS if method_spec(m).own_model)
        raise UsageError(f"argument --model-selection: {args.method} only ranks the features; own needs a method "
                         f"that chooses them itself ({own})")


def _check_output(path):
    """Fail on an unwritable --output, or one into a folder that does not exist, before any work (nothing is
    created)."""
    if path is not None and str(path) != "-":
        import errno

        from .io import check_writable

        folder = Path(path).parent
        if not folder.exists():
            raise FileNotFoundError(errno.ENOENT, f"folder {folder} does not exist; create it first "
                                                  f"(mkdir -p {folder})", str(path))
        check_writable(path)


def _package_version():
    """The one version string (:data:`fscompbio.__version__`, from the installed package's metadata)."""
    from . import __version__

    return __version__


def _load(args, min_class_size, tasks):
    """The data set of ``args.data`` (CSV or .npz), refused unless its task (two classes, several classes, a
    real-valued label: inferred from the labels) is one of ``tasks`` and each class has enough samples."""
    from .datasets import load_csv_dataset, load_dataset, scale_disparity
    from .evaluation import METHODS, TASK_METHODS

    path = Path(args.data)
    if path.suffix == ".npz":
        ds = load_dataset(path)
        if args.task is not None and args.task != ds.task:
            raise UsageError(f"argument --task: {path} was written with task {ds.task!r}; --task is for a CSV")
    else:
        try:
            ds = load_csv_dataset(path, label_column=args.label_column, id_column=args.id_column,
                                  positive_label=args.positive_label, task=args.task,
                                  min_class_size=min_class_size)
        except ValueError as exc:  # the reader's hint names its argument; here it is an option
            raise ValueError(str(exc).replace("use task='regression'", "add --task regression")) from None
    if ds.task != "binary":
        kind = "several classes" if ds.task == "multiclass" else "a real-valued label"
        methods = ", ".join(m for m in TASK_METHODS[ds.task][1] if m in METHODS)
        if ds.task not in tasks:
            count = f"{np.unique(ds.y).size} classes" if ds.task == "multiclass" else kind
            raise ValueError(f"{path}: {count}; `fscompbio {args.command}` needs classes (its Gaussian SVM "
                             f"classifies); `fscompbio select` ranks and chooses features for {count} with {methods}")
        if args.positive_label is not None:
            raise UsageError(f"argument --positive-label: {path} has {kind}, not two classes")
        if args.method not in TASK_METHODS[ds.task][1]:
            raise UsageError(f"argument --method: {args.method} needs two classes; {path} has {kind}, for which the "
                             f"methods are {methods}")
    if ds.task != "regression":
        counts = dict(zip(*np.unique(ds.y, return_counts=True)))
        small = [c for c, n in counts.items() if n < min_class_size]
        if small:  # a CSV's classes are checked, by their labels, as it is read
            label = f"{int(small[0]):+d}" if ds.task == "binary" else f"{int(small[0])}"
            raise ValueError(f"{path}: class {label} has only {counts[small[0]]} samples; each class needs at least "
                             f"{min_class_size}")
    spread = np.ptp(ds.X, axis=0)
    constant = np.flatnonzero(spread == 0)
    if constant.size == ds.n_features:
        raise ValueError(f"{path}: every feature is constant ({ds.n_features} of {ds.n_features}); nothing to select")
    if constant.size:
        names = [str(ds.feature_names[j]) for j in constant[:5]]
        log.warning("%s: %d constant feature(s) %s%s: they carry no information about the labels", path,
                    constant.size, names, " ..." if constant.size > 5 else "")
    disparity = None if args.standardize else scale_disparity(ds)
    if disparity:
        log.warning("%s: %s; --standardize scales every feature", path, disparity)
    return ds


def _add_data_arguments(p):
    from .datasets import SCALE_WARNING

    p.add_argument("data", help="CSV (sample_id, label, one column per feature; .gz allowed) or an .npz of "
                                "`fscompbio make-dataset`")
    p.add_argument("--label-column", default="label", help="the label column of the CSV (default: label)")
    p.add_argument("--id-column", default="sample_id", help="a sample-id column to drop (default: sample_id)")
    p.add_argument("--positive-label", default=None,
                   help="the label mapped to +1 (default: the larger of the two labels, sorted)")
    p.add_argument("--task", choices=["binary", "multiclass", "regression"], default=None,
                   help="what the label is (default: inferred: two values are two classes, text or whole numbers "
                        "with more values several classes, other numbers a real-valued label); e.g. --task "
                        "regression for a score written as whole numbers")
    p.add_argument("--standardize", action="store_true",
                   help="scale every feature to zero mean and unit variance (evaluate: by each training part's "
                        "mean and sd) before the selector, KTA and the SVM, as the thesis does not; for features "
                        f"of different scales (the command warns when their sds differ over {SCALE_WARNING:,} "
                        "times)")


def _write_json_output(result, output):
    """The result as strict JSON (a missing number, e.g. the width of an empty selection, is ``null``)."""
    import json

    from .io import to_jsonable, write_json

    def strict(obj):
        if isinstance(obj, dict):
            return {k: strict(v) for k, v in obj.items()}
        if isinstance(obj, list):
            return [strict(v) for v in obj]
        return None if isinstance(obj, float) and not np.isfinite(obj) else obj

    result = strict(to_jsonable(result))
    if output == "-":
        json.dump(result, sys.stdout, indent=1, sort_keys=True, allow_nan=False)
        sys.stdout.write("\n")
    else:
        write_json(result, output)
        log.info("wrote %s", output)


# --------------------------------------------------------------------------
# list
# --------------------------------------------------------------------------
def _args_list(p):
    pass


def _run_list(args):
    from .datasets import DATASETS
    from .evaluation import METHODS, TASK_METHODS

    print("methods (fscompbio select|evaluate --method NAME; in brackets the labels each takes: two classes, "
          "several, a real-valued one):")
    for name, spec in METHODS.items():
        tasks = ", ".join(t for t, (_, methods) in TASK_METHODS.items() if name in methods)
        print(f"  {name:20s} {spec.path.split(':')[1]} {spec.defaults or ''}{f' [{tasks}]' if tasks else ''}")
    print("synthetic data sets (fscompbio make-dataset NAME):")
    for name, spec in DATASETS.items():
        print(f"  {name:28s} {spec.n_samples} x {spec.n_features}, {spec.n_relevant} relevant, {spec.description}")
    return 0


# --------------------------------------------------------------------------
# make-dataset
# --------------------------------------------------------------------------
def _args_make_dataset(p):
    p.add_argument("name", help="a synthetic data set of `fscompbio list`")
    p.add_argument("--seed", type=_int_at_least(0), default=0)
    p.add_argument("--n-samples", type=_int_at_least(1), default=None, help="default: the study's size")
    p.add_argument("--n-features", type=_int_at_least(1), default=None, help="default: the study's size")
    p.add_argument("--output", required=True, help=".npz file, written atomically")


def _run_make_dataset(args):
    from .datasets import DATASETS, make_dataset, save_dataset

    if args.name not in DATASETS:
        raise UsageError(f"argument name: unknown data set {args.name!r}; choose from {', '.join(DATASETS)}")
    _check_output(args.output)
    ds = make_dataset(args.name, random_state=args.seed, n_samples=args.n_samples, n_features=args.n_features)
    save_dataset(ds, args.output)
    log.info("wrote %s: %s x %s", args.output, *ds.X.shape)
    return 0


# --------------------------------------------------------------------------
# select
# --------------------------------------------------------------------------
def _args_select(p):
    _add_data_arguments(p)
    p.add_argument("--method", required=True, help="a method of `fscompbio list`")
    p.add_argument("--param", type=_key_value, action="append", default=[], metavar="KEY=VALUE",
                   help="a parameter of the method's selector, e.g. --param n_subsets=3000 (repeatable)")
    p.add_argument("--seed", type=_int_at_least(0), default=0)
    p.add_argument("--model-selection", choices=["kta", "own", "none"], default="kta",
                   help="kta: choose the subset and width by kernel target alignment (thesis algorithm 3); own: "
                        "the features the method's own test keeps (randsel: its selected set), the width by "
                        "alignment; none: only rank")
    p.add_argument("--n-features", type=_int_at_least(1), default=None,
                   help="select exactly this many top-ranked features instead (the width by kernel target "
                        "alignment)")
    p.add_argument("--top", type=_int_at_least(1), default=20, help="how many top-ranked feature names to list")
    p.add_argument("--output", default="-", help="JSON file, written atomically (default: stdout)")


def _run_select(args):
    from .datasets import standardized
    from .evaluation import for_real_target, make_selector
    from .kernels import gamma_to_sigma
    from .model_selection import KTASelect, OwnModelSelect

    params = _check_method(args)
    _check_own_model(args)
    _check_output(args.output)
    ds = _load(args, min_class_size=2, tasks=("binary", "multiclass", "regression"))
    if args.standardize:
        ds = standardized(ds)
    if args.n_features is not None and args.n_features > ds.n_features:
        raise ValueError(f"{args.data}: --n-features {args.n_features} is larger than the {ds.n_features} "
                         "features of the data")
    selector = make_selector(args.method, params, random_state=args.seed)
    kta, own = KTASelect(), OwnModelSelect()
    if ds.task == "regression":  # real-valued even where its values are whole numbers
        selector, kta, own = for_real_target(selector), for_real_target(kta), for_real_target(own)
    with _about(args.data):
        t0 = time.perf_counter()
        selector.fit(ds.X, ds.y)
        seconds = time.perf_counter() - t0
        ranking = np.asarray(selector.ranking_)
        order = np.argsort(ranking, kind="stable")
        names = [str(n) for n in ds.feature_names]
        result = {
            "data": str(args.data),
            "method": args.method,
            "params": params,
            "seed": args.seed,
            "task": ds.task,
            "standardized": ds.standardized,
            "n_samples": ds.n_samples,
            "n_features": ds.n_features,
            "feature_names": names,
            "ranking": ranking,
            "scores": np.asarray(selector.scores_, dtype=float),
            "ranked_features": [names[j] for j in order],
            "top_features": [names[j] for j in order[: args.top]],
            "seconds_selection": seconds,
            "model_selection": "top" if args.n_features is not None else args.model_selection,
        }
        if hasattr(selector, "pvalues_"):  # a selector with a test of its own (randSel): each feature's p-value
            result["pvalues"] = np.asarray(selector.pvalues_, dtype=float)
        t0 = time.perf_counter()
        if args.n_features is not None:  # the top k; the width of maximal alignment on them
            top = order[: args.n_features]
            sizes, gammas, scores = kta.alignment_table(ds.X[:, top], ds.y, np.arange(1, top.size + 1))
            j = int(np.argmax(scores[-1]))
            chosen = {"features": top, "gamma": float(gammas[-1, j]), "alignment": float(scores[-1, j])}
        elif args.model_selection in ("kta", "own"):
            if args.model_selection == "kta":
                res = kta.select(ds.X, ds.y, ranking=ranking)
            else:
                res = own.select(ds.X, ds.y, selector)
            features = res.features[np.argsort(ranking[res.features], kind="stable")]  # best-ranked first
            chosen = {"features": features, "gamma": res.gamma, "alignment": res.score}
        else:
            chosen = None
        if chosen is not None:
            result.update(
                selected=[names[j] for j in chosen["features"]],
                selected_indices=chosen["features"],
                gamma=chosen["gamma"],
                sigma=float(gamma_to_sigma(chosen["gamma"])),
                alignment=chosen["alignment"],
                seconds_model_selection=time.perf_counter() - t0,
            )
    _write_json_output(result, args.output)
    return 0


# --------------------------------------------------------------------------
# evaluate
# --------------------------------------------------------------------------
def _args_evaluate(p):
    _add_data_arguments(p)
    p.add_argument("--method", required=True, help="a method of `fscompbio list`")
    p.add_argument("--param", type=_key_value, action="append", default=[], metavar="KEY=VALUE",
                   help="a parameter of the method's selector, e.g. --param n_subsets=3000 (repeatable)")
    p.add_argument("--model-selection", choices=["kta", "cv", "own"], default=None,
                   help="kta: subset and width by kernel target alignment (thesis algorithm 3); cv: nested "
                        "cross-validation of the SVM (of kernel ridge regression for a real-valued label); own: the "
                        "features the method's own test keeps (randsel: its selected set, thesis 4.2.4), the width "
                        "by alignment (default: kta; cv for a real-valued label, where its choices predict better)")
    p.add_argument("--folds", type=_int_at_least(2), default=10,
                   help="outer folds, stratified by class (thesis 10; a real-valued label: shuffled k-fold)")
    p.add_argument("--fold", type=_int_at_least(0), action="append", default=None, metavar="K",
                   help="run only outer fold K (0-based; repeatable; default: every fold)")
    p.add_argument("--inner-folds", type=_int_at_least(2), default=10,
                   help="inner folds of --model-selection cv (thesis 10)")
    p.add_argument("--sizes", type=_int_list, default=None, metavar="K,K,...",
                   help="candidate numbers of top-ranked features of --model-selection cv (default: the "
                        "selector's own grid up to the number of features)")
    p.add_argument("--kta-max-sizes", type=_int_at_least(1), default=None, metavar="K",
                   help="KTA tries at most K prefix sizes of the ranking (a geometric grid; default: every prefix)")
    p.add_argument("--n-widths", type=_int_at_least(1), default=7,
                   help="Gaussian widths tried: sigma = median distance x 10^t, t in linspace(--width-low, "
                        "--width-high, N) (default 7)")
    p.add_argument("--width-low", type=float, default=-1.0, help="the lowest t of the width grid (default -1)")
    p.add_argument("--width-high", type=float, default=1.0, help="the highest t of the width grid (default 1)")
    p.add_argument("--C", type=_positive_float, default=1.0, help="the Gaussian SVM's C (thesis 1)")
    p.add_argument("--seed", type=_int_at_least(0), default=0,
                   help="master seed of the folds and of each fold's selector (the workflow's config: seed)")
    p.add_argument("--chapter", choices=["chapter3", "chapter4"], default=None,
                   help="the workflow chapter whose seeds the folds take (default: the method's, chapter3 for "
                        "the linear methods, chapter4 for randsel, gaussian_rfe, fohsic, bahsic; several classes "
                        "take the multi-class stage's seeds)")
    p.add_argument("--name", default=None,
                   help="the data set's name in the seeds (default: the .npz's name, or the CSV's file name "
                        "without suffixes); with the workflow's seed, name and settings, a fold's selection is "
                        "the workflow's")
    p.add_argument("--output", default=None, help="also write the folds and the summary as JSON (atomically)")


def _int_list(text):
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected integers separated by commas; got {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected positive integers separated by commas; got {text!r}")
    return values


def _fold_table(folds, names, summary):
    metric = "r2" if "r2_mean" in summary else "accuracy"  # a real-valued label: R^2 of kernel ridge regression
    head = f"{'fold':>4} {'train':>6} {'test':>5} {metric:>8} {'n_sel':>5} {'sigma':>9} {'seconds':>8}  selected"
    lines = [head]
    for f in folds:
        shown = [names[j] for j in f["selected"][:6]]
        more = f" (+{len(f['selected']) - 6})" if len(f["selected"]) > 6 else ""
        lines.append(f"{f['fold']:>4} {f['n_train']:>6} {f['n_test']:>5} {f[metric]:>8.3f} {f['n_selected']:>5} "
                     f"{format(f['sigma'], '.3g') if f['sigma'] is not None else '-':>9} {f['seconds_total']:>8.2f}  "
                     f"{', '.join(shown)}{more}")
    known = (f"; precision {summary['precision_mean']:.2f}, recall {summary['recall_mean']:.2f} of the known "
             "relevant features" if summary.get("precision_mean") is not None else "")
    if metric == "r2":
        score = (f"mean R^2 {summary['r2_mean']:.3f} (sd {summary['r2_sd']:.3f}) and RMSE {summary['rmse_mean']:.3g} "
                 f"(predicting the training mean: {summary['mean_rmse_mean']:.3g})")
    else:
        score = f"mean accuracy {summary['accuracy_mean']:.3f} (sd {summary['accuracy_sd']:.3f})"
    lines.append(f"{score} over {summary['n_folds']} folds; {summary['n_selected_mean']:.1f} features selected on "
                 f"average{known}; selection log-likelihood {summary['log_likelihood']:.3g} (lower = more "
                 "consistent)")
    return "\n".join(lines)


def _run_evaluate(args):
    from .evaluation import (CHAPTER_METHODS, aggregate_folds, evaluate_folds, evaluate_regression_folds, fold_seeds,
                             multiclass_fold, multiclass_seeds, outer_splits)

    params = _check_method(args)
    _check_own_model(args)
    _check_output(args.output)
    ds = _load(args, min_class_size=args.folds, tasks=("binary", "multiclass", "regression"))
    if ds.task == "multiclass" and args.model_selection == "own":
        raise UsageError(f"argument --model-selection: own is for two classes; {args.data} has several (kta or cv)")
    if args.model_selection is None:
        args.model_selection = "cv" if ds.task == "regression" else "kta"
    if ds.task == "regression" and args.folds > ds.n_samples:
        raise ValueError(f"{args.data}: --folds {args.folds} is more than its {ds.n_samples} samples")
    standardize = args.standardize or ds.standardized  # as the workflow's folds read a data set scaled when written
    if ds.standardized and not args.standardize:
        log.info("%s was standardised when written: each training part is scaled again by its own mean and sd",
                 args.data)
    names = [str(n) for n in ds.feature_names]
    name = args.name or ds.name
    if ds.task == "multiclass":  # the seeds of the workflow's multiclass stage (figure figM_1)
        chapter = "multiclass"
        seeds = multiclass_seeds(args.seed, name, args.method, 0)
    elif ds.task == "regression":  # the workflow's regression folds (evaluation.evaluate_regression_folds)
        chapter = "regression"
    else:
        chapter = args.chapter or next((c for c, ms in CHAPTER_METHODS.items() if args.method in ms), "chapter3")
        seeds = fold_seeds(args.seed, chapter, name, args.method, 0)
    folds_run = sorted(set(args.fold)) if args.fold else list(range(args.folds))
    if folds_run[-1] >= args.folds:
        raise UsageError(f"argument --fold: fold {folds_run[-1]} out of range for --folds {args.folds} (0 to "
                         f"{args.folds - 1})")
    if ds.task != "regression":
        splits = outer_splits(ds.y, args.folds, random_state=seeds.outer)
    if args.model_selection == "cv" and ds.task != "regression":
        smallest = min(int(np.min(np.unique(ds.y[splits[k][0]], return_counts=True)[1])) for k in folds_run)
        if smallest < args.inner_folds:
            raise ValueError(f"{args.data}: a training part has only {smallest} samples of one class, fewer than "
                             f"--inner-folds {args.inner_folds}; use fewer inner folds")
    # the workflow's fold runners and seeds (fscompbio.evaluation.evaluate_folds, fold_seeds; multiclass_fold)
    settings = {"model_selection": [args.model_selection], "outer_folds": args.folds, "svm_C": args.C,
                "widths": {"n_widths": args.n_widths, "low": args.width_low, "high": args.width_high},
                "kta": {"max_sizes": args.kta_max_sizes}, "cv": {"inner_folds": args.inner_folds, "sizes": args.sizes},
                "standardize": standardize}
    folds = []
    with _about(args.data):
        for k in _progress(folds_run, desc=f"{args.method} folds", unit="fold"):
            if ds.task == "multiclass":
                train, test = splits[k]
                fold_seed = multiclass_seeds(args.seed, name, args.method, k)
                out = multiclass_fold(ds.X, ds.y, train, test, args.method, model_selection=args.model_selection,
                                      params=params, widths=settings["widths"], kta=settings["kta"],
                                      cv=settings["cv"], C=args.C, random_state=fold_seed.selector,
                                      inner_seed=fold_seed.inner, standardize=standardize)
                out.update(fold=k, selected_features=[names[j] for j in out["selected"]])
            else:  # the workflow's folds of two classes (chapters 3 and 4) or of a real-valued label
                if ds.task == "regression":
                    res, tim = evaluate_regression_folds(
                        ds, args.method, [k], seed=args.seed, dataset=name, selector_params=params,
                        **{key: settings[key] for key in ("model_selection", "outer_folds", "widths", "kta", "cv",
                                                          "standardize")})
                else:
                    res, tim = evaluate_folds(ds, args.method, [k], seed=args.seed, chapter=chapter, dataset=name,
                                              selector_params=params, **settings)
                out = {**res[0]["results"][args.model_selection], **tim[0]["timings"][args.model_selection]}
                out.update(fold=k, selected_features=out["selected_names"])
            folds.append(out)
            metric = "r2" if ds.task == "regression" else "accuracy"
            log.info("fold %d: %s %.3f with %d features", k, metric, out[metric], out["n_selected"])
        summary = aggregate_folds(folds, ds.n_features)
    empty = [f["fold"] for f in folds if f["n_selected"] == 0]
    if empty:  # only the selector's own test can keep nothing
        log.warning("%s: %s's test kept no feature in %d of %d folds (%s), which predict the training part's "
                    "%s; to keep more, --param alpha=A (larger) or --param n_features_to_select=K", args.data,
                    args.method, len(empty), len(folds), ", ".join(map(str, empty)),
                    "mean" if ds.task == "regression" else "majority class")
    print(_fold_table(folds, names, summary))
    if args.output is not None:
        _write_json_output({"data": str(args.data), "method": args.method, "params": params,
                            "model_selection": args.model_selection, "seed": args.seed, "chapter": chapter,
                            "name": name, "settings": settings, "folds": folds, "summary": summary,
                            "task": ds.task, "n_samples": ds.n_samples, "n_features": ds.n_features, "C": args.C},
                           args.output)
    return 0


# --------------------------------------------------------------------------
# encode
# --------------------------------------------------------------------------
def _args_encode(p):
    p.add_argument("fasta", help="protein sequences; headers '>ACCESSION' or UniProt '>sp|ACCESSION|NAME'")
    p.add_argument("tsv", help="tab-separated, with columns Accession and Cleavage_Site (1-based last residue of "
                               "the signal peptide)")
    p.add_argument("--output", required=True,
                   help=".npz with X (windows x residues*scales, float32), y (1 at the cleavage site), groups "
                        "(sequence of each window), target, accessions, feature_names; written atomically")
    p.add_argument("--windows", default=None, help="also write the windows as CSV (accession, target, window, label)")
    p.add_argument("--prefix", type=_int_at_least(1), default=50, help="residues used from each sequence (thesis 50)")
    p.add_argument("--before", type=_int_at_least(0), default=9, help="residues before the target (thesis 9)")
    p.add_argument("--after", type=_int_at_least(0), default=2, help="residues after the target (thesis 2)")
    p.add_argument("--scales", default=None, help="amino-acid scale table (CSV; default: the 54 scales shipped)")
    p.add_argument("--nonstandard", choices=["drop", "error"], default="drop",
                   help="sequences with residues outside the 20 standard ones: drop them (counted) or stop")


def _run_encode(args):
    import pandas as pd

    from .io import atomic_path
    from .sequences import cleavage_windows, encode_windows, encoding_feature_names, load_aa_scales, \
        read_signal_peptides

    width = args.before + 1 + args.after
    if width > args.prefix:
        raise UsageError(f"--before + 1 + --after = {width} exceeds --prefix {args.prefix}")
    _check_output(args.output)
    _check_output(args.windows)
    scales = load_aa_scales(args.scales)
    records = read_signal_peptides(args.fasta, args.tsv, nonstandard=args.nonstandard)
    windows = cleavage_windows(records, prefix=args.prefix, before=args.before, after=args.after)
    counts = {"nonstandard": records.attrs["counts"]["n_nonstandard_dropped"], **windows.attrs["counts"]}
    reasons = {
        "nonstandard": "with non-standard residues",
        "n_short_dropped": f"shorter than --prefix {args.prefix}",
        "n_no_positive_window_dropped": f"whose cleavage site is outside the window targets "
                                        f"{args.before + 1}..{args.prefix - args.after}",
        "n_ambiguous_duplicate_dropped": "duplicate prefixes with conflicting sites",
        "n_duplicate_dropped": "duplicate prefixes",
    }
    dropped = ", ".join(f"{counts[k]} {why}" for k, why in reasons.items() if counts[k])
    n_read = records.attrs["counts"]["n_read"]
    if len(windows) == 0:
        raise ValueError(f"{args.fasta}: no windows: every one of the {n_read} sequences was dropped ({dropped})")
    if dropped:
        log.warning("%s: dropped %s of %d sequences: %s", args.fasta, n_read - counts["n_kept"], n_read, dropped)
    X = encode_windows(windows, scales).astype(np.float32)
    codes, uniques = pd.factorize(windows["accession"])
    arrays = dict(
        X=X,
        y=windows["label"].to_numpy(np.int64),
        groups=codes.astype(np.int64),
        target=windows["target"].to_numpy(np.int64),
        accessions=np.asarray(uniques, dtype=str),
        feature_names=np.asarray(encoding_feature_names(scales, before=args.before, after=args.after), dtype=str),
        prefix=np.int64(args.prefix),  # the window geometry travels with the windows
        before=np.int64(args.before),
        after=np.int64(args.after),
    )
    # both files appear, or neither: each is renamed into place only after both are written
    with atomic_path(args.output, suffix=".npz") as tmp_npz:
        np.savez_compressed(tmp_npz, **arrays)
        if args.windows is not None:
            with atomic_path(args.windows) as tmp_csv:
                windows.to_csv(tmp_csv, index=False)
    print(f"{args.output}: {X.shape[0]} windows of {len(uniques)} sequences x {X.shape[1]} features "
          f"({width} residues x {len(scales)} scales)")
    return 0


# --------------------------------------------------------------------------
# predict-cleavage
# --------------------------------------------------------------------------
def _args_predict_cleavage(p):
    p.add_argument("fasta", help="protein sequences (gzip allowed; '-' reads standard input); headers '>ACCESSION' "
                                 "or UniProt '>sp|ACCESSION|NAME'")
    p.add_argument("--model", default=None,
                   help="a model file: an .npz (arrays + JSON, read without running code) or the workflow's "
                        "results/chapter5/model/cleavage_model.pkl (a pickle: use only files you made or trust). "
                        "Default: the default model, the approach and protocol of table P1 of best homology-aware "
                        "cross-validated accuracy, trained from the repository's data/signal_peptides on first use "
                        "(about 25 s) and cached as .npz")
    p.add_argument("--cache-dir", default=None,
                   help="folder of the cached default model (default: $FSCOMPBIO_CACHE_DIR, else "
                        "$XDG_CACHE_HOME/fscompbio, else ~/.cache/fscompbio)")
    p.add_argument("--alternatives", type=_int_at_least(0), default=3, help="next-best sites reported per sequence")
    p.add_argument("--format", choices=["tsv", "gff3", "fasta"], default="tsv",
                   help="tsv: one row per accession with a status column, under a '#' header with the model's "
                        "cross-validated accuracy; gff3: a signal_peptide feature per predicted site (skipped "
                        "records as comments); fasta: the mature sequences, signal peptide removed (skipped "
                        "records left out)")
    p.add_argument("--strict", action="store_true",
                   help="stop at the first record that cannot be scored (default: report it in the status column)")
    p.add_argument("--chunk-size", type=_int_at_least(1), default=500,
                   help="distinct sequences scored together (memory grows with it, not with the file)")
    p.add_argument("--output", default="-", help="output file, written atomically (default: standard output)")


#: where each output format reports the records it could not score
_SKIPPED_WHERE = {"tsv": "see the status column", "gff3": "see the '# ACCESSION: skipped ...' comment lines",
                  "fasta": "left out of the FASTA; --format tsv gives each one's reason"}


def _skip_kind(status):
    for word, kind in (("nucleotide", "nucleotide sequence"), ("empty", "empty"),
                       ("shorter", "shorter than one window"), ("residue", "non-standard residue")):
        if word in status:
            return kind
    return status


def _run_predict_cleavage(args):
    from .cleavage import PREDICTION_SCOPE, CleavageSiteModel, load_default_model, write_predictions
    from .sequences import iter_fasta

    _check_output(args.output)
    name = "standard input" if args.fasta == "-" else args.fasta
    if args.fasta != "-" and not Path(args.fasta).is_file():  # before the default model's training
        raise FileNotFoundError(f"{args.fasta}: no such file" if not Path(args.fasta).exists()
                                else f"{args.fasta}: not a file")
    if args.model is None:
        model, path, trained = load_default_model(args.cache_dir)
        source = f"default model ({'trained now and cached' if trained else 'cached'} in {path})"
    else:
        model, source = CleavageSiteModel.load(args.model), f"model {Path(args.model).name}"
    counts, skipped = {}, {}

    def rows():  # streamed into the output; an error stops it before the file appears
        n = 0
        for n, row in enumerate(model.iter_predictions(iter_fasta(args.fasta), n_alternatives=args.alternatives,
                                                       strict=args.strict, chunk_size=args.chunk_size,
                                                       counts=counts, with_sequence=args.format == "fasta"),
                                start=1):
            if row["status"] != "ok":
                kind = _skip_kind(row["status"])
                skipped[kind] = skipped.get(kind, 0) + 1
            yield row
        if n == 0:
            raise ValueError("no FASTA records found")

    header = [f"fscompbio predict-cleavage {_package_version()}: {source}: {model.describe()}"]
    if model.site_accuracy_line():
        header.append(model.site_accuracy_line())
    header.append(f"the model {PREDICTION_SCOPE}")
    try:
        write_predictions(rows(), args.output, fmt=args.format, header=header)
    except ValueError as exc:
        raise ValueError(exc if str(exc).startswith(str(name)) else f"{name}: {exc}") from None
    if counts["skipped"]:
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(skipped.items()))
        log.warning("%s: %d record(s) could not be scored (%s; %s)", name, counts["skipped"], kinds,
                    _SKIPPED_WHERE[args.format])
    if counts["duplicate"]:
        log.warning("%s: %d repeated record(s) (same accession and sequence) reported once", name,
                    counts["duplicate"])
    log.info("predicted %d sequences with the %s (%s)", counts["ok"], source, model.metadata.get("approach"))
    return 0


# --------------------------------------------------------------------------
# the registry of subcommands
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class Subcommand:
    """One subcommand: its name, one-line help, an example, its arguments and what it runs."""

    name: str
    help: str
    example: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


SUBCOMMANDS = [
    Subcommand("list", "list the methods and synthetic data sets", "fscompbio list", _args_list, _run_list),
    Subcommand("make-dataset", "write a synthetic data set of the study (.npz)",
               "fscompbio make-dataset xor --seed 0 --output xor.npz", _args_make_dataset, _run_make_dataset),
    Subcommand("select", "rank the features of a CSV or .npz data set and choose a subset by kernel target alignment",
               "fscompbio select data.csv --method randsel --param n_subsets=3000 --output selection.json",
               _args_select, _run_select),
    Subcommand("evaluate", "cross-validate one method on one data set (the protocol of chapters 3 and 4)",
               "fscompbio evaluate data.csv --method randsel --folds 10 --output folds.json",
               _args_evaluate, _run_evaluate),
    Subcommand("encode", "cut signal peptides into cleavage-site windows and encode them by amino-acid scales",
               "fscompbio encode proteins.fasta sites.tsv --output encoded.npz --windows windows.csv",
               _args_encode, _run_encode),
    Subcommand("predict-cleavage", "predict where the signal peptide of each protein of a FASTA file is cut, given that "
               "it has one (it does not detect signal peptides), with the default or a trained model (TSV, GFF3, "
               "or the mature sequences as FASTA)",
               "fscompbio predict-cleavage proteins.fasta --output sites.tsv", _args_predict_cleavage,
               _run_predict_cleavage),
]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (no usage dump), so every error is one line."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def _parser():
    epilog = "examples:\n" + "\n".join(f"  {c.example}" for c in SUBCOMMANDS)
    p = _Parser(prog="fscompbio", description=__doc__.split("\n\n")[0], epilog=epilog,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-v", "--verbose", action="store_true", help="log progress to stderr")
    p.add_argument("--version", action="version", version=f"fscompbio {_package_version()}",
                   help="print the installed version and exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND", parser_class=_Parser)
    for c in SUBCOMMANDS:
        s = sub.add_parser(c.name, help=c.help, description=c.help[0].upper() + c.help[1:] + ".",
                           epilog=f"example:\n  {c.example}", formatter_class=argparse.RawDescriptionHelpFormatter)
        c.add_arguments(s)
        s.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="log progress to stderr")
        s.set_defaults(run=c.run)
    return p


class _OneLine(logging.Formatter):
    def format(self, record):
        return f"fscompbio: {record.levelname.lower()}: {_one_line(record.getMessage())}"


def _log_to_stderr(level):
    """Messages of the package's loggers ('fscompbio', 'fscompbio.sequences', ...) to the current stderr."""
    for handler in [h for h in log.handlers if getattr(h, "_fscompbio_cli", False)]:
        log.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    handler._fscompbio_cli = True
    log.addHandler(handler)
    log.setLevel(level)


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """A Python warning on the console as ``fscompbio: warning: ...``; the fit's advice in the command's words."""
    from .selection import EmptySelectionWarning

    text = _one_line(message)
    if issubclass(category, EmptySelectionWarning):
        text += " On the command line: --param n_features_to_select=K or --param alpha=A."
    log.warning("%s", text)


def _one_line(text):
    return " ".join(line.strip() for line in str(text).strip().splitlines() if line.strip())


def main(argv=None):
    """Run the command line; return the exit code (0 ok, 1 bad input, 2 bad command line)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2), already printed by argparse
        return exc.code if isinstance(exc.code, int) else 2
    _log_to_stderr(logging.INFO if args.verbose else logging.WARNING)
    try:
        with warnings.catch_warnings():  # the libraries' warnings as one console line each, not file:line
            warnings.showwarning = _show_warning
            return args.run(args)
    except UsageError as exc:
        print(f"fscompbio {args.command}: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:  # missing input, unwritable output
        where = f"{exc.filename}: " if exc.filename and str(exc.filename) not in (exc.strerror or "") else ""
        print(f"fscompbio: error: {where}{_one_line(exc.strerror or exc)}", file=sys.stderr)
        return 1
    except ValueError as exc:  # bad input: one clear line, no traceback
        print(f"fscompbio: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("fscompbio: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
