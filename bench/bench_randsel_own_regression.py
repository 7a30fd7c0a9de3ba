"""randSel's own model (``selected_``) on real-valued labels, below the screen, beside its ranking and two filters.

A regression user who reads ``selected_`` as the model asks: does it hold the relevant features, and only them?
Data, each with its columns permuted, seeds 0-4:

- Friedman's first regression problem (Friedman, 1991, "Multivariate adaptive regression splines"; scikit-learn's
  ``make_friedman1``): ``y = 10 sin(pi x1 x2) + 20 (x3 - 1/2)^2 + 10 x4 + 5 x5 + N(0, 1)``, 300 samples, uniform
  features, 10, 50 and 200 of them (5 relevant);
- ``quad+lin``: ``y = 20 (x1 - 1/2)^2 + 10 x2 + N(0, 1)``, 300 samples, 50 uniform features (2 relevant): a
  U-shaped effect beside a stronger linear one;
- Sun, Yao & Goodison's additive, non-additive, sine and spiral sets (the workflow's regression stage) at 100
  features, below randSel's screen.

For each: the relevant features in randSel's top ``k`` (``k`` = the number relevant), in ``f_regression``'s and in
``mutual_info_regression``'s; ``selected_``'s relevant and noise features (the union of the iterations' test of the
contributions, at ``alpha`` less the pair screen's share, and the members of the second-order screen's pairs
significant at that share, randSel's ``PAIR_ALPHA_SHARE``); and the same for the contributions' test alone at all
of ``alpha`` (``selected_`` before the pairs entered it below the screen), computed from the fitted attributes.
Then the U-shaped feature at randSel's first iteration (its contribution, standard error and normal score),
alone (``y = 20 (x1 - 1/2)^2 + N(0, 1)``) and beside the linear feature, whether the pair screen fixed it (through
its square), and its score beside the linear feature under other widths, the biased estimator and unscaled
features.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/bench_randsel_own_regression.py [--seeds 5]`` (about 3 minutes on
one core). Prints a plain-text report; nothing is written.
"""

from __future__ import annotations

import argparse
import platform
import time
import warnings

import numpy as np
import scipy
import sklearn
from sklearn.datasets import make_friedman1
from sklearn.feature_selection import f_regression, mutual_info_regression
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio.datasets import DATASETS, make_dataset
from fscompbio.selection import RandSel
from fscompbio.selection._randsel import PAIR_ALPHA_SHARE
from fscompbio.selection._randsel_inference import confirmed_sets


#: the settings under which the U-shaped feature's first-iteration score is measured beside the linear one
SETTINGS = {
    "defaults": {},
    "archived width (`width_scale=\"minus\"`, 0.22)": {"width_scale": "minus", "width": 0.22},
    "width 0.25": {"width": 0.25},
    "width 2.0": {"width": 2.0},
    "`estimator=\"biased\"`": {"estimator": "biased"},
    "`standardize=False`": {"standardize": False},
}


def quad_lin(random_state, n_features=50, linear=10.0):
    rng = np.random.default_rng(random_state)
    X = rng.uniform(size=(300, n_features))
    y = 20 * (X[:, 0] - 0.5) ** 2 + linear * X[:, 1] + rng.normal(size=300)
    return X, y, 2


def data_sets(seed):
    """``(name, X, y, n_relevant)``, the relevant features first."""
    for d in (10, 50, 200):
        X, y = make_friedman1(n_samples=300, n_features=d, noise=1.0, random_state=seed)
        yield f"Friedman 300 x {d}", X, y, 5
    yield "quad+lin 300 x 50", *quad_lin(seed)
    for name in ("additive", "nonadditive", "sine", "spiral"):
        ds = make_dataset(name, random_state=seed, n_features=100)
        yield f"{name} 200 x 100", ds.X, ds.y, DATASETS[name].n_relevant


