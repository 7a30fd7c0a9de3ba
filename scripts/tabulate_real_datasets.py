"""The real-data summary table (thesis appendix): samples, features and classes per real task."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import pandas as pd  # noqa: E402

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.io import atomic_path, write_text  # noqa: E402
from fscompbio.plots import table_markdown  # noqa: E402
from fscompbio.plots.datasets import table_a2  # noqa: E402

tasks = {}
for name, npz in zip(snakemake.params.names, snakemake.input.npz):
    entry = snakemake.params.csv[name]
    ds = load_dataset(npz)
    path = snakemake.params.paths[name]
    labels = pd.read_csv(path, usecols=[entry["label_column"]], dtype=str)[entry["label_column"]]
    columns = pd.read_csv(path, nrows=0).columns
    n_file = len(columns) - 1 - int(entry["id_column"] is not None and entry["id_column"] in columns)
    tasks[name] = {"n_samples": ds.n_samples, "n_features": n_file, "n_used": ds.n_features,
                   "classes": labels.value_counts().to_dict(),
                   "positive_label": entry["positive_label"] if entry["positive_label"] is not None
                   else sorted(labels.unique())[-1]}
table = table_a2(tasks)
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
write_text(table_markdown(table), snakemake.output.md)
logging.info("\n%s", table.to_string())
