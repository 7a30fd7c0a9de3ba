"""Chapter 5: learn the sparse-filtering representation (labels unused) on the training windows of one CV fold
only (all of them, or a random subsample), for the approaches and the learning curve that use it."""

import logging
import pickle
import time

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0], fmt="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from fscompbio.cleavage import sequence_folds, window_clusters  # noqa: E402
from fscompbio.io import atomic_path, write_json  # noqa: E402
from fscompbio.representation import SparseFiltering  # noqa: E402

p = snakemake.params
split, fold = snakemake.wildcards.sf_split, int(snakemake.wildcards.fold)
enc = np.load(snakemake.input.encoded)
X, groups = enc["X"], enc["groups"]
units = window_clusters(groups, np.load(snakemake.input.homology)["clusters"]) if split == "homology" else groups
folds = sequence_folds(units, n_splits=p.n_folds, random_state=p.folds_seed)
fit_rows = np.flatnonzero(folds != fold)  # the fold's training windows: no test window is seen
if p.fit_max_samples is not None and p.fit_max_samples < fit_rows.size:
    fit_rows = np.sort(np.random.default_rng(p.seed).choice(fit_rows, p.fit_max_samples, replace=False))
logging.info("sparse filtering, %s fold %d: fit on %d of %d training windows (%d test windows unseen) x %d -> %d "
             "features, max_iter %d, %s", split, fold, fit_rows.size, int(np.sum(folds != fold)),
             int(np.sum(folds == fold)), X.shape[1], p.n_features, p.max_iter, p.dtype)
start = time.perf_counter()
with threadpool_limits(limits=p.blas_threads, user_api="blas"):  # fixed by the config: part of the result
    sf = SparseFiltering(p.n_features, max_iter=p.max_iter, batch_size=p.batch_size,
                         dtype=np.dtype(p.dtype).type, random_state=p.seed).fit(X[fit_rows])
seconds = time.perf_counter() - start
hist = sf.objective_history_
logging.info("%d iterations, objective per window %.6g -> %.6g, %.1f s", sf.n_iter_, hist[0] / fit_rows.size,
             hist[-1] / fit_rows.size, seconds)
with atomic_path(snakemake.output.model) as tmp, open(tmp, "wb") as fh:
    pickle.dump(sf, fh, protocol=pickle.HIGHEST_PROTOCOL)
write_json({"split": split, "fold": fold, "n_windows": int(X.shape[0]), "n_train_windows": int(np.sum(folds != fold)),
            "n_fit_windows": int(fit_rows.size), "n_input": int(X.shape[1]), "n_features": p.n_features,
            "max_iter": p.max_iter, "dtype": p.dtype, "n_iter": sf.n_iter_,
            "objective_per_window": (hist / fit_rows.size), "seed": p.seed}, snakemake.output.json)
write_json({"seconds": seconds}, snakemake.output.timing)
