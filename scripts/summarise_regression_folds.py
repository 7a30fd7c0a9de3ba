"""The summary of one data set's regression folds per (method, model selection): R^2, RMSE, the features
selected, their mean variance and consistency log-likelihood (results/regression/summary/{name}.csv), and its
panel figure (figures/regression_{name}.png)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.evaluation import summarise_fold_jobs  # noqa: E402
from fscompbio.io import atomic_path, read_json  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.selection_panels import dataset_panels  # noqa: E402

p = snakemake.params
summary = summarise_fold_jobs([read_json(path) for path in snakemake.input], p.dataset)
for r in summary.itertuples():
    logging.info("%s %s: R^2 %.3f, RMSE %.4g, %.1f features, log-likelihood %.2f", r.method, r.model_selection,
                 r.r2_mean, r.rmse_mean, r.n_selected_mean, r.log_likelihood)
with atomic_path(snakemake.output.csv) as tmp:
    summary.to_csv(tmp, index=False, float_format="%.6g")
save_figure(dataset_panels(summary, p.dataset, p.methods, footer=p.sizes), snakemake.output.png)
