"""Chapter 5: fit one approach of table P1 on the training sequences of one fold, score the test windows."""

import logging
import pickle
import time

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0], fmt="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from fscompbio.cleavage import (  # noqa: E402
    APPROACH_REPRESENTATION,
    describe_fitted,
    encoded_matrix,
    make_approach,
    run_fold,
    sequence_folds,
    window_clusters,
)
from fscompbio.io import write_json, write_npz  # noqa: E402

p = snakemake.params
fold = int(snakemake.wildcards.fold)
enc = np.load(snakemake.input.encoded)
y, groups = enc["y"], enc["groups"]
kind = APPROACH_REPRESENTATION[p.approach]
sf = None
if kind == "sf":  # the sparse filter of this fold, fitted on its training windows only
    with open(snakemake.input.sf, "rb") as fh, threadpool_limits(limits=snakemake.threads, user_api="blas"):
        sf = pickle.load(fh).transform(enc["X"]).astype(np.float32)
X = encoded_matrix(kind, enc, sf)
split = groups
if p.cv == "homology":  # folds and every inner split (tuning, held-out sequences, selected sizes) by cluster
    split = window_clusters(groups, np.load(snakemake.input.homology)["clusters"])
folds = sequence_folds(split, n_splits=p.n_folds, random_state=p.folds_seed)
logging.info("%s (%s) on %s: %d windows x %d columns, %d sequences; %s CV, fold %d; protocol %s %s", p.approach,
             p.approach_params, kind, *X.shape, np.unique(groups).size, p.cv, fold, snakemake.wildcards.protocol,
             p.protocol)
start = time.perf_counter()
with threadpool_limits(limits=snakemake.threads, user_api="blas"):
    r = run_fold(make_approach(p.approach, p.approach_params), X, y, groups, folds, fold, split_groups=split,
                 random_state=p.seed, **p.protocol)
seconds = time.perf_counter() - start
info = describe_fitted(r["model"])
n_test = int(np.unique(groups[r["test_index"]]).size)
logging.info("fold %d: accuracy %.4f on %d test sequences; %d training windows; %.1f s; %s", fold, r["accuracy"],
             n_test, r["train_index"].size, seconds, info)
write_npz(snakemake.output.npz, test_index=r["test_index"], scores=r["scores"], train_index=r["train_index"])
write_json({"approach": p.approach, "protocol": snakemake.wildcards.protocol, "cv": p.cv, "fold": fold,
            "accuracy": r["accuracy"], "n_test_sequences": n_test,
            "n_train_windows": int(r["train_index"].size),
            "n_train_positives": int(np.sum(y[r["train_index"]] == 1)), **info}, snakemake.output.json)
write_json({"seconds": seconds}, snakemake.output.timing)
