"""Figure figM_1, one outer fold: an HSIC selector with the one-hot label kernel (KTA model selection,
Gaussian SVM) or the one-vs-rest l1-logistic baseline, on a multi-class data set; one fold per job, or every
fold of the data set (multiclass.group_jobs), each written to its own files."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from threadpoolctl import threadpool_limits  # noqa: E402

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.evaluation import multiclass_fold, outer_splits  # noqa: E402
from fscompbio.io import write_json  # noqa: E402

p = snakemake.params
out_files = snakemake.output
if hasattr(p, "members"):  # a grouped job: its folds in the order of its outputs
    members, results, timings = p.members, list(out_files.result), list(out_files.timing)
else:
    members = [{"method": p.method, "model_selection": p.model_selection, "fold": p.fold, "params": p.params,
                "seed": p.seed, "inner_seed": p.inner_seed}]
    results, timings = [out_files.result], [out_files.timing]
ds = load_dataset(snakemake.input[0])
if ds.task != "multiclass":
    raise ValueError(f"{snakemake.input[0]}: figure figM_1 needs a multi-class data set; got task {ds.task!r}")
folds = outer_splits(ds.y, p.outer_folds, random_state=p.folds_seed)
for member, result_path, timing_path in zip(members, results, timings, strict=True):
    fold = member["fold"]
    if not 0 <= fold < len(folds):
        raise ValueError(f"fold {fold!r} out of range for outer_folds={p.outer_folds!r}")
    train, test = folds[fold]
    with threadpool_limits(limits=snakemake.threads):
        out = multiclass_fold(ds.X, ds.y, train, test, member["method"], model_selection=member["model_selection"],
                              params=member["params"], widths=p.widths, kta=p.kta, cv=p.cv, C=p.svm_C,
                              random_state=member["seed"], inner_seed=member["inner_seed"],
                              standardize=ds.standardized)
    out.update(dataset=snakemake.wildcards.dataset, fold=fold, n_classes=int(len(set(ds.y.tolist()))))
    logging.info("%s %s (%s) fold %d: accuracy %.3f with %d of %d features; %.1f s", out["dataset"],
                 member["method"], member["model_selection"], fold, out["accuracy"], out["n_selected"],
                 out["n_features"], out["seconds_total"])
    # wall-clock times apart, so that the result reproduces byte for byte
    timing = {k: out[k] for k in ("dataset", "method", "model_selection", "fold")}
    timing.update({k: out.pop(k) for k in [k for k in out if k.startswith("seconds")]})
    write_json(out, result_path)
    write_json(timing, timing_path)
