"""Stability selection with LPBoost: the column-generation solver against its reference, same run (CPU).

For each of the six synthetic 300 x 200 sets, one 270-sample outer training fold
(``np.random.default_rng(0).permutation(300)[:270]``), ``StabilitySelection(learner="lpboost")`` with
its five ``nu`` per subsample, fitted twice in the same process: once with
``fscompbio.prediction._lpboost._ReferenceColumnGenerationLP`` (the previous solver) in place of
``ColumnGenerationLP``, once with ``ColumnGenerationLP`` (working set extrapolated over the caps,
near-violators joining with the violators, no HiGHS scaling, pooled HiGHS objects). Prints the CPU ms per subsample (all five ``nu``) of both,
their ratio, and how many of the ``5 x 200`` selection frequencies differ.

Run: ``.venv/bin/python bench/bench_lpboost_stability.py [--quick] [--subsamples N]``. Single-threaded
BLAS; nothing is written. The two paths alternate (``--repeat`` rounds, the smallest time of each kept)
so that load from other processes on a shared machine hits both alike.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
import scipy
import sklearn
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio.datasets import make_dataset
from fscompbio.prediction import _lpboost
from fscompbio.selection import StabilitySelection

SETS = (
    "xor",
    "nonlinear_weston",
    "fake_class",
    "linear_zhang_feature_noise",
    "linear_zhang_sample_noise",
    "linear_weston",
)


def fit_with(cls, X, y, n_bootstraps):
    """CPU seconds and the fitted selector, with ``cls`` as stability selection's LP solver."""
    saved = _lpboost.ColumnGenerationLP
    _lpboost.ColumnGenerationLP = cls  # _stability imports it from the module at fit time
    try:
        t = time.process_time()
        sel = StabilitySelection(learner="lpboost", n_bootstraps=n_bootstraps, random_state=0).fit(X, y)
        return time.process_time() - t, sel
    finally:
        _lpboost.ColumnGenerationLP = saved


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 subsamples, two sets, one round")
    parser.add_argument("--subsamples", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    n_bootstraps, repeat, sets = args.subsamples, args.repeat, SETS
    if args.quick:
        n_bootstraps, repeat, sets = 8, 1, SETS[:2]
    print(f"numpy {np.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, "
          f"fscompbio {fscompbio.__version__}, python {platform.python_version()}")
    print(f"stability selection with LPBoost, 270 x 200 training fold, {n_bootstraps} subsamples x 5 nu, "
          "CPU ms per subsample (min of %d alternating rounds)" % repeat)
    print(f"{'data set':28s} {'reference':>10s} {'new':>8s} {'ratio':>6s}  frequencies differing")
    new_cls, ref_cls = _lpboost.ColumnGenerationLP, _lpboost._ReferenceColumnGenerationLP
    with threadpool_limits(1):
        fit_with(new_cls, *_fold("linear_weston"), 2)  # imports (HiGHS) outside the timing
        for name in sets:
            X, y = _fold(name)
            t_ref = t_new = np.inf
            for _ in range(repeat):
                t, ref = fit_with(ref_cls, X, y, n_bootstraps)
                t_ref = min(t_ref, t)
                t, new = fit_with(new_cls, X, y, n_bootstraps)
                t_new = min(t_new, t)
            diff = ref.stability_scores_ != new.stability_scores_
            print(f"{name:28s} {1e3 * t_ref / n_bootstraps:10.2f} {1e3 * t_new / n_bootstraps:8.2f} "
                  f"{t_ref / t_new:5.2f}x  {np.count_nonzero(diff)} of {diff.size}")


def _fold(name):
    ds = make_dataset(name, random_state=0)
    idx = np.random.default_rng(0).permutation(ds.X.shape[0])[:270]
    return ds.X[idx], ds.y[idx]


if __name__ == "__main__":
    main()
