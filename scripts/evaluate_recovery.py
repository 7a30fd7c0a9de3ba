"""Sun, Yao & Goodison (2015) figure 2: a method's recovery of the relevant features of one regression set at
one sample size, over repeated draws (the same draws for every method); one point per job, or every point of
the data set (regression.figR_2.group_jobs), each written to its own files."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from threadpoolctl import threadpool_limits  # noqa: E402

from fscompbio.evaluation import recovery_trials  # noqa: E402
from fscompbio.io import write_json  # noqa: E402

p = snakemake.params
out_files = snakemake.output
if hasattr(p, "members"):  # a grouped job: its points in the order of its outputs
    points, results, timings = p.members, list(out_files.result), list(out_files.timing)
else:
    points = [{"method": p.method, "n_samples": p.n_samples, "selector": p.selector}]
    results, timings = [out_files.result], [out_files.timing]
for point, result_path, timing_path in zip(points, results, timings, strict=True):
    with threadpool_limits(limits=snakemake.threads):
        out = recovery_trials(p.dataset, point["n_samples"], point["method"], n_repeats=p.n_repeats,
                              params=point["selector"], seed=p.seed, n_irrelevant=p.n_irrelevant)
    logging.info("%s, %s, n = %d: recovery %s (mean %.3f); %.1f s per run", point["method"], p.dataset,
                 point["n_samples"], out["recovery"], out["probability"], sum(out["seconds"]) / len(out["seconds"]))
    # wall-clock times apart, so that the result reproduces byte for byte
    timing = {k: out[k] for k in ("dataset", "method", "n_samples")}
    timing["seconds"] = out.pop("seconds")
    for run in out["runs"]:
        run.pop("seconds", None)
    write_json(out, result_path)
    write_json(timing, timing_path)
