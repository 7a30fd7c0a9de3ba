"""Figures 3.3-3.13 and 4.4-4.14 (and the panels of your own data sets): accuracy, features, precision,
recall, mean variance, log-likelihood per method, one bar per model selection, for one data set; the
dotted line is the accuracy of always predicting the training majority class, from the summary."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import pandas as pd  # noqa: E402

from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.selection_panels import dataset_panels  # noqa: E402

summary = pd.read_csv(snakemake.input[0])
logging.info("%s: %d rows", snakemake.input[0], len(summary))
p = snakemake.params
save_figure(dataset_panels(summary, p.dataset, p.methods, footer=p.sizes), snakemake.output[0])
