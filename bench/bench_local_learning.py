"""LocalLearningRegression (figure R.2's local-learning selector): CPU per fit, the old code against the new.

(a) One fit with the thesis config's parameters (``sigma=1, alpha=1``) on the four regression sets of
    figure R.2 (additive, non-additive, sine, spiral) with 1,000 irrelevant features, columns permuted
    and scaled to [0, 1] as in ``fscompbio.evaluation.recovery_trial``, at n = 100 and n = 300: CPU
    seconds per fit of the code before the speed-up (:class:`BaselineLocalLearning`, a verbatim copy
    of the old internals kept here) and of ``LocalLearningRegression``, run alternately in the same
    process, the ratio, and whether the weights and rankings are the same (largest relative
    difference of the weights).
(b) The two products of a descent step with the 300 x 1,004 pair tensor (44,850 pairs, 180 MB):
    two plain BLAS calls against ``matvec2``'s blocks, and the gradient's product for scale.
(c) Peak memory of one fit at n = 300 (tracemalloc, which sees numpy's buffers), old and new.

CPU time (``time.process_time``) with BLAS on one thread; the machine may be shared, so the smallest
of ``--repeat`` runs is reported. Run: ``.venv/bin/python bench/bench_local_learning.py [--quick]``.
Prints a plain-text report; nothing is written.
"""

from __future__ import annotations

import argparse
import platform
import time
import tracemalloc

import numpy as np
import scipy
import sklearn
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio.datasets import make_dataset
from fscompbio.selection import LocalLearningRegression
from fscompbio.selection._local_learning import (
    _normalised_change,
    _PairAbsDiff,
    _ThresholdProblems,
    huber,
    huber_derivative,
    minmax_scale,
)
from fscompbio.selection._ranking import ranking_from_scores
from fscompbio._compat import validate_data

DATASETS = ("additive", "nonadditive", "sine", "spiral")
_MIN_EXPONENT = -700.0


# ---------------------------------------------------------------- the baseline: the code before the speed-up
class _OldPairAbsDiff:
    """The old ``_PairAbsDiff`` (cached float32 tensor; no fused products, no work arrays)."""

    def __init__(self, X, *, dtype=np.float32):
        self.dtype = np.dtype(dtype)
        self.X = np.asarray(X, dtype=self.dtype)
        m, d = self.X.shape
        self.ia, self.ib = np.triu_indices(m, k=1)
        self.n_pairs = self.ia.size
        A = np.empty((self.n_pairs, d), dtype=self.dtype)
        start = 0
        for a in range(m - 1):
            stop = start + m - 1 - a
            np.subtract(self.X[a + 1 :], self.X[a], out=A[start:stop])
            start = stop
        np.abs(A, out=A)
        self.A = A

    def keep(self, cols):
        self.X = self.X[:, cols]
        self.A = np.ascontiguousarray(self.A[:, cols])

    def matvec(self, w):
        return (self.A @ np.asarray(w, dtype=self.dtype)).astype(np.float64)

    def rmatvec(self, c):
        return (np.asarray(c, dtype=self.dtype) @ self.A).astype(np.float64)


class _OldExpectedMargins:
    """The old ``_ExpectedMargins``."""

    def __init__(self, absdiff, problems, K, alpha, h):
        self.absdiff, self.problems, self.K, self.alpha, self.h = absdiff, problems, K, alpha, h
        cK = np.cumsum(K, axis=1)
        self.lower_K = cK[:, :-1]
        self.upper_K = cK[:, -1:] - self.lower_K
        scale = np.where(problems.n_valid > 0, 1.0 / np.maximum(problems.n_valid, 1), 0.0)
        self.weight = problems.sign * scale[:, None]
        self._N = problems.N

    def distances(self, w):
        return self.absdiff.matvec(w)

    def margins(self, d):
        N = self._N
        D = np.zeros((N, N))
        D[self.absdiff.ia, self.absdiff.ib] = d
        D[self.absdiff.ib, self.absdiff.ia] = d
        cKD = np.cumsum(self.K * D, axis=1)
        lower = cKD[:, :-1]
        upper = cKD[:, -1:] - lower
        with np.errstate(invalid="ignore", divide="ignore"):
            diff = lower / self.lower_K - upper / self.upper_K
        return np.where(self.problems.sign != 0, self.problems.sign * diff, 0.0)

    def _objective(self, rho, w_sum):
        return float(np.sum(np.abs(self.weight) * huber(rho, self.h)) + self.alpha * w_sum)

    def grad_w(self, rho):
        N = self._N
        G = self.weight * huber_derivative(rho, self.h)
        with np.errstate(invalid="ignore", divide="ignore"):
            R1 = np.where(G != 0, G / self.lower_K, 0.0)
            R2 = np.where(G != 0, G / self.upper_K, 0.0)
        S1 = np.zeros((N, N))
        S1[:, : N - 1] = np.cumsum(R1[:, ::-1], axis=1)[:, ::-1]
        S2 = np.zeros((N, N))
        S2[:, 1:] = np.cumsum(R2, axis=1)
        C = self.K * (S1 - S2)
        Cp = C[self.absdiff.ia, self.absdiff.ib] + C[self.absdiff.ib, self.absdiff.ia]
        return self.absdiff.rmatvec(Cp)


