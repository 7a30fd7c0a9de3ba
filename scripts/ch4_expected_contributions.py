"""Seed 004 figure 1: one randSel pass (no culling) of expected contributions on 200-d XOR."""

import logging
import sys

sys.stderr = open(snakemake.log[0], "w")
logging.basicConfig(stream=sys.stderr, level=logging.INFO)

import time  # noqa: E402

import numpy as np  # noqa: E402

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.io import write_npz  # noqa: E402
from fscompbio.selection._randsel import expected_contributions  # noqa: E402

p = dict(snakemake.params.settings)
p.pop("dataset")
if p["subsample"] > 1:
    p["subsample"] = int(p["subsample"])  # a count of samples, not a fraction
ds = load_dataset(snakemake.input[0])
t0 = time.perf_counter()
c, width, mean_a = expected_contributions(ds.X, ds.y, **p, random_state=snakemake.params.seed)
rel = np.zeros(c.size, dtype=bool)
rel[ds.relevant] = True
logging.info("%s: %d x %d, %r: %.1f s; width %.3g x median; relevant min %.3g, irrelevant max %.3g",
             snakemake.input[0], *ds.X.shape, p, time.perf_counter() - t0, width, c[rel].min(), c[~rel].max())
write_npz(snakemake.output[0], contributions=c, relevant=ds.relevant, width=np.array(width),
          mean_alignment=np.array(mean_a))
