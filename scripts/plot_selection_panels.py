"""Figures 3.3-3.13 and 4.4-4.14 (and the panels of your own data sets): accuracy, features, precision,
recall, mean variance, log-likelihood per method, one bar per model selection, for one data set; the
dotted line is the accuracy of always predicting its majority class."""

import logging
import sys

sys.stderr = open(snakemake.log[0], "w")
logging.basicConfig(stream=sys.stderr, level=logging.INFO)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from fscompbio.datasets import load_dataset  # noqa: E402

from fscompbio.evaluation import method_spec  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.datasets import LABELS  # noqa: E402
from fscompbio.plots.selection_panels import plot_method_panels  # noqa: E402

summary = pd.read_csv(snakemake.input.summary)
_, counts = np.unique(load_dataset(snakemake.input.dataset).y, return_counts=True)
chance = counts.max() / counts.sum()  # always predicting the majority class (stratified folds keep the shares)
methods = snakemake.params.methods
labels = {m: method_spec(m).label or m for m in methods}
logging.info("%s: %d rows; majority class %.3f", snakemake.input.summary, len(summary), chance)
fig = plot_method_panels(summary, title=LABELS.get(snakemake.params.dataset, snakemake.params.dataset),
                         methods=methods, labels=labels, footer=snakemake.params.sizes, chance=chance)
save_figure(fig, snakemake.output[0])
