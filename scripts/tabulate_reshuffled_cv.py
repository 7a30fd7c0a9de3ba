"""The randSel paper's synthetic table (tableP_2): accuracy, number of features, precision and recall per
data set and method, mean +- sd over the reshuffles."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.evaluation import reshuffle_table  # noqa: E402
from fscompbio.io import atomic_path, read_json, write_text  # noqa: E402
from fscompbio.plots.reshuffled_cv import tableP_2_markdown  # noqa: E402

table = reshuffle_table(read_json(path) for path in snakemake.input)
logging.info("\n%s", table.to_string())
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False, float_format="%.4g")
write_text(tableP_2_markdown(table), snakemake.output.md)
