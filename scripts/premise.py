"""The premise of one synthetic set: the accuracy of SVMs told which features are relevant, on the outer
folds chapter 3 runs (fscompbio.evaluation.oracle_accuracy); one draw per job, or every draw of the set
(chapter3.premises.group_jobs), each written to its own file."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import numpy as np  # noqa: E402

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.evaluation import oracle_accuracy, outer_splits  # noqa: E402
from fscompbio.io import write_json  # noqa: E402

p = snakemake.params
if hasattr(p, "members"):  # a grouped job: its draws in the order of its inputs and outputs
    members = p.members
else:
    members = [{"dataset": snakemake.wildcards.dataset, "folds_seed": p.folds_seed, "folds_run": p.folds_run,
                "seed": p.seed}]
for member, data_path, out_path in zip(members, list(snakemake.input), list(snakemake.output), strict=True):
    ds = load_dataset(data_path)
    folds = outer_splits(ds.y, p.outer_folds, random_state=member["folds_seed"])[: member["folds_run"]]
    acc = oracle_accuracy(ds.X, ds.y, ds.relevant, folds, C=p.svm_C, random_state=member["seed"])
    for name, values in acc.items():
        logging.info("%s %s: %s, mean %.3f over %d folds", member["dataset"], name, [round(a, 3) for a in values],
                     np.mean(values), len(values))
    write_json({"dataset": member["dataset"], "n_folds": len(folds), "n_relevant": int(ds.relevant.size),
                "n_features": int(ds.X.shape[1]), "accuracy": acc}, out_path)
