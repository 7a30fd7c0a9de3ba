import time, numpy as np, sys
from threadpoolctl import threadpool_limits
from fscompbio.datasets import load_dataset
from fscompbio.evaluation import make_selector
cases = [("xor", dict(n_subsets=3000, subsample=0.25, batch_size=100, cull_fraction=0.25)),
         ("allaml", dict(n_subsets=10000, subsample=0.333, batch_size=100, cull_fraction=0.25)),
         ("prostate_ge", dict(n_subsets=10000, subsample=0.333, batch_size=100, cull_fraction=0.25)),
         ("tb_serum_metabolomics", dict(n_subsets=5000, subsample=0.333, batch_size=100, cull_fraction=0.25)),
         ("gaussian_rfe:xor", dict(step=0.25)), ("gaussian_rfe:allaml", dict(step=0.25))]
with threadpool_limits(1):
    for name, p in cases:
        meth = "randsel"
        if ":" in name: meth, name = name.split(":")
        ds = load_dataset(f"results/datasets/{name}.npz")
        m = int(round(0.9 * ds.X.shape[0])); X, y = ds.X[:m], ds.y[:m]
        full = p.get("n_subsets")
        pts = []
        for k in ([150, 300] if full else [None]):
            q = dict(p); 
            if k: q["n_subsets"] = k
            sel = make_selector(meth, q, random_state=0)
            t = time.process_time(); sel.fit(X, y); pts.append((k, time.process_time() - t))
        if full:
            (k1, t1), (k2, t2) = pts; est = t1 + (t2 - t1) / (k2 - k1) * (full - k1)
        else:
            est = pts[0][1]
        print(meth, name, pts, "one fit at full size ~", round(est, 1), "s; x11 =", round(11 * est), "s", flush=True)
