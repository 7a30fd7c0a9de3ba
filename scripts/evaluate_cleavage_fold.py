"""Chapter 5: fit one approach of table P1 on the training sequences of a fold, score the test windows; for each
cell (protocol, fold) of the job in turn, each with its own seed and output files."""

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
cells = p.cells
# ch5_predict: the standardised scales (no parameter, its records unchanged); ch5_predict_raw: "raw"
scales = getattr(p, "scales", "standardised")
written = {c[key] for c in cells for key in ("npz", "json", "timing")}
if written != set(snakemake.output):
    raise ValueError(f"ch5_predict: the cells' files {sorted(written)} are not the job's outputs "
                     f"{sorted(snakemake.output)}")
enc = np.load(snakemake.input.encoded)
made = str(enc["scaling"]) if "scaling" in enc.files else "standardised"
if made != scales:
    raise ValueError(f"ch5_predict: {snakemake.input.encoded} holds windows on {made} scales; this job's cells are "
                     f"on {scales} scales")
y, groups = enc["y"], enc["groups"]
kind = APPROACH_REPRESENTATION[p.approach]
split = groups
if p.cv == "homology":  # folds and every inner split (tuning, held-out sequences, selected sizes) by cluster
    split = window_clusters(groups, np.load(snakemake.input.homology)["clusters"])
folds = sequence_folds(split, n_splits=p.n_folds, random_state=p.folds_seed)
X, X_sf = None, None  # the matrix of the last cell (the same for every cell but the sparse filter's fold)
for cell in cells:
    fold = cell["fold"]
    if X is None or (kind == "sf" and X_sf != cell["sf"]):
        X, sf = None, None  # one matrix in memory at a time
        if kind == "sf":  # the sparse filter of this fold, fitted on its training windows only
            with open(cell["sf"], "rb") as fh, threadpool_limits(limits=snakemake.threads, user_api="blas"):
                sf = pickle.load(fh).transform(enc["X"]).astype(np.float32)
        X, X_sf = encoded_matrix(kind, enc, sf), cell["sf"]
        del sf
    logging.info("%s (%s) on %s (%s scales): %d windows x %d columns, %d sequences; %s CV, fold %d; protocol %s %s",
                 p.approach, p.approach_params, kind, scales, *X.shape, np.unique(groups).size, p.cv, fold,
                 cell["protocol"], cell["settings"])
    start = time.perf_counter()
    with threadpool_limits(limits=snakemake.threads, user_api="blas"):
        r = run_fold(make_approach(p.approach, p.approach_params), X, y, groups, folds, fold, split_groups=split,
                     random_state=cell["seed"], **cell["settings"])
    seconds = time.perf_counter() - start
    info = describe_fitted(r["model"])
    n_test = int(np.unique(groups[r["test_index"]]).size)
    logging.info("fold %d: accuracy %.4f on %d test sequences; %d training windows; %.1f s; %s", fold,
                 r["accuracy"], n_test, r["train_index"].size, seconds, info)
    write_npz(cell["npz"], test_index=r["test_index"], scores=r["scores"], train_index=r["train_index"])
    # a cell on raw scales says so in its record (table P1's scales column); a standardised one as before
    write_json({"approach": p.approach, "protocol": cell["protocol"], "cv": p.cv,
                **({} if scales == "standardised" else {"scales": scales}), "fold": fold,
                "accuracy": r["accuracy"], "n_test_sequences": n_test,
                "n_train_windows": int(r["train_index"].size),
                "n_train_positives": int(np.sum(y[r["train_index"]] == 1)), **info}, cell["json"])
    write_json({"seconds": seconds}, cell["timing"])
    del r
