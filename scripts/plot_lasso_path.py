"""Thesis figure 2.1: the Lasso regularisation path on a real data set."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.linear_models import plot_fig2_1  # noqa: E402
from fscompbio.studies import lasso_regularisation_path  # noqa: E402

p = snakemake.params.settings
ds = load_dataset(snakemake.input[0])
if ds.task != "binary":
    raise ValueError(f"{snakemake.input[0]}: figure 2.1 needs a binary data set; got task {ds.task!r}")
alphas, coefs = lasso_regularisation_path(ds.X, ds.y, n_alphas=p["n_alphas"], eps=p["eps"])
logging.info("%s: %d features, %d non-zero at the smallest lambda", ds.name, ds.n_features, (coefs[:, -1] != 0).sum())
title = f"Lasso path, {ds.name} ({ds.n_samples} x {ds.n_features})"
save_figure(plot_fig2_1(alphas, coefs, title=title), snakemake.output[0])
