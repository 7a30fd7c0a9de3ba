"""LPBoost column generation: a new HiGHS object per solver against reusing the objects of dropped solvers.

Stability selection with LPBoost builds one :class:`ColumnGenerationLP` per subsample (five caps each).
Each owns a new HiGHS object, so that no solve can start from the model, basis or options that an
earlier solver left behind. This prints what reusing objects (a per-thread pool of cleared objects, as
the solver once did) would save, measured in the same run:

(a) the set-up alone: ``highspy.Highs()`` with the solver's options against ``clearModel()`` of a used
    object, microseconds per solver;
(b) whole fits: ``StabilitySelection(learner="lpboost")`` on a 270 x 200 training fold of XOR and of the
    non-linear Weston set, CPU ms per subsample with new objects and with pooled ones (min of alternating
    rounds), their ratio, and how many selection frequencies differ.

Run: ``.venv/bin/python bench/bench_highs_objects.py [--quick]``. Single-threaded BLAS; nothing is written.
"""

from __future__ import annotations

import argparse
import platform
import time

import highspy
import numpy as np
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio.datasets import make_dataset
from fscompbio.prediction import _lpboost
from fscompbio.selection import StabilitySelection

_POOL: list = []


def _pooled_highs(hs):
    """The pool's policy: a dropped solver's object, cleared (options kept), or a new one."""
    if _POOL:
        h = _POOL.pop()
        h.clearModel()
        return h
    return _NEW(hs)


class PooledColumnGenerationLP(_lpboost.ColumnGenerationLP):
    def __del__(self):
        if len(_POOL) < 4:
            _POOL.append(self.h)


_NEW = _lpboost._new_highs


def setup_us(n=2000):
    t = time.perf_counter()
    for _ in range(n):
        h = _NEW(highspy)
    t_new = (time.perf_counter() - t) / n
    t = time.perf_counter()
    for _ in range(n):
        h.clearModel()
    t_clear = (time.perf_counter() - t) / n
    return 1e6 * t_new, 1e6 * t_clear


def fit(pooled, X, y, n_bootstraps):
    saved_cls, saved_new = _lpboost.ColumnGenerationLP, _lpboost._new_highs
    if pooled:
        _lpboost.ColumnGenerationLP, _lpboost._new_highs = PooledColumnGenerationLP, _pooled_highs
    try:
        t = time.process_time()
        sel = StabilitySelection(learner="lpboost", n_bootstraps=n_bootstraps, random_state=0).fit(X, y)
        return time.process_time() - t, sel
    finally:
        _lpboost.ColumnGenerationLP, _lpboost._new_highs = saved_cls, saved_new
        _POOL.clear()


def _fold(name):
    ds = make_dataset(name, random_state=0)
    idx = np.random.default_rng(0).permutation(ds.X.shape[0])[:270]
    return ds.X[idx], ds.y[idx]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 subsamples, one round")
    args = parser.parse_args()
    n_bootstraps, repeat = (8, 1) if args.quick else (40, 3)
    print(f"numpy {np.__version__}, highspy {highspy.Highs().version()}, fscompbio {fscompbio.__version__}, "
          f"python {platform.python_version()}")
    t_new, t_clear = setup_us()
    print(f"(a) set-up per solver: new object + options {t_new:.1f} us, clearModel of a used one {t_clear:.1f} us")
    print(f"(b) stability selection, {n_bootstraps} subsamples x 5 nu, CPU ms per subsample (min of {repeat} rounds)")
    print(f"    {'data set':18s} {'new':>8s} {'pooled':>8s} {'new/pooled':>10s}  frequencies differing")
    with threadpool_limits(1):
        fit(False, *_fold("linear_weston"), 2)  # imports outside the timing
        for name in ("xor", "nonlinear_weston"):
            X, y = _fold(name)
            best = {False: np.inf, True: np.inf}
            sels = {}
            for _ in range(repeat):
                for pooled in (False, True):
                    t, sels[pooled] = fit(pooled, X, y, n_bootstraps)
                    best[pooled] = min(best[pooled], t)
            diff = np.count_nonzero(sels[False].stability_scores_ != sels[True].stability_scores_)
            print(f"    {name:18s} {1e3 * best[False] / n_bootstraps:8.2f} {1e3 * best[True] / n_bootstraps:8.2f} "
                  f"{best[False] / best[True]:9.3f}x  {diff} of {sels[False].stability_scores_.size}")


if __name__ == "__main__":
    main()
