"""Aggregate the outer folds of one data set per (method, model selection): means, sds, ranges, mean
variance and the consistency log-likelihood of eq. 2.8 (the rows of figures 3.3-3.13 and 4.4-4.14)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.evaluation import summarise_fold_jobs  # noqa: E402
from fscompbio.io import atomic_path, read_json  # noqa: E402

summary = summarise_fold_jobs([read_json(path) for path in snakemake.input], snakemake.params.dataset)
for r in summary.itertuples():
    logging.info("%s %s: accuracy %.3f, %.1f features, log-likelihood %.2f%s", r.method, r.model_selection,
                 r.accuracy_mean, r.n_selected_mean, r.log_likelihood, " (every feature selected)" if r.union_is_all else "")
with atomic_path(snakemake.output[0]) as tmp:
    summary.to_csv(tmp, index=False, float_format="%.6g")
