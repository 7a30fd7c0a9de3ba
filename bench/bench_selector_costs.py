"""What every selector costs on a user's shape: fit time on a grid of samples x features, as a ratio to
``SelectKBest(f_classif)`` measured in the same run.

Every selector of :mod:`fscompbio.selection` (and the model selectors of :mod:`fscompbio.model_selection`
around a ranking) is fitted once per shape on ``make_classification(n, p, n_informative=10)`` (binary,
seed 0), keeping 10 features where the selector takes a number, with its defaults otherwise, and with
scikit-learn's ``RFE(SVC(kernel="linear"), step=0.1)`` as a familiar peer. The ratio to
``SelectKBest(f_classif)`` on the same shape is the number to read (the machine may be shared); the
seconds are wall-clock with BLAS limited to ``--threads`` threads (the median of 5 fits for fits under
0.2 s). A selector that passes ``--budget``
seconds on a shape is not run on any larger one (marked ``>budget``), so the full grid ends.

Run::

    .venv/bin/python bench/bench_selector_costs.py             # small grid (100-300 x 100-1,000), minutes
    .venv/bin/python bench/bench_selector_costs.py --full      # 100-2,000 samples x 100-20,000 features
    .venv/bin/python bench/bench_selector_costs.py --only FoHSIC BaHSIC --csv costs.csv

Optional peers (skipped when not installed): ``HSICLasso`` (``pip install 'fscompbio[hsiclasso]'``) and
``AnticorrelationWeighting`` (``fscompbio[lp]``). Nothing is written unless ``--csv`` is given.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time

import numpy as np
import pandas as pd
import scipy
import sklearn
from sklearn.datasets import make_classification
from sklearn.feature_selection import RFE, SelectKBest, f_classif
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio.model_selection import KTASelect, NestedCVSelect
from fscompbio.selection import (
    BaHSIC,
    CorrelationSelector,
    FoHSIC,
    KernelRFE,
    LinearRFE,
    RandomSelector,
    RandSel,
    StabilitySelection,
)

SMALL_GRID = ([100, 300], [100, 1000])
FULL_GRID = ([100, 500, 1000, 2000], [100, 1000, 5000, 20000])
K = 10


def selectors():
    """Name -> a new unfitted selector, the baseline first."""
    out = {
        "SelectKBest(f_classif)": lambda: SelectKBest(f_classif, k=K),
        "sklearn RFE(linear SVC)": lambda: RFE(SVC(kernel="linear"), n_features_to_select=K, step=0.1),
        "RandomSelector": lambda: RandomSelector(n_features_to_select=K, random_state=0),
        "CorrelationSelector": lambda: CorrelationSelector(n_features_to_select=K),
        "LinearRFE": lambda: LinearRFE(n_features_to_select=K, random_state=0),
        "StabilitySelection": lambda: StabilitySelection(random_state=0),
        "KernelRFE": lambda: KernelRFE(n_features_to_select=K),
        "FoHSIC": lambda: FoHSIC(n_features_to_select=K),
        "BaHSIC": lambda: BaHSIC(n_features_to_select=K),
        "RandSel": lambda: RandSel(random_state=0),
        "KTASelect(CorrelationSelector)": lambda: KTASelect(CorrelationSelector()),
        "KTASelect(BaHSIC)": lambda: KTASelect(BaHSIC()),
        "NestedCVSelect(CorrelationSelector)": lambda: NestedCVSelect(CorrelationSelector(), random_state=0),
    }
    try:
        import pyHSICLasso  # noqa: F401
        from fscompbio.selection import HSICLasso

        out["HSICLasso"] = lambda: HSICLasso(n_features_to_select=K)
    except ImportError:
        print("# HSICLasso skipped: pyHSICLasso is not installed (fscompbio[hsiclasso])")
    try:
        import cvxpy  # noqa: F401
        from fscompbio.selection import AnticorrelationWeighting

        out["AnticorrelationWeighting"] = lambda: AnticorrelationWeighting(random_state=0)
    except ImportError:
        print("# AnticorrelationWeighting skipped: cvxpy is not installed (fscompbio[lp])")
    return out


def _fit_seconds(make, X, y, threads):
    """Wall-clock seconds of one fit; the median of 5 for fits under 0.2 s (a millisecond is noisy)."""
    times = []
    with threadpool_limits(threads):
        while True:
            est = make()
            t0 = time.perf_counter()
            est.fit(X, y)
            times.append(time.perf_counter() - t0)
            if times[0] >= 0.2 or len(times) == 5:
                return float(np.median(times))


def _write_csv_atomically(df, path):
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    os.close(fd)
    df.to_csv(tmp, index=False)
    os.replace(tmp, path)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="100-2,000 samples x 100-20,000 features")
    parser.add_argument("--samples", type=int, nargs="+", help="the grid's numbers of samples")
    parser.add_argument("--features", type=int, nargs="+", help="the grid's numbers of features")
    parser.add_argument("--only", nargs="+", help="the selectors to time (names as printed; the baseline always)")
    parser.add_argument("--budget", type=float, default=60.0,
                        help="seconds per fit above which a selector is not run on larger shapes (default 60)")
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    parser.add_argument("--csv", help="also write the table to this CSV file")
    args = parser.parse_args(argv)

    ns, ps = FULL_GRID if args.full else SMALL_GRID
    ns, ps = args.samples or ns, args.features or ps
    print(f"fscompbio {fscompbio.__version__}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"scikit-learn {sklearn.__version__}, Python {platform.python_version()}, {platform.machine()}; "
          f"{args.threads} BLAS thread(s), budget {args.budget:g} s per fit")
    table = selectors()
    base = next(iter(table))
    names = [n for n in table if n == base or not args.only or n in args.only]
    unknown = set(args.only or []) - set(table)
    if unknown:
        sys.exit(f"unknown selector(s) {sorted(unknown)}; choose from {list(table)}")

    rows, over = [], {}  # over: selector -> shapes where it passed the budget
    shapes = sorted(((n, p) for n in ns for p in ps), key=lambda s: (s[0] * s[1], s))
    for n, p in shapes:
        X, y = make_classification(n_samples=n, n_features=p, n_informative=min(K, p), n_redundant=0,
                                   random_state=0)
        print(f"\n{n} samples x {p} features")
        base_s = None
        for name in names:
            if any(n >= a and p >= b for a, b in over.get(name, [])):
                rows.append({"selector": name, "n_samples": n, "n_features": p, "seconds": np.nan, "ratio": np.nan})
                print(f"  {name:38s} >budget (skipped: passed {args.budget:g} s on a smaller shape)")
                continue
            sec = _fit_seconds(table[name], X, y, args.threads)
            if name == base:
                base_s = sec
            ratio = sec / base_s
            rows.append({"selector": name, "n_samples": n, "n_features": p, "seconds": sec, "ratio": ratio})
            print(f"  {name:38s} {sec:9.3f} s  {ratio:10.1f} x")
            if sec > args.budget:
                over.setdefault(name, []).append((n, p))
    df = pd.DataFrame(rows)
    print("\nratio to SelectKBest(f_classif) (rows: selector; columns: samples x features)")
    wide = df.pivot_table(index="selector", columns=["n_samples", "n_features"], values="ratio", sort=False,
                          dropna=False)
    print(wide.round(1).to_string())
    if args.csv:
        _write_csv_atomically(df, args.csv)
        print(f"\nwrote {args.csv}")


if __name__ == "__main__":
    main()
