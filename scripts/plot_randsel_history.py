"""randSel's contributions per iteration, relevant features in red: thesis figure 4.3 (fig4_3) and figure 2 of
"Principled Non-Linear Feature Selection" (figP_2)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import numpy as np  # noqa: E402

from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.randsel_contributions import plot_contributions_per_iteration  # noqa: E402

with np.load(snakemake.input[0]) as z:
    contributions, relevant, mean_alignment = z["contributions"], z["relevant"], z["mean_alignment"]
logging.info("%d iterations x %d features", *contributions.shape)
fig = plot_contributions_per_iteration(contributions, relevant, title=snakemake.params.title,
                                       mean_alignment=mean_alignment)
save_figure(fig, snakemake.output[0])
