"""Chapter 5, figure 5.5: cleavage accuracy against the number of training windows, one representation, one fold;
for each cell (representation, fold) of the job in turn, each with its own seed and output files."""

import logging
import pickle

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0], fmt="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from fscompbio.cleavage import encoded_matrix, learning_curve_fold, sequence_folds  # noqa: E402
from fscompbio.io import write_json  # noqa: E402
from fscompbio.prediction import GaussianSVC  # noqa: E402

p = snakemake.params
cells = p.cells
written = {c[key] for c in cells for key in ("json", "timing")}
if written != set(snakemake.output):
    raise ValueError(f"ch5_learning_curve: the cells' files {sorted(written)} are not the job's outputs "
                     f"{sorted(snakemake.output)}")
enc = np.load(snakemake.input.encoded)
y, groups = enc["y"], enc["groups"]
folds = sequence_folds(groups, n_splits=p.n_folds, random_state=p.folds_seed)
for cell in cells:
    rep, fold = cell["representation"], cell["fold"]
    X, sf = None, None  # one matrix in memory at a time
    if rep == "sf":  # the sparse filter of this fold, fitted on its training windows only
        with open(cell["sf"], "rb") as fh, threadpool_limits(limits=snakemake.threads, user_api="blas"):
            sf = pickle.load(fh).transform(enc["X"]).astype(np.float32)
    X = encoded_matrix(rep, enc, sf)
    del sf
    svm = GaussianSVC(C=p.C, gamma=p.gamma, class_weight="balanced")  # fixed C and gamma: only the data size varies
    with threadpool_limits(limits=snakemake.threads, user_api="blas"):
        rows = learning_curve_fold(svm, X, y, groups, folds, fold, per_class=p.per_class,
                                   negatives_per_positive=p.negatives_per_positive, random_state=cell["seed"])
    for r in rows:
        logging.info("%s fold %d: %s", rep, fold, r)
    timing = [r.pop("seconds") for r in rows]
    write_json({"representation": rep, "fold": fold, "n_features": int(X.shape[1]), "rows": rows}, cell["json"])
    write_json({"seconds": timing}, cell["timing"])
