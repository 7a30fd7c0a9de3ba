"""randSel's selected set over its seeds on redundant real data, by the fewest iterations of a fit with fixed main
effects (``fscompbio.selection._randsel.MAIN_EFFECT_MIN_ITERATIONS``).

On scikit-learn's breast-cancer set (569 x 30) nearly every feature is a main effect (its squared correlation
with the label significant over all features), so ``fix_main_effects`` fixes them, nothing is culled, and the fit
stops after the fewest iterations it allows. An iteration's test is confirmed at the next one: 2 iterations test
once, 5 test four times (Bonferroni over every test). For each setting, over seeds 0-19 (the columns permuted
with each seed): the size of ``selected_``, how many are empty, a Gaussian SVM's 10-fold accuracy on the set
(standardised, ``gamma="scale"``; the set chosen on all samples), and the CPU time per fit with its ratio to the
2-iteration baseline measured in the same run; the same on the training parts of 3-, 5- and 10-fold
stratified splits (four shuffles). Then, as the control that the setting changes nothing where the
fit culls, ``ranking_`` and ``selected_`` on the study's synthetic sets (``make_dataset`` seeds 0-2) and the
TB serum metabolomics set, compared between the baseline and each setting.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/bench_randsel_seeds.py [--settings 2,3,4,5] [--seeds 20]``
(about 4 minutes on one core). Prints a plain-text report; nothing is written.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
from bench_randsel_wide import _svm
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import StratifiedKFold, cross_val_score
from threadpoolctl import threadpool_limits

import fscompbio.selection._randsel as randsel_module
from fscompbio.datasets import load_csv_dataset, make_dataset
from fscompbio.selection import RandSel

ROOT = Path(__file__).resolve().parents[1]
CONTROL_SETS = ("linear_zhang_feature_noise", "linear_zhang_sample_noise", "linear_weston", "nonlinear_weston", "xor",
                "fake_class")


def fit(X, y, min_iterations, seed):
    randsel_module.MAIN_EFFECT_MIN_ITERATIONS = min_iterations
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return RandSel(random_state=seed).fit(X, y)


def breast_cancer_over_seeds(selected, n_seeds):
    """Breast cancer under seeds 0 to ``n_seeds`` - 1, the columns permuted with each: the size of
    ``selected(X, y, seed)``, a Gaussian SVM's 10-fold accuracy on it (NaN where empty) and the CPU s per fit."""
    X0, y = load_breast_cancer(return_X_y=True)
    cv = StratifiedKFold(10, shuffle=True, random_state=0)
    sizes, accs, cpu = [], [], 0.0
    for seed in range(n_seeds):
        X = X0[:, np.random.default_rng(seed).permutation(X0.shape[1])]
        t0 = time.process_time()
        cols = selected(X, y, seed)
        cpu += time.process_time() - t0
        sizes.append(cols.size)
        accs.append(cross_val_score(_svm(), X[:, cols], y, cv=cv).mean() if cols.size else np.nan)
    return sizes, np.array(accs), cpu / n_seeds


def breast_cancer(settings, n_seeds):
    rows, base_time = [], None
    for m in settings:
        sizes, accs, per_fit = breast_cancer_over_seeds(lambda X, y, seed: fit(X, y, m, seed).selected_, n_seeds)
        base_time = per_fit if base_time is None else base_time
        rows.append((m, sizes, int(np.sum(np.array(sizes) == 0)), int(np.sum(accs >= 0.93)), np.nanmin(accs),
                     np.nanmean(accs), per_fit, per_fit / base_time))
        print(f"  fewest iterations {m}: sizes {sizes}", flush=True)
    print(f"\nbreast cancer 569 x 30, seeds 0-{n_seeds - 1} (columns permuted), Gaussian SVM 10-fold on selected_:")
    print("| fewest iterations | empty | SVM >= 0.93 | SVM min | SVM mean | CPU s per fit | ratio to the first |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for m, _sizes, empty, good, lo, mean, per_fit, ratio in rows:
        print(f"| {m} | {empty} of {n_seeds} | {good} of {n_seeds} | {lo:.3f} | {mean:.3f} | {per_fit:.2f} | "
              f"{ratio:.2f} |")


def training_parts(settings, shuffles=4):
    """The same on the training parts of 3-, 5- and 10-fold stratified splits (each shuffle seeds its fits)."""
    X, y = load_breast_cancer(return_X_y=True)
    print(f"\nbreast cancer's training parts of 3-, 5- and 10-fold splits, {shuffles} shuffles each:")
    print("| fewest iterations | fits | empty | median size |")
    print("| --- | --- | --- | --- |")
    for m in settings:
        sizes = [fit(X[train], y[train], m, rep).selected_.size
                 for k in (3, 5, 10) for rep in range(shuffles)
                 for train, _ in StratifiedKFold(k, shuffle=True, random_state=rep).split(X, y)]
        print(f"| {m} | {len(sizes)} | {sum(v == 0 for v in sizes)} | {np.median(sizes):g} |", flush=True)


def controls(settings):
    sets = [(f"{name} seed {s}", *(lambda d: (d.X, d.y))(make_dataset(name, random_state=s)))
            for name in CONTROL_SETS for s in range(3)]
    tb = load_csv_dataset(ROOT / "data" / "expression" / "tb_serum_metabolomics.csv.gz")
    sets.append(("tb_serum_metabolomics", tb.X, tb.y))
    base = settings[0]
    print(f"\ncontrols: ranking_ and selected_ equal to the fewest iterations {base}'s (seed 0):")
    for label, X, y in sets:
        ref = fit(X, y, base, 0)
        same = []
        for m in settings[1:]:
            other = fit(X, y, m, 0)
            same.append(np.array_equal(ref.ranking_, other.ranking_) and np.array_equal(ref.selected_, other.selected_))
        print(f"  {label:36s} {X.shape[0]} x {X.shape[1]}, {ref.n_iterations_} iterations: "
              + ", ".join(f"{m} {'same' if s else 'DIFFERENT'}" for m, s in zip(settings[1:], same)), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--settings", default="2,3,4,5", help="fewest iterations to compare; the first is the baseline")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--no-controls", action="store_true")
    args = ap.parse_args()
    settings = [int(v) for v in args.settings.split(",")]
    default = randsel_module.MAIN_EFFECT_MIN_ITERATIONS
    print(f"the package's default: {default}")
    with threadpool_limits(limits=1):
        breast_cancer(settings, args.seeds)
        training_parts(settings)
        if not args.no_controls:
            controls(settings)
    randsel_module.MAIN_EFFECT_MIN_ITERATIONS = default


if __name__ == "__main__":
    main()
