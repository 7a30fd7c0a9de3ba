"""Chapter 5: train the approach of best homology-aware CV accuracy (table P1) on every shipped sequence and save
it as a model file, with both CV figures in its metadata."""

import logging
import time

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0], fmt="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from fscompbio.cleavage import (  # noqa: E402
    APPROACH_REPRESENTATION,
    CleavageSiteModel,
    choose_model,
    describe_fitted,
    encoded_matrix,
    fit_approach,
    make_approach,
    training_windows,
)
from fscompbio.io import write_json  # noqa: E402
from fscompbio.representation import SparseFiltering  # noqa: E402
from fscompbio.sequences import load_aa_scales  # noqa: E402

p = snakemake.params
choice = choose_model(pd.read_csv(snakemake.input.table), **p.model)
approach, protocol = choice["approach"], choice["protocol"]
logging.info("model: %s", choice)
enc = np.load(snakemake.input.encoded)
y, groups, kind = enc["y"], enc["groups"], APPROACH_REPRESENTATION[approach]
start = time.perf_counter()
sparse_filter = sf = None
with threadpool_limits(limits=snakemake.threads, user_api="blas"):
    if kind == "sf":  # the representation learned on the model's own windows (labels unused)
        rep = p.representation
        rows = np.arange(y.size)
        if rep["fit_max_samples"] is not None and rep["fit_max_samples"] < y.size:
            rows = np.sort(np.random.default_rng(p.seed).choice(y.size, rep["fit_max_samples"], replace=False))
        with threadpool_limits(limits=rep["blas_threads"], user_api="blas"):  # fixed by the config: part of the result
            sparse_filter = SparseFiltering(rep["n_features"], max_iter=rep["max_iter"],
                                            batch_size=rep["batch_size"], dtype=np.dtype(rep["dtype"]).type,
                                            random_state=p.seed).fit(enc["X"][rows])
        sf = sparse_filter.transform(enc["X"]).astype(np.float32)
    # the training windows of the chosen cell's protocol, drawn from every sequence's windows; only they are encoded
    rng = np.random.RandomState(p.seed)
    settings = dict(p.protocols[protocol])
    train = training_windows(y, max_per_class=settings.get("max_train_per_class"),
                             negatives_per_positive=settings.get("negatives_per_positive"), random_state=rng)
    estimator, _ = fit_approach(make_approach(approach, p.approach_params), encoded_matrix(kind, enc, sf, rows=train),
                                y[train], groups[train], train=np.arange(train.size), random_state=rng)
seconds = time.perf_counter() - start
meta = {**choice, "protocol_settings": p.protocols[protocol], "trained_on": "every shipped sequence",
        "n_sequences": int(np.unique(groups).size), "n_train_windows": int(train.size),
        "n_train_positives": int(np.sum(y[train] == 1)), "cv_config": p.config_label, "fit_seconds": round(seconds, 1),
        **describe_fitted(estimator)}
model = CleavageSiteModel(estimator, representation=kind, scales=load_aa_scales(snakemake.input.scales),
                          sparse_filter=sparse_filter, prefix=int(enc["prefix"]), before=int(enc["before"]),
                          after=int(enc["after"]), metadata=meta)
model.save(snakemake.output.model)
write_json(meta, snakemake.output.json)
write_json({"seconds": seconds}, snakemake.output.timing)
logging.info("saved %s (%.1f s): %s", snakemake.output.model, seconds, meta)
