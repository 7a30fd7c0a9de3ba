"""Thesis figure 4.2: alignment of random feature halves on XOR with 5..25 irrelevant features."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import numpy as np  # noqa: E402

from fscompbio.studies import split_alignments  # noqa: E402
from fscompbio.datasets import make_dataset  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.alignment import plot_fig4_2  # noqa: E402

p = snakemake.params.settings
rng = np.random.default_rng(snakemake.params.seed)
results = {}
for n_irr in p["n_irrelevant"]:
    ds = make_dataset("xor", n_features=2 + n_irr, random_state=rng)
    results[n_irr] = split_alignments(ds.X, ds.y, p["n_splits"], p["subsample"], rng)
    r = results[n_irr]
    logging.info("n=%d: mean alignment of halves with both relevant %.4f, with neither %.4f", n_irr,
                 r["a"][r["a_has"] == 2].mean(), r["a"][r["a_has"] == 0].mean())
save_figure(plot_fig4_2(results), snakemake.output[0])
