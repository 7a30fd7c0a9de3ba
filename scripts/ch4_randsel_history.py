"""randSel's full run on one data set: contributions per iteration and the nested surviving sets
(thesis figure 4.3)."""

import logging
import sys

sys.stderr = open(snakemake.log[0], "w")
logging.basicConfig(stream=sys.stderr, level=logging.INFO)

import time  # noqa: E402

import numpy as np  # noqa: E402

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.io import write_npz  # noqa: E402
from fscompbio.selection import RandSel  # noqa: E402

p = dict(snakemake.params.settings)
p.pop("dataset")
if p["subsample"] > 1:
    p["subsample"] = int(p["subsample"])  # a count of samples, not a fraction
ds = load_dataset(snakemake.input[0])
t0 = time.perf_counter()
sel = RandSel(**p, random_state=snakemake.params.seed).fit(ds.X, ds.y)
logging.info("%s: %d x %d, %r: %d iterations in %.1f s; top 5 %s (relevant %s); widths %s",
             snakemake.input[0], *ds.X.shape, sel, sel.n_iterations_, time.perf_counter() - t0,
             np.argsort(sel.ranking_)[:5].tolist(), ds.relevant.tolist(), sel.widths_.tolist())
sizes = np.array([s.size for s in sel.support_history_])
write_npz(snakemake.output[0], contributions=sel.contributions_, mean_alignment=sel.mean_alignment_,
          widths=sel.widths_, ranking=sel.ranking_, relevant=ds.relevant, support_sizes=sizes,
          support_history=np.concatenate(sel.support_history_), selected=sel.selected_)
