"""Write one data set in the .npz format: a registered synthetic set, or a configured CSV matrix."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0], fmt="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402

from fscompbio.datasets import load_csv_dataset, make_dataset, save_dataset, top_variance  # noqa: E402
from fscompbio.evaluation import task_error  # noqa: E402

name = snakemake.wildcards.dataset
csv = snakemake.params.csv
if csv:
    ds = load_csv_dataset(snakemake.input[0], label_column=csv["label_column"], id_column=csv["id_column"],
                          positive_label=csv["positive_label"], task=csv["task"], name=name)
    # chapters 3 and 4 need two classes: refuse any other label here, before a fold job starts
    binary_stages = [s for s in ("chapter3", "chapter4") if name in snakemake.config[s]["datasets"]]
    if binary_stages and ds.task != "binary":
        detail = (f"{np.unique(ds.y).size} classes" if ds.task == "multiclass" else
                  f"{np.unique(ds.y).size} distinct values from {ds.y.min():g} to {ds.y.max():g}")
        raise ValueError(task_error(f"{snakemake.input[0]}: column {csv['label_column']!r}", ds.task, binary_stages,
                                    detail))
    if csv["max_features"] is not None and csv["max_features"] < ds.n_features:
        n_before = ds.n_features
        ds = top_variance(ds, csv["max_features"])
        logging.info("%s: kept the %d of %d features of highest variance (label-blind)", name, ds.n_features, n_before)
else:
    ds = make_dataset(name, random_state=snakemake.params.seed)
save_dataset(ds, snakemake.output[0])
logging.info("%s: X %s, %d relevant, task %s", ds.name, ds.X.shape, ds.relevant.size, ds.task)
