"""Every outer fold of one method on one data set with a real-valued label: the selector fitted once per
training part, each model selection of the config reading that fit (nested CV refits it on its inner folds),
Gaussian kernel ridge regression tested on
the held-out part (fscompbio.evaluation.regression_fold, with the seeds of regression_seeds, as `fscompbio
evaluate` runs them). Wall-clock timings go to their own file, so the results are byte-identical from run to run;
each result names its selected features (selected_names) and gives their ranks (selected_ranks)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.evaluation import evaluate_regression_folds, regression_seeds  # noqa: E402
from fscompbio.io import write_json  # noqa: E402

p = snakemake.params
dataset = snakemake.wildcards.dataset
ds = load_dataset(snakemake.input[0])
seed = snakemake.config["seed"]
if ds.task != "regression":
    raise ValueError(f"{snakemake.input[0]}: regression.folds.datasets lists {dataset!r}, whose label is {ds.task}, "
                     "not real-valued; list it under chapter3.datasets / chapter4.datasets (two classes) or "
                     "multiclass.datasets (several) instead")
# the seeds the rule's params show (and rerun on) are those evaluate_regression_folds derives
seeds = [regression_seeds(seed, dataset, p.method, k) for k in range(p.outer_folds)]
if [s.selector for s in seeds] != list(p.seeds) or [s.inner for s in seeds] != list(p.inner_seeds) \
        or any(s.outer != p.folds_seed for s in seeds):
    raise RuntimeError(f"{snakemake.rule}: the rule's seeds of {p.method} differ from regression_seeds")
results, timings = evaluate_regression_folds(
    ds, p.method, range(p.outer_folds), seed=seed, dataset=dataset, selector_params=p.selector,
    model_selection=p.model_selection, outer_folds=p.outer_folds, widths=p.widths, kta=p.kta, cv=p.cv)
for fold in results:
    for ms, r in fold["results"].items():
        logging.info("%s fold %d %s: R^2 %.3f, RMSE %.4g (the training mean's %.4g) with %d features", dataset,
                     fold["fold"], ms, r["r2"], r["rmse"], r["mean_rmse"], r["n_selected"])
ident = {"dataset": dataset, "method": p.method}
write_json({**ident, "folds": results}, snakemake.output.json)
write_json({**ident, "folds": timings}, snakemake.output.timing)
