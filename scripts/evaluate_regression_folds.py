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
from fscompbio.evaluation import (make_selector, regression_fold, regression_seeds, regression_splits,  # noqa: E402
                                  split_timing)
from fscompbio.io import write_json  # noqa: E402
from fscompbio.model_selection import KTASelect, NestedCVRegressionSelect, OwnModelSelect  # noqa: E402

p = snakemake.params
dataset = snakemake.wildcards.dataset
ds = load_dataset(snakemake.input[0])
seed = snakemake.config["seed"]
if ds.task != "regression":
    raise ValueError(f"{snakemake.input[0]}: regression.folds.datasets lists {dataset!r}, whose label is {ds.task}, "
                     "not real-valued; list it under chapter3.datasets / chapter4.datasets (two classes) or "
                     "multiclass.datasets (several) instead")
seeds = [regression_seeds(seed, dataset, p.method, k) for k in range(p.outer_folds)]
if [s.selector for s in seeds] != list(p.seeds) or [s.inner for s in seeds] != list(p.inner_seeds) \
        or any(s.outer != p.folds_seed for s in seeds):
    raise RuntimeError(f"{snakemake.rule}: the rule's seeds of {p.method} differ from regression_seeds")
names = [str(n) for n in ds.feature_names]
relevant = ds.relevant if ds.relevant.size else None
splits = regression_splits(ds.n_samples, p.outer_folds, random_state=p.folds_seed)
results, timings = [], []
for k, (train, test) in enumerate(splits):
    selector = make_selector(p.method, p.selector, random_state=seeds[k].selector)
    out = regression_fold(ds.X, ds.y, train, test, selector, model_selection=list(p.model_selection),
                          relevant=relevant, kta=KTASelect(**p.widths, max_sizes=p.kta["max_sizes"]),
                          own=OwnModelSelect(**p.widths), feature_names=names,
                          cv=NestedCVRegressionSelect(**p.widths, sizes=p.cv["sizes"], inner_folds=p.cv["inner_folds"],
                                                      random_state=seeds[k].inner))
    res, tim = {}, {}
    for ms, r in out.items():
        logging.info("%s fold %d %s: R^2 %.3f, RMSE %.4g (the training mean's %.4g) with %d features", dataset, k, ms,
                     r["r2"], r["rmse"], r["mean_rmse"], r["n_selected"])
        res[ms], tim[ms] = split_timing(r)
    results.append({"fold": k, "results": res})
    timings.append({"fold": k, "timings": tim})
ident = {"dataset": dataset, "method": p.method}
write_json({**ident, "folds": results}, snakemake.output.json)
write_json({**ident, "folds": timings}, snakemake.output.timing)
