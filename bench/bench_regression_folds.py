"""The outer folds of a real-valued label, by model selection: nested cross-validation of the kernel ridge
regression against kernel target alignment with a Gaussian label kernel (thesis algorithm 3).

On Sun, Yao & Goodison's four synthetic regression sets (2015, eqs. 4.18-4.21: additive, nonadditive, sine,
spiral; 200 x 1,004, four or fewer relevant features) and scikit-learn's diabetes set (442 x 10, standardised),
for BaHSIC and randSel with their regression settings of the quick config: 5 shuffled outer folds
(``fscompbio.evaluation.regression_fold``), each model selection reading the same selector fit; the mean held-out
R^2, the features kept and, on the synthetic sets, the relevant ones among them (recall), with the time of each
model selection and its ratio to KTA's, measured in the same run.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/bench_regression_folds.py [--folds 5] [--inner-folds 5]``
(about 3 minutes on one core). Prints a plain-text report; nothing is written.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from sklearn.datasets import load_diabetes
from threadpoolctl import threadpool_limits

from fscompbio.datasets import Dataset, make_dataset, standardized
from fscompbio.evaluation import aggregate_folds, make_selector, regression_fold, regression_splits
from fscompbio.model_selection import KTASelect, NestedCVRegressionSelect
from fscompbio.selection import EmptySelectionWarning

SETTINGS = {"bahsic": {"step": 0.25}, "randsel": {"n_subsets": 300, "batch_size": 100}}


def _diabetes():
    X, y = load_diabetes(return_X_y=True, scaled=False)
    names = np.array(load_diabetes().feature_names)
    return standardized(Dataset(X=X, y=y.astype(float), relevant=np.array([], dtype=np.int64), task="regression",
                                feature_names=names, name="diabetes"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--inner-folds", type=int, default=5)
    args = parser.parse_args()
    import fscompbio
    import sklearn

    print(f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, fscompbio {fscompbio.__version__}; "
          f"{args.folds} outer folds, nested CV on {args.inner_folds} inner folds, KTA on at most 50 prefix sizes")
    sets = [make_dataset(name, random_state=0) for name in ("additive", "nonadditive", "sine", "spiral")]
    sets.append(_diabetes())
    print(f"{'data set':<12} {'method':<7} {'model sel.':<10} {'R^2':>6} {'features':>8} {'recall':>6} "
          f"{'seconds':>8} {'/ KTA':>6}")
    for ds in sets:
        for method, params in SETTINGS.items():
            rows = {"cv": [], "kta": []}
            splits = regression_splits(ds.n_samples, args.folds, random_state=0)
            for k, (train, test) in enumerate(splits):
                out = regression_fold(
                    ds.X, ds.y, train, test, make_selector(method, params, random_state=k),
                    model_selection=["cv", "kta"], relevant=ds.relevant if ds.relevant.size else None,
                    cv=NestedCVRegressionSelect(inner_folds=args.inner_folds, random_state=k),
                    kta=KTASelect(max_sizes=50))
                for ms in rows:
                    rows[ms].append(out[ms])
            seconds = {ms: np.mean([f["seconds_model_selection"] for f in folds]) for ms, folds in rows.items()}
            for ms, folds in rows.items():
                s = aggregate_folds(folds, ds.n_features)
                recall = "-" if s["recall_mean"] is None else f"{s['recall_mean']:.2f}"
                print(f"{ds.name:<12} {method:<7} {ms:<10} {s['r2_mean']:>6.3f} {s['n_selected_mean']:>8.1f} "
                      f"{recall:>6} {seconds[ms]:>8.2f} {seconds[ms] / seconds['kta']:>6.1f}")


if __name__ == "__main__":
    warnings.simplefilter("ignore", EmptySelectionWarning)  # randSel's own test, unused by both model selections
    with threadpool_limits(1):
        main()
