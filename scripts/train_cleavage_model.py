"""Chapter 5: train the best approach of table P1 (random CV) on every sequence and save it as a model file."""

import inspect
import logging
import pickle
import sys
import time

sys.stderr = open(snakemake.log[0], "w")
logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from fscompbio.cleavage import (  # noqa: E402
    APPROACH_REPRESENTATION,
    CleavageSiteModel,
    describe_fitted,
    encoded_matrix,
    make_approach,
    training_windows,
)
from fscompbio.io import write_json  # noqa: E402
from fscompbio.sequences import load_aa_scales  # noqa: E402

p = snakemake.params
table = pd.read_csv(snakemake.input.table)
candidates = table[table["cv"] == "random"]
if p.model["approach"] != "best":
    candidates = candidates[candidates["approach"] == p.model["approach"]]
if p.model["protocol"] != "best":
    candidates = candidates[candidates["protocol"] == p.model["protocol"]]
if candidates.empty:
    raise ValueError(f"chapter5.prediction.model = {p.model} matches no row of {snakemake.input.table} (random CV)")
best = candidates.sort_values(["accuracy_mean", "approach"], ascending=[False, True], kind="stable").iloc[0]
approach, protocol = str(best["approach"]), str(best["protocol"])
logging.info("model: %s under the %s protocol (random-CV accuracy %.2f +- %.2f %%)", approach, protocol,
             best["accuracy_mean"], best["accuracy_sd"])
enc = np.load(snakemake.input.encoded)
kind = APPROACH_REPRESENTATION[approach]
sf = np.load(snakemake.input.sf)["X"] if kind == "sf" else None
X = encoded_matrix(kind, enc, sf)
y, groups = enc["y"], enc["groups"]
rng = np.random.RandomState(p.seed)
protocol_kw = dict(p.protocols[protocol])  # the keywords of run_fold; training_windows calls one max_per_class
if "max_train_per_class" in protocol_kw:
    protocol_kw["max_per_class"] = protocol_kw.pop("max_train_per_class")
train = training_windows(y, random_state=rng, **protocol_kw)
estimator = make_approach(approach, p.approach_params)
if "random_state" in estimator.get_params(deep=False):
    estimator.set_params(random_state=int(rng.randint(np.iinfo(np.int32).max)))
start = time.perf_counter()
with threadpool_limits(limits=snakemake.threads, user_api="blas"):
    if "groups" in inspect.signature(estimator.fit).parameters:
        estimator.fit(X[train], y[train], groups=groups[train])
    else:
        estimator.fit(X[train], y[train])
seconds = time.perf_counter() - start
sparse_filter = None
if kind == "sf":
    with open(snakemake.input.sf_model, "rb") as fh:
        sparse_filter = pickle.load(fh)
meta = {"approach": approach, "protocol": protocol, "protocol_settings": p.protocols[protocol],
        "random_cv_accuracy_mean": float(best["accuracy_mean"]), "random_cv_accuracy_sd": float(best["accuracy_sd"]),
        "n_train_windows": int(train.size), "n_train_positives": int(np.sum(y[train] == 1)),
        "n_sequences": int(np.unique(groups).size), **describe_fitted(estimator)}
model = CleavageSiteModel(estimator, representation=kind, scales=load_aa_scales(snakemake.input.scales),
                          sparse_filter=sparse_filter, prefix=int(enc["prefix"]), before=int(enc["before"]),
                          after=int(enc["after"]), metadata=meta)
model.save(snakemake.output.model)
write_json(meta, snakemake.output.json)
write_json({"seconds": seconds}, snakemake.output.timing)
logging.info("saved %s (%.1f s): %s", snakemake.output.model, seconds, meta)
