"""Thesis figure 5.4's numbers: the correlation of each learned feature with the label, on all windows and on
the support vectors of an SVM trained on a balanced sample of them."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import numpy as np  # noqa: E402

from fscompbio.cleavage import support_vector_correlations  # noqa: E402
from fscompbio.io import write_npz  # noqa: E402

p = snakemake.params
data = np.load(snakemake.input[0])
X, y = data["X"], data["y"]
r = support_vector_correlations(X, y, max_per_class=p.max_per_class, C=p.C, gamma=p.gamma, random_state=p.seed)
logging.info("%d windows, SVM on %d balanced windows, %d support vectors", y.size, r["train_index"].size,
             r["support"].size)
write_npz(snakemake.output[0], **r)
