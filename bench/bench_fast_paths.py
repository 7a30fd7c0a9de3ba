"""Fast paths of the thesis config against their reference paths, timed in the same run (CPU seconds).

(a) Stability selection with l1-logistic regression (chapter 3's ``stabsel_logreg``, 270 x 200 as one
    outer training fold of the 300 x 200 sets): liblinear's trainer called directly against
    ``LogisticRegression.fit`` for every one of the 5 x n_bootstraps fits; the selection frequencies
    must be identical.

(b) GaussianSVC's final fit (chapter 5: all positives + 5x negatives, about 15,000 windows) on a
    precomputed Gram matrix (one BLAS product) against libsvm's own Gaussian kernel, on synthetic windows
    with 228 columns (the rank of the 648 scale values) and with 1,500 (sparse filtering), 1:5 classes with
    overlapping classes (many support vectors); the support vectors and dual coefficients must agree.

(c) Stability selection with LPBoost on a real-data shape (an outer training fold of 65 x 7,129, AML/ALL):
    the most violating learners by a partition against a full stable sort of all 14,258 violations per
    column-generation round (the same choice); with the per-subsample time of all three learners, and of
    the lasso by LARS (``lasso_solver="lars"``, the exact path) with how many frequencies differ from
    coordinate descent's.

(d) Stability selection with the lasso by coordinate descent (chapter 3's ``stabsel_lasso`` on a 270 x 200
    outer training fold of XOR and a 90% fold of TB serum, 122 x 424; the randSel paper's on a 270 x 100
    fold of ``xor_100``, whose halves are tall, so ``lasso_path`` solves on the Gram matrix): scikit-learn's coordinate-descent kernel called
    directly against ``lasso_path`` for every subsample; the selection frequencies must be identical.

(e) Stability selection with the lasso by LARS (``lasso_solver="lars"``) on 90% training folds of the four
    micro-arrays where the thesis config uses it, AML/ALL (65 x 7,129), prostate (92 x 5,966), colon
    (56 x 2,000) and TB blood (27 x 5,547), from ``data/expression/``: ``lars_path`` with room for ``2 m + 16``
    steps against its default 500; the selection frequencies must be identical.

Every comparison alternates the two paths (``--repeat`` rounds, the smallest CPU time of each kept), so
that load from other processes on a shared machine hits both alike.

Run: ``.venv/bin/python bench/bench_fast_paths.py [--quick] [--only a c d ...]``. Single-threaded BLAS; nothing is written.
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
from fscompbio.selection import StabilitySelection, _stability


def cpu(fn, repeat=2):
    """Smallest CPU time of ``repeat`` calls, and the last result."""
    best, out = np.inf, None
    for _ in range(repeat):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def bench_logistic(n_bootstraps):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(270, 200))
    y = (X[:, 3] - X[:, 17] + rng.normal(size=270) > 0).astype(int)

    def fit(fast):
        _stability._L1Logistic._fast = None if fast else False
        return StabilitySelection(learner="logistic", n_bootstraps=n_bootstraps, random_state=0).fit(X, y)

    t_ref, ref = cpu(lambda: fit(False))
    t_fast, fast = cpu(lambda: fit(True))
    same = np.array_equal(ref.stability_scores_, fast.stability_scores_)
    print(f"(a) l1-logistic stability selection, 270 x 200, {n_bootstraps} subsamples x 5 C: "
          f"LogisticRegression {t_ref:.2f} s, liblinear trainer {t_fast:.2f} s CPU -> {t_ref / t_fast:.1f}x; "
          f"identical frequencies: {same}")


def bench_svc(n, d):
    from fscompbio.prediction import GaussianSVC

    rng = np.random.default_rng(1)
    X = rng.normal(size=(n, d))
    score = X[:, 0] * X[:, 1] + X[:, 2] - 0.5 * X[:, 3] ** 2 + 1.5 * rng.normal(size=n)
    y = (score > np.quantile(score, 5 / 6)).astype(int)  # 1 positive : 5 negatives
    kw = dict(class_weight="balanced")
    t_ref, ref = cpu(lambda: GaussianSVC(**kw, precompute_kernel_mb=0).fit(X, y), repeat=1)
    t_fast, fast = cpu(lambda: GaussianSVC(**kw, precompute_kernel_mb=1e9).fit(X, y), repeat=1)
    same = np.array_equal(ref.svc_.support_, fast.svc_.support_) and np.allclose(ref.dual_coef_, fast.dual_coef_)
    print(f"(b) GaussianSVC fit, {n} x {d} ({ref.svc_.support_.size} support vectors): libsvm kernel {t_ref:.1f} s, "
          f"precomputed Gram {t_fast:.1f} s CPU -> {t_ref / t_fast:.1f}x; same solution: {same}")


def bench_real_stability(n_bootstraps):
    from fscompbio.prediction import _lpboost

    rng = np.random.default_rng(2)
    X = rng.normal(size=(65, 7129))
    y = (X[:, 10] + X[:, 20] + rng.normal(size=65) > 0).astype(int)

    def fit(learner):
        return StabilitySelection(learner=learner, n_bootstraps=n_bootstraps, random_state=0).fit(X, y)

    fit("lpboost")  # imports (HiGHS) outside the timing
    top = _lpboost._top_stable
    _lpboost._top_stable = lambda v, k: np.argsort(-v, kind="stable")[:k]
    try:
        t_ref, ref = cpu(lambda: fit("lpboost"))
    finally:
        _lpboost._top_stable = top
    t_fast, fast = cpu(lambda: fit("lpboost"))
    same = np.array_equal(ref.stability_scores_, fast.stability_scores_)
    others = {learner: cpu(lambda learner=learner: fit(learner))[0] for learner in ("lasso", "logistic")}
    t_lars, lars = cpu(lambda: StabilitySelection(n_bootstraps=n_bootstraps, random_state=0, lasso_solver="lars").fit(X, y))
    cd = fit("lasso")
    others["lasso by LARS"] = t_lars
    diff = np.abs(cd.stability_scores_ - lars.stability_scores_)
    print(f"(c) stability selection, 65 x 7129, {n_bootstraps} subsamples: LPBoost with a full sort "
          f"{t_ref:.2f} s, with a partition {t_fast:.2f} s CPU -> {t_ref / t_fast:.1f}x, identical frequencies: "
          f"{same}; per subsample: LPBoost {1e3 * t_fast / n_bootstraps:.0f} ms, "
          + ", ".join(f"{k} {1e3 * v / n_bootstraps:.0f} ms" for k, v in others.items())
          + f"; lasso by LARS against coordinate descent: {np.count_nonzero(diff)} of {diff.size} frequencies differ, "
          f"by at most {diff.max():.3f}")


def alternate(fns, repeat):
    """Smallest CPU time of each of ``fns`` over ``repeat`` alternating rounds, and their last results."""
    best, out = [np.inf] * len(fns), [None] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t = time.process_time()
            out[i] = fn()
            best[i] = min(best[i], time.process_time() - t)
    return best, out


def _fold(X, y, seed=0):
    """A 90% training fold (rows in permuted order), as chapter 3's outer folds."""
    rows = np.random.default_rng(seed).permutation(len(y))[: int(round(0.9 * len(y)))]
    return np.asarray(X, dtype=float)[rows], np.asarray(y)[rows]


