"""LPBoost: the linear program of thesis eq. 3.3 / 3.4, solved with cvxpy.

Weak learners are single standardised features and their negations
(``h_j(x) = z_j`` and ``h_{n+j}(x) = -z_j`` with ``z = (x - mean) / sd``), so
LPBoost is the 1-norm soft-margin SVM of eq. 3.4 (section 3.2.1).

Primal (eq. 3.4, with the cap ``D`` as its ``C``)::

    maximise_{a, b, rho, xi}  rho - D sum_i xi_i
    s.t.  y_i (sum_j H_ij a_j + b) >= rho - xi_i,  xi >= 0,  a >= 0,  sum_j a_j = 1

Dual (eq. 3.3 with the soft-margin cap, and ``sum_i u_i y_i = 0`` from the bias)::

    minimise_{u, beta}  beta
    s.t.  sum_i u_i y_i H_ij <= beta  for every weak learner j,
          sum_i u_i = 1,  0 <= u_i <= D,  sum_i u_i y_i = 0

The weak-learner weights ``a`` are the multipliers of the dual's learner
constraints; by LP duality both optima are equal (checked in the tests).
``D = 1 / (nu m)``: ``nu`` in (0, 1] bounds the fraction of margin errors.

References
----------
Demiriz, Bennett and Shawe-Taylor (2002). Linear programming boosting via
column generation. Machine Learning 46:225-254.
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading
from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, StrOptions, _fit_context, validate_data
from .._optional import optional_import
from ._base import BinaryClassifierMixin
from .._scaling import column_scales
from .._warnings import warn

__all__ = ["LPBoost", "lpboost_primal", "lpboost_dual", "feasible_cap", "PrimalLP", "ColumnGenerationLP"]


def feasible_cap(y, cap):
    """The smallest cap ``D >= cap`` for which the dual LP is feasible.

    ``sum u = 1``, ``sum u y = 0`` and ``u <= D`` need each class to carry
    weight 1/2, so ``D >= 1 / (2 m_c)`` for the smaller class size ``m_c``.
    """
    m_min = min(int(np.sum(y > 0)), int(np.sum(y < 0)))
    if m_min == 0:
        raise ValueError("LPBoost needs samples of both classes; y has only one")
    return max(float(cap), 1.0 / (2.0 * m_min))


_BANNER_LOCK = threading.Lock()
_banner_shown = False


def _highs_banner_to_stderr(highspy):
    """Create the process' first HiGHS object with the C library's stdout (file descriptor 1) on stderr.

    HiGHS prints its banner ("Running HiGHS ...: Copyright ...") to stdout once per process, when the first
    ``Highs`` object is created, before any option can turn its output off. Printed on stdout it would
    corrupt a program's own output there (the command line's JSON). Called before every HiGHS use of this
    module (cvxpy's included); later calls do nothing. A lock keeps two threads from swapping the
    descriptor at once.
    """
    global _banner_shown
    with _BANNER_LOCK:
        if _banner_shown:
            return
        _banner_shown = True
        for stream in (sys.stdout, sys.__stdout__):
            if stream is not None:
                stream.flush()
        try:
            saved = os.dup(1)
        except OSError:  # no file descriptor 1: nothing to protect
            highspy.Highs()
            return
        try:
            target = sys.__stderr__.fileno() if sys.__stderr__ is not None else None
        except (OSError, ValueError):
            target = None
        sink = os.open(os.devnull, os.O_WRONLY) if target is None else None
        try:
            os.dup2(target if sink is None else sink, 1)
            highspy.Highs()
            _flush_c_stdio()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
            if sink is not None:
                os.close(sink)


def _flush_c_stdio():
    """``fflush(NULL)``: the C library's buffered output, written before a file descriptor is put back."""
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError, TypeError):  # no C library by that name (Windows): its stdout is unbuffered
        pass


