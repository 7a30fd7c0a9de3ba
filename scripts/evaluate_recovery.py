"""Sun, Yao & Goodison (2015) figure 2, one point: a method's recovery of the relevant features of one
regression set at one sample size, over repeated draws (the same draws for every method)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from threadpoolctl import threadpool_limits  # noqa: E402

from fscompbio.evaluation import recovery_trials  # noqa: E402
from fscompbio.io import write_json  # noqa: E402

p = snakemake.params
with threadpool_limits(limits=snakemake.threads):
    out = recovery_trials(p.dataset, p.n_samples, p.method, n_repeats=p.n_repeats, params=p.selector,
                          seed=p.seed, n_irrelevant=p.n_irrelevant)
logging.info("%s, %s, n = %d: recovery %s (mean %.3f); %.1f s per run", p.method, p.dataset, p.n_samples,
             out["recovery"], out["probability"], sum(out["seconds"]) / len(out["seconds"]))
# wall-clock times apart, so that the result reproduces byte for byte
timing = {k: out[k] for k in ("dataset", "method", "n_samples")}
timing["seconds"] = out.pop("seconds")
for run in out["runs"]:
    run.pop("seconds", None)
write_json(out, snakemake.output.result)
write_json(timing, snakemake.output.timing)
