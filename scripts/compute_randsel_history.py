"""randSel's full run on one data set: contributions per iteration, the mean alignment and the nested
surviving sets (thesis figure 4.3, and figure 2 of "Principled Non-Linear Feature Selection": figP_2)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import time  # noqa: E402

import numpy as np  # noqa: E402

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.io import write_npz  # noqa: E402
from fscompbio.selection import RandSel  # noqa: E402

p = dict(snakemake.params.settings)
p.pop("dataset")
if isinstance(p.get("subsample"), float) and p["subsample"] > 1:
    p["subsample"] = int(p["subsample"])  # a count of samples, not a fraction
ds = load_dataset(snakemake.input[0])
t0 = time.perf_counter()
sel = RandSel(**p, random_state=snakemake.params.seed).fit(ds.X, ds.y)
logging.info("%s: %d x %d, %r: %d iterations in %.1f s (subsample %d, partitions %s); top 5 %s (relevant %s); "
             "selected %s at iteration %s; mean alignment %s",
             snakemake.input[0], *ds.X.shape, sel, sel.n_iterations_, time.perf_counter() - t0, sel.subsample_,
             sel.n_subsets_.tolist(), np.argsort(sel.ranking_)[:5].tolist(), ds.relevant.tolist(),
             sel.selected_.tolist(), sel.selected_iteration_, np.round(sel.mean_alignment_, 4).tolist())
sizes = np.array([s.size for s in sel.support_history_])
write_npz(snakemake.output[0], contributions=sel.contributions_, contribution_se=sel.contribution_se_,
          mean_alignment=sel.mean_alignment_, widths=sel.widths_, ranking=sel.ranking_, relevant=ds.relevant,
          support_sizes=sizes, support_history=np.concatenate(sel.support_history_), selected=sel.selected_,
          selected_iteration=np.array(-1 if sel.selected_iteration_ is None else sel.selected_iteration_),
          n_subsets=sel.n_subsets_, subsample=np.array(sel.subsample_))
