"""Sun, Yao & Goodison (2015) figure 2: probability of correct recovery versus sample size, per data set
and method; the table (CSV, Markdown) and the figure."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.evaluation import method_spec, recovery_table  # noqa: E402
from fscompbio.io import atomic_path, read_json, write_text  # noqa: E402
from fscompbio.plots import save_figure, table_markdown  # noqa: E402
from fscompbio.plots.recovery_curves import plot_recovery_curves  # noqa: E402

table = recovery_table(read_json(path) for path in snakemake.input)
table = table.sort_values(["dataset", "method", "n_samples"]).reset_index(drop=True)
logging.info("\n%s", table.to_string())
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False, float_format="%.4g")
wide = table.pivot_table(index=["dataset", "method"], columns="n_samples", values="probability").round(3)
write_text(table_markdown(wide.reset_index()), snakemake.output.md)
labels = {m: method_spec(m).label for m in table["method"].unique()}
save_figure(plot_recovery_curves(table, labels=labels, n_irrelevant=snakemake.params.n_irrelevant),
            snakemake.output.png)
