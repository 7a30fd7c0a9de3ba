"""Thesis figures 5.1 (the architecture) and 5.2 (the representation) as diagrams."""


from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import pandas as pd  # noqa: E402

from fscompbio.io import read_json  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.cleavage import plot_fig5_1, plot_fig5_2  # noqa: E402

p = snakemake.params
if p.kind == "architecture":
    fig = plot_fig5_1()
else:
    windows = pd.read_csv(snakemake.input.windows, dtype={"accession": str, "window": str})
    first = windows[windows["accession"] == windows["accession"].iloc[0]]
    prefix = first["window"].iloc[0] + "".join(w[-1] for w in first["window"].iloc[1:])
    site = int(first.loc[first["label"] == 1, "target"].iloc[0]) - 1
    geometry = read_json(snakemake.input.windows_json)["geometry"]
    fig = plot_fig5_2(prefix, site, before=geometry["before"], after=geometry["after"],
                      n_learned=read_json(snakemake.input.sf)["n_features"])
save_figure(fig, snakemake.output[0])
