"""The summaries of every study data set of one chapter (and of its draws) and their panel figures, in one
job: the same files, byte for byte, as a summary job and a panel job per data set (chapterN.summaries_one_job)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import pandas as pd  # noqa: E402

from fscompbio.evaluation import summarise_fold_jobs  # noqa: E402
from fscompbio.io import atomic_path, read_json  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.selection_panels import dataset_panels  # noqa: E402

p = snakemake.params
for dataset, inputs in p.inputs.items():
    summary = summarise_fold_jobs([read_json(path) for path in inputs], dataset)
    with atomic_path(snakemake.output[f"summary_{dataset}"]) as tmp:
        summary.to_csv(tmp, index=False, float_format="%.6g")
    logging.info("%s: %d rows", dataset, len(summary))
    if dataset in p.sizes:
        # the panel is drawn from the summary as written (rounded to 6 digits), as a panel job reads it
        written = pd.read_csv(snakemake.output[f"summary_{dataset}"])
        save_figure(dataset_panels(written, dataset, p.methods, footer=p.sizes[dataset]),
                    snakemake.output[f"panel_{dataset}"])
