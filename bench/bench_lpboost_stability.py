"""Stability selection with LPBoost: the column-generation solver against its reference, same run (CPU).

For each of the six synthetic 300 x 200 sets, one 270-sample outer training fold
(``np.random.default_rng(0).permutation(300)[:270]``), ``StabilitySelection(learner="lpboost")`` with
its five ``nu`` per subsample, fitted twice in the same process: once with
``PreviousColumnGenerationLP`` below (the previous solver, copied) in place of
``ColumnGenerationLP``, once with ``ColumnGenerationLP`` (working set extrapolated over the caps,
near-violators joining with the violators, no HiGHS scaling). Prints the CPU ms per subsample (all five ``nu``) of both,
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
from fscompbio.prediction._lpboost import _top_stable, feasible_cap  # noqa: F401 (used by the copy)
from fscompbio.selection import StabilitySelection

SETS = (
    "xor",
    "nonlinear_weston",
    "fake_class",
    "linear_zhang_feature_noise",
    "linear_zhang_sample_noise",
    "linear_weston",
)


class PreviousColumnGenerationLP:
    """The column-generation solver as of 2026-11-22 (verbatim but for this paragraph), the baseline.

    The same column generation as :class:`ColumnGenerationLP` with ``extrapolate=0``, HiGHS's
    default scaling and a new HiGHS object per instance. Its original description follows.

    LPBoost's dual LP (eq. 3.3 with cap ``D``) by column generation, with HiGHS warm starts.

    The LPBoost algorithm of Demiriz et al. (2002): the dual is solved over a
    small working set of weak learners (one constraint
    ``sum_i u_i y_i H_ij <= beta`` each); the learner that violates its
    constraint most at the current ``u`` (``y H_j . u > beta``) joins the set,
    and the LP is re-solved from the previous basis (HiGHS dual simplex),
    until no learner violates by more than ``tol``. The optimum is the full
    LP's (by LP duality, the learners left out have weight 0), and each
    re-solve touches only a few rows, which is what makes the 5,000 LPs of one
    stability-selection fit with 1,000 subsamples cheap. Changing the cap
    (:meth:`solve` with another ``cap``) changes only column bounds and keeps
    both the working set and the basis.

    Parameters
    ----------
    H : ndarray of shape (m, J) or None
        Weak-learner outputs.
    y : ndarray of shape (m,), in {-1, +1}
    tol : float, default=1e-9
        A learner joins when ``y H_j . u - beta > tol``.
    batch : int, default=16
        Up to this many of the most violating learners join per iteration.
        Each HiGHS re-solve costs ~1-2 ms whatever the few pivots it makes, so
        fewer, larger rounds are faster: 16 instead of 4 (with presolve off)
        cut stability selection's LPs by 20-40% on the non-separable
        300 x 200 sets, with identical selection frequencies on 40
        subsamples of each of 11 data sets; where the LP has several optimal
        vertices the support found may differ (colon: 10 of 2,000 entries).
    signed_features : ndarray of shape (m, n) or None
        With ``H=None``: the learners are the features and their negations,
        ``H = [Z, -Z]`` (stability selection's), built without forming ``H``.

    Notes
    -----
    :class:`PrimalLP` (cvxpy, the whole LP at once) is the reference; the
    tests compare the two on random problems (objective, weights, support).
    """

    def __init__(self, H, y, *, tol=1e-9, batch=16, signed_features=None):
        import highspy

        y = np.asarray(y, dtype=float)
        if signed_features is not None:
            # H = [Z, -Z] given as Z: M = [(y Z)', -(y Z)'] without forming H (the same numbers: y (-z) = -(y z))
            yz = (y[:, None] * np.asarray(signed_features, dtype=float)).T
            self.M = np.concatenate([yz, -yz])
        else:
            H = np.asarray(H, dtype=float)
            self.M = np.ascontiguousarray((y[:, None] * H).T)  # (J, m): learner j's row over u
        J, m = self.M.shape
        self.m, self.J = m, J
        self.y = y
        self.tol = float(tol)
        self.batch = int(batch)
        self._highspy = highspy
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("parallel", "off")  # no thread count: HiGHS >= 1.16 fails on one unlike its scheduler's
        h.setOptionValue("random_seed", 0)
        h.setOptionValue("presolve", "off")  # every re-solve starts from the previous basis: presolve only costs
        inf = highspy.kHighsInf
        # columns u_1..u_m in [0, 1] (the cap is set in solve), beta free; minimise beta
        h.addVars(m + 1, np.r_[np.zeros(m), -inf], np.r_[np.ones(m), inf])
        h.changeColCost(m, 1.0)
        cols = np.arange(m, dtype=np.int32)
        h.addRow(1.0, 1.0, m, cols, np.ones(m))  # sum u = 1
        h.addRow(0.0, 0.0, m, cols, y.copy())  # sum u y = 0 (the bias)
        self.h = h
        self.active = []  # learner index of each constraint row (rows 2, 3, ...)
        self._cap = None
        self._inf = inf

    def _add(self, learners):
        learners = np.asarray(learners, dtype=int)
        k, m = learners.size, self.m
        values = np.empty((k, m + 1))
        values[:, :m] = self.M[learners]
        values[:, m] = -1.0  # sum_i u_i y_i H_ij - beta <= 0
        starts = np.arange(k, dtype=np.int32) * (m + 1)
        index = np.tile(np.arange(m + 1, dtype=np.int32), k)
        self.h.addRows(k, np.full(k, -self._inf), np.zeros(k), k * (m + 1), starts, index, values.ravel())
        self.active.extend(int(j) for j in learners)

    def solve(self, cap):
        """Solve for cap ``D`` (at least :func:`feasible_cap`).

        Returns
        -------
        a : ndarray of shape (J,)
            Weak-learner weights (the multipliers of the learner constraints).
        beta : float
            The optimum (= the primal's ``rho - D sum xi``).
        """
        m = self.m
        h = self.h
        if cap != self._cap:
            h.changeColsBounds(m, np.arange(m, dtype=np.int32), np.zeros(m), np.full(m, float(cap)))
            self._cap = cap
        if not self.active:
            # start from the learner best at the class-balanced weights (feasible for any cap)
            pos = self.y > 0
            u0 = np.where(pos, 0.5 / pos.sum(), 0.5 / (~pos).sum())
            self._add([int(np.argmax(self.M @ u0))])
        ok = self._highspy.HighsModelStatus.kOptimal
        for _ in range(self.J + 1):
            h.run()
            if h.getModelStatus() != ok:
                raise RuntimeError(
                    f"LPBoost dual LP (column generation) not solved: {h.modelStatusToString(h.getModelStatus())} "
                    f"(cap={cap!r})"
                )
            x = np.asarray(h.getSolution().col_value)
            u, beta = x[:m], x[m]
            viol = self.M @ u - beta
            viol[self.active] = -np.inf  # already constrained (violations there are solver tolerance)
            order = _top_stable(viol, self.batch)
            new = order[viol[order] > self.tol]
            if new.size == 0:
                break
            self._add(new)
        else:  # pragma: no cover - every learner joined at most once
            raise RuntimeError("LPBoost column generation did not converge")
        duals = np.asarray(h.getSolution().row_dual)[2:]
        a = np.zeros(self.J)
        # a_j = -(row dual) of the learner constraint (<= rows of a minimisation); clip round-off: a >= 0
        np.add.at(a, np.asarray(self.active, dtype=int), np.maximum(-duals, 0.0))
        return a, float(beta)


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
    new_cls, ref_cls = _lpboost.ColumnGenerationLP, PreviousColumnGenerationLP
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
