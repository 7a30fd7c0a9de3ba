"""Anticorrelation weighting (thesis section 4.5, algorithm 7) beside randSel and BaHSIC, on the thesis' sets.

The thesis presents anticorrelation weighting as its first attempt at a random-subset selector: random
halvings of the features, the HSIC difference of each pair of halves, and a non-negative, l1-regularised,
epsilon-insensitive regression of those differences on the +-1 partition indicators. It reports the scheme
as sensitive to ``epsilon`` and ``lambda`` with the Gaussian (product) kernel, and moves on to randSel.
This prints what it does on the study's synthetic sets, measured in one run:

(a) recovery: over several draws (columns permuted, a new seed each), how many of the relevant features are
    in each method's top-k (k = the number of relevant features), and how many features anticorrelation
    weighting selects by itself (its non-zero weights);
(b) sensitivity: the recovery of anticorrelation weighting over a grid of ``epsilon`` x ``alpha`` on XOR;
(c) time: median fit time of each method, and the ratio to randSel's.

Run: ``.venv/bin/python bench/bench_anticorrelation.py [--quick]``. Single-threaded BLAS; nothing is written.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
import sklearn
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio.datasets import DATASETS, make_dataset
from fscompbio.selection import AnticorrelationWeighting, BaHSIC, RandSel

SETS = ("xor", "nonlinear_weston", "linear_weston", "linear_zhang_feature_noise")


def _draw(name, seed):
    ds = make_dataset(name, random_state=seed)
    perm = np.random.default_rng(1000 + seed).permutation(ds.X.shape[1])
    relevant = np.flatnonzero(np.isin(perm, ds.relevant))  # where the relevant columns went
    return ds.X[:, perm], ds.y, relevant


def _hits(ranking, relevant):
    top = np.argsort(ranking, kind="stable")[: relevant.size]
    return int(np.isin(top, relevant).sum())


def _methods(seed, n_partitions):
    return {
        "anticorrelation": AnticorrelationWeighting(n_partitions=n_partitions, random_state=seed),
        "randSel": RandSel(random_state=seed),
        "BaHSIC": BaHSIC(),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two draws of two sets, a 2 x 2 grid")
    args = parser.parse_args()
    draws, sets, n_partitions = (2, SETS[:2], 200) if args.quick else (5, SETS, 500)
    grid_eps, grid_alpha = ((0.1, 0.5), (0.01, 0.001)) if args.quick else ((0.0, 0.1, 0.5, 1.0), (0.1, 0.01, 0.001))
    print(f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, fscompbio {fscompbio.__version__}, "
          f"python {platform.python_version()}")
    times = {}
    with threadpool_limits(1):
        print(f"(a) relevant features in the top k over {draws} draws (columns permuted); anticorrelation with "
              f"{n_partitions} partitions, defaults otherwise")
        print(f"    {'data set':28s} {'k':>2s}  {'anticorrelation':>15s} {'randSel':>8s} {'BaHSIC':>7s}  "
              "anticorrelation's own selection (features)")
        for name in sets:
            hits = {m: 0 for m in ("anticorrelation", "randSel", "BaHSIC")}
            n_sel, k = [], DATASETS[name].n_relevant
            for seed in range(draws):
                X, y, relevant = _draw(name, seed)
                for method, sel in _methods(seed, n_partitions).items():
                    t = time.process_time()
                    sel.fit(X, y)
                    times.setdefault(method, []).append(time.process_time() - t)
                    hits[method] += _hits(sel.ranking_, relevant)
                    if method == "anticorrelation":
                        n_sel.append(int(sel.get_support().sum()))
            total = k * draws
            print(f"    {name:28s} {k:2d}  {hits['anticorrelation']:>9d} of {total:<3d} {hits['randSel']:>4d} of "
                  f"{total:<3d}{hits['BaHSIC']:>3d} of {total:<3d} median {int(np.median(n_sel))} "
                  f"(range {min(n_sel)}-{max(n_sel)})")
        print(f"(b) anticorrelation on XOR: relevant features in the top 2 over {draws} draws, epsilon x alpha")
        print("    " + "epsilon \\ alpha".ljust(16) + "".join(f"{a:>8g}" for a in grid_alpha))
        for eps in grid_eps:
            row = []
            for alpha in grid_alpha:
                h = 0
                for seed in range(draws):
                    X, y, relevant = _draw("xor", seed)
                    sel = AnticorrelationWeighting(n_partitions=n_partitions, epsilon=eps, alpha=alpha,
                                                   random_state=seed).fit(X, y)
                    h += _hits(sel.ranking_, relevant)
                row.append(f"{h:>4d}/{2 * draws:<3d}")
            print(f"    {eps:<16g}" + "".join(row))
    base = np.median(times["randSel"])
    print("(c) median CPU seconds per fit (all sets and draws above), and the ratio to randSel's")
    for method, ts in times.items():
        print(f"    {method:16s} {np.median(ts):7.2f} s  {np.median(ts) / base:6.2f}x")


if __name__ == "__main__":
    main()
