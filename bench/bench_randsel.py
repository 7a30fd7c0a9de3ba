"""randSel benchmarks: the MultiSURF ratio on XOR, prostate_ge at 10,000 subsets, throughput and memory.

(a) XOR 300 x 200 (columns permuted): median fit time of ``RandSel()`` (defaults) against skrebate's
    MultiSURF on the same data, both single-threaded, and whether each puts the pair on top.
(b) prostate_ge (102 x 5,966 expression matrix): randSel with 10,000 random partitions per iteration,
    time per iteration and in total, and its floating-point rate against numpy's matrix multiply.
(c) Peak memory of a fit with defaults on 10,000 samples (tracemalloc: numpy reports its buffers).

Run: ``.venv/bin/python bench/bench_randsel.py [--quick]`` (MultiSURF needs the ``bench`` extra:
``pip install -e '.[bench]'``). Prints a plain-text report; nothing is written.
"""

from __future__ import annotations

import argparse
import platform
import time
import tracemalloc
from pathlib import Path

import numpy as np
import scipy
import sklearn
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio.datasets import load_csv_dataset, make_dataset
from fscompbio.selection import RandSel

ROOT = Path(__file__).resolve().parents[1]
#: where prostate_ge is looked for (the repository's data, then the team's shared data beside the clone)
PROSTATE = [ROOT / "data" / "expression" / "prostate_ge.csv.gz",
            ROOT.parent / "shared" / "data" / "expression" / "prostate_ge.csv.gz"]


def permuted_xor(seed, **kw):
    ds = make_dataset("xor", random_state=seed, **kw)
    perm = np.random.default_rng(1000 + seed).permutation(ds.X.shape[1])
    return ds.X[:, perm], ds.y, set(np.flatnonzero(np.isin(perm, ds.relevant)).tolist())


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def bench_a(seeds):
    try:
        from skrebate import MultiSURF
    except ImportError:  # the optional bench extra
        MultiSURF = None
    t_r, t_m, ok_r, ok_m = [], [], 0, 0
    for seed in seeds:
        X, y, rel = permuted_xor(seed)
        dt, sel = timed(lambda: RandSel(random_state=seed).fit(X, y))
        t_r.append(dt)
        ok_r += set(np.argsort(sel.ranking_, kind="stable")[:2].tolist()) == rel
        if MultiSURF is not None:
            dt, ms = timed(lambda: MultiSURF(n_jobs=1).fit(X, y))
            t_m.append(dt)
            ok_m += set(np.argsort(-ms.feature_importances_, kind="stable")[:2].tolist()) == rel
    line = (f"(a) XOR 300 x 200, seeds {seeds[0]}-{seeds[-1]}: RandSel() median {np.median(t_r):.2f} s, "
            f"pair on top {ok_r}/{len(seeds)}")
    if t_m:
        line += (f"; MultiSURF median {np.median(t_m):.2f} s, pair on top {ok_m}/{len(seeds)} -> "
                 f"randSel / MultiSURF time ratio {np.median(t_r) / np.median(t_m):.2f}")
    else:
        line += "; MultiSURF not installed (pip install -e '.[bench]')"
    print(line, flush=True)


def matmul_gflops():
    A = np.random.default_rng(0).random((2048, 2048), dtype=np.float32)
    A @ A
    best = min(timed(lambda: A @ A)[0] for _ in range(3))
    return 2 * 2048**3 / best / 1e9


def bench_b(path, n_subsets, max_iterations):
    if path is None:
        print(f"(b) prostate_ge not found in {[str(p) for p in PROSTATE]}: skipped (pass --prostate PATH)")
        return
    ds = load_csv_dataset(path)
    X, y = ds.X, ds.y
    m, d = X.shape
    sel = RandSel(n_subsets=n_subsets, random_state=0)
    dt, sel = timed(lambda: sel.fit(X, y) if max_iterations is None else _first_iterations(sel, X, y, max_iterations))
    it = sel.n_iterations_
    s = sel.subsample_
    P = s * (s - 1) // 2
    # flops of the dominant product: squared distances T (P x n) @ masks (n x B) for every partition
    flops = sum(2.0 * P * len(surv) * n_subsets for surv in sel.support_history_[:it])
    print(f"(b) prostate_ge {m} x {d}: {n_subsets} partitions per iteration, subsample {s}: {it} iterations in "
          f"{dt:.1f} s ({dt / it:.2f} s per iteration; first iteration at {d} features), "
          f"{flops / dt / 1e9:.1f} GFLOP/s of distance products vs numpy float32 matmul "
          f"{matmul_gflops():.1f} GFLOP/s", flush=True)


def _first_iterations(sel, X, y, k):
    sel.set_params(min_features=max(2, int(np.ceil(X.shape[1] * (1 - sel.cull_fraction) ** k))))
    return sel.fit(X, y)


def bench_c(m, d):
    X, y, _ = permuted_xor(0, n_samples=m, n_features=d)
    tracemalloc.start()
    dt, sel = timed(lambda: RandSel(random_state=0).fit(X, y))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"(c) {m} x {d} XOR with defaults (subsample {sel.subsample_}): {dt:.1f} s, peak traced memory "
          f"{peak / 2**20:.0f} MiB (the data itself: {X.nbytes / 2**20:.0f} MiB)", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    ap.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    ap.add_argument("--prostate", type=Path, default=None, help="path of prostate_ge.csv.gz")
    args = ap.parse_args()
    prostate = args.prostate or next((p for p in PROSTATE if p.exists()), None)
    print(f"fscompbio {fscompbio.__version__}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"scikit-learn {sklearn.__version__}, Python {platform.python_version()}, {platform.machine()}; "
          f"{args.threads} BLAS thread(s)", flush=True)
    with threadpool_limits(args.threads):
        bench_a(list(range(2 if args.quick else 5)))
        bench_b(prostate, 1000 if args.quick else 10000, 2 if args.quick else None)
        bench_c(2000 if args.quick else 10000, 50 if args.quick else 500)


if __name__ == "__main__":
    main()
