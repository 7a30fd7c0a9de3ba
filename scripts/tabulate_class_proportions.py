"""Thesis table 3.1: class proportions of the six synthetic sets, beside the thesis' counts."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.studies import class_proportions  # noqa: E402
from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.io import atomic_path, write_text  # noqa: E402
from fscompbio.plots import table_markdown  # noqa: E402
from fscompbio.plots.datasets import table3_1  # noqa: E402

props = {}
for path in snakemake.input:
    ds = load_dataset(path)
    props[ds.name] = class_proportions(ds.y)
table = table3_1(props)
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
write_text(table_markdown(table), snakemake.output.md)
logging.info("\n%s", table.to_string())
