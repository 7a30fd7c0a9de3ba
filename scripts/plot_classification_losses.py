"""Thesis figure 3.2: loss functions for classification."""

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import numpy as np  # noqa: E402

from fscompbio.studies import classification_losses  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.linear_models import plot_fig3_2  # noqa: E402

margins = np.linspace(-2.0, 3.0, 501)
save_figure(plot_fig3_2(margins, classification_losses(margins)), snakemake.output[0])
