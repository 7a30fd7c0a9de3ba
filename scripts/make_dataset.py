"""Write one data set in the .npz format: a registered synthetic set, or a configured CSV matrix; or every
synthetic set of the synthetic_datasets rule, each with its own seed."""

import logging
import sys

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0], fmt="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402

from fscompbio.datasets import (load_csv_dataset, make_dataset, save_dataset, scale_disparity,  # noqa: E402
                                standardized, top_variance)
from fscompbio.evaluation import task_error  # noqa: E402


def write(ds, path):
    save_dataset(ds, path)
    logging.info("%s: X %s, %d relevant, task %s", ds.name, ds.X.shape, ds.relevant.size, ds.task)


def csv_dataset(name, csv, path):
    ds = load_csv_dataset(path, label_column=csv["label_column"], id_column=csv["id_column"],
                          positive_label=csv["positive_label"], task=csv["task"], name=name)
    # chapters 3 and 4 need two classes: refuse any other label here, before a fold job starts
    binary_stages = [s for s in ("chapter3", "chapter4") if name in snakemake.config[s]["datasets"]]
    if binary_stages and ds.task != "binary":
        detail = (f"{np.unique(ds.y).size} classes" if ds.task == "multiclass" else
                  f"{np.unique(ds.y).size} distinct values from {ds.y.min():g} to {ds.y.max():g}")
        raise ValueError(task_error(f"{path}: column {csv['label_column']!r}", ds.task, binary_stages, detail))
    in_regression = name in snakemake.config.get("regression", {}).get("folds", {}).get("datasets", [])
    if in_regression and ds.task != "regression":
        raise ValueError(f"{path}: column {csv['label_column']!r} has {np.unique(ds.y).size} classes, not a "
                         "real-valued label, as regression.folds.datasets needs; a score written as whole numbers "
                         f"is read as real-valued with `task: regression` under datasets.csv.{name}")
    if csv["max_features"] is not None and csv["max_features"] < ds.n_features:
        n_before = ds.n_features
        ds = top_variance(ds, csv["max_features"])
        logging.info("%s: kept the %d of %d features of highest variance (label-blind)", name, ds.n_features, n_before)
    if csv.get("standardize"):
        ds = standardized(ds)
        logging.info("%s: every feature scaled to zero mean and unit variance over the samples (label-blind)", name)
    else:
        disparity = scale_disparity(ds)
        if disparity:  # to the job's log and to the console, where the run's user reads it
            message = (f"{path}: {disparity}; `standardize: true` under datasets.csv.{name} in the config scales "
                       "every feature")
            logging.warning(message)
            print(f"fscompbio: warning: {message}", file=sys.__stderr__, flush=True)
    return ds


if snakemake.rule == "synthetic_datasets":  # every synthetic set, each with the seed its own job would have
    for name, seed in snakemake.params.seeds.items():
        write(make_dataset(name, random_state=seed), snakemake.output[name])
elif snakemake.params.csv:
    name = snakemake.wildcards.dataset
    write(csv_dataset(name, snakemake.params.csv, snakemake.input[0]), snakemake.output[0])
else:
    write(make_dataset(snakemake.wildcards.dataset, random_state=snakemake.params.seed), snakemake.output[0])