def _old_kernel_weights(absdiff, w, sigma, N):
    D = np.full((N, N), np.inf)
    d = absdiff.matvec(w)
    D[absdiff.ia, absdiff.ib] = d
    D[absdiff.ib, absdiff.ia] = d
    E = -(D - D.min(axis=1, keepdims=True)) / sigma
    np.maximum(E, _MIN_EXPONENT, out=E)
    K = np.exp(E)
    np.fill_diagonal(K, 0.0)
    return K


def _old_descend(problem, v, *, max_steps, tol):
    d0 = problem.distances(v * v)
    rho = problem.margins(d0)
    loss = problem._objective(rho, float(v @ v))
    eta = None
    n = 0
    for n in range(1, max_steps + 1):
        g = 2.0 * (problem.grad_w(rho) + problem.alpha) * v
        gg = float(g @ g)
        if gg == 0.0:
            break
        d1 = problem.distances(v * g)
        d2 = problem.distances(g * g)
        if eta is None:
            eta = 0.5 * float(np.max(np.abs(v))) / float(np.max(np.abs(g)))
        while True:
            v_new = v - eta * g
            d_new = d0 - 2.0 * eta * d1 + eta * eta * d2
            np.maximum(d_new, 0.0, out=d_new)
            rho_new = problem.margins(d_new)
            new = problem._objective(rho_new, float(v_new @ v_new))
            if new <= loss - 1e-4 * eta * gg or eta < 1e-300:
                break
            eta *= 0.5
        decrease = loss - new
        v, d0, rho, loss = v_new, d_new, rho_new, new
        if decrease <= tol * max(abs(loss), 1e-300):
            break
        eta *= 1.5
    return np.abs(v), loss, n


class BaselineLocalLearning(LocalLearningRegression):
    """``LocalLearningRegression.fit`` as it was before the speed-up (same parameters and attributes)."""

    def fit(self, X, y):
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True, ensure_min_samples=3)
        y = np.asarray(y, dtype=np.float64)
        if self.scale:
            X = minmax_scale(X)
        N, J = X.shape
        order = np.argsort(y, kind="stable")
        problems = _ThresholdProblems(y[order])
        absdiff = _OldPairAbsDiff(X[order])
        active = np.arange(J)
        w = np.full(J, 1.0 / np.sqrt(J))
        thetas, steps = [], []
        for _ in range(self.max_iter):
            K = _old_kernel_weights(absdiff, w, self.sigma, N)
            problem = _OldExpectedMargins(absdiff, problems, K, self.alpha, self.h)
            v, loss, n = _old_descend(problem, np.sqrt(w), max_steps=self.max_descent_steps, tol=self.descent_tol)
            w_new = v * v
            theta = _normalised_change(w_new, w)
            thetas.append(theta)
            steps.append(n)
            keep = v >= self.prune
            if not keep.any():
                w, active = w_new[:0], active[:0]
                break
            w_new[~keep] = 0.0
            if keep.sum() <= 0.9 * keep.size:
                active = active[keep]
                absdiff.keep(np.flatnonzero(keep))
                w_new = w_new[keep]
            w = w_new
            if theta < self.tol:
                break
        weights = np.zeros(J)
        weights[active] = w
        self.feature_weights_ = weights
        self.ranking_ = ranking_from_scores(weights)
        self.n_descent_steps_ = np.asarray(steps, dtype=int)
        return self


