"""Thesis figure 5.3: accuracy by approach, protocol and CV scheme, beside the paper's table 1."""


from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import pandas as pd  # noqa: E402

from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.cleavage import plot_fig5_3  # noqa: E402

table = pd.read_csv(snakemake.input[0])
fig = plot_fig5_3(table, chance=100.0 / snakemake.params.windows_per_sequence, config_label=snakemake.params.config_label)
save_figure(fig, snakemake.output[0])
