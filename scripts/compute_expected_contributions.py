"""Figure 1 of "Principled Non-Linear Feature Selection": one randSel pass (no culling) of expected
contributions on 200-d XOR."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import time  # noqa: E402

import numpy as np  # noqa: E402

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.io import write_npz  # noqa: E402
from fscompbio.selection import expected_contributions  # noqa: E402

p = dict(snakemake.params.settings)
p.pop("dataset")
if isinstance(p.get("subsample"), float) and p["subsample"] > 1:
    p["subsample"] = int(p["subsample"])  # a count of samples, not a fraction
ds = load_dataset(snakemake.input[0])
t0 = time.perf_counter()
c, se, width, mean_a = expected_contributions(ds.X, ds.y, **p, random_state=snakemake.params.seed)
rel = np.zeros(c.size, dtype=bool)
rel[ds.relevant] = True
z = c / se
logging.info("%s: %d x %d, %r: %.1f s; width %.3g x median; relevant c/se %s, irrelevant c/se max %.2f",
             snakemake.input[0], *ds.X.shape, p, time.perf_counter() - t0, width, np.round(z[rel], 2).tolist(),
             z[~rel].max())
write_npz(snakemake.output[0], contributions=c, contribution_se=se, relevant=ds.relevant, width=np.array(width),
          mean_alignment=np.array(mean_a))
