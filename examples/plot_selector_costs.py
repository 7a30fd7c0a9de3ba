"""
What each selector costs on your shape
======================================

Fit times of every selector on ``make_classification(n, p)`` as a ratio to scikit-learn's
``SelectKBest(f_classif)`` measured in the same run (``bench/bench_selector_costs.py``; the table shipped
in ``docs/selector_costs.csv`` is its small grid on one thread of a shared 2-core machine: rerun it with
``--full`` for 100-2,000 samples x 100-20,000 features). Filters cost what reading the data costs;
the wrappers and the kernel methods grow with the samples squared (pairs of samples) and the features; the
model selectors add a pass over every prefix of the ranking (KTA) or refit the selector on inner folds
(nested CV).
"""

import matplotlib.pyplot as plt
import pandas as pd
from _paths import repo_file

costs = pd.read_csv(repo_file("docs", "selector_costs.csv"))
table = costs.pivot_table(index="selector", columns=["n_samples", "n_features"], values="ratio", sort=False)
print(table.round(1).to_string())

# %%
# Seconds per fit against the size of the data (samples x features), one line per selector.
fig, ax = plt.subplots(figsize=(6.5, 4))
for name, rows in costs.groupby("selector", sort=False):
    rows = rows.assign(size=rows.n_samples * rows.n_features).sort_values("size")
    ax.plot(rows["size"], rows["seconds"], "o-", label=name, lw=1, ms=3)
ax.set(xscale="log", yscale="log", xlabel="samples x features", ylabel="seconds per fit")
ax.legend(fontsize=6, ncol=2)
fig.tight_layout()
