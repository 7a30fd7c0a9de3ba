"""
How many features? Kernel target alignment against nested cross-validation
==========================================================================

Given a ranking, :class:`~fscompbio.model_selection.KTASelect` keeps the prefix and Gaussian width of highest
centred kernel target alignment on the training data (thesis algorithm 3): one pass, no inner
cross-validation. :class:`~fscompbio.model_selection.NestedCVSelect` refits the selector on every inner fold
and keeps the size and width of best inner accuracy (thesis 2.5.1). Both are selectors: here they wrap the
same correlation ranking on a problem with 5 relevant features of 60.
"""

import time

import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

from fscompbio.model_selection import KTASelect, NestedCVSelect
from fscompbio.selection import CorrelationSelector

rng = np.random.default_rng(1)
X = rng.normal(size=(150, 60))
relevant = rng.choice(60, size=5, replace=False)
y = np.where(X[:, relevant].sum(axis=1) + 0.5 * rng.normal(size=150) > 0, 1, -1)

for model in [KTASelect(CorrelationSelector()), NestedCVSelect(CorrelationSelector(), inner_folds=5,
                                                                 random_state=0)]:
    t0 = time.perf_counter()
    model.fit(X, y)
    seconds = time.perf_counter() - t0
    found = len(set(model.features_) & set(relevant))
    print(f"{type(model).__name__}: {model.n_features_} features ({found} of the 5 relevant), "
          f"sigma {model.sigma_:.2f}, {seconds:.2f} s")

# %%
# The alignment of every prefix (the best width of each): it peaks where the relevant features end.
kta = KTASelect(CorrelationSelector()).fit(X, y)
res = kta.result_
fig, ax = plt.subplots(figsize=(5, 3.2))
ax.plot(res.sizes, res.scores.max(axis=1), ".-")
ax.axvline(kta.n_features_, color="k", ls=":", label=f"chosen: {kta.n_features_}")
ax.set(xscale="log", xlabel="top-ranked features", ylabel="centred alignment")
ax.legend()
fig.tight_layout()

# %%
# In a pipeline, the SVM after either one is scored by an outer cross-validation.
for model in [KTASelect(CorrelationSelector()), NestedCVSelect(CorrelationSelector(), inner_folds=5,
                                                                 random_state=0)]:
    acc = cross_val_score(make_pipeline(model, SVC()), X, y, cv=5).mean()
    print(f"{type(model).__name__} + SVC: outer accuracy {acc:.2f}")
