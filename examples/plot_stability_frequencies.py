"""
Stability selection: selection frequencies
==========================================

:class:`~fscompbio.selection.StabilitySelection` (Meinshausen & Buehlmann 2010) fits a sparse learner on
many half-subsamples over a grid of regularisation values; a feature's frequency is how often it is
selected, its score the largest frequency over the grid, and the selected set those above the threshold.
"""

import matplotlib.pyplot as plt
import numpy as np

from fscompbio.datasets import make_dataset
from fscompbio.selection import StabilitySelection

ds = make_dataset("linear_weston", random_state=0, n_features=60)
sel = StabilitySelection(learner="logistic", n_bootstraps=50, random_state=0).fit(ds.X, ds.y)
chosen = np.flatnonzero(sel.get_support())
print("selected:", chosen.tolist(), "relevant:", ds.relevant.tolist())

fig, ax = plt.subplots(figsize=(5.5, 3.2))
colors = np.where(np.isin(np.arange(ds.X.shape[1]), ds.relevant), "C3", "0.6")
ax.bar(np.arange(ds.X.shape[1]), sel.scores_, color=colors)
ax.axhline(sel.threshold, color="k", ls=":", label=f"threshold {sel.threshold}")
ax.set(xlabel="feature (red: relevant)", ylabel="selection frequency")
ax.legend()
fig.tight_layout()
