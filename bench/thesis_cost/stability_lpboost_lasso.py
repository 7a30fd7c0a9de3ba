"""CPU ms per subsample of StabilitySelection at the thesis' chapter-3 fold shapes (outer training fold, 90%):
LPBoost column generation with its previous defaults (4 learners per call, one row per call, HiGHS presolve on;
``lpboost_before``) and with 16 learners per call, presolve off (``lpboost_now``), and the lasso by coordinate
descent and by LARS, side by side in one process. Synthetic sets from the quick workflow's results/datasets/
(their thesis shapes); real sets in full from data/expression/ (the thesis config reads every feature).
Wrote stability_lpboost_lasso.json at commit 9f6620b (2026-11-22). ColumnGenerationLP has changed since (predicted
learners, a new HiGHS object per solver): the two LPBoost columns are that commit's solvers, reproducible there
only. From the repository root: .venv/bin/python bench/thesis_cost/stability_lpboost_lasso.py DATASETS_DIR OUT.json"""
import json, sys, time
import numpy as np
from threadpoolctl import threadpool_limits
import fscompbio.prediction._lpboost as lpb
from fscompbio.datasets import load_csv_dataset, load_dataset
from fscompbio.selection import StabilitySelection

synthetic = ["xor", "nonlinear_weston", "linear_weston", "fake_class", "linear_zhang_feature_noise",
             "linear_zhang_sample_noise"]
real = ["tb_serum_metabolomics", "allaml", "prostate_ge", "colon", "tb_blood_gambia"]
new_init = lpb.ColumnGenerationLP.__init__


def old_init(self, H, y, *, tol=1e-9, batch=4, signed_features=None):  # the previous defaults
    new_init(self, H, y, tol=tol, batch=batch, signed_features=signed_features)
    self.h.setOptionValue("presolve", "choose")


def per_subsample(X, y, B, **kw):
    StabilitySelection(n_bootstraps=2, random_state=0, **kw).fit(X, y)
    t = time.process_time()
    s = StabilitySelection(n_bootstraps=B, random_state=0, **kw).fit(X, y)
    return 1e3 * (time.process_time() - t) / B, s.stability_scores_


out = {}
with threadpool_limits(1):
    for name in synthetic + real:
        ds = load_dataset(f"{sys.argv[1]}/{name}.npz") if name in synthetic else load_csv_dataset(
            f"data/expression/{name}.csv.gz")
        m = int(round(0.9 * ds.X.shape[0]))
        idx = np.sort(np.random.default_rng(0).permutation(ds.X.shape[0])[:m])
        X, y = ds.X[idx], ds.y[idx]
        B = 40 if name in synthetic else 20
        row = {"shape": list(X.shape)}
        lpb.ColumnGenerationLP.__init__ = old_init
        row["lpboost_before"], f_old = per_subsample(X, y, B, learner="lpboost")
        lpb.ColumnGenerationLP.__init__ = new_init
        row["lpboost_now"], f_new = per_subsample(X, y, B, learner="lpboost")
        row["lpboost_frequencies_differing"] = int((f_old != f_new).sum())
        row["lasso_cd"], f_cd = per_subsample(X, y, B, learner="lasso")
        row["lasso_lars"], f_lars = per_subsample(X, y, B, learner="lasso", lasso_solver="lars")
        row["lasso_max_frequency_difference"] = float(np.abs(f_cd - f_lars).max())
        out[name] = row
        print(name, row, flush=True)
json.dump(out, open(sys.argv[2], "w"), indent=1)
