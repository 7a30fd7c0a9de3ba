"""Chapter-4 speed benchmarks: ratios against baselines measured in the same run.

(a) BaHSIC step with the Gaussian product-structure update vs naive recomputation of every candidate kernel;
(b) randSel batched (one matmul per batch) vs one kernel at a time;
(c) randSel's achieved floating-point throughput vs numpy's matrix-multiply throughput on this machine;
(d) time of randSel and BaHSIC as the number of features doubles (200 -> 6,400) and as samples double.

Run: ``.venv/bin/python bench/bench_chapter4.py [--quick]``. Prints a plain-text report; nothing is written.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
import scipy
import sklearn

import fscompbio
from fscompbio.datasets import make_dataset
from fscompbio.kernels import alignment, gaussian_kernel, hsic, label_kernel
from fscompbio.selection import BaHSIC, RandSel
from fscompbio._pairs import (
    CenteredTarget,
    PairLayout,
    PairTensor,
    batched_alignment,
    hsic_pair_weights,
    pair_sq_diffs,
)
from fscompbio.selection._hsic import candidate_hsic
from fscompbio.selection._randsel import random_subset_masks


def best_of(fn, repeat=3):
    """Smallest wall time of ``repeat`` calls (and the last result)."""
    best, out = np.inf, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


def bench_a(m, d):
    ds = make_dataset("xor", random_state=0, n_samples=m, n_features=d)
    X, y = ds.X, ds.y
    L = label_kernel(y)
    lay = PairLayout(m)
    w = hsic_pair_weights(L, lay, "biased")
    gamma = 1.0 / (2 * (0.5 * np.sqrt(2 * d)) ** 2)
    S = np.arange(d)

    t_setup, tensor = best_of(lambda: PairTensor(X, lay))
    d2 = tensor.matvec_mask(S)

    def fast():
        return candidate_hsic(tensor, d2, S, gamma, w, sign=-1)

    def naive():
        return np.array([hsic(gaussian_kernel(np.delete(X, i, axis=1), gamma=gamma), L) for i in S])

    t_fast, h_fast = best_of(fast)
    t_naive, h_naive = best_of(naive, repeat=1)
    err = np.max(np.abs(h_fast - h_naive) / np.abs(h_naive).max())
    print(f"(a) BaHSIC step, m={m}, |S|={d}: product update {t_fast * 1e3:.1f} ms, naive recomputation "
          f"{t_naive * 1e3:.1f} ms -> {t_naive / t_fast:.1f}x faster (max rel. difference {err:.1e}); the "
          f"per-fit tensor of squared differences costs {t_setup * 1e3:.0f} ms once "
          f"({t_naive / (t_fast + t_setup):.1f}x for a single step including it)")


def bench_bc(s, n, n_subsets, batch):
    rng = np.random.RandomState(0)
    ds = make_dataset("xor", random_state=0, n_samples=max(s, 300), n_features=n)
    X, y = ds.X[:s], ds.y[:s]
    lay = PairLayout(s)
    L = label_kernel(y)
    target = CenteredTarget(L, lay)
    M = random_subset_masks(rng, n, n // 2, n_subsets)
    T64 = pair_sq_diffs(X, lay)
    med = np.median(T64 @ M[:, :5])
    gamma = 1.0 / (2 * (0.25**2) * med)

    def batched():
        T = pair_sq_diffs(X, lay, dtype=np.float32)
        out = []
        for b in range(0, n_subsets, batch):
            D2 = T @ M[:, b : b + batch].astype(np.float32)
            K = D2 * np.float32(-gamma)
            np.exp(K, out=K)
            out.append(batched_alignment(K.astype(np.float64), target))
        return np.concatenate(out)

    def one_at_a_time():
        return np.array([alignment(gaussian_kernel(X[:, M[:, j] > 0], gamma=gamma), L) for j in range(n_subsets)])

    t_b, a_b = best_of(batched)
    t_1, a_1 = best_of(one_at_a_time, repeat=1)
    print(f"(b) randSel alignments of {n_subsets} subsets of {n // 2} of {n} features on s={s} samples: "
          f"batched {t_b * 1e3:.0f} ms, one kernel at a time {t_1 * 1e3:.0f} ms -> {t_1 / t_b:.1f}x faster "
          f"(max |difference| {np.max(np.abs(a_b - a_1)):.1e})")
    # (c) throughput: distance products 2 P n B flops (the dominant matmul), plus the exp count
    P = lay.n_pairs
    flops = 2.0 * P * n * n_subsets
    A = np.random.default_rng(0).random((2048, 2048), dtype=np.float32)
    t_mm32, _ = best_of(lambda: A @ A)
    A64 = A.astype(np.float64)
    t_mm64, _ = best_of(lambda: A64 @ A64)
    mm32, mm64 = 2 * 2048**3 / t_mm32 / 1e9, 2 * 2048**3 / t_mm64 / 1e9
    v = np.random.default_rng(1).random(4_000_000).astype(np.float32)
    t_e32, _ = best_of(lambda: np.exp(-v))
    v64 = v.astype(np.float64)
    t_e64, _ = best_of(lambda: np.exp(-v64))
    print(f"(c) randSel achieved {flops / t_b / 1e9:.1f} GFLOP/s (distance matmuls over the whole batched "
          f"computation) vs numpy matmul {mm32:.1f} GFLOP/s float32 / {mm64:.1f} GFLOP/s float64 "
          f"-> {flops / t_b / 1e9 / mm32:.0%} of float32 peak; np.exp {v.size / t_e32 / 1e6:.0f} M/s float32, "
          f"{v.size / t_e64 / 1e6:.0f} M/s float64; kernel entries computed {P * n_subsets / t_b / 1e6:.0f} M/s")


def bench_d(quick):
    feats = [200, 400, 800, 1600, 3200, 6400] if not quick else [200, 400, 800]
    samples = [100, 200, 400, 800] if not quick else [100, 200]
    print("(d) scaling (randSel: 100 subsets per size and iteration, subsample 50, cull 25%; "
          "BaHSIC: 25% removed per step, full elimination)")
    print(f"    {'m':>5} {'n':>6} {'randSel s':>10} {'BaHSIC s':>9}")
    prev = None
    for n in feats:
        ds = make_dataset("xor", random_state=0, n_samples=100, n_features=n)
        t_r, _ = best_of(lambda: RandSel(n_subsets=100, subsample=50, random_state=0).fit(ds.X, ds.y), repeat=1)
        t_b, _ = best_of(lambda: BaHSIC(step=0.25).fit(ds.X, ds.y), repeat=1)
        ratio = "" if prev is None else f"   x{t_r / prev[0]:.2f}, x{t_b / prev[1]:.2f} per doubling"
        print(f"    {100:>5} {n:>6} {t_r:>10.2f} {t_b:>9.2f}{ratio}")
        prev = (t_r, t_b)
    prev = None
    for m in samples:
        ds = make_dataset("xor", random_state=0, n_samples=m, n_features=200)
        t_r, _ = best_of(lambda: RandSel(n_subsets=100, subsample=0.25, random_state=0).fit(ds.X, ds.y), repeat=1)
        t_b, _ = best_of(lambda: BaHSIC(step=0.25).fit(ds.X, ds.y), repeat=1)
        ratio = "" if prev is None else f"   x{t_r / prev[0]:.2f}, x{t_b / prev[1]:.2f} per doubling"
        print(f"    {m:>5} {200:>6} {t_r:>10.2f} {t_b:>9.2f}{ratio}   (randSel subsample m/4)")
        prev = (t_r, t_b)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    args = ap.parse_args()
    print(f"fscompbio {fscompbio.__version__}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"scikit-learn {sklearn.__version__}, Python {platform.python_version()}, {platform.machine()}")
    bench_a(300 if not args.quick else 150, 200 if not args.quick else 60)
    bench_bc(75, 200, 200 if not args.quick else 60, 100)
    bench_d(args.quick)


if __name__ == "__main__":
    main()