class PrimalLP:
    """The primal LP (eq. 3.4) for a fixed shape, built once and re-solved.

    The margin matrix ``A = y[:, None] * H`` and the cap are cvxpy
    Parameters, so cvxpy canonicalises the problem once (DPP) and every
    further solve only passes new numbers to the solver: this is what makes
    thousands of LPBoost fits in stability selection affordable.

    Parameters
    ----------
    m, n_learners : int
        Number of samples and of weak learners.
    solver : str, default="HIGHS"
    """

    def __init__(self, m, n_learners, solver="HIGHS"):
        cp = optional_import("cvxpy", "LPBoost's linear program (PrimalLP)")
        if solver == "HIGHS":
            _highs_banner_to_stderr(optional_import("highspy", "LPBoost's linear program (PrimalLP)"))
        self.A = cp.Parameter((m, n_learners))
        self.y = cp.Parameter(m)
        self.cap = cp.Parameter(nonneg=True)
        self.a = cp.Variable(n_learners, nonneg=True)
        self.b = cp.Variable()
        self.rho = cp.Variable()
        self.xi = cp.Variable(m, nonneg=True)
        cons = [self.A @ self.a + cp.multiply(self.y, self.b) >= self.rho - self.xi, cp.sum(self.a) == 1]
        self.problem = cp.Problem(cp.Maximize(self.rho - self.cap * cp.sum(self.xi)), cons)
        self.solver = solver

    def solve(self, H, y, cap):
        """Solve for weak-learner outputs ``H`` (m, J), labels ``y`` in {-1, +1}, cap ``D``.

        Returns
        -------
        a : ndarray of shape (J,)
        b, rho, objective : float
        """
        self.A.value = y[:, None] * H
        self.y.value = y
        self.cap.value = cap
        self.problem.solve(solver=self.solver)
        if self.problem.status not in ("optimal", "optimal_inaccurate"):
            raise RuntimeError(f"LPBoost primal LP not solved: status {self.problem.status!r} (cap={cap!r})")
        a = np.maximum(np.asarray(self.a.value, dtype=float), 0.0)  # clip solver round-off: a >= 0
        return a, float(self.b.value), float(self.rho.value), float(self.problem.value)


def _top_stable(values, k):
    """``np.argsort(-values, kind="stable")[:k]`` without sorting all of ``values``.

    The ``k`` largest values, ties in index order: every entry at least as large as the k-th largest
    (found by a partition) is a candidate; a stable sort of the candidates, which are in index order,
    orders them as the full stable sort does.
    """
    if values.size <= k:
        return np.argsort(-values, kind="stable")
    kth = values[np.argpartition(-values, k - 1)[k - 1]]
    cand = np.flatnonzero(values >= kth)
    return cand[np.argsort(-values[cand], kind="stable")][:k]


def _new_highs(highspy):
    """A new HiGHS object with the options of every column-generation solve.

    Each :class:`ColumnGenerationLP` owns a new object, so no solve starts from a model, basis or
    options that an earlier solver left behind (creating one costs ~0.04 ms, against ~14 ms of
    simplex per stability-selection subsample: ``bench/bench_highs_objects.py``).

    No ``threads`` option: HiGHS keeps one task scheduler per process, sized by the first solve that
    starts it (cvxpy's HiGHS solves among them), and since HiGHS 1.16 an object asking for another
    number of threads fails without solving (model status "Not Set"). The simplex here is serial
    (``parallel="off"``), so the scheduler's size changes nothing.
    """
    _highs_banner_to_stderr(highspy)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("random_seed", 0)
    h.setOptionValue("parallel", "off")
    h.setOptionValue("presolve", "off")  # every re-solve starts from the previous basis: presolve only costs
    h.setOptionValue("simplex_scale_strategy", 0)  # entries are standardised features: scaling only costs
    return h


