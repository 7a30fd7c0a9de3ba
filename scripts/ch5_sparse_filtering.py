"""Chapter 5: learn the sparse-filtering representation of all encoded windows (labels unused)."""

import logging
import sys
import time

sys.stderr = open(snakemake.log[0], "w")
logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from fscompbio.io import write_json, write_npz  # noqa: E402
from fscompbio.representation import SparseFiltering  # noqa: E402

p = snakemake.params
data = np.load(snakemake.input[0])
X = data["X"]
logging.info("sparse filtering: %d windows x %d -> %d features, max_iter %d, %s", *X.shape, p.n_features,
             p.max_iter, p.dtype)
start = time.perf_counter()
with threadpool_limits(limits=snakemake.threads, user_api="blas"):  # BLAS threads = the job's threads
    sf = SparseFiltering(p.n_features, max_iter=p.max_iter, batch_size=p.batch_size,
                         dtype=np.dtype(p.dtype).type, random_state=p.seed).fit(X)
    Z = sf.transform(X).astype(np.float32)
seconds = time.perf_counter() - start
logging.info("%d iterations, objective %.6g -> %.6g, %.1f s", sf.n_iter_, sf.objective_history_[0], sf.objective_,
             seconds)
write_npz(snakemake.output.npz, X=Z, y=data["y"], groups=data["groups"], target=data["target"],
          accessions=data["accessions"], W=sf.W_, feature_norms=sf.feature_norms_)
write_json({"n_windows": X.shape[0], "n_input": X.shape[1], "n_features": p.n_features, "max_iter": p.max_iter,
            "dtype": p.dtype, "n_iter": sf.n_iter_, "objective_history": sf.objective_history_,
            "seconds": seconds, "seed": p.seed}, snakemake.output.json)
