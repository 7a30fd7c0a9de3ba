"""LPBoost's column-generation solver does not depend on what earlier HiGHS solves left behind.

HiGHS keeps one task scheduler per process, sized by the first solve that starts it; since HiGHS 1.16
an object that asks for another number of threads does not solve at all (model status "Not Set"). A
cvxpy solve with HiGHS (which sizes the scheduler to the machine) followed by a column-generation solve
is the sequence that failed; it runs here in a new interpreter, so that no earlier test has started
the scheduler. The other tests check that a solver's options, model or failed solve never reach the
next solver, and that a failed solve is retried once on a new HiGHS object, then reported.
"""

import gc
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from fscompbio.prediction import _lpboost
from fscompbio.prediction._lpboost import ColumnGenerationLP, PrimalLP, feasible_cap
from fscompbio.selection import StabilitySelection


def _problem(seed, m=40, n=10):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n))
    y = np.where(X[:, 0] - X[:, 1] + 0.8 * rng.normal(size=m) > 0, 1.0, -1.0)
    return np.hstack([X, -X]), y


_SEQUENCE = textwrap.dedent(
    """
    import highspy, json, numpy as np
    from fscompbio.prediction._lpboost import ColumnGenerationLP, PrimalLP, feasible_cap
    out = []
    for seed in range(3):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(30, 6))
        y = np.where(X[:, 0] + 0.5 * rng.normal(size=30) > 0, 1.0, -1.0)
        H = np.hstack([X, -X])
        cap = feasible_cap(y, 1.0 / (0.3 * 30))
        ref = PrimalLP(*H.shape).solve(H, y, cap)[3]  # cvxpy's HiGHS solve starts the scheduler
        beta = ColumnGenerationLP(H, y).solve(cap)[1]
        out.append([ref, beta])
    print(json.dumps({"highspy": highspy.Highs().version(), "optima": out}))
    """
)


def test_column_generation_after_a_cvxpy_highs_solve_in_a_new_process():
    """The sequence that failed with HiGHS 1.16: cvxpy + HiGHS first, column generation after."""
    proc = subprocess.run([sys.executable, "-c", _SEQUENCE], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    import json

    result = json.loads(proc.stdout.strip().splitlines()[-1])
    for ref, beta in result["optima"]:
        assert beta == pytest.approx(ref, abs=1e-7)


def test_options_and_failed_solves_do_not_reach_the_next_solver():
    """A solver left failed (an iteration limit of 0 on its HiGHS object) changes no later solver."""
    H, y = _problem(0)
    cap = feasible_cap(y, 1.0 / (0.3 * y.size))
    ref = ColumnGenerationLP(H, y).solve(cap)
    broken = ColumnGenerationLP(H, y)
    broken.h.setOptionValue("simplex_iteration_limit", 0)
    broken.h.changeColsBounds(y.size, np.arange(y.size, dtype=np.int32), np.zeros(y.size), np.full(y.size, cap))
    broken._add([0, 1, 2])
    broken.h.run()
    assert broken.h.getModelStatus() != broken._highspy.HighsModelStatus.kOptimal
    del broken
    gc.collect()
    for _ in range(3):
        a, beta = ColumnGenerationLP(H, y).solve(cap)
        np.testing.assert_array_equal(a, ref[0])
        assert beta == ref[1]


def test_a_failed_solve_is_retried_on_a_new_highs_object():
    H, y = _problem(1)
    m = y.size
    lp = PrimalLP(*H.shape)
    cg = ColumnGenerationLP(H, y)
    for i, nu in enumerate((0.8, 0.5, 0.3, 0.2)):
        cap = feasible_cap(y, 1.0 / (nu * m))
        if i == 2:  # the warm-started object fails mid-grid; the retry starts cold from the working set
            cg.h.setOptionValue("simplex_iteration_limit", 0)
        a, beta = cg.solve(cap)
        a_ref, _, _, obj_ref = lp.solve(H, y, cap)
        assert beta == pytest.approx(obj_ref, abs=1e-7)
        np.testing.assert_allclose(a, a_ref, atol=1e-6)
    assert cg.h.getOptionValue("simplex_iteration_limit")[1] > 0  # the object in use is the new one


def test_a_solve_failing_twice_names_the_cap_and_the_status(monkeypatch):
    new = _lpboost._new_highs

    def limited(highspy):
        h = new(highspy)
        h.setOptionValue("simplex_iteration_limit", 0)
        return h

    monkeypatch.setattr(_lpboost, "_new_highs", limited)
    H, y = _problem(2)
    cap = feasible_cap(y, 1.0 / (0.3 * y.size))
    with pytest.raises(RuntimeError, match=r"not solved at cap D=0\.08.*Iteration limit.*retried on a new HiGHS"):
        ColumnGenerationLP(H, y).solve(cap)


def test_repeated_stability_selection_in_one_session_gives_the_same_result():
    """A user fitting LPBoost stability selection again and again in one session gets one answer."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 15))
    y = np.where(X[:, 4] - X[:, 9] + 0.5 * rng.normal(size=60) > 0, 1, 0)
    kw = dict(learner="lpboost", n_bootstraps=6, random_state=0)
    first = StabilitySelection(**kw).fit(X, y).scores_
    PrimalLP(60, 30).solve(np.hstack([X, -X]), np.where(y > 0, 1.0, -1.0), 0.05)  # a cvxpy HiGHS solve between
    for _ in range(2):
        np.testing.assert_array_equal(StabilitySelection(**kw).fit(X, y).scores_, first)
