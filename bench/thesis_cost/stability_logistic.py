"""CPU ms per subsample of StabilitySelection(learner="logistic") at the thesis' chapter-3 fold shapes (outer
training fold, 90%): one liblinear solve on all features (``logistic_solver="liblinear"``, the previous path) and
the working set grown by KKT violators (``"working_set"``, the default), side by side in one process, with the
largest difference of the selection frequencies. Synthetic sets (300 x 200: the working set is not used there,
features do not outnumber twice the subsample) are left out. Real sets in full from data/expression/.
Wrote stability_logistic.json at commit c762274 (2026-11-23). From the repository root:
.venv/bin/python bench/thesis_cost/stability_logistic.py OUT.json"""
import json, sys, time
import numpy as np
from threadpoolctl import threadpool_limits
from fscompbio.datasets import load_csv_dataset
from fscompbio.selection import StabilitySelection

real = ["tb_serum_metabolomics", "allaml", "prostate_ge", "colon", "tb_blood_gambia"]


def per_subsample(X, y, B, **kw):
    StabilitySelection(learner="logistic", n_bootstraps=2, random_state=0, **kw).fit(X, y)
    t = time.process_time()
    s = StabilitySelection(learner="logistic", n_bootstraps=B, random_state=0, **kw).fit(X, y)
    return 1e3 * (time.process_time() - t) / B, s.stability_scores_


out = {}
with threadpool_limits(1):
    for name in real:
        ds = load_csv_dataset(f"data/expression/{name}.csv.gz")
        m = int(round(0.9 * ds.X.shape[0]))
        idx = np.sort(np.random.default_rng(0).permutation(ds.X.shape[0])[:m])
        X, y = ds.X[idx], ds.y[idx]
        row = {"shape": list(X.shape)}
        row["logistic_liblinear"], f_old = per_subsample(X, y, 40, logistic_solver="liblinear")
        row["logistic_working_set"], f_new = per_subsample(X, y, 40, logistic_solver="working_set")
        row["logistic_max_frequency_difference"] = float(np.abs(f_old - f_new).max())
        row["logistic_entries_differing"] = [int((f_old != f_new).sum()), int(f_old.size)]
        out[name] = row
        print(name, row, flush=True)
json.dump(out, open(sys.argv[1], "w"), indent=1)
