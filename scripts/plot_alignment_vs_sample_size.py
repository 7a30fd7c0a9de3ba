"""Thesis figure 4.1: mean alignment versus sample size over bootstraps."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import numpy as np  # noqa: E402

from fscompbio.studies import alignment_vs_sample_size, weston_2d  # noqa: E402
from fscompbio.io import write_json  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.alignment import plot_fig4_1  # noqa: E402

p = snakemake.params.settings
rng = np.random.default_rng(snakemake.params.seed)
pool = 4 * max(p["sample_sizes"])  # the population the bootstraps are drawn from
X2, y = weston_2d(rng, pool)
probes = rng.standard_normal((pool, p["n_probes"]))
curves = {
    f"random {2 + p['n_probes']}-d Gaussian": np.hstack([rng.standard_normal((pool, 2)), probes]),
    f"2 relevant Weston + {p['n_probes']} probes": np.hstack([X2, probes]),
    "2 relevant Weston only": X2,
}
results = {}
for label, X in curves.items():
    results[label] = alignment_vs_sample_size(X, y, p["sample_sizes"], p["n_bootstraps"], rng)
    logging.info("%s: %s", label, np.round(results[label]["biased_mean"], 4).tolist())
write_json({"sample_sizes": p["sample_sizes"], "curves": results}, snakemake.output.json)
save_figure(plot_fig4_1(p["sample_sizes"], results), snakemake.output.png)