class ColumnGenerationLP:
    """LPBoost's dual LP (eq. 3.3 with cap ``D``) by column generation, with HiGHS warm starts.

    The LPBoost algorithm of Demiriz, Bennett and Shawe-Taylor (2002): the
    dual is solved over a small working set of weak learners (one constraint
    ``sum_i u_i y_i H_ij <= beta`` each); the learners that violate their
    constraint most at the current ``u`` (``y H_j . u > beta``) join the set,
    and the LP is re-solved from the previous basis (HiGHS dual simplex), until
    no learner violates by more than ``tol``. The optimum is the full LP's (by
    LP duality, the learners left out have weight 0). Changing the cap
    (:meth:`solve` with another ``cap``) changes only column bounds and keeps
    both the working set and the basis, so a grid of caps (stability
    selection's five ``nu``) costs little more than one.

    Two refinements save re-solves over such a grid: from the third cap on,
    the learners violating at the linear extrapolation of the last two optima
    (the optimal ``(u, beta)`` is piecewise linear in the cap) join before the
    first re-solve (``extrapolate``); and a round that finds violators also
    takes the learners within ``near`` of violating. A repeated cap returns the
    last solution. ``bench/bench_lpboost_stability.py`` measures the gain
    against plain column generation (identical selection frequencies).

    Each solver owns a new HiGHS object, and only its own solves warm-start
    from one another. A solve that ends in any status other than optimal is
    retried once, cold, on a new HiGHS object holding the same working set
    and cap; if that fails too, :meth:`solve` raises a ``RuntimeError`` naming
    the cap and both statuses.

    Parameters
    ----------
    H : ndarray of shape (m, J) or None
        Weak-learner outputs.
    y : ndarray of shape (m,), in {-1, +1}
    tol : float, default=1e-9
        A learner joins when ``y H_j . u - beta > tol``.
    batch : int, default=16
        Up to this many of the most violating learners join per iteration.
    extrapolate : int, default=32
        Up to this many learners violating at the extrapolated solution join
        before the first re-solve at a new cap (0: off).
    near : float, default=0.03
        In a round that finds violators, learners within ``near`` of violating
        (``y H_j . u - beta > -near``) join too, up to ``2 * batch`` in all
        (0: off). In units of the margin ``y H_j . u``, which is of order 0.1
        for standardised features.
    signed_features : ndarray of shape (m, n) or None
        With ``H=None``: the learners are the features and their negations,
        ``H = [Z, -Z]`` (stability selection's), built without forming ``H``.

    Notes
    -----
    :class:`PrimalLP` (cvxpy, the whole LP at once) is the reference; the
    tests compare the two on random problems (objective, weights, support).
    Where the optimum is 0 (no combination of learners beats ``H a = 0``) every
    pair ``a_j = a_{n+j} = 1/2`` is optimal, and which pair is returned depends
    on the path of the simplex.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.normal(size=(40, 5)); y = np.where(Z[:, 1] > 0, 1.0, -1.0)
    >>> a, beta = ColumnGenerationLP(None, y, signed_features=Z).solve(feasible_cap(y, 0.1))
    >>> int(np.argmax(a))
    1
    """

    def __init__(self, H, y, *, tol=1e-9, batch=16, extrapolate=32, near=0.03, signed_features=None):
        highspy = optional_import("highspy", "the column-generation LP (StabilitySelection(learner='lpboost'))")

        y = np.asarray(y, dtype=float)
        if signed_features is not None:
            # H = [Z, -Z] given as Z: M = [(y Z)', -(y Z)'] without forming H (the same numbers: y (-z) = -(y z))
            Z = np.asarray(signed_features, dtype=float)
            n = Z.shape[1]
            self.M = np.empty((2 * n, y.size))
            np.multiply(Z.T, y, out=self.M[:n])
            np.negative(self.M[:n], out=self.M[n:])
        else:
            H = np.asarray(H, dtype=float)
            self.M = np.ascontiguousarray((y[:, None] * H).T)  # (J, m): learner j's row over u
        J, m = self.M.shape
        self.m, self.J = m, J
        self.y = y
        self.tol = float(tol)
        self.batch = int(batch)
        self.extrapolate = int(extrapolate)
        self.near = float(near)
        self._highspy = highspy
        self._inf = highspy.kHighsInf
        self._cols = np.arange(m, dtype=np.int32)
        self._row_index = np.arange(m + 1, dtype=np.int32)  # the columns of one learner row: u_1..u_m, beta
        self.active = []  # learner index of each constraint row (rows 2, 3, ...)
        self._in = np.zeros(J, dtype=bool)  # learner j has a row
        self._history = []  # (cap, u, beta) of the last two solves
        self._cap = None
        self._last = None  # (a, beta) of the last solve
        self.h = self._build(cap=1.0)

    def _build(self, cap):
        """A new HiGHS object holding the dual LP over the current working set, with cap ``D``."""
        m, inf = self.m, self._inf
        h = _new_highs(self._highspy)
        # columns u_1..u_m in [0, D], beta free; minimise beta
        h.addVars(m + 1, np.r_[np.zeros(m), -inf], np.r_[np.full(m, float(cap)), inf])
        h.changeColCost(m, 1.0)
        h.addRow(1.0, 1.0, m, self._cols, np.ones(m))  # sum u = 1
        h.addRow(0.0, 0.0, m, self._cols, self.y.copy())  # sum u y = 0 (the bias)
        if self.active:
            self._add_rows(h, np.asarray(self.active, dtype=int))
        return h

    def _add_rows(self, h, learners):
        k, m = learners.size, self.m
        values = np.empty((k, m + 1))
        values[:, :m] = self.M[learners]
        values[:, m] = -1.0  # sum_i u_i y_i H_ij - beta <= 0
        starts = np.arange(k, dtype=np.int32) * (m + 1)
        index = np.broadcast_to(self._row_index, (k, m + 1)).reshape(-1)  # a copy in C (np.tile: ~6 % of a fit)
        h.addRows(k, np.full(k, -self._inf), np.zeros(k), k * (m + 1), starts, index, values.ravel())

    def _add(self, learners):
        learners = np.asarray(learners, dtype=int)
        self._add_rows(self.h, learners)
        self.active.extend(learners.tolist())
        self._in[learners] = True

    def _run(self, cap):
        """Solve the current LP; retry once, cold, on a new HiGHS object; raise if that fails too."""
        ok = self._highspy.HighsModelStatus.kOptimal
        run_status = self.h.run()
        if self.h.getModelStatus() == ok:
            return
        first = self._status(run_status)
        self.h = self._build(cap)
        run_status = self.h.run()
        if self.h.getModelStatus() != ok:
            raise RuntimeError(
                f"LPBoost dual LP (column generation) not solved at cap D={cap!r} "
                f"({self.m} samples, {len(self.active)} of {self.J} weak learners in the working set): "
                f"{first}; retried on a new HiGHS object: {self._status(run_status)}"
            )

    def _status(self, run_status):
        h = self.h
        return f"model status {h.modelStatusToString(h.getModelStatus())!r} (run status {run_status.name})"

    def _violators(self, u, beta, k, near=0.0):
        """Up to ``k`` learners without a row, most violating first, with ``M_j u - beta > tol``.

        With ``near > 0`` and at least one violator: up to ``2 k`` learners with ``M_j u - beta > -near``.
        """
        viol = self.M @ u - beta
        viol[self._in] = -np.inf  # already constrained (violations there are solver tolerance)
        # the top 2k in stable order once: its first k are the top k (both are prefixes of the stable argsort)
        wide = _top_stable(viol, 2 * k) if near > 0 else None
        order = _top_stable(viol, k) if wide is None else wide[:k]
        new = order[viol[order] > self.tol]
        if near > 0 and new.size:
            new = wide[viol[wide] > -near]
        return new

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
        cap = float(cap)
        if cap == self._cap and self._last is not None:
            # the same cap again (the feasibility bound raises several nu to it): HiGHS would re-run 0 pivots
            return self._last[0].copy(), self._last[1]
        if cap != self._cap:
            self.h.changeColsBounds(m, self._cols, np.zeros(m), np.full(m, cap))
            self._cap = cap
        if not self.active:
            # start from the learner best at the class-balanced weights (feasible for any cap)
            pos = self.y > 0
            u0 = np.where(pos, 0.5 / pos.sum(), 0.5 / (~pos).sum())
            self._add([int(np.argmax(self.M @ u0))])
        elif self.extrapolate > 0 and len(self._history) == 2:
            (c0, u0, b0), (c1, u1, b1) = self._history
            if c1 != c0 and cap != c1:
                t = (cap - c1) / (c1 - c0)
                u_ext = np.clip(u1 + t * (u1 - u0), 0.0, cap)  # the segment through the last two optima
                new = self._violators(u_ext, b1 + t * (b1 - b0), self.extrapolate)
                if new.size:
                    self._add(new)
        for _ in range(self.J + 1):
            self._run(cap)
            sol = self.h.getSolution()
            x = np.asarray(sol.col_value)
            u, beta = x[:m], x[m]
            new = self._violators(u, beta, self.batch, self.near)
            if new.size == 0:
                break
            self._add(new)
        else:  # pragma: no cover - every learner joined at most once
            raise RuntimeError("LPBoost column generation did not converge")
        if not self._history or self._history[-1][0] != cap:
            self._history = (self._history + [(cap, u.copy(), float(beta))])[-2:]
        duals = np.asarray(sol.row_dual)[2:]
        a = np.zeros(self.J)
        # a_j = -(row dual) of the learner constraint (<= rows of a minimisation); clip round-off: a >= 0.
        # Every learner has at most one row (self._in), so a plain assignment.
        a[self.active] = np.maximum(-duals, 0.0)
        self._last = (a.copy(), float(beta))
        return a, float(beta)


