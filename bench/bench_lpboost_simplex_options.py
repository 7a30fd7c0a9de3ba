"""LPBoost stability selection: HiGHS's simplex options against the solver's own, and where the simplex time goes.

LPBoost's stability selection (``StabilitySelection(learner="lpboost")``) is chapter 3's costliest method in the
thesis config: its column-generation LP (:class:`fscompbio.prediction._lpboost.ColumnGenerationLP`) spends
most of a fit in HiGHS's dual simplex. This prints, measured in the same run on a 270 x 200 training fold of
three of the study's synthetic sets:

(a) where the simplex time goes: per grid value ``nu`` (1.0 first, the sparsest, down to 0.6), the HiGHS runs
    per subsample, their share of the simplex CPU time, and the working set's size at the end;
(b) whole fits with other simplex options (``simplex_dual_edge_weight_strategy`` devex or Dantzig instead of
    the default dual steepest edge, the primal simplex, HiGHS's matrix scaling on), CPU ms per subsample
    (min of alternating rounds), their ratio to the solver's own options, and how many selection
    frequencies differ from its.

Run: ``.venv/bin/python bench/bench_lpboost_simplex_options.py [--quick]``. Single-threaded BLAS; nothing is
written.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections import defaultdict

import highspy
import numpy as np
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio.prediction import _lpboost
from fscompbio.selection import StabilitySelection

# the same 270-sample training fold as bench_highs_objects.py (run as a script, bench/ is on the path)
from bench_highs_objects import _fold  # noqa: E402

#: the options tried, on top of the solver's own (:func:`fscompbio.prediction._lpboost._new_highs`)
VARIANTS = {
    "solver's own": {},
    "devex pricing": {"simplex_dual_edge_weight_strategy": 1},
    "Dantzig pricing": {"simplex_dual_edge_weight_strategy": 0},
    "primal simplex": {"simplex_strategy": 4},
    "scaling on": {"simplex_scale_strategy": 1},
}
_NEW = _lpboost._new_highs


def fit(options, X, y, n_bootstraps):
    def new_highs(hs):
        h = _NEW(hs)
        for key, value in options.items():
            h.setOptionValue(key, value)
        return h

    _lpboost._new_highs = new_highs
    try:
        t = time.process_time()
        sel = StabilitySelection(learner="lpboost", n_bootstraps=n_bootstraps, random_state=0).fit(X, y)
        return time.process_time() - t, sel
    finally:
        _lpboost._new_highs = _NEW


def runs_by_grid_value(X, y, n_bootstraps):
    """{solve index in the grid: [HiGHS runs, simplex seconds, largest working set]} over one fit."""
    stats = defaultdict(lambda: [0, 0.0, 0])
    solve, run = _lpboost.ColumnGenerationLP.solve, _lpboost.ColumnGenerationLP._run
    current = {}

    def counted_solve(self, cap):
        current["i"] = self.__dict__.setdefault("_n_solves", 0)
        self._n_solves += 1
        return solve(self, cap)

    def timed_run(self, cap):
        t = time.process_time()
        run(self, cap)
        s = stats[current["i"]]
        s[0] += 1
        s[1] += time.process_time() - t
        s[2] = max(s[2], len(self.active))

    _lpboost.ColumnGenerationLP.solve, _lpboost.ColumnGenerationLP._run = counted_solve, timed_run
    try:
        sel = StabilitySelection(learner="lpboost", n_bootstraps=n_bootstraps, random_state=0).fit(X, y)
    finally:
        _lpboost.ColumnGenerationLP.solve, _lpboost.ColumnGenerationLP._run = solve, run
    return dict(stats), sel.lambdas_


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="8 subsamples, one round, one data set")
    args = parser.parse_args()
    n_bootstraps, repeat = (8, 1) if args.quick else (100, 3)
    names = ("fake_class",) if args.quick else ("fake_class", "nonlinear_weston", "linear_zhang_feature_noise")
    print(f"numpy {np.__version__}, highspy {highspy.Highs().version()}, fscompbio {fscompbio.__version__}, "
          f"python {platform.python_version()}")
    with threadpool_limits(1):
        fit({}, *_fold("linear_weston"), 2)  # imports outside the timing
        for name in names:
            X, y = _fold(name)
            stats, nus = runs_by_grid_value(X, y, n_bootstraps)
            total = sum(s[1] for s in stats.values())
            print(f"{name}, {n_bootstraps} subsamples")
            print(f"  (a) {'nu':>5s} {'runs / subsample':>17s} {'share of simplex time':>22s} {'largest working set':>20s}")
            for i, nu in enumerate(nus):
                runs, seconds, size = stats.get(i, (0, 0.0, 0))
                print(f"      {nu:5.2f} {runs / n_bootstraps:17.2f} {seconds / total:22.1%} {size:20d}")
            best, sels = {k: np.inf for k in VARIANTS}, {}
            for _ in range(repeat):
                for key, options in VARIANTS.items():
                    t, sels[key] = fit(options, X, y, n_bootstraps)
                    best[key] = min(best[key], t)
            ref, own = sels["solver's own"].stability_scores_, best["solver's own"]
            print(f"  (b) {'options':16s} {'CPU ms / subsample':>19s} {'own / this':>11s}  frequencies differing")
            for key in VARIANTS:
                diff = np.count_nonzero(sels[key].stability_scores_ != ref)
                print(f"      {key:16s} {1e3 * best[key] / n_bootstraps:19.2f} "
                      f"{own / best[key]:10.3f}x  {diff} of {ref.size}")


if __name__ == "__main__":
    main()
