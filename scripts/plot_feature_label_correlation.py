"""Thesis figure 5.4: correlation of each learned feature with the label, all windows versus support vectors."""

import logging
import sys

sys.stderr = open(snakemake.log[0], "w")
logging.basicConfig(stream=sys.stderr, level=logging.INFO)

import numpy as np  # noqa: E402

from fscompbio.cleavage import support_vector_correlations  # noqa: E402
from fscompbio.io import write_npz  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.cleavage import plot_fig5_4  # noqa: E402

p = snakemake.params
data = np.load(snakemake.input[0])
X, y = data["X"], data["y"]
r = support_vector_correlations(X, y, max_per_class=p.max_per_class, C=p.C, gamma=p.gamma, random_state=p.seed)
logging.info("%d windows, SVM on %d balanced windows, %d support vectors", y.size, r["train_index"].size,
             r["support"].size)
write_npz(snakemake.output.npz, **r)
save_figure(plot_fig5_4(r["corr_all"], r["corr_sv"], n_windows=y.size, n_sv=r["support"].size), snakemake.output.png)
