"""randSel's squared distances of a batch of subsets (``_sq_distances``): pair rows squared and multiplied block by
block against the previous implementation (the whole per-feature tensor ``T`` formed, in feature chunks when it
exceeds 32 MB, then one product), in the same run.

(a) CPU ms per call at the shapes of the thesis config: chapter 5 (300-window subsets of 1,500 sparse-filtering
features), the regression figure (100 of 300 samples, 1,004 features), chapter 4 (67 x 200 synthetic, 24 x 7,129
AML/ALL), with whether the distances are identical. (b) Whole ``RandSel`` fits at chapter 5's settings on 2,000 x
1,500 (200 subsets of 300, culling 12.5%), old and new: CPU seconds and whether ``ranking_`` and ``selected_`` agree.

Run: ``.venv/bin/python bench/bench_randsel_pairs.py [--quick]``. BLAS on one thread; nothing is written.
"""
import argparse
import time

import numpy as np
from threadpoolctl import threadpool_limits

import fscompbio.selection._randsel_passes as passes
from fscompbio.selection import RandSel
from fscompbio._pairs import PairLayout, Workspace, pair_sq_diffs32


def previous_sq_distances(Xr, layout, Mm, extra=None, ws=None):
    """``_sq_distances`` as of 2026-11-22 (verbatim but for the docstring)."""
    ws = Workspace() if ws is None else ws
    P = layout.n_pairs
    n, B = Mm.shape
    chunk = max(1, int(passes.TENSOR_CHUNK_BUDGET // (4 * max(P, 1))))
    M1 = np.ones((n, B + 1), dtype=np.float32)
    M1[:, :B] = Mm
    prod = ws.get("prod", (P, B + 1))
    if chunk >= n:
        T = pair_sq_diffs32(Xr, 0, n, out=ws.get("T", (P, n)))
        np.matmul(T, M1, out=prod)
        ext = T[:, extra] if extra is not None else None
    else:
        prod[...] = 0.0
        for start in range(0, n, chunk):
            stop = min(n, start + chunk)
            T = pair_sq_diffs32(Xr, start, stop, out=ws.get("T", (P, stop - start)))
            prod += T @ M1[start:stop]
        ext = pair_sq_diffs32(Xr[:, extra], 0, len(extra)) if extra is not None else None
    D2 = ws.get("D2", (P, 2 * B))
    D2[:, :B] = prod[:, :B]
    np.subtract(prod[:, B:], prod[:, :B], out=D2[:, B:])
    if ext is not None:
        D2[:, B:] += ext
    np.maximum(D2, 0.0, out=D2)
    return D2


def per_call(f, X, layout, Mm, reps):
    ws = Workspace()
    out = f(X, layout, Mm, None, ws).copy()
    t = time.process_time()
    for _ in range(reps):
        f(X, layout, Mm, None, ws)
    return 1e3 * (time.process_time() - t) / reps, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    shapes = [("chapter 5, 300 windows x 1,500 SF features, 10 subsets", 300, 1500, 10),
              ("regression, 100 samples x 1,004 features, 100 subsets", 100, 1004, 100),
              ("chapter 4, 67 x 200 (synthetic), 100 subsets", 67, 200, 100),
              ("chapter 4, 24 x 7,129 (AML/ALL), 100 subsets", 24, 7129, 100)]
    new_f = passes._sq_distances
    with threadpool_limits(1):
        print("(a) _sq_distances, CPU ms per call")
        for name, s, n, B in shapes:
            X = rng.normal(size=(s, n))
            Mm = (rng.random((n, B)) < 0.5).astype(np.float32)
            layout = PairLayout(s)
            reps = 2 if args.quick else 10
            t_old, d_old = per_call(previous_sq_distances, X, layout, Mm, reps)
            t_new, d_new = per_call(new_f, X, layout, Mm, reps)
            print(f"  {name}: previous {t_old:.2f}, now {t_new:.2f}, x{t_old / t_new:.2f}; identical "
                  f"{np.array_equal(d_old, d_new)} (largest relative difference "
                  f"{np.max(np.abs(d_old - d_new) / np.maximum(d_old, 1e-12)):.1e})")
        m, n = (600, 400) if args.quick else (2000, 1500)
        X = rng.normal(size=(m, n))
        y = (X[:, :5].sum(axis=1) + X[:, 5] * X[:, 6] + rng.normal(size=m) > 0).astype(int)
        kw = dict(n_subsets=200, subsample=300, batch_size=50, cull_fraction=0.125, random_state=0)
        fits = {}
        for label, f in (("previous", previous_sq_distances), ("now", new_f)):
            passes._sq_distances = f
            t = time.process_time()
            fits[label] = (RandSel(**kw).fit(X, y), time.process_time() - t)
        passes._sq_distances = new_f
        (old, t_old), (new, t_new) = fits["previous"], fits["now"]
        print(f"(b) RandSel fit, {m} x {n}, chapter 5's settings: previous {t_old:.1f} s, now {t_new:.1f} s, "
              f"x{t_old / t_new:.2f}; ranking_ identical {np.array_equal(old.ranking_, new.ranking_)}, "
              f"selected_ identical {np.array_equal(old.selected_, new.selected_)}")


if __name__ == "__main__":
    main()
