"""Outer folds of the chapter-3 protocol for one method, or for each method of a group (method_groups), on
one fold or folds_per_job of them. On each fold the selector is fitted once on the training part; every
model selection of the config reads that fit (nested CV, greedy KTA, or the selector's own model) and a
Gaussian SVM is tested on the held-out part (thesis 2.5.1, algorithm 3, 4.2.4). Method-agnostic, and shared
by chapters 3 and 4 and `fscompbio evaluate` (fscompbio.evaluation.evaluate_folds, with the seeds of
fold_seeds). Wall-clock timings go to their own file (output.timing), so the results (output.json) of one
config are byte-identical from run to run, whatever the grouping; each result names its selected features
(selected_names) and gives their ranks (selected_ranks). A data set standardised when written (`standardize:
true`) is scaled again by each training part's mean and sd (evaluate_folds reads its mark)."""

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.evaluation import evaluate_folds, fold_seeds  # noqa: E402
from fscompbio.io import write_json  # noqa: E402

p = snakemake.params
chapter = {"ch3": "chapter3", "ch4": "chapter4"}[snakemake.rule.split("_")[0]]  # ch3_fold, ch4_fold_group1, ...
dataset = snakemake.wildcards.dataset
ds = load_dataset(snakemake.input[0])
grouped = hasattr(p, "methods")  # a rule of method_groups: every per-method param is a dict by method
for method in p.methods if grouped else [p.method]:
    def of(value):
        return value[method] if grouped else value

    # the seeds the rule's params show (and rerun on) are those evaluate_folds derives
    expected = [fold_seeds(snakemake.config["seed"], chapter, dataset, method, f) for f in p.folds]
    if [s.selector for s in expected] != list(of(p.seeds)) or [s.inner for s in expected] != list(of(p.inner_seeds)) \
            or any(s.outer != p.folds_seed for s in expected):
        raise RuntimeError(f"{snakemake.rule}: the rule's seeds of {method} differ from fold_seeds({chapter!r}, ...)")
    results, timings = evaluate_folds(
        ds, method, list(p.folds), seed=snakemake.config["seed"], chapter=chapter, dataset=dataset,
        selector_params=of(p.selector), model_selection=list(of(p.model_selection)), outer_folds=p.outer_folds,
        widths=p.widths, kta=p.kta, cv=p.cv, svm_C=p.svm_C)
    ident = {"dataset": dataset, "method": method}
    write_json({**ident, "folds": results}, snakemake.output[f"json_{method}" if grouped else "json"])
    write_json({**ident, "folds": timings}, snakemake.output[f"timing_{method}" if grouped else "timing"])