def bench_lasso_cd(n_bootstraps, repeat):
    from fscompbio.datasets import make_dataset

    for name in ("xor", "xor_100", "tb_serum_metabolomics"):
        if name in ("xor", "xor_100"):
            ds = make_dataset(name, random_state=0)
        else:
            ds = _expression(name)
            if ds is None:
                print(f"(d) {name}: not found in data/expression/, skipped")
                continue
        X, y = _fold(ds.X, ds.y)

        def fit(fast, X=X, y=y):
            _stability._LassoPathCD._fast = None if fast else False
            return StabilitySelection(learner="lasso", n_bootstraps=n_bootstraps, random_state=0).fit(X, y)

        (t_ref, t_fast), (ref, fast) = alternate([lambda: fit(False), lambda: fit(True)], repeat)
        _stability._LassoPathCD._fast = None
        same = np.array_equal(ref.stability_scores_, fast.stability_scores_) and np.array_equal(ref.ranking_,
                                                                                                   fast.ranking_)
        print(f"(d) lasso stability selection (coordinate descent), {name} fold {X.shape[0]} x {X.shape[1]}, "
              f"{n_bootstraps} subsamples x 5 alphas: lasso_path {1e3 * t_ref / n_bootstraps:.2f} ms, direct kernel "
              f"{1e3 * t_fast / n_bootstraps:.2f} ms per subsample -> {t_ref / t_fast:.2f}x; identical frequencies "
              f"and ranking: {same}")


