"""
randSel on a micro-array
========================

The colon-cancer micro-array that ships with fscompbio (62 tissues, 2,000 genes; Alon et al. 1999) is
ranked by randSel (Athanasakis, Shawe-Taylor & Fernandez-Reyes 2013): the alignment of random feature
subsets on random subsamples tells each gene's expected contribution, with error control over the
selected set. Its own model, :class:`~fscompbio.model_selection.OwnModelSelect`, keeps that set and chooses
the Gaussian width by alignment.
"""

import matplotlib.pyplot as plt
import numpy as np
from _paths import repo_file

from fscompbio.datasets import load_csv_dataset
from fscompbio.model_selection import OwnModelSelect
from fscompbio.selection import RandSel

ds = load_csv_dataset(repo_file("data", "expression", "colon.csv.gz"))
print(ds.X.shape, "classes:", np.unique(ds.y, return_counts=True))

own = OwnModelSelect(RandSel(random_state=0)).fit(ds.X, ds.y)
sel = own.selector_
print(f"randSel keeps {own.n_features_} genes; width sigma = {own.sigma_:.3g}")

# %%
# The genes by expected contribution: the selected ones stand out of the bulk.
order = np.argsort(sel.scores_)[::-1]
fig, ax = plt.subplots(figsize=(5, 3.2))
ax.plot(np.arange(1, order.size + 1), sel.scores_[order], lw=1)
ax.scatter(np.flatnonzero(np.isin(order, own.features_)) + 1, sel.scores_[order][np.isin(order, own.features_)],
           s=12, color="C3", label="selected")
ax.set(xscale="log", xlabel="gene (by rank)", ylabel="randSel score")
ax.legend()
fig.tight_layout()
