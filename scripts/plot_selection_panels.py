"""Figures 3.3-3.13 and 4.4-4.14 (and the panels of your own data sets): accuracy, features, precision,
recall, mean variance, log-likelihood per method, one bar per model selection, for one data set; the
dotted line is the accuracy of always predicting the training majority class, from the summary."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import pandas as pd  # noqa: E402

from fscompbio.evaluation import method_spec  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.datasets import LABELS  # noqa: E402
from fscompbio.plots.selection_panels import plot_method_panels  # noqa: E402

summary = pd.read_csv(snakemake.input[0])
methods = snakemake.params.methods
labels = {m: method_spec(m).label or m for m in methods}
logging.info("%s: %d rows", snakemake.input[0], len(summary))
fig = plot_method_panels(summary, title=LABELS.get(snakemake.params.dataset, snakemake.params.dataset),
                         methods=methods, labels=labels, footer=snakemake.params.sizes)
save_figure(fig, snakemake.output[0])
