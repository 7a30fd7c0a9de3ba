"""Chapter 5: fit one approach of seed 004 table 1 on the training sequences of one fold, score the test windows."""

import logging
import sys
import time

sys.stderr = open(snakemake.log[0], "w")
logging.basicConfig(stream=sys.stderr, level=logging.INFO)

import numpy as np  # noqa: E402

from fscompbio.evaluation._cleavage import make_approach, run_fold, sequence_folds  # noqa: E402
from fscompbio.io import write_json, write_npz  # noqa: E402

p = snakemake.params
fold = int(snakemake.wildcards.fold)
data = np.load(snakemake.input[0])
X, y, groups = data["X"], data["y"], data["groups"]
logging.info("%s: %d windows x %d features, %d sequences, %d positives", snakemake.input[0], *X.shape,
             np.unique(groups).size, int(np.sum(y == y.max())))
folds = sequence_folds(groups, n_splits=p.n_folds, random_state=p.folds_seed)
start = time.perf_counter()
r = run_fold(make_approach(p.approach, p.approach_params), X, y, groups, folds, fold,
             max_train_per_class=p.max_train_per_class, random_state=p.seed)
seconds = time.perf_counter() - start
model = r["model"]
n_features = int(model.support_.size) if hasattr(model, "support_") else None
sets = [len(s) for s in getattr(model, "feature_sets_", [])]
logging.info("fold %d: accuracy %.4f on %d test sequences; %d training windows; %.1f s; features %s; MKL sets %s",
             fold, r["accuracy"], np.unique(groups[r["test_index"]]).size, r["train_index"].size, seconds,
             n_features, sets)
write_npz(snakemake.output.npz, test_index=r["test_index"], scores=r["scores"], train_index=r["train_index"])
write_json({"approach": p.approach, "fold": fold, "accuracy": r["accuracy"],
            "n_test_sequences": int(np.unique(groups[r["test_index"]]).size),
            "n_train_windows": int(r["train_index"].size), "n_features": n_features,
            "mkl_feature_set_sizes": sets, "seconds": seconds}, snakemake.output.json)
