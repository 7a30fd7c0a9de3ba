"""Chapter 5: learn the sparse-filtering representation (labels unused) on all or a subsample of the windows,
then transform every window."""

import logging
import time

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0], fmt="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from fscompbio.io import atomic_path, write_json, write_npz  # noqa: E402
from fscompbio.representation import SparseFiltering  # noqa: E402

p = snakemake.params
data = np.load(snakemake.input[0])
X = data["X"]
fit_rows = np.arange(X.shape[0])
if p.fit_max_samples is not None and p.fit_max_samples < X.shape[0]:
    fit_rows = np.sort(np.random.default_rng(p.seed).choice(X.shape[0], p.fit_max_samples, replace=False))
logging.info("sparse filtering: fit on %d of %d windows x %d -> %d features, max_iter %d, %s", fit_rows.size,
             *X.shape, p.n_features, p.max_iter, p.dtype)
start = time.perf_counter()
with threadpool_limits(limits=p.blas_threads, user_api="blas"):  # fixed by the config: part of the result
    sf = SparseFiltering(p.n_features, max_iter=p.max_iter, batch_size=p.batch_size,
                         dtype=np.dtype(p.dtype).type, random_state=p.seed).fit(X[fit_rows])
    fit_seconds = time.perf_counter() - start
    Z = sf.transform(X).astype(np.float32)
seconds = time.perf_counter() - start
hist = sf.objective_history_
logging.info("%d iterations, objective per window %.6g -> %.6g (last 10 iterations: -%.3g%%), fit %.1f s, total %.1f s",
             sf.n_iter_, hist[0] / fit_rows.size, hist[-1] / fit_rows.size,
             100 * (hist[max(0, hist.size - 11)] - hist[-1]) / hist[-1], fit_seconds, seconds)
write_npz(snakemake.output.npz, X=Z, y=data["y"], groups=data["groups"], target=data["target"],
          accessions=data["accessions"], W=sf.W_, feature_norms=sf.feature_norms_)
write_json({"n_windows": X.shape[0], "n_fit_windows": int(fit_rows.size), "n_input": X.shape[1],
            "n_features": p.n_features, "max_iter": p.max_iter, "dtype": p.dtype, "n_iter": sf.n_iter_,
            "objective_history": hist, "objective_per_window": (hist / fit_rows.size),
            "seed": p.seed}, snakemake.output.json)
write_json({"fit_seconds": fit_seconds, "seconds": seconds}, snakemake.output.timing)
with atomic_path(snakemake.output.model) as tmp, open(tmp, "wb") as fh:  # the fitted transform, for the saved model
    import pickle

    pickle.dump(sf, fh, protocol=pickle.HIGHEST_PROTOCOL)
