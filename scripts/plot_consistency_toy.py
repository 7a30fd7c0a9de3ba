"""Figures 2.2-2.4: the consistency toy (relevant features selected with probability 1.0..0.1, the
others with 0.05): selection matrices, mean variance and the log-likelihood of eq. 2.8."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import numpy as np  # noqa: E402

from fscompbio.evaluation import consistency_log_likelihood, mean_variance, simulate_selections  # noqa: E402
from fscompbio.io import write_json  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.consistency import plot_fig2_2, plot_fig2_3, plot_fig2_4  # noqa: E402

s = snakemake.params.settings
rng = np.random.default_rng(snakemake.params.seed)
probs = s["probabilities"]
kw = dict(n_folds=s["n_folds"], n_features=s["n_features"], n_relevant=s["n_relevant"], p_other=s["p_other"])
mats = [simulate_selections(p, random_state=rng, **kw) for p in probs]
mv = [mean_variance(W) for W in mats]
ll = [consistency_log_likelihood(W) for W in mats]
reps = [[simulate_selections(p, random_state=rng, **kw) for _ in range(s["n_repeats"])] for p in probs]
mv_rep = [[mean_variance(W) for W in r] for r in reps]
ll_rep = [[consistency_log_likelihood(W) for W in r] for r in reps]
for p, a, b in zip(probs, mv, ll):
    logging.info("p=%.1f: mean variance %.4f, log-likelihood %.2f", p, a, b)
save_figure(plot_fig2_2(mats, probs), snakemake.output.fig2_2)
save_figure(plot_fig2_3(probs, mv, mv_rep), snakemake.output.fig2_3)
save_figure(plot_fig2_4(probs, ll, ll_rep), snakemake.output.fig2_4)
write_json({"probabilities": probs, "mean_variance": mv, "log_likelihood": ll,
            "mean_variance_repeats_mean": np.mean(mv_rep, axis=1), "log_likelihood_repeats_mean": np.mean(ll_rep, axis=1),
            "matrices": [W.astype(int) for W in mats]}, snakemake.output.json)