def lpboost_primal(H, y, cap, *, solver="HIGHS"):
    """Solve the primal LP (eq. 3.4) once; see :class:`PrimalLP`."""
    H = np.asarray(H, dtype=float)
    return PrimalLP(H.shape[0], H.shape[1], solver).solve(H, np.asarray(y, dtype=float), cap)


def lpboost_dual(H, y, cap, *, solver="HIGHS"):
    """Solve the dual LP (eq. 3.3 with cap ``D``) and read the weights from its multipliers.

    Parameters
    ----------
    H : ndarray of shape (m, J)
        Weak-learner outputs.
    y : ndarray of shape (m,), in {-1, +1}
    cap : float
        ``D``; must be at least :func:`feasible_cap`.

    Returns
    -------
    dict
        ``u`` (sample weights), ``beta`` (the optimum), ``a`` (weak-learner
        weights = multipliers of ``sum_i u_i y_i H_ij <= beta``).
    """
    H = np.asarray(H, dtype=float)
    y = np.asarray(y, dtype=float)
    m, J = H.shape
    cp = optional_import("cvxpy", "LPBoost's dual linear program (lpboost_dual)")
    u = cp.Variable(m)
    beta = cp.Variable()
    learner = (y[:, None] * H).T @ u <= beta
    cons = [learner, cp.sum(u) == 1, u >= 0, u <= cap, y @ u == 0]
    prob = cp.Problem(cp.Minimize(beta), cons)
    prob.solve(solver=solver)
    if prob.status not in ("optimal", "optimal_inaccurate"):
        raise RuntimeError(f"LPBoost dual LP not solved: status {prob.status!r} (cap={cap!r})")
    return {
        "u": np.asarray(u.value, dtype=float),
        "beta": float(beta.value),
        "a": np.maximum(np.asarray(learner.dual_value, dtype=float), 0.0),  # clip round-off
    }


