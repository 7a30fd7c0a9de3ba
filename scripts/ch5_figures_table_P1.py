"""Table P1 (seed 004 table 1): cleavage-site accuracy by approach, mean +- sd over folds, beside the paper."""

import logging
import sys

sys.stderr = open(snakemake.log[0], "w")
logging.basicConfig(stream=sys.stderr, level=logging.INFO)

from collections import defaultdict  # noqa: E402

import numpy as np  # noqa: E402

from fscompbio.io import atomic_path, read_json, write_text  # noqa: E402
from fscompbio.plots.chapter5 import table_P1  # noqa: E402
from fscompbio.plots.spine import table_markdown  # noqa: E402

accs, feats, secs = defaultdict(list), defaultdict(list), defaultdict(list)
for path in snakemake.input:
    r = read_json(path)
    accs[r["approach"]].append(r["accuracy"])
    feats[r["approach"]].append(np.nan if r["n_features"] is None else r["n_features"])
    secs[r["approach"]].append(r["seconds"])
meta = {a: {"mean_features": round(float(np.nanmean(feats[a])), 1) if not np.all(np.isnan(feats[a])) else "",
            "seconds_per_fold": round(float(np.mean(secs[a])), 1)} for a in accs}
table = table_P1(accs, meta=meta)
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
cols = ["method", "ours", "seed 004 table 1", "n_folds", "mean_features", "seconds_per_fold"]
write_text(table_markdown(table[cols]), snakemake.output.md)
logging.info("\n%s", table.to_string())
