"""
A selector in a pipeline, with pandas in and out
================================================

Every fscompbio selector is a scikit-learn transformer: it goes into a ``Pipeline``, its settings into
``GridSearchCV``, and a DataFrame's column names come out of ``get_feature_names_out()`` and
``set_output(transform="pandas")``. Missing values are refused with the name of the column, so impute inside
the pipeline, where the imputation is fitted on the training folds only.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.impute import SimpleImputer
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

from fscompbio.selection import BaHSIC

# %%
# Data: 40 genes, the class depends on genes 7 and 21 jointly (an XOR), and a few values are missing.
rng = np.random.default_rng(0)
X = pd.DataFrame(rng.normal(size=(200, 40)), columns=[f"gene_{j}" for j in range(40)])
y = np.where(X["gene_7"] * X["gene_21"] > 0, "responder", "non-responder")
X = X.mask(rng.random(X.shape) < 0.01)  # 1% missing

try:
    BaHSIC().fit(X, y)
except ValueError as err:
    print(err)

# %%
# Impute, select and classify in one pipeline; the grid searches the number of features and C.
pipe = make_pipeline(SimpleImputer(strategy="median"), BaHSIC(), SVC())
grid = GridSearchCV(pipe, {"bahsic__n_features_to_select": [1, 2, 5, 10], "svc__C": [1.0, 10.0]}, cv=5)
grid.fit(X, y)
print("best:", grid.best_params_, f"accuracy {grid.best_score_:.2f}")

selector = grid.best_estimator_.named_steps["bahsic"]
print("kept:", list(selector.get_feature_names_out(X.columns)))

# %%
# The selector alone, DataFrame in and DataFrame out.
sel = make_pipeline(SimpleImputer(strategy="median"), BaHSIC(n_features_to_select=2)).set_output(
    transform="pandas")
print(sel.fit_transform(X, y).head())

scores = grid.cv_results_["mean_test_score"].reshape(4, 2)
fig, ax = plt.subplots(figsize=(5, 3.2))
for j, C in enumerate([1.0, 10.0]):
    ax.plot([1, 2, 5, 10], scores[:, j], "o-", label=f"C = {C:g}")
ax.set(xscale="log", xlabel="features kept by BaHSIC", ylabel="cross-validated accuracy")
ax.legend()
fig.tight_layout()
