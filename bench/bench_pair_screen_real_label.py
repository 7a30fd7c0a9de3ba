"""A real-valued label in randSel's two marginal tests: its values against its normal scores.

randSel's pair screen (the label's squared correlation with every pairwise product of features) and its test of
main effects (with each feature) take a chi-squared law for ``(m - 1) r^2`` under permuted labels. A sum of
``y_i x_i`` reaches that normal limit slowly when a few terms carry it: a skewed label times a product of two
features. This bench measures what that costs and what the label's normal scores (the rank-based transform of
:func:`fscompbio._scaling.normal_scores`, what the screens now use) give instead, in the same run:

(a) the family-wise false-positive rate under permuted labels: the share of permutations in which the smallest
    Bonferroni-adjusted p-value is at most 0.05, for the pair screen over all pairs and for the main effects
    over all features, on Sun, Yao & Goodison's four regression sets (2015, eqs. 4.18-4.21; 200 x 1,004 and
    the first 300 columns for the main effects), their labels permuted (``--permutations``, default 40);
    nominal level 0.05;
(b) randSel's probability of correct recovery (the relevant features all in the top ``|relevant|``, the
    protocol of figure R.2 on ``fscompbio.evaluation.recovery_trial``'s draws: 1,000 irrelevant features,
    columns permuted) at 100 and 200 samples (``--repeats`` draws, default 10), with the regression stage's
    randSel settings, the noise features fixed per fit and the CPU seconds per fit.

The previous statistic (the label's centred values) is measured by swapping ``centred_label_columns`` of the
screen's module for one that returns them; nothing else differs between the two columns.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/bench_pair_screen_real_label.py [--quick]`` (about 8 minutes
on one core; ``--quick``: 10 permutations, 3 repeats, 100 samples). Prints a plain-text report.
"""

from __future__ import annotations

import argparse
import contextlib
import time
import warnings

import numpy as np
from threadpoolctl import threadpool_limits

import fscompbio.selection._pair_screen as screen
from fscompbio._scaling import minmax_scale
from fscompbio.datasets import make_dataset
from fscompbio.evaluation import make_selector, recovery_fraction
from fscompbio.seeding import derive_seed
from fscompbio.selection import EmptySelectionWarning

SETS = ("additive", "nonadditive", "sine", "spiral")
RANDSEL = {"n_subsets": 300, "batch_size": 100}  # the regression stage's randSel settings (config.yaml)
_NORMAL_SCORES = screen.centred_label_columns


def _values(y):
    """The previous statistic's label columns: a real label's centred values (classes as before)."""
    y = np.asarray(y)
    if y.dtype.kind in "fc" and np.unique(y).size > 2:
        return y.astype(float)[:, None] - y.mean()
    return _NORMAL_SCORES(y)


@contextlib.contextmanager
def label_columns(kind):
    screen.centred_label_columns = _values if kind == "values" else _NORMAL_SCORES
    try:
        yield
    finally:
        screen.centred_label_columns = _NORMAL_SCORES


def false_positives(n_permutations):
    print(f"(a) family-wise false positives under {n_permutations} permuted labels (nominal 0.05)")
    print(f"{'data set':<12} {'skew':>6} {'kurtosis':>8} {'label':<14} {'pairs':>6} {'features':>8}")
    from scipy.stats import kurtosis, skew

    for name in SETS:
        ds = make_dataset(name, random_state=0)
        X, y = ds.X, ds.y
        for kind in ("values", "normal scores"):
            rng = np.random.default_rng(0)
            pairs = features = 0
            with label_columns(kind):
                for _ in range(n_permutations):
                    yp = rng.permutation(y)
                    _, s = screen.pair_product_screen(X, yp, 5)
                    pairs += screen.pair_pvalues(s, yp, X.shape[1]).min() <= 0.05
                    m = screen.main_effect_scores(X[:, :300], yp)
                    features += screen.main_effect_pvalues(m, yp, 300).min() <= 0.05
            print(f"{name:<12} {skew(y):>6.2f} {kurtosis(y):>8.1f} {kind:<14} {pairs / n_permutations:>6.3f} "
                  f"{features / n_permutations:>8.3f}")


def recovery(sizes, repeats):
    print(f"\n(b) randSel's probability of correct recovery ({repeats} draws, 1,000 irrelevant features)")
    print(f"{'data set':<12} {'n':>4} {'values':>7} {'normal scores':>13} {'noise fixed / fit':>18} {'s / fit':>8}")
    for name in SETS:
        for n in sizes:
            out = {}
            for kind in ("values", "normal scores"):
                with label_columns(kind):
                    runs = [_trial(name, n, derive_seed(0, name, n, r)) for r in range(repeats)]
                out[kind] = np.mean(runs, axis=0)
            print(f"{name:<12} {n:>4} {out['values'][0]:>7.3f} {out['normal scores'][0]:>13.3f} "
                  f"{out['values'][1]:>8.1f} -> {out['normal scores'][1]:<7.1f} {out['normal scores'][2]:>8.2f}")


def _trial(name, n, seed):
    """One draw of figure R.2's protocol (``fscompbio.evaluation.recovery_trial``'s seeds, permutation and
    scaling): the recovery, the noise features fixed, the fit's seconds."""
    ds = make_dataset(name, random_state=derive_seed(seed, "data"), n_samples=n)
    perm = np.random.default_rng(derive_seed(seed, "permutation")).permutation(ds.n_features)
    relevant = np.flatnonzero(np.isin(perm, ds.relevant))
    start = time.process_time()
    fit = make_selector("randsel", RANDSEL, random_state=derive_seed(seed, "selector")).fit(
        minmax_scale(ds.X[:, perm]), ds.y)
    seconds = time.process_time() - start
    return recovery_fraction(fit.ranking_, relevant), np.setdiff1d(fit.fixed_, relevant).size, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--permutations", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args()
    import fscompbio

    if args.quick:
        args.permutations, args.repeats = 10, 3
    print(f"numpy {np.__version__}, fscompbio {fscompbio.__version__}")
    false_positives(args.permutations)
    recovery((100,) if args.quick else (100, 200), args.repeats)


if __name__ == "__main__":
    warnings.simplefilter("ignore", EmptySelectionWarning)
    with threadpool_limits(1):
        main()
