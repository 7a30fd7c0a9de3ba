"""Thesis figure 3.1: alignment versus Gaussian width as irrelevant features are added."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import numpy as np  # noqa: E402

from fscompbio.studies import alignment_vs_width  # noqa: E402
from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.kernels import median_distance  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.alignment import plot_fig3_1  # noqa: E402

p = snakemake.params.settings
ds = load_dataset(snakemake.input[0])
rng = np.random.default_rng(snakemake.params.seed)
sigmas = np.logspace(p["sigmas"]["start"], p["sigmas"]["stop"], p["sigmas"]["num"])
relevant = ds.X[:, ds.relevant]
noise = rng.standard_normal((ds.n_samples, max(p["n_irrelevant"])))
curves, medians = {}, {}
for n_irr in p["n_irrelevant"]:
    X = np.hstack([relevant, noise[:, :n_irr]])
    curves[n_irr] = alignment_vs_width(X, ds.y, sigmas)
    medians[n_irr] = median_distance(X)
    best = sigmas[curves[n_irr].argmax()]
    logging.info("%d irrelevant: best width sigma %.3g (gamma = the thesis' sigma %.3g; %.2f x median distance), "
                 "alignment %.4f", n_irr, best, 1 / (2 * best**2), best / medians[n_irr], curves[n_irr].max())
save_figure(plot_fig3_1(sigmas, curves, medians), snakemake.output[0])
