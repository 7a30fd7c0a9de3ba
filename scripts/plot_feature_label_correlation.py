"""Thesis figure 5.4: correlation of each learned feature with the label, all windows versus support vectors."""

import json

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import numpy as np  # noqa: E402

from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.cleavage import plot_fig5_4  # noqa: E402

r = np.load(snakemake.input.npz)
with open(snakemake.input.sf) as fh:
    n_windows = json.load(fh)["n_windows"]
save_figure(plot_fig5_4(r["corr_all"], r["corr_sv"], n_windows=n_windows, n_sv=r["support"].size),
            snakemake.output[0])
