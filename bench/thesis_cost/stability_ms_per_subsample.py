"""CPU ms per subsample of StabilitySelection (l1-logistic, LPBoost) at the thesis' chapter-3 fold shapes (outer
training fold, 90%), on the data sets in results/datasets/ built with config/thesis.yaml, one BLAS thread.
Wrote stability_ms_per_subsample.json at commit c51b3e9 (2026-11-22). From the repository root:
.venv/bin/python bench/thesis_cost/stability_ms_per_subsample.py OUT.json N_SUBSAMPLES"""
import json, sys, time, numpy as np
from threadpoolctl import threadpool_limits
import fscompbio
from fscompbio.datasets import load_dataset
from fscompbio.selection import StabilitySelection
out = {"src": fscompbio.__file__}
names = ["xor", "nonlinear_weston", "linear_weston", "fake_class", "linear_zhang_feature_noise", "linear_zhang_sample_noise",
         "tb_serum_metabolomics", "allaml", "prostate_ge", "colon", "tb_blood_gambia"]
B = int(sys.argv[2])
with threadpool_limits(1):
    for name in names:
        ds = load_dataset(f"results/datasets/{name}.npz")
        m = int(round(0.9 * ds.X.shape[0]))
        rng = np.random.default_rng(0); idx = np.sort(rng.permutation(ds.X.shape[0])[:m])
        X, y = ds.X[idx], ds.y[idx]
        for learner in ("logistic", "lpboost"):
            StabilitySelection(learner=learner, n_bootstraps=2, random_state=0).fit(X, y)
            t = time.process_time(); StabilitySelection(learner=learner, n_bootstraps=B, random_state=0).fit(X, y)
            out[f"{name}/{learner}"] = 1e3 * (time.process_time() - t) / B
            print(name, learner, round(out[f"{name}/{learner}"], 2), flush=True)
json.dump(out, open(sys.argv[1], "w"), indent=1)