class LPBoost(BinaryClassifierMixin, BaseEstimator):
    """LPBoost with single (standardised, sign-flipped) features as weak learners.

    A binary classifier solving the linear program of thesis eq. 3.4 (the
    1-norm soft-margin SVM; dual eq. 3.3) with cvxpy. Its weights are sparse:
    it is used as the sparse learner of :class:`StabilitySelection` and can
    classify on its own.

    Parameters
    ----------
    nu : float in (0, 1], default=0.2
        Sets the cap ``D = 1 / (nu m)`` on the dual sample weights (the ``C`` of
        eq. 3.4). A cap below the smallest feasible one (each class must carry
        half of the weight) is raised to it with a warning; ``cap_`` holds the
        value used.
    solver : {"HIGHS", "CLARABEL"}, default="HIGHS"
        The cvxpy LP solver (HIGHS is exact and deterministic).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
    weights_ : ndarray of shape (2 * n_features_in_,)
        Weak-learner weights ``a`` (on the simplex): ``+z_j`` then ``-z_j``.
    coef_ : ndarray of shape (n_features_in_,)
        Weights on the original features: ``(a_j - a_{n+j}) / sd_j``.
    intercept_ : float
    feature_importances_ : ndarray of shape (n_features_in_,)
        ``a_j + a_{n+j}``: the weight the ensemble puts on feature j.
    margin_ : float
        The optimal ``rho``.
    objective_ : float
        The optimal ``rho - D sum xi``.
    cap_ : float
    mean_, scale_ : ndarray of shape (n_features_in_,)
        Standardisation of the features.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 5)); y = np.where(X[:, 2] > 0, 1, -1)
    >>> clf = LPBoost().fit(X, y)
    >>> int(np.argmax(clf.feature_importances_))
    2
    """

    _parameter_constraints: dict = {
        "nu": [Interval(Real, 0, 1, closed="right")],
        "solver": [StrOptions({"HIGHS", "CLARABEL"})],
    }

    def __init__(self, *, nu=0.2, solver="HIGHS"):
        self.nu = nu
        self.solver = solver

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Solve the LP.

        Parameters
        ----------
        X : array-like of shape (m, n)
        y : array-like of shape (m,), two classes

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        self._fit_classes(y)
        ys = np.where(y == self.classes_[1], 1.0, -1.0)
        m, n = X.shape
        self.mean_, self.scale_ = column_scales(X)
        Z = (X - self.mean_) / self.scale_
        cap = 1.0 / (self.nu * m)
        self.cap_ = feasible_cap(ys, cap)
        if self.cap_ > cap:
            warn(
                f"LPBoost: nu={self.nu!r} gives cap {cap:.4g} below the smallest feasible cap "
                f"{self.cap_:.4g} for these class sizes; using {self.cap_:.4g}",
                UserWarning,
            )
        a, b, rho, obj = PrimalLP(m, 2 * n, self.solver).solve(np.hstack([Z, -Z]), ys, self.cap_)
        self.weights_ = a
        w = a[:n] - a[n:]
        self.coef_ = w / self.scale_
        self.intercept_ = float(b - (self.mean_ / self.scale_) @ w)
        self.feature_importances_ = a[:n] + a[n:]
        self.margin_ = rho
        self.objective_ = obj
        return self

    def decision_function(self, X):
        """``sum_j a_j h_j(x) + b``; positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        return X @ self.coef_ + self.intercept_

