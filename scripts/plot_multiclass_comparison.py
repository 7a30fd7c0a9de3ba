"""Figure figM_1: accuracy and number of features per method on the multi-class sets (mean and sd over the
outer folds); the table as CSV and Markdown."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.evaluation import multiclass_table  # noqa: E402
from fscompbio.io import atomic_path, read_json, write_text  # noqa: E402
from fscompbio.plots import save_figure, table_markdown  # noqa: E402
from fscompbio.plots.multiclass_comparison import METHOD_LABELS, plot_multiclass  # noqa: E402

table = multiclass_table([read_json(path) for path in snakemake.input])
logging.info("\n%s", table.to_string())
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False, float_format="%.4g")
shown = table.assign(method=table["method"].map(lambda m: METHOD_LABELS.get(m, m))).round(3)
write_text(table_markdown(shown), snakemake.output.md)
save_figure(plot_multiclass(table), snakemake.output.png)
