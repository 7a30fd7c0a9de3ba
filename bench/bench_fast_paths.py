"""Fast paths of the thesis config against their reference paths, timed in the same run (CPU seconds).

(a) Stability selection with l1-logistic regression (chapter 3's ``stabsel_logreg``, 270 x 200 as one
    outer training fold of the 300 x 200 sets): liblinear's trainer called directly against
    ``LogisticRegression.fit`` for every one of the 5 x n_bootstraps fits; the selection frequencies
    must be identical.

Run: ``.venv/bin/python bench/bench_fast_paths.py [--quick]``. Single-threaded BLAS; nothing is written.
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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    print(f"numpy {np.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, "
          f"fscompbio {fscompbio.__version__}, {platform.processor() or platform.machine()}")
    with threadpool_limits(1):
        bench_logistic(20 if args.quick else 200)


if __name__ == "__main__":
    main()