def _lars_default(Z, y, alphas):
    """The reference: the supports read off ``lars_path`` with its default ``max_iter`` (500)."""
    import warnings

    from sklearn.linear_model import lars_path

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bp, _, coefs = lars_path(Z, y, method="lasso", alpha_min=float(np.min(alphas)), return_path=True)
    return _stability._supports_from_breakpoints(bp, coefs, alphas)


def _expression(name):
    """A real data set of ``data/expression/`` (None if it is not there)."""
    from pathlib import Path

    from fscompbio.datasets import load_csv_dataset

    path = Path(__file__).resolve().parents[1] / "data" / "expression" / f"{name}.csv.gz"
    return load_csv_dataset(path) if path.exists() else None


def bench_lars(n_bootstraps, repeat):
    bounded = _stability._lars_supports
    for name in ("allaml", "prostate_ge", "colon", "tb_blood_gambia"):
        ds = _expression(name)
        if ds is None:
            print(f"(e) {name}: not found in data/expression/, skipped")
            continue
        X, y = _fold(ds.X, ds.y)

        def fit(fn, X=X, y=y):
            _stability._lars_supports = fn
            try:
                return StabilitySelection(n_bootstraps=n_bootstraps, random_state=0, lasso_solver="lars").fit(X, y)
            finally:
                _stability._lars_supports = bounded

        (t_ref, t_fast), (ref, fast) = alternate([lambda: fit(_lars_default), lambda: fit(bounded)], repeat)
        same = np.array_equal(ref.stability_scores_, fast.stability_scores_) and np.array_equal(ref.ranking_,
                                                                                                   fast.ranking_)
        print(f"(e) lasso stability selection by LARS, {name} fold {X.shape[0]} x {X.shape[1]}, {n_bootstraps} "
              f"subsamples: max_iter 500 {1e3 * t_ref / n_bootstraps:.1f} ms, 2 m + 16 "
              f"{1e3 * t_fast / n_bootstraps:.1f} ms per subsample -> {t_ref / t_fast:.2f}x; identical frequencies "
              f"and ranking: {same}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only", nargs="+", choices=list("abcde"), default=list("abcde"), help="items to run")
    ap.add_argument("--repeat", type=int, default=None, help="alternating rounds of (d), (e) (default 3; quick 1)")
    args = ap.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 3)
    print(f"numpy {np.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, "
          f"fscompbio {fscompbio.__version__}, {platform.processor() or platform.machine()}")
    with threadpool_limits(1):
        if "a" in args.only:
            bench_logistic(20 if args.quick else 200)
        if "c" in args.only:
            bench_real_stability(10 if args.quick else 100)
        if "d" in args.only:
            bench_lasso_cd(20 if args.quick else 300, repeat)
        if "e" in args.only:
            bench_lars(10 if args.quick else 100, repeat)
        if "b" in args.only:
            for d in (228, 1500):
                bench_svc(2000 if args.quick else 15000, d)


if __name__ == "__main__":
    main()
