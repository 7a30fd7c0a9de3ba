"""cProfile of one fit of each long pole of the thesis config, at its settings, on one BLAS thread.

Poles (``config/thesis.yaml``): stability selection (chapter 3's ``stabsel_lpboost``, ``stabsel_lasso``,
``stabsel_logreg``: 1,000 subsamples of half a 90% training fold, five regularisation values) on a 270 x 200
fold of XOR and a 65 x 7,129 fold of AML/ALL (the lasso there by LARS, as the config sets it); HSIC Lasso on
figure R.2's additive set at n = 300 (1,000 irrelevant features); sparse filtering (chapter 5: 1,500
features on 10,000 windows of rank 228, float32) for a few L-BFGS iterations. Stability selection runs
``--subsamples`` of its 1,000 subsamples (the cost is linear in them), sparse filtering ``--iterations`` of
its 200. Prints the CPU time and the functions with the most own time.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/profile_long_poles.py [POLE ...] [--subsamples N]``; poles:
``lpboost:xor lpboost:allaml lasso:xor lars:allaml logistic:xor logistic:allaml hsic_lasso:300 sparse_filtering``.
Nothing is written.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

POLES = ("lpboost:xor", "lpboost:allaml", "lasso:xor", "lars:allaml", "logistic:xor", "logistic:allaml",
         "hsic_lasso:300", "sparse_filtering")


def _fold(name):
    from fscompbio.datasets import load_csv_dataset, make_dataset

    if name == "xor":
        ds = make_dataset("xor", random_state=0)
    else:
        ds = load_csv_dataset(Path(__file__).resolve().parents[1] / "data" / "expression" / f"{name}.csv.gz")
    rows = np.random.default_rng(0).permutation(len(ds.y))[: int(round(0.9 * len(ds.y)))]
    return np.asarray(ds.X, dtype=float)[rows], np.asarray(ds.y)[rows]


def _fit(pole, subsamples, iterations):
    """A no-argument function running one fit of ``pole`` (imports and data outside it)."""
    kind, _, arg = pole.partition(":")
    if kind in ("lpboost", "lasso", "lars", "logistic"):
        from fscompbio.selection import StabilitySelection

        X, y = _fold(arg)
        kw = dict(learner="lasso", lasso_solver="lars") if kind == "lars" else dict(learner=kind)
        StabilitySelection(n_bootstraps=2, random_state=0, **kw).fit(X, y)  # solver imports
        return lambda: StabilitySelection(n_bootstraps=subsamples, random_state=0, **kw).fit(X, y)
    if kind == "hsic_lasso":
        from fscompbio.evaluation._recovery import recovery_trial

        return lambda: recovery_trial("additive", int(arg), "hsic_lasso", params={"block_size": 0}, seed=1,
                                      n_irrelevant=1000)
    if kind == "sparse_filtering":
        from fscompbio.representation import SparseFiltering

        rng = np.random.default_rng(0)
        X = rng.normal(size=(10_000, 228)) @ rng.normal(size=(228, 648))
        return lambda: SparseFiltering(1500, max_iter=iterations, random_state=0, dtype=np.float32).fit(X)
    raise SystemExit(f"unknown pole {pole!r}; poles: {', '.join(POLES)}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("poles", nargs="*", default=list(POLES))
    ap.add_argument("--subsamples", type=int, default=50, help="stability selection's subsamples (thesis: 1,000)")
    ap.add_argument("--iterations", type=int, default=8, help="sparse filtering's L-BFGS iterations (thesis: 200)")
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args(argv)
    with threadpool_limits(1):
        for pole in args.poles:
            fn = _fit(pole, args.subsamples, args.iterations)
            prof = cProfile.Profile()
            t = time.process_time()
            prof.enable()
            fn()
            prof.disable()
            cpu = time.process_time() - t
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(args.top)
            body = out.getvalue().splitlines()
            start = next(i for i, line in enumerate(body) if line.lstrip().startswith("ncalls"))
            what = {"hsic_lasso": "one fit", "sparse_filtering": f"{args.iterations} iterations"}.get(
                pole.partition(":")[0], f"{args.subsamples} subsamples")
            print(f"== {pole}: {cpu:.2f} CPU s, profiled ({what})")
            print("\n".join(body[start:]).rstrip())


if __name__ == "__main__":
    main()
