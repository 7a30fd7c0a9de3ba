"""The premise of one synthetic set: the accuracy of SVMs told which features are relevant, on the outer
folds chapter 3 runs (fscompbio.evaluation.oracle_accuracy)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import numpy as np  # noqa: E402

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.evaluation import oracle_accuracy, outer_splits  # noqa: E402
from fscompbio.io import write_json  # noqa: E402

p = snakemake.params
ds = load_dataset(snakemake.input[0])
folds = outer_splits(ds.y, p.outer_folds, random_state=p.folds_seed)[: p.folds_run]
acc = oracle_accuracy(ds.X, ds.y, ds.relevant, folds, C=p.svm_C, random_state=p.seed)
for name, values in acc.items():
    logging.info("%s: %s, mean %.3f over %d folds", name, [round(a, 3) for a in values], np.mean(values), len(values))
write_json({"dataset": snakemake.wildcards.dataset, "n_folds": len(folds), "n_relevant": int(ds.relevant.size),
            "n_features": int(ds.X.shape[1]), "accuracy": acc}, snakemake.output[0])
