"""The randSel paper's synthetic table, one method on one 100-dimensional set: nested CV (the inner loop
chooses the number of features) repeated over reshuffles of the samples and features; one method per job, or
every method on the data set (paper.tableP_2.group_jobs), each written to its own files."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from threadpoolctl import threadpool_limits  # noqa: E402

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.evaluation import reshuffle_table, reshuffled_nested_cv  # noqa: E402
from fscompbio.io import write_json  # noqa: E402

p = snakemake.params
out_files = snakemake.output
if hasattr(p, "members"):  # a grouped job: its methods in the order of its outputs
    members, results, timings = p.members, list(out_files.result), list(out_files.timing)
else:
    members = [{"method": p.method, "selector": p.selector}]
    results, timings = [out_files.result], [out_files.timing]
name = snakemake.wildcards.p2_dataset
ds = load_dataset(snakemake.input[0])
for member, result_path, timing_path in zip(members, results, timings, strict=True):
    method = member["method"]
    with threadpool_limits(limits=snakemake.threads):
        folds = reshuffled_nested_cv(ds.X, ds.y, ds.relevant, method, n_reshuffles=p.n_reshuffles,
                                     outer_folds=p.outer_folds, inner_folds=p.inner_folds, sizes=p.sizes,
                                     widths=p.widths, C=p.svm_C, params=member["selector"], seed=p.seed)
    out = {"dataset": name, "method": method, "n_features": int(ds.n_features), "relevant": ds.relevant.tolist(),
           "folds": folds}
    row = reshuffle_table([out]).iloc[0]
    logging.info("%s %s: accuracy %.3f +- %.3f, %.1f features, precision %.2f, recall %.2f (%d reshuffles x %d "
                 "folds)", name, method, row["accuracy_mean"], row["accuracy_sd"], row["n_selected_mean"],
                 row["precision_mean"], row["recall_mean"], p.n_reshuffles, p.outer_folds)
    # wall-clock times apart, so that the result reproduces byte for byte
    timing = {"dataset": name, "method": method,
              "folds": [{k: f.pop(k) for k in [k for k in f if k.startswith("seconds")]} for f in folds]}
    write_json(out, result_path)
    write_json(timing, timing_path)