def contributions_reading(sel):
    """``selected_`` as it was before the pair screen's established pairs entered it below the screen: the
    iterations' Bonferroni test (significant at one iteration, confirmed at the next) alone, at all of
    ``alpha``, from the fitted attributes."""
    P = np.nan_to_num(sel.pvalues_history_, nan=1.0)
    n_tests = sum(s.size for s, t in zip(sel.support_history_[: sel.n_iterations_], ~sel.screened_) if t)
    sets, best = confirmed_sets(P, n_tests, sel.alpha)
    return sets[best] if best is not None else np.array([], dtype=int)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"fscompbio {fscompbio.__version__}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"scikit-learn {sklearn.__version__}, {platform.machine()}; one BLAS thread; seeds 0-{args.seeds - 1}")
    rows = {}
    seconds = []
    notes = []
    for seed in range(args.seeds):
        for name, X, y, k in data_sets(seed):
            perm = np.random.default_rng(1000 + seed).permutation(X.shape[1])
            X = X[:, perm]
            relevant = perm < k
            t = time.process_time()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sel = RandSel(random_state=seed).fit(X, y)
            seconds.append(time.process_time() - t)
            top = np.argsort(sel.ranking_, kind="stable")[:k]
            f_top = np.argsort(-np.nan_to_num(f_regression(X, y)[0]), kind="stable")[:k]
            mi_top = np.argsort(-mutual_info_regression(X, y, random_state=seed), kind="stable")[:k]
            alone = contributions_reading(sel)
            for a, b in sel.screen_pairs_[sel.screen_pair_pvalues_ <= PAIR_ALPHA_SHARE * sel.alpha]:
                if not (relevant[a] and relevant[b]):  # a pair established in selected_ with a noise member
                    kinds = ["relevant x%d" % (perm[j] + 1) if relevant[j] else "noise" for j in (a, b)]
                    notes.append(f"{name}, seed {seed}: the pair ({kinds[0]}, {kinds[1]})")
            r = rows.setdefault(name, {"k": k, "v": [], "hits": np.zeros(k, dtype=int)})
            r["hits"] += np.isin(np.argsort(perm)[:k], alone)  # which relevant features the contributions' test holds
            r["v"].append([relevant[top].sum(), relevant[f_top].sum(), relevant[mi_top].sum(),
                           relevant[sel.selected_].sum(), (~relevant[sel.selected_]).sum(),
                           relevant[alone].sum(), (~relevant[alone]).sum()])
    print("\nRelevant features in each top k (k = the number relevant), and in randSel's own sets (relevant / noise);"
          " mean over the seeds\n")
    print("| data | k | randSel top k | f_regression top k | mutual information top k | `selected_` | "
          "the contributions' test alone |")
    print("| --- | ---: | ---: | ---: | ---: | --- | --- |")
    for name, r in rows.items():
        v = np.mean(r["v"], axis=0)
        print(f"| {name} | {r['k']} | {v[0]:.1f} | {v[1]:.1f} | {v[2]:.1f} | {v[3]:.1f} / {v[4]:.1f} | "
              f"{v[5]:.1f} / {v[6]:.1f} |")
    print(f"\nrandSel CPU s per fit: median {np.median(seconds):.2f}, max {np.max(seconds):.2f}")
    print("\nPairs established in `selected_` with a noise member:", "; ".join(notes) if notes else "none")
    print("\nFits (of the seeds) in which the contributions' test alone holds each relevant feature, in the order of "
          "the data's definition")
    for name, r in rows.items():
        print(f"  {name}: {r['hits'].tolist()}")

    print("\nThe U-shaped feature 20 (x1 - 1/2)^2 at randSel's first iteration (normal score of its contribution; "
          "300 x 50 uniform features), and whether the pair screen fixed it\n")
    print("| seed | alone: c (se), z | beside 10 x2: c (se), z | beside 10 x2: the linear feature's z | "
          "fixed beside 10 x2 |")
    print("| ---: | --- | --- | ---: | --- |")
    for seed in range(args.seeds):
        zs = []
        for linear in (0.0, 10.0):
            X, y, _ = quad_lin(seed, linear=linear)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sel = RandSel(random_state=seed).fit(X, y)
            zs.append(sel)
        alone, beside = zs
        cells = [f"{e.contributions_[0, 0]:.1e} ({e.contribution_se_[0, 0]:.1e}), {e.zscores_history_[0, 0]:.2f}"
                 for e in (alone, beside)]
        print(f"| {seed} | {cells[0]} | {cells[1]} | {beside.zscores_history_[0, 1]:.2f} | "
              f"{'yes' if 0 in beside.fixed_ else 'no'} |")
    print("(c: the contribution at the first iteration; se: its standard error over the partitions)")

    print("\nThe same feature's first-iteration normal score beside 10 x2 under other settings (seeds 0-2)\n")
    print("| setting | seed 0 | seed 1 | seed 2 |")
    print("| --- | ---: | ---: | ---: |")
    for label, params in SETTINGS.items():
        zs = []
        for seed in range(min(3, args.seeds)):
            X, y, _ = quad_lin(seed)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                zs.append(RandSel(random_state=seed, **params).fit(X, y).zscores_history_[0, 0])
        print(f"| {label} | " + " | ".join(f"{z:.2f}" for z in zs) + " |")


if __name__ == "__main__":
    with threadpool_limits(1):
        main()
