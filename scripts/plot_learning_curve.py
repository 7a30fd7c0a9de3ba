"""Figure 5.5: the learning curve (accuracy against training windows) of the three representations."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import pandas as pd  # noqa: E402

from fscompbio.io import atomic_path, read_json  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.cleavage import plot_fig5_5  # noqa: E402

rows = []
for path in snakemake.input:
    r = read_json(path)
    rows += [{"representation": r["representation"], "fold": r["fold"], "n_features": r["n_features"], **row}
             for row in r["rows"]]
curve = pd.DataFrame(rows)
with atomic_path(snakemake.output.csv) as tmp:
    curve.to_csv(tmp, index=False)
save_figure(plot_fig5_5(curve, config_label=snakemake.params.config_label), snakemake.output.png)
logging.info("\n%s", curve.to_string())
