"""Figure 1 of "Principled Non-Linear Feature Selection": expected contributions of all features of 200-d
XOR in one pass without culling, relevant in red."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import numpy as np  # noqa: E402

from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.randsel_contributions import plot_expected_contributions  # noqa: E402

with np.load(snakemake.input[0]) as z:
    c, relevant = z["contributions"], z["relevant"]
    se = z["contribution_se"] if "contribution_se" in z.files else None
logging.info("%d features, relevant %s", c.size, relevant.tolist())
save_figure(plot_expected_contributions(c, relevant, se=se, title=f"XOR with {c.size} features: one pass, no culling"),
            snakemake.output[0])