# ---------------------------------------------------------------- benchmarks
def recovery_data(name, n, seed):
    """The figure R.2 input: 1,000 irrelevant features, columns permuted, scaled to [0, 1]."""
    ds = make_dataset(name, random_state=seed, n_samples=n)
    perm = np.random.default_rng(1000 + seed).permutation(ds.n_features)
    return minmax_scale(ds.X[:, perm]), ds.y


def cpu_fit(cls, X, y):
    t = time.process_time()
    sel = cls(sigma=1.0, alpha=1.0).fit(X, y)
    return time.process_time() - t, sel


def bench_fits(n, seeds, repeat):
    print(f"(a) n = {n}, 1,000 irrelevant features; CPU s per fit (min of {repeat}), old -> new")
    total_old = total_new = 0.0
    for name in DATASETS:
        for seed in seeds:
            X, y = recovery_data(name, n, seed)
            t_old, t_new = [], []
            for _ in range(repeat):  # alternate, so that a busy moment hits both
                t, old = cpu_fit(BaselineLocalLearning, X, y)
                t_old.append(t)
                t, new = cpu_fit(LocalLearningRegression, X, y)
                t_new.append(t)
            a, b = old.feature_weights_, new.feature_weights_
            rel = float(np.max(np.abs(a - b)) / max(np.max(np.abs(a)), 1e-300))
            same = "identical" if np.array_equal(a, b) else f"max rel diff {rel:.1e}"
            ranks = "same ranking" if np.array_equal(old.ranking_, new.ranking_) else "RANKING DIFFERS"
            total_old += min(t_old)
            total_new += min(t_new)
            print(f"    {name:12s} seed {seed}: {min(t_old):6.2f} -> {min(t_new):6.2f} s  "
                  f"x{min(t_old) / min(t_new):4.2f}  ({int(new.n_descent_steps_.sum())} descent steps; "
                  f"weights {same}, {ranks})")
    print(f"    all: {total_old:.2f} -> {total_new:.2f} s, x{total_old / total_new:.2f}")


def bench_products(repeat):
    rng = np.random.default_rng(0)
    absdiff = _PairAbsDiff(rng.random((300, 1004)))
    w1, w2, c = rng.random(1004), rng.random(1004), rng.random(absdiff.n_pairs)

    def best(fn, k=5):
        times = []
        for _ in range(max(repeat, 1) * k):
            t = time.process_time()
            out = fn()
            times.append(time.process_time() - t)
        return 1e3 * min(times), out

    t_plain, (p1, p2) = best(lambda: (absdiff.matvec(w1), absdiff.matvec(w2)))
    t_fused, (f1, f2) = best(lambda: absdiff.matvec2(w1, w2))
    t_grad, _ = best(lambda: absdiff.rmatvec(c))
    same = np.array_equal(p1, f1) and np.array_equal(p2, f2)
    print(f"(b) 300 x 1,004 pair tensor ({absdiff.A.nbytes / 2**20:.0f} MiB): A @ w1, A @ w2 as two calls "
          f"{t_plain:.1f} ms, in L2-sized blocks {t_fused:.1f} ms (x{t_plain / t_fused:.2f}, "
          f"{'bit-identical' if same else 'DIFFERENT'}); c @ A {t_grad:.1f} ms")


def bench_memory():
    X, y = recovery_data("nonadditive", 300, 0)
    peaks = []
    for cls in (BaselineLocalLearning, LocalLearningRegression):
        tracemalloc.start()
        cls(sigma=1.0, alpha=1.0).fit(X, y)
        peaks.append(tracemalloc.get_traced_memory()[1] / 2**20)
        tracemalloc.stop()
    print(f"(c) peak memory of a fit, nonadditive n = 300: old {peaks[0]:.0f} MiB, new {peaks[1]:.0f} MiB")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one seed, one run each")
    ap.add_argument("--repeat", type=int, default=None, help="runs per fit (default 2, 1 with --quick)")
    args = ap.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 2)
    print(f"numpy {np.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, "
          f"fscompbio {fscompbio.__version__}, {platform.processor() or platform.machine()}")
    with threadpool_limits(1):
        bench_fits(100, [0] if args.quick else [0, 1, 2], repeat)
        bench_fits(300, [0] if args.quick else [0, 1], repeat)
        bench_products(repeat)
        if not args.quick:
            bench_memory()


if __name__ == "__main__":
    main()
