"""randSel's readings on redundant, linear and interaction data: the candidate fixes side by side.

What makes randSel's contributions read the kernel instead of the features, measured (``--only 0``):

- the width rule: the width of an iteration is a fixed multiple of the median distance of its subsets, but
  the alignment only sees ``gamma`` times the *spread* of the distances (a Gaussian kernel's alignment does
  not change when every distance moves by a constant). Distances of ``h`` independent features concentrate
  (spread / median ~ ``1 / sqrt(h)``), so 0.22 of the median, tuned on 100-feature halves of XOR, is a kernel
  several times narrower on few or redundant features (breast cancer: 30 correlated features), where it is
  nearly the identity. (0) prints ``gamma x (q90 - q10)`` of the squared distances of random subsets of ``h``
  features: the range of the log-kernel over the bulk of the pairs.
- the features' marginals: with ``standardize=True`` every feature has unit variance, but a feature with
  a few extreme values (linear Zhang with feature noise: 5% of the relevant values with standard deviation
  10) has its bulk compressed and its distances dominated by the outliers.

Candidates (``RandSel`` parameters; every other one at its default):

- ``size 0.22``: ``width_scale="subset_size"``, width 0.22 of the minus-subsets' median;
  ``minus 0.22``: the same without the size scaling (before that);
- ``own median 0.22``: every subset's kernel at 0.22 of its own median distance (``subset_median``);
- ``size 1.0``: a larger width factor;
- ``spread 0.5 (before)``, ``spread 0.4``: the width from the interquartile range of the minus-subsets'
  squared distances (``sigma^2 = 0.5^2 IQR``, which equals 0.22 of the median on 100 independent features),
  the plus-subsets scaled by their size; ``own spread 0.5``: every subset its own interquartile range;
- ``+ ns``: the same with ``standardize="normal_scores"`` (every feature's normal scores, a monotone
  transform to a standard normal marginal) in place of unit variance;
- ``+ tails (before)``: ``standardize="auto"``: normal scores only for the features whose tails are
  significantly heavier than a normal's (one-sided kurtosis test; for class labels the kurtosis of the
  values standardised within each class, pooled: the tails of the noise, not of the signal), unit variance
  for the others; ``+ marginal tails (before)``: the same with the marginal kurtosis test (blind to the
  classes), the default before the within-class test;
- ``+ skipped tails (default)``: ``standardize="auto_skip"``: the same test, but a heavy-tailed feature's values further
  than 3 robust standard deviations from its median are set to its median (then unit variance) instead of
  normal scores, except in the samples outlying in more than half of the heavy-tailed features, which keep
  their normal scores;
- ``width grid + pairs``: the default with the widths 0.5 and 1.0 evaluated on the same partitions, each
  iteration keeping the one whose normal scores above the family-wise 5% threshold sum to the most
  (``width_rule="select"``), and the pair screen on data of any width (``pair_screen_above=0``: a pair
  established at level ``alpha`` over all pairs is fixed); part (i) separates the two;
- ``screen width 8.0``, ``screen to 200`` (micro-arrays, part d): the defaults, but the first-order screen's
  kernel four times as wide (closer to the squared correlation with the label, the first-order term of the
  alignment in the inverse width), or the screen stopping at 200 features, so that the exact iterations choose
  the top 50 among them;
- ``archived``: ``fscompbio.selection.ARCHIVED_RANDSEL``, the settings of the workflow's runs archived before
  these readings (``minus 0.22`` with no pair screen).

(a) breast cancer (scikit-learn, 569 x 30): size of ``selected_`` (seed 0, all samples, standardised) and a
    Gaussian SVM's 10-fold accuracy (stratified, shuffled, seed 0) on it; against the SVM on all features.
(b) chapter 4's linear Zhang (feature and sample noise) and non-linear Weston sets, 300 x 200, draws 0-2
    (``fscompbio.datasets`` generators, columns permuted): relevant features in the top 10; the chapter's
    peers (Gaussian SVM-RFE, FoHSIC, BaHSIC, the thesis config's settings) on the same draws. Also the
    100-feature non-linear Weston set (5 relevant: top 5), the relevant features in ``selected_`` on
    non-linear Weston and the size of ``selected_`` on the fake class (no feature relevant).
(c) XOR 300 x 200, columns permuted: in how many of 20 seeds (``--quick``: 5) the pair is randSel's top 2.
(e) the workflow's own XOR draws 0-2 (``make_dataset("xor_draw<k>")`` with the seed the workflow derives from
    ``config.yaml``'s master seed), randSel fitted on the 270-sample training sets of the first 2 outer folds of
    4 stratified 10-fold splits: in how many of the 8 training sets per draw (x ``--fit-seeds`` seeds of
    randSel's own randomness) the pair is the top 2; beside it,
    a Gaussian SVM told the pair (10-fold accuracy), which shows that every draw is learnable. Part (c) fits
    all 300 samples of ``make_dataset("xor", random_state=s)``; some of the workflow's draws are harder.
    Candidates: the default and ``ARCHIVED_RANDSEL`` unless ``--candidates`` names others; at RandSel's own
    partitions and subsample (the quick config's chapter 4), or with ``--thesis-ch4`` at the thesis config's
    chapter-4 settings (``chapter4.selectors.randsel`` of ``config/thesis.yaml``).
(f) ``selected_`` under the default test (Bonferroni over the run, confirmed at the next iteration) and under
    ``refit_permutations=19`` (the max-T test of whole refits on permuted labels), on all 300 samples of the
    workflow's draws 0-2 of the fake class, XOR, non-linear Weston and linear Zhang (feature noise) at the thesis
    config's chapter-4 settings (``--defaults``: RandSel's own): size of ``selected_`` / relevant in it, and CPU
    s of the fit with the refits. With ``--candidates``: the named candidates' Bonferroni ``selected_`` side by
    side instead (no refits). ``--fake-draws N``: also the fake class over ``make_dataset`` seeds 0 to N-1, how
    many fits of each test select anything (an estimate of its family-wise error under labels independent of
    every feature).
(g) the linear Zhang sets (sample noise, feature noise) and non-linear Weston over ``--draws`` draws (default 20; ``make_dataset``
    seeds 0..N-1, columns permuted as in (b)): relevant features in the top 10 of ``RandSel()``, of chapter 4's
    peers, and of references that rank by the absolute correlation with the label: of every feature's normal
    scores, and (sample noise) of the values on the rows left after removing the 5% of largest norm (the
    outlying rows, whose every feature has 10 times the spread; a Gaussian kernel gives them almost no
    weight). Per draw, mean, and the draws where a ranker finds more or fewer than randSel.
(h) the feature-noise gap taken apart, over ``--draws`` draws (default 20) of the linear Zhang sets (with
    feature noise, with sample noise, and without noise), non-linear Weston (top 10) and XOR (top 2), columns
    permuted as in (b): randSel under the two heavy-tail transforms (normal scores, ``standardize="auto"``;
    outlying values set to the median, ``standardize="auto_skip"``, the default) at width 0.5, 1.0 and 2.0
    and with the grid [0.5, 2.0] (the evidence rule), without the pair screen (the kernel alone); FoHSIC
    with the thesis config's settings on the raw data; and the absolute correlation with the label of the
    features as each transform leaves them (a linear filter: the reference for additive signals).
(i) the width grid and the pair screen, apart and together, over ``--draws`` draws (default 20) of the sets of
    (h): relevant features in the top 10 (XOR: the pair in the top 2), for width 0.5 (the default), the grid
    (0.5, 1.0) under ``width_rule="select"`` and under ``"evidence"``, the grid (0.5, 2.0) under
    ``"evidence"`` and under ``"tail"``, each without and with the pair screen on these 200-feature sets
    (``screen_pairs`` 0 or 5, ``pair_screen_above=0``); FoHSIC and BaHSIC with the thesis config's settings
    (not with ``--no-peers``); and the madelon-style set (2,600 x 500, ``tests/test_randsel_wide.py``'s recipe,
    seeds 0-7, relevant features in the top 20) for width 0.5 and the grid (0.5, 1.0) under the select rule,
    with and without the pair screen. ``--candidates`` keeps the named rules only (labels as printed, e.g.
    ``'(0.5, 2.0), tail'``), on the madelon-style set too. Fit CPU seconds per fit beside each row.
(j) the width chosen against permuted labels (``width_rule="calibrated"``) over ``--draws`` draws (default 20)
    of the sets of (h): relevant features in the top 10 (XOR: the pair in the top 2) for width 0.5 (the
    default), the grid (0.5, 1.0) under the select rule and under the calibrated rule, and the grid (0.5, 2.0)
    under the calibrated rule; FoHSIC and BaHSIC; breast cancer's ``selected_`` and a Gaussian SVM on it, the
    madelon-style set's top 20; and one pass without culling under both rules where every contribution is
    precise (an XOR pair among 60 features, all 400 samples in every subsample; the paper's figure 1 at the
    thesis config's settings): the width kept and the pair's ranks; about 20 minutes.
(k) what the calibrated rule costs on the micro-arrays (prostate_ge, allaml, colon; 5-fold split 0, as
    ``bench_randsel_wide.py``): a Gaussian SVM's accuracy on the top 50 and the CPU s per fit of width 0.5 (the
    default) and of the grid (0.5, 1.0) under the calibrated rule, MultiSURF's time on the same training parts,
    the ratios, and in how many folds the two rules' top 50 are the same features; about 3 minutes.
(l) a real set below the screen: the TB serum metabolomics set (136 x 424, 92 and 44 samples of the two
    classes): 5-fold accuracy of a Gaussian SVM on the top 50 over four fold splits, for ``f_classif``,
    MultiSURF, the default, widths 1.0 and 2.0, the grid (0.5, 1.0) under the select and the calibrated rule,
    the grid (0.5, 2.0) under the evidence rule (with and without the pair screen on data of any width),
    ``balanced=True`` (at width 0.5 and 1.0), the first-order
    screen (``screen_above=1``), the main effects not fixed (``fix_main_effects=False``), fixed at family-wise
    level without their marginal evidence (``fix_main_effects="fwe", main_effect_weight=0``) and not used at all;
    about 6 minutes.
(d) (``--arrays``) the micro-arrays (prostate_ge, allaml, colon; screened): 5-fold accuracy of a Gaussian SVM on
    the top 50 (as ``bench_randsel_wide.py`` does), for ``f_classif`` and the candidates that change the screen
    (``screen subsets 800`` and ``1600``: more random halves per screening iteration, fewer noisy culls;
    ``no pair screen``: ``screen_pairs=0``, no slot of the top 50 kept for a pair's members; ``screen width
    128``: a screen kernel 64 times the default's width, in its linear regime; ``screen by contribution``: the
    screen culls by the contributions, not their normal scores; ``screen by hsic``: and with the halves' kernel
    norms held fixed, ``screen_by="hsic"``), over the fold splits of ``--split-seeds`` and randSel's seeds of
    ``--array-seeds`` (averaged per split); with several splits, each candidate's paired difference from
    ``f_classif`` and its standard error over the splits. On all samples, how many of each candidate's top 50 are
    the F test's, and for each candidate's first screening iteration (every feature alive) how many of the top
    50 by contribution ``c`` and by its normal score (``c / se``) are. ``--kta-pick``: also a choice, per training
    part, between the default's top 50 and ``screen_by="hsic"``'s by the alignment of a Gaussian kernel on each
    (standardised, gamma 1 / 50 as the SVM's "scale") with the label on the training part, under both
    estimators (the centred alignment and HSIC1's), randSel's random_state 0.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/bench_randsel_readings.py [--quick] [--only 0|a|b|c|d|e|f|g|h|i|j|k|l]
[--candidates 'size 0.22;spread 0.5 + ns'] [--split-seeds 0,1,2] [--array-seeds 0,1] [--draws 20]``. Each part
but (i) and (j) (about 15-20 minutes) stays under about 5 minutes on one core.
Prints a plain-text report; nothing is written.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy
import sklearn
from scipy.stats import spearmanr
from sklearn.datasets import load_breast_cancer
from sklearn.feature_selection import f_classif
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio._pairs import CenteredTarget, PairLayout, batched_alignment
from fscompbio.datasets import draw_name, make_dataset
from fscompbio.kernels import gaussian_kernel, label_kernel
from fscompbio.selection import ARCHIVED_RANDSEL, RandSel
from fscompbio.selection._tail_scaling import tail_adaptive_scale

from bench_randsel_wide import REAL, _rank_f, _rank_multisurf, _svm, expression_set  # bench/ is the script's directory

ROOT = Path(__file__).resolve().parents[1]
VAR, NS, AUTO = dict(standardize=True), dict(standardize="normal_scores"), dict(standardize="auto")
CANDIDATES = {
    "minus 0.22": dict(width_scale="minus", width=0.22, **VAR),
    "size 0.22": dict(width_scale="subset_size", width=0.22, **VAR),
    "own median 0.22": dict(width_scale="subset_median", width=0.22, **VAR),
    "size 1.0": dict(width_scale="subset_size", width=1.0, **VAR),
    "spread 0.4": dict(width_scale="spread", width=0.4, **VAR),
    "spread 0.5 (before)": dict(width_scale="spread", width=0.5, **VAR),
    "own spread 0.5": dict(width_scale="subset_spread", width=0.5, **VAR),
    "size 0.22 + ns": dict(width_scale="subset_size", width=0.22, **NS),
    "spread 0.4 + ns": dict(width_scale="spread", width=0.4, **NS),
    "spread 0.5 + ns": dict(width_scale="spread", width=0.5, **NS),
    "spread 0.5 + marginal tails (before)": dict(width_scale="spread", width=0.5, marginal_tails=True),
    "spread 0.5 + tails (before)": dict(width_scale="spread", width=0.5, **AUTO),
    "spread 0.5 + skipped tails (default)": dict(width_scale="spread", width=0.5, standardize="auto_skip"),
    "width grid + pairs": dict(width=(0.5, 1.0), width_rule="select", pair_screen_above=0),
    "evidence (0.5, 2.0) + pairs": dict(width=(0.5, 2.0), width_rule="evidence", pair_screen_above=0),
    "tail (0.5, 2.0) + pairs": dict(width=(0.5, 2.0), width_rule="tail", pair_screen_above=0),
    "screen width 8.0": dict(screen_width=8.0),
    "screen to 200": dict(screen_to=200),
    "screen subsets 800": dict(screen_subsets=800),
    "screen subsets 1600": dict(screen_subsets=1600),
    "screen width 128": dict(screen_width=128.0),
    "screen by contribution": dict(screen_by="contribution"),
    "screen by hsic": dict(screen_by="hsic"),
    "no pair screen": dict(screen_pairs=0),
    "archived": dict(ARCHIVED_RANDSEL),
    "main effects not fixed": dict(fix_main_effects=False),
    "main effects family-wise, no marginal evidence (before)": dict(fix_main_effects="fwe", main_effect_weight=0.0),
    "main effects not used": dict(fix_main_effects=False, main_effect_weight=0.0),
}
SETS = ["linear_zhang_feature_noise", "linear_zhang_sample_noise", "nonlinear_weston", "nonlinear_weston_100"]
WORKFLOW_XOR_CANDIDATES = ("spread 0.5 + skipped tails (default)", "archived")
ARRAY_CANDIDATES = ("spread 0.5 (before)", "spread 0.5 + ns", "spread 0.5 + marginal tails (before)",
                    "spread 0.5 + tails (before)", "spread 0.5 + skipped tails (default)", "width grid + pairs",
                    "evidence (0.5, 2.0) + pairs", "tail (0.5, 2.0) + pairs", "screen width 8.0",
                    "screen to 200", "screen subsets 800", "screen subsets 1600", "no pair screen",
                    "screen width 128", "screen by contribution", "screen by hsic")
PEERS = {  # chapter 4's peers with the thesis config's settings
    "Gaussian RFE": ("KernelRFE", dict(step=0.25)),
    "FoHSIC": ("FoHSIC", dict(n_steps=150)),
    "BaHSIC": ("BaHSIC", dict(step=0.25)),
}


def permuted(name, seed):
    ds = make_dataset(name, random_state=seed)
    perm = np.random.default_rng(1000 + seed).permutation(ds.X.shape[1])
    return ds.X[:, perm], ds.y, np.flatnonzero(np.isin(perm, ds.relevant))


def fit(kw, X, y, **more):
    kw = dict(kw)
    if kw.pop("marginal_tails", False):  # the tails tested on the marginals, blind to the classes
        X, kw["standardize"] = tail_adaptive_scale(X), False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return RandSel(**kw, **more).fit(X, y)


def top(est, k):
    return np.argsort(est.ranking_, kind="stable")[:k]


def bench_0(args):
    from scipy.stats import rankdata

    print("(0) gamma x (q90 - q10) of the squared distances of random subsets of h features (mean of 10 subsets on "
          "200 samples): the log-kernel's range over the bulk of the pairs, at 0.22 of the median (before) and at "
          "0.5 of the spread (sigma^2 = 0.25 IQR, the default's narrower width)")
    X, y = load_breast_cancer(return_X_y=True)
    sets = {"breast cancer": StandardScaler().fit_transform(X)}
    for name in ("xor", "linear_zhang_feature_noise"):
        sets[name] = StandardScaler().fit_transform(permuted(name, 0)[0])
    rng = np.random.default_rng(0)
    hs = (1, 2, 5, 15, 50, 100)
    print("| data set | width | " + " | ".join(f"h = {h}" for h in hs) + " |")
    print("| --- " * (len(hs) + 2) + "|")
    for name, Z in sets.items():
        rows = rng.choice(Z.shape[0], 200, replace=False)
        ia, ib = np.triu_indices(200, 1)
        cells = {"0.22 median": [], "0.5 spread": []}
        for h in hs:
            if h > Z.shape[1]:
                for v in cells.values():
                    v.append("-")
                continue
            r, t = [], []
            for _ in range(10):
                S = rng.choice(Z.shape[1], h, replace=False)
                D = ((Z[rows][ia][:, S] - Z[rows][ib][:, S]) ** 2).sum(axis=1)
                q10, q25, q50, q75, q90 = np.percentile(D, [10, 25, 50, 75, 90])
                r.append((q90 - q10) / (2 * 0.22**2 * q50))
                t.append((q90 - q10) / (2 * 0.5**2 * (q75 - q25)))
            cells["0.22 median"].append(f"{np.mean(r):.1f}")
            cells["0.5 spread"].append(f"{np.mean(t):.1f}")
        for lab, v in cells.items():
            print(f"| {name} | {lab} | " + " | ".join(v) + " |", flush=True)
    # the outliers of linear Zhang with feature noise: the relevant features' share of the squared distances
    X, y, rel = permuted("linear_zhang_feature_noise", 0)
    for lab, Z in (("unit variance", StandardScaler().fit_transform(X)),
                   ("normal scores", scipy.stats.norm.ppf((rankdata(X, axis=0) - 0.5) / X.shape[0]))):
        d = Z[:, rel][:, None, :] - Z[:, rel][None, :, :]
        q = np.percentile((d**2).reshape(-1, rel.size), [50, 99], axis=0).mean(axis=1)
        eff = np.mean([abs(np.corrcoef(Z[:, j], y)[0, 1]) for j in rel])
        print(f"linear Zhang, feature noise, draw 0, {lab}: relevant features' squared differences median "
              f"{q[0]:.2f}, 99th percentile {q[1]:.1f}; mean |corr(x_j, y)| {eff:.3f}", flush=True)


def bench_a(args):
    X, y = load_breast_cancer(return_X_y=True)
    Xs = StandardScaler().fit_transform(X)
    cv = StratifiedKFold(10, shuffle=True, random_state=0)
    svm_all = cross_val_score(make_pipeline(StandardScaler(), SVC()), X, y, cv=cv).mean()
    print(f"\n(a) breast cancer 569 x 30 (SVM on all 30 features: {svm_all:.3f}): selected_ size / SVM 10-fold "
          "accuracy on it / fit CPU s")
    print("| candidate | selected_ | accuracy | fit s |")
    print("| --- | --- | --- | --- |")
    for lab, kw in CANDIDATES.items():
        t0 = time.process_time()
        sel = fit(kw, Xs, y, random_state=0)
        dt = time.process_time() - t0
        acc = (cross_val_score(make_pipeline(StandardScaler(), SVC()), X[:, sel.selected_], y, cv=cv).mean()
               if sel.selected_.size else float("nan"))
        print(f"| {lab} | {sel.selected_.size} {sel.selected_.tolist()} | {acc:.3f} | {dt:.1f} |", flush=True)


def bench_b(args):
    draws = range(3)
    labels = list(CANDIDATES)
    print("\n(b) relevant features in the top 10 (nonlinear_weston_100: top 5), draws 0-2 (columns permuted): mean "
          "(per draw); non-linear Weston: relevant features in selected_ (of 30); fake class: size of selected_")
    print("| candidate | " + " | ".join(SETS) + " | nonlinear_weston selected_ | fake_class selected_ |")
    print("| --- " * (len(SETS) + 3) + "|")
    data = {(name, seed): permuted(name, seed) for name in SETS + ["fake_class"] for seed in draws}
    for lab in labels:
        cells = []
        for name in SETS:
            k = 5 if name == "nonlinear_weston_100" else 10
            fits = [fit(CANDIDATES[lab], *data[name, s][:2], random_state=s) for s in draws]
            hits = [int(np.isin(top(f, k), data[name, s][2]).sum()) for s, f in zip(draws, fits)]
            cells.append(f"{np.mean(hits):.1f} ({', '.join(map(str, hits))})")
            if name == "nonlinear_weston":
                nlw_sel = sum(int(np.isin(f.selected_, data[name, s][2]).sum()) for s, f in zip(draws, fits))
        fake = [fit(CANDIDATES[lab], *data["fake_class", s][:2], random_state=s).selected_.size for s in draws]
        cells += [str(nlw_sel), f"{np.mean(fake):.1f} ({', '.join(map(str, fake))})"]
        print(f"| {lab} | " + " | ".join(cells) + " |", flush=True)
    if args.no_peers:
        return
    import fscompbio.selection as S

    for lab, (cls, kw) in PEERS.items():
        cells = []
        for name in SETS[:3]:
            hits = [int(np.isin(top(getattr(S, cls)(**kw).fit(*data[name, s][:2]), 10), data[name, s][2]).sum())
                    for s in draws]
            cells.append(f"{np.mean(hits):.1f} ({', '.join(map(str, hits))})")
        cells += ["-"] * 3
        print(f"| peer: {lab} | " + " | ".join(cells) + " |", flush=True)


def bench_c(args):
    seeds = range(5 if args.quick else 20)
    print(f"\n(c) XOR 300 x 200 (columns permuted), seeds 0-{seeds[-1]}: pair in the top 2 / selected_ exactly the "
          "pair; fit CPU s (mean)")
    print("| candidate | top 2 | selected_ = pair | fit s |")
    print("| --- | --- | --- | --- |")
    data = [permuted("xor", s) for s in seeds]
    for lab, kw in CANDIDATES.items():
        hit = exact = 0
        t0 = time.process_time()
        for s, (X, y, rel) in zip(seeds, data):
            sel = fit(kw, X, y, random_state=s)
            hit += set(top(sel, 2).tolist()) == set(rel.tolist())
            exact += set(sel.selected_.tolist()) == set(rel.tolist())
        dt = (time.process_time() - t0) / len(data)
        print(f"| {lab} | {hit}/{len(data)} | {exact}/{len(data)} | {dt:.1f} |", flush=True)


def _arrays():
    """``(name, X, y)`` of the shipped micro-arrays prostate_ge, allaml and colon that are found."""
    for name in REAL:
        data = expression_set(name)
        if data is not None:
            yield (name, *data)


def bench_d(args):
    splits = [int(k) for k in args.split_seeds.split(",")]
    seeds = [int(k) for k in args.array_seeds.split(",")]
    print("\n(d) micro-arrays: 5-fold accuracy of a Gaussian SVM on the top 50 (chosen in each training part); "
          f"fold splits (shuffle seeds) {splits}; randSel's random_state {seeds} (per split, the mean over them): "
          "mean (per split)")
    labels = [k for k in CANDIDATES if k in ARRAY_CANDIDATES]
    print("| data set | f_classif | " + " | ".join(labels) + " |")
    print("| --- " * (len(labels) + 2) + "|")
    diffs = []
    for name, X, y in _arrays():
        per = {lab: [] for lab in ["f_classif"] + labels}
        by_seed = {lab: {seed: [] for seed in seeds} for lab in labels}
        for split in splits:
            folds = list(StratifiedKFold(5, shuffle=True, random_state=split).split(X, y))
            for lab in per:
                accs = []
                for seed in ([0] if lab == "f_classif" else seeds):
                    seed_accs = []
                    for tr, te in folds:
                        if lab == "f_classif":
                            cols = _rank_f(X[tr], y[tr])[:50]
                        else:
                            cols = top(fit(CANDIDATES[lab], X[tr], y[tr], random_state=seed, n_features_to_select=50),
                                       50)
                        m = make_pipeline(StandardScaler(), SVC()).fit(X[tr][:, cols], y[tr])
                        seed_accs.append(m.score(X[te][:, cols], y[te]))
                    accs.extend(seed_accs)
                    if lab != "f_classif":
                        by_seed[lab][seed].append(float(np.mean(seed_accs)))
                per[lab].append(float(np.mean(accs)))
        cells = [f"{np.mean(v):.3f}" + (f" ({', '.join(f'{a:.3f}' for a in v)})" if 1 < len(v) <= 4 else "")
                 for v in per.values()]
        print(f"| {name} {X.shape[0]}x{X.shape[1]} | " + " | ".join(cells) + " |", flush=True)
        if len(seeds) > 1:
            print(f"|   {name}, each seed of randSel alone (mean over the splits) | | "
                  + " | ".join(", ".join(f"{np.mean(v):.3f}" for v in by_seed[lab].values()) for lab in labels)
                  + " |", flush=True)
        base = np.array(per["f_classif"])
        for lab in labels:
            d = np.array(per[lab]) - base
            diffs.append((name, lab, d.mean(), _paired_se(d), int((d < 0).sum()), int((d > 0).sum()), d.size))
    print("\nTop 50 on all samples (randSel's random_state 0): how many are also f_classif's top 50, and the F ranks "
          "(0 = best) of the others: median and largest; the first screening iteration's (every feature alive): how "
          "many of the top 50 by the contribution c and by its normal score c / se (the screen's culling key by "
          "default) are f_classif's top 50, the Spearman correlation of each with the F statistic over "
          "f_classif's top 200 and the median se / c there")
    print("| data set | candidate | shared with f_classif's top 50 | F rank of the others: median / largest | "
          "members of the pair screen's pairs in it / their smallest adjusted p-value | first iteration: shared "
          "by c / by c / se | Spearman with F: c / c / se | median se / c |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, X, y in _arrays():
        with warnings.catch_warnings():  # constant columns: F is nan, as in _rank_f
            warnings.simplefilter("ignore")
            F = np.nan_to_num(f_classif(X, y)[0])
        f_order = _rank_f(X, y)
        f_rank = np.empty_like(f_order)
        f_rank[f_order] = np.arange(f_order.size)
        f_top, top200 = set(f_order[:50].tolist()), f_order[:200]
        for lab in labels:
            sel = fit(CANDIDATES[lab], X, y, random_state=0, n_features_to_select=50)
            cols = top(sel, 50)
            others = np.sort(f_rank[cols][f_rank[cols] >= 50])
            tail = f"{int(np.median(others))} / {int(others.max())}" if others.size else "-"
            pairs = (f"{int(np.isin(cols, sel.screen_pairs_.ravel()).sum())} / {sel.screen_pair_pvalues_.min():.2g}"
                     if sel.screen_pairs_.size else "-")
            c, se = sel.contributions_[0], sel.contribution_se_[0]
            keys = (c, c / se)
            shared = [len(f_top & set(np.argsort(-v, kind="stable")[:50].tolist())) for v in keys]
            rho = [spearmanr(v[top200], F[top200])[0] for v in keys]
            print(f"| {name} | {lab} | {50 - others.size} | {tail} | {pairs} | {shared[0]} / {shared[1]} | "
                  f"{rho[0]:.2f} / {rho[1]:.2f} | {np.median(se[top200] / c[top200]):.3f} |", flush=True)
    if args.kta_pick:
        _kta_pick(splits)
    if len(splits) > 1:
        print("\n| data set | candidate | paired difference from f_classif (standard error over splits) | "
              "splits below / above |")
        print("| --- | --- | --- | --- |")
        for name, lab, mean, se, below, above, n in diffs:
            print(f"| {name} | {lab} | {mean:+.4f} ({se:.4f}) | {below} / {above} of {n} |")


def _paired_se(d):
    """The standard error of the mean of paired differences ``d`` (one per fold split); nan for one split."""
    return d.std(ddof=1) / np.sqrt(d.size) if d.size > 1 else float("nan")


def _kta_pick(splits):
    """(d) ``--kta-pick``: the default's top 50 or the F-like screen's, whichever a Gaussian kernel on it aligns
    better with the training part's labels (the thesis' model selection by alignment, chapter 3)."""
    print("\nThe default's top 50 or screen_by='hsic''s, chosen per training part by the alignment with the label of a "
          "Gaussian kernel on each (randSel's random_state 0): mean accuracy, paired difference from f_classif "
          "(standard error over the splits), and how often the F-like screen's is chosen")
    print("| data set | f_classif | default | screen by hsic | chosen by the centred alignment | chosen by HSIC1's |")
    print("| --- | --- | --- | --- | --- | --- |")

    def aligned(X, y, cols, estimator):
        Z = StandardScaler().fit_transform(X[:, cols])
        lay = PairLayout(y.size)
        K = lay.take(gaussian_kernel(Z, gamma=1.0 / Z.shape[1]))[:, None]
        return float(batched_alignment(K, CenteredTarget(label_kernel(y), lay), estimator)[0])

    for name, X, y in _arrays():
        acc = {k: [] for k in ("f", "default", "hsic", "biased", "unbiased")}
        chose = {"biased": [], "unbiased": []}
        for split in splits:
            per = {k: [] for k in acc}
            for tr, te in StratifiedKFold(5, shuffle=True, random_state=split).split(X, y):
                cols = {"f": _rank_f(X[tr], y[tr])[:50],
                        "default": top(fit({}, X[tr], y[tr], random_state=0, n_features_to_select=50), 50),
                        "hsic": top(fit(dict(screen_by="hsic"), X[tr], y[tr], random_state=0,
                                        n_features_to_select=50), 50)}
                for est in chose:
                    h = aligned(X[tr], y[tr], cols["hsic"], est) > aligned(X[tr], y[tr], cols["default"], est)
                    chose[est].append(h)
                    cols[est] = cols["hsic"] if h else cols["default"]
                for k, c in cols.items():
                    m = make_pipeline(StandardScaler(), SVC()).fit(X[tr][:, c], y[tr])
                    per[k].append(m.score(X[te][:, c], y[te]))
            for k in acc:
                acc[k].append(float(np.mean(per[k])))
        f = np.array(acc["f"])
        cells = [f"{f.mean():.3f}"]
        for k in ("default", "hsic", "biased", "unbiased"):
            d = np.array(acc[k]) - f
            cells.append(f"{np.mean(acc[k]):.3f}, {d.mean():+.4f} ({_paired_se(d):.4f})"
                         + (f", F-like in {np.mean(chose[k]):.0%}" if k in chose else ""))
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


def _config(name):
    import yaml

    return yaml.safe_load((ROOT / name).read_text())


def workflow_draw(name, k):
    """Draw ``k`` of a synthetic set as the workflow makes it: the seed derived from config.yaml's master seed."""
    from fscompbio.seeding import derive_seed

    master = _config("config.yaml")["seed"]
    full = draw_name(name, k)
    return make_dataset(full, random_state=derive_seed(master, "dataset", full))


def bench_e(args):
    splits, folds_per_split = range(4), 2
    labels = [k for k in CANDIDATES if args.candidates or k in WORKFLOW_XOR_CANDIDATES]
    settings = _config("config/thesis.yaml")["chapter4"]["selectors"]["randsel"] if args.thesis_ch4 else {}
    print(f"\n(e) the workflow's XOR draws (300 x 200): pair in randSel's top 2 over the training sets (270 samples) "
          f"of the first {folds_per_split} outer folds of {len(splits)} stratified 10-fold splits; a Gaussian SVM "
          f"told the pair: 10-fold accuracy. Settings besides each candidate's: {settings or 'none'}")
    print("| draw | SVM on the pair | " + " | ".join(labels) + " |")
    print("| --- " * (len(labels) + 2) + "|")
    totals = dict.fromkeys(labels, 0)
    n_total = 0
    for k in range(3):
        ds = workflow_draw("xor", k)
        X, y, rel = ds.X, ds.y, ds.relevant
        oracle = cross_val_score(make_pipeline(StandardScaler(), SVC()), X[:, rel], y,
                                 cv=StratifiedKFold(10, shuffle=True, random_state=0)).mean()
        train = [tr for s in splits
                 for f, (tr, _) in enumerate(StratifiedKFold(10, shuffle=True, random_state=s).split(X, y))
                 if f < folds_per_split]
        cells = []
        fits = [(tr, args.fit_seeds * i + r) for i, tr in enumerate(train) for r in range(args.fit_seeds)]
        for lab in labels:
            hits = sum(set(top(fit(CANDIDATES[lab], X[tr], y[tr], random_state=seed, **settings), 2).tolist())
                       == set(rel.tolist())
                       for tr, seed in fits)
            totals[lab] += hits
            cells.append(f"{hits}/{len(fits)}")
        n_total += len(fits)
        print(f"| {draw_name('xor', k)} | {oracle:.3f} | " + " | ".join(cells) + " |", flush=True)
    print("| total | - | " + " | ".join(f"{totals[lab]}/{n_total}" for lab in labels) + " |", flush=True)


def bench_f(args):
    settings = {} if args.defaults else _config("config/thesis.yaml")["chapter4"]["selectors"]["randsel"]
    sets = ["fake_class", "xor", "nonlinear_weston", "linear_zhang_feature_noise"]
    if args.candidates:  # the named candidates' Bonferroni selected_ side by side, no refits
        print(f"\n(f) selected_ on all 300 samples of the workflow's draws 0-2 (Bonferroni, the default test): size / "
              f"relevant in it (per draw); settings: {settings or 'RandSel defaults'}, with each candidate's")
        print("| data set | relevant | " + " | ".join(CANDIDATES) + " |")
        print("| --- " * (len(CANDIDATES) + 2) + "|")
        for name in sets:
            draws = [workflow_draw(name, k) for k in range(3)]
            rel = [set() if name == "fake_class" else set(ds.relevant.tolist()) for ds in draws]
            cells = []
            for lab, kw in CANDIDATES.items():
                chosen = [set(fit({**settings, **kw}, ds.X, ds.y, random_state=k).selected_.tolist())
                          for k, ds in enumerate(draws)]
                cells.append(", ".join(f"{len(c)}/{len(c & r)}" for c, r in zip(chosen, rel)))
            print(f"| {name} | {len(rel[0])} | " + " | ".join(cells) + " |", flush=True)
        return
    print(f"\n(f) selected_ on all 300 samples of the workflow's draws 0-2: Bonferroni (the default test) against "
          f"refit_permutations=19; size / relevant in it (per draw); settings: {settings or 'RandSel defaults'}")
    print("| data set | relevant | Bonferroni | refits (19) | fit s with refits (mean) |")
    print("| --- | --- | --- | --- | --- |")
    for name in sets:
        cells = {"b": [], "r": []}
        dt = 0.0
        for k in range(3):
            ds = workflow_draw(name, k)
            rel = set() if name == "fake_class" else set(ds.relevant.tolist())
            plain = fit({}, ds.X, ds.y, random_state=k, **settings)
            t0 = time.process_time()
            refit = fit({}, ds.X, ds.y, random_state=k, refit_permutations=19, **settings)
            dt += time.process_time() - t0
            for key, est in (("b", plain), ("r", refit)):
                chosen = set(est.selected_.tolist())
                cells[key].append(f"{len(chosen)}/{len(chosen & rel)}")
        print(f"| {name} | {len(rel)} | {', '.join(cells['b'])} | {', '.join(cells['r'])} | {dt / 3:.1f} |",
              flush=True)
    if args.fake_draws:
        _fake_class_rate(args.fake_draws, settings)


def _fake_class_rate(n_draws, settings):
    """How often each test selects anything when the labels are independent of every feature."""
    sizes = {"b": [], "r": []}
    first, at_selection = [], []  # the default test's fits: mean normal score at iteration 0, and at the selection
    for seed in range(n_draws):
        ds = make_dataset("fake_class", random_state=seed)
        plain = fit({}, ds.X, ds.y, random_state=0, **settings)
        sizes["b"].append(len(plain.selected_))
        sizes["r"].append(len(fit({}, ds.X, ds.y, random_state=0, refit_permutations=19, **settings).selected_))
        first.append(np.nanmean(plain.zscores_history_[0]))
        if plain.selected_.size:
            z = plain.zscores_history_[plain.selected_iteration_]
            at_selection.append((plain.selected_iteration_, np.isfinite(z).sum(), np.nanmean(z)))
    print(f"\n(f) the fake class ({ds.X.shape[0]} x {ds.X.shape[1]}, labels independent of every feature), "
          f"make_dataset seeds 0-{n_draws - 1}, random_state 0: fits that select at least one feature (the "
          f"family-wise error's estimate; its level is 0.05) and the selected sizes")
    print("| test | fits selecting >= 1 | sizes 0 / 1 / 2 / ... | mean size |")
    print("| --- | --- | --- | --- |")
    for key, lab in (("b", "Bonferroni (default)"), ("r", "refits (19)")):
        z = np.asarray(sizes[key])
        print(f"| {lab} | {(z > 0).sum()} of {n_draws} ({(z > 0).mean():.2f}) | "
              f"{' / '.join(map(str, np.bincount(z)))} | {z.mean():.2f} |", flush=True)
    first, sel = np.asarray(first), np.asarray(at_selection).reshape(-1, 3)
    where = (f" {sel[:, 2].min():+.1f} to {sel[:, 2].max():+.1f} (iterations {sel[:, 0].min() + 1:.0f}-"
             f"{sel[:, 0].max() + 1:.0f} counted from 1, {sel[:, 1].min():.0f}-{sel[:, 1].max():.0f} features alive)"
             if len(sel) else ": none selects")
    print(f"The default test's fits: mean normal score of all features at the first iteration {first.min():+.1f} to "
          f"{first.max():+.1f} over the fits; in the fits that select, of the features alive at the iteration of the "
          f"selection{where}", flush=True)


def bench_g(args):
    from scipy.stats import norm, rankdata

    import fscompbio.selection as S

    def by_abs_corr(A, y):  # chapter 3's correlation ranking
        return S.CorrelationSelector().fit(A, y).ranking_

    draws = range(args.draws)

    def without_outlying_rows(X, y):
        keep = np.argsort(np.linalg.norm(X, axis=1), kind="stable")[: X.shape[0] - round(0.05 * X.shape[0])]
        return by_abs_corr(X[keep], y[keep])

    rankers = {
        "RandSel()": lambda X, y, s: fit({}, X, y, random_state=s).ranking_,
        **{f"peer: {lab}": (lambda X, y, s, cls=cls, kw=kw: getattr(S, cls)(**kw).fit(X, y).ranking_)
           for lab, (cls, kw) in PEERS.items()},
        "|corr|, normal scores, all rows": lambda X, y, s: by_abs_corr(
            norm.ppf((rankdata(X, axis=0) - 0.5) / X.shape[0]), y),
        "|corr|, without the 5% outlying rows": lambda X, y, s: without_outlying_rows(X, y),
    }
    for name in ("linear_zhang_sample_noise", "linear_zhang_feature_noise", "nonlinear_weston"):
        print(f"\n(g) {name}, draws 0-{draws[-1]} (columns permuted): relevant features in the top 10; per draw, "
              "mean, and draws with more / fewer than RandSel()")
        used = {lab: r for lab, r in rankers.items() if "outlying rows" not in lab or "sample_noise" in name}
        hits = {lab: [] for lab in used}
        for s in draws:
            X, y, rel = permuted(name, s)
            for lab, rank in used.items():
                hits[lab].append(int(np.isin(np.argsort(rank(X, y, s), kind="stable")[:10], rel).sum()))
        base = np.array(hits["RandSel()"])
        print("| ranker | mean | per draw | more / fewer than RandSel() |")
        print("| --- | --- | --- | --- |")
        for lab, h in hits.items():
            h = np.array(h)
            print(f"| {lab} | {h.mean():.2f} | {' '.join(map(str, h))} | {int((h > base).sum())} / "
                  f"{int((h < base).sum())} |", flush=True)


#: part (h)'s conditions: the kernel alone (no pair screen), a grid under the evidence rule
H_RULES = dict(width_rule="evidence", screen_pairs=0)


def bench_h(args):
    import fscompbio.selection as S
    from fscompbio.selection._tail_scaling import tail_adaptive_scale as scale

    draws = range(args.draws)
    transforms = {"normal scores": "auto", "skipped": "auto_skip"}
    print(f"\n(h) the feature-noise gap taken apart, draws 0-{draws[-1]} (columns permuted): relevant features in "
          "the top 10 (XOR: the pair in the top 2), mean (per draw)")
    from fscompbio.datasets._synthetic import linear_zhang

    def clean(s):  # linear Zhang without noise (not a registry set): the same seeds and column permutation
        X, y = linear_zhang(np.random.default_rng(s), 300, 200)
        perm = np.random.default_rng(1000 + s).permutation(200)
        return X[:, perm], y, np.flatnonzero(np.isin(perm, np.arange(10)))

    sets = ("linear_zhang_feature_noise", "linear_zhang_sample_noise", "linear_zhang", "nonlinear_weston", "xor")
    data = {name: [clean(s) if name == "linear_zhang" else permuted(name, s) for s in draws] for name in sets}
    rows = {}
    for name in sets:
        k = 2 if name == "xor" else 10

        def count(rank):
            return [int(np.isin(np.argsort(rank(X, y, s), kind="stable")[:k], rel).sum())
                    for s, (X, y, rel) in zip(draws, data[name])]

        for lab, std in transforms.items():
            for w in (0.5, 1.0, 2.0, [0.5, 2.0]):
                rows.setdefault(f"RandSel, {lab}, width {w}", {})[name] = count(
                    lambda X, y, s, std=std, w=w: fit(dict(standardize=std, width=w, **H_RULES), X, y,
                                                      random_state=s).ranking_)
            rows.setdefault(f"|corr| of the features, {lab}", {})[name] = count(
                lambda X, y, s, h=("normal_scores" if std == "auto" else "skip"):
                S.CorrelationSelector().fit(scale(X, y, heavy=h), y).ranking_)
        cls, kw = PEERS["FoHSIC"]
        rows.setdefault("peer: FoHSIC (raw data)", {})[name] = count(
            lambda X, y, s: getattr(S, cls)(**kw).fit(X, y).ranking_)
        print(f"  {name} done", flush=True)
    print("| ranker | " + " | ".join(sets) + " |")
    print("| --- " * (len(sets) + 1) + "|")
    for lab, cells in rows.items():
        print(f"| {lab} | " + " | ".join(f"{np.mean(cells[n]):.2f} ({' '.join(map(str, cells[n]))})" for n in sets)
              + " |", flush=True)


def _peer_rankers():
    """FoHSIC and BaHSIC with the thesis config's settings, as rankers ``(X, y, seed) -> ranking_``."""
    import fscompbio.selection as S

    def ranker(cls, kw):
        return lambda X, y, s: getattr(S, cls)(**kw).fit(X, y).ranking_

    return {f"peer: {lab}": ranker(*PEERS[lab]) for lab in ("FoHSIC", "BaHSIC")}


def _print_ranker_table(rankers, sets, draws, data):
    """One row per ranker: relevant features in the top 10 (XOR: the pair in the top 2) per set, mean (per
    draw), and CPU s per fit."""
    print("| ranker | " + " | ".join(sets) + " | fit s |")
    print("| --- " * (len(sets) + 2) + "|")
    for lab, rank in rankers.items():
        cells, t0 = [], time.process_time()
        for name in sets:
            k = 2 if name == "xor" else 10
            hits = [int(np.isin(np.argsort(rank(X, y, s), kind="stable")[:k], rel).sum())
                    for s, (X, y, rel) in zip(draws, data[name])]
            cells.append(f"{np.mean(hits):.2f} ({' '.join(map(str, hits))})")
        dt = (time.process_time() - t0) / (len(sets) * len(draws))
        print(f"| {lab} | " + " | ".join(cells) + f" | {dt:.1f} |", flush=True)


def bench_i(args):
    sys.path.insert(0, str(ROOT / "tests"))
    from test_randsel_wide import madelon

    draws = range(args.draws)
    sets = ("linear_zhang_feature_noise", "linear_zhang_sample_noise", "nonlinear_weston", "xor")
    rules = {
        "width 0.5": dict(width=0.5),
        "(0.5, 1.0), select": dict(width=(0.5, 1.0), width_rule="select"),
        "(0.5, 1.0), evidence": dict(width=(0.5, 1.0), width_rule="evidence"),
        "(0.5, 2.0), evidence": dict(width=(0.5, 2.0), width_rule="evidence"),
        "(0.5, 2.0), tail": dict(width=(0.5, 2.0), width_rule="tail"),
    }
    if args.candidates:  # only the named rules (labels as above)
        keep = [c.strip() for c in args.candidates.split(";")]
        rules = {k: v for k, v in rules.items() if k in keep}
    print(f"\n(i) the width grid and the pair screen, draws 0-{draws[-1]} (columns permuted): relevant features "
          "in the top 10 (XOR: the pair in the top 2), mean (per draw); CPU s per fit (mean over the sets)")
    data = {name: [permuted(name, s) for s in draws] for name in sets}
    rankers = {}
    for lab, kw in rules.items():
        for pairs in (0, 5):
            tag = f"{lab}, pair screen" if pairs else f"{lab}, no pair screen"
            if lab == "width 0.5" and not pairs:
                tag += " (default)"
            rankers[tag] = lambda X, y, s, kw=kw, pairs=pairs: fit(dict(kw, screen_pairs=pairs, pair_screen_above=0),
                                                                    X, y, random_state=s).ranking_
    if not args.no_peers:
        rankers.update(_peer_rankers())
    _print_ranker_table(rankers, sets, draws, data)
    print("\nmadelon-style 2,600 x 500, seeds 0-7: relevant features in the top 20, mean (per seed); CPU s per fit")
    print("| ranker | top 20 | fit s |")
    print("| --- | --- | --- |")
    mad = [madelon(s) for s in range(8)]
    mad_rules = rules if args.candidates else {"width 0.5": dict(width=0.5),
                                               "(0.5, 1.0), select": dict(width=(0.5, 1.0), width_rule="select")}
    for lab, kw in mad_rules.items():
        for pairs in (0, 5):
            t0 = time.process_time()
            hits = [int(np.isin(np.argsort(RandSel(random_state=s, screen_pairs=pairs, pair_screen_above=0,
                                                   **kw).fit(X, y).ranking_,
                                           kind="stable")[:20], rel).sum()) for s, (X, y, rel) in enumerate(mad)]
            tag = f"{lab}, {'pair screen' if pairs else 'no pair screen'}"
            print(f"| {tag} | {np.mean(hits):.2f} ({' '.join(map(str, hits))}) | "
                  f"{(time.process_time() - t0) / len(mad):.1f} |", flush=True)


def bench_j(args):
    from fscompbio.selection import expected_contributions

    sys.path.insert(0, str(ROOT / "tests"))
    from test_randsel_wide import madelon

    draws = range(args.draws)
    sets = ("linear_zhang_feature_noise", "linear_zhang_sample_noise", "nonlinear_weston", "xor")
    rules = {
        "width 0.5 (default)": dict(),
        "(0.5, 1.0), select": dict(width=(0.5, 1.0), width_rule="select"),
        "(0.5, 1.0), calibrated": dict(width=(0.5, 1.0), width_rule="calibrated"),
        "(0.5, 2.0), calibrated": dict(width=(0.5, 2.0), width_rule="calibrated"),
    }
    print(f"\n(j) the width chosen against permuted labels, draws 0-{draws[-1]} (columns permuted): relevant "
          "features in the top 10 (XOR: the pair in the top 2), mean (per draw); CPU s per fit (mean over the sets)")
    data = {name: [permuted(name, s) for s in draws] for name in sets}
    rankers = {lab: (lambda X, y, s, kw=kw: fit(kw, X, y, random_state=s).ranking_) for lab, kw in rules.items()}
    rankers.update(_peer_rankers())
    _print_ranker_table(rankers, sets, draws, data)

    X, y = load_breast_cancer(return_X_y=True)
    Xs = StandardScaler().fit_transform(X)
    cv = StratifiedKFold(10, shuffle=True, random_state=0)
    print("\nbreast cancer 569 x 30 (standardised, all samples, seed 0): selected_ / Gaussian SVM 10-fold accuracy "
          "on it; madelon-style 2,600 x 500 (seeds 0-7): relevant features in the top 20; CPU s per fit")
    print("| rule | breast cancer selected_ | accuracy | madelon top 20 | madelon fit s |")
    print("| --- | --- | --- | --- | --- |")
    mad = [madelon(s) for s in range(8)]
    for lab in ("width 0.5 (default)", "(0.5, 1.0), select", "(0.5, 1.0), calibrated"):
        sel = RandSel(random_state=0, **rules[lab]).fit(Xs, y).selected_
        acc = cross_val_score(make_pipeline(StandardScaler(), SVC()), X[:, sel], y, cv=cv).mean()
        t0 = time.process_time()
        hits = [int(np.isin(np.argsort(RandSel(random_state=s, **rules[lab]).fit(Xm, ym).ranking_,
                                       kind="stable")[:20], rel).sum()) for s, (Xm, ym, rel) in enumerate(mad)]
        print(f"| {lab} | {sel.size} {sel.tolist()} | {acc:.3f} | {np.mean(hits):.2f} ({' '.join(map(str, hits))}) "
              f"| {(time.process_time() - t0) / len(mad):.1f} |", flush=True)

    print("\nOne pass without culling, grid (0.5, 1.0): an XOR pair among 60 features (400 samples, all in every "
          "subsample, 1,200 partitions; seeds 0-2) and the paper's figure 1 (xor_d 1,000 x 200, subsample 1,000, "
          "10,000 partitions, batches of 8, as the thesis config's figP_1): width kept, the pair's ranks, the "
          "pair's contributions against the largest other")
    print("| pass | rule | width | pair's ranks | pair's contributions / largest other | CPU s |")
    print("| --- | --- | --- | --- | --- | --- |")
    passes_ = []
    for seed in range(3):
        rng = np.random.default_rng(seed)
        Xa = rng.normal(size=(400, 60))
        passes_.append((f"XOR 400 x 60, seed {seed}", Xa, np.where(Xa[:, 0] * Xa[:, 1] > 0, 1, -1), np.array([0, 1]),
                        dict(n_subsets=1200, subsample=400, random_state=seed)))
    ds = make_dataset("xor_d", random_state=0)
    passes_.append(("figure 1, xor_d", ds.X, ds.y, np.asarray(ds.relevant),
                    dict(n_subsets=10_000 if not args.quick else 1000, subsample=1000, batch_size=8, random_state=0)))
    for name, Xp, yp, rel, kw in passes_:
        for rule in ("select", "calibrated"):
            t0 = time.process_time()
            c, se, w, _ = expected_contributions(Xp, yp, width=[0.5, 1.0], width_rule=rule, **kw)
            ranks = np.argsort(np.argsort(-c, kind="stable"), kind="stable")[rel] + 1
            other = np.delete(c, rel).max()
            print(f"| {name} | {rule} | {w} | {', '.join(map(str, ranks))} | "
                  f"{', '.join(f'{v:.5f}' for v in c[rel])} / {other:.5f} | {time.process_time() - t0:.0f} |",
                  flush=True)


def bench_k(args):
    rules = {"width 0.5 (default)": dict(), "(0.5, 1.0), calibrated": dict(width=(0.5, 1.0), width_rule="calibrated")}
    print("\n(k) the micro-arrays, 5-fold split 0: a Gaussian SVM's accuracy on the top 50 and CPU s per fit (means "
          "over the folds), the calibrated rule's time over the default's and each over MultiSURF's on the same "
          "training parts; in how many folds the two rules' top 50 are the same features")
    print("| data set | MultiSURF s | width 0.5: accuracy / s | calibrated: accuracy / s | calibrated / width 0.5 "
          "| width 0.5 / MultiSURF | calibrated / MultiSURF | same top 50 |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, X, y in _arrays():
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
        secs = {lab: [] for lab in ["MultiSURF", *rules]}
        accs = {lab: [] for lab in rules}
        same = 0
        for tr, te in folds:
            t0 = time.process_time()
            _rank_multisurf(X[tr], y[tr])
            secs["MultiSURF"].append(time.process_time() - t0)
            tops = []
            for lab, kw in rules.items():
                t0 = time.process_time()
                est = fit(kw, X[tr], y[tr], random_state=0, n_features_to_select=50)
                secs[lab].append(time.process_time() - t0)
                cols = top(est, 50)
                tops.append(set(cols.tolist()))
                accs[lab].append(_svm().fit(X[tr][:, cols], y[tr]).score(X[te][:, cols], y[te]))
            same += tops[0] == tops[1]
        m = {lab: float(np.mean(v)) for lab, v in secs.items()}
        a, b = m["width 0.5 (default)"], m["(0.5, 1.0), calibrated"]
        acc = {lab: float(np.mean(v)) for lab, v in accs.items()}
        print(f"| {name} {X.shape[0]}x{X.shape[1]} | {m['MultiSURF']:.2f} | {acc['width 0.5 (default)']:.3f} / "
              f"{a:.2f} | {acc['(0.5, 1.0), calibrated']:.3f} / {b:.2f} | {b / a:.2f} | {a / m['MultiSURF']:.3f} | "
              f"{b / m['MultiSURF']:.3f} | {same}/{len(folds)} |", flush=True)


def bench_l(args):
    rankers = {"f_classif": _rank_f, "MultiSURF": _rank_multisurf}
    for lab, kw in {"width 0.5 (default)": {}, "width 1.0": dict(width=1.0), "width 2.0": dict(width=2.0),
                    "(0.5, 1.0), select": dict(width=(0.5, 1.0), width_rule="select"),
                    "(0.5, 1.0), calibrated": dict(width=(0.5, 1.0), width_rule="calibrated"),
                    "(0.5, 2.0), evidence": dict(width=(0.5, 2.0), width_rule="evidence"),
                    "(0.5, 2.0), evidence, pair screen": dict(width=(0.5, 2.0), width_rule="evidence",
                                                              pair_screen_above=0),
                    "(0.5, 2.0), tail, pair screen": dict(width=(0.5, 2.0), width_rule="tail", pair_screen_above=0),
                    "balanced=True": dict(balanced=True), "width 1.0, balanced=True": dict(width=1.0, balanced=True),
                    "first-order screen": dict(screen_above=1),
                    **{lab: CANDIDATES[lab] for lab in ("main effects not fixed",
                                                        "main effects family-wise, no marginal evidence (before)",
                                                        "main effects not used")}}.items():
        rankers[lab] = lambda X, y, kw=kw: top(fit(kw, X, y, random_state=0, n_features_to_select=50), X.shape[1])
    name = "tb_serum_metabolomics"
    data = expression_set(name)
    if data is None:
        print(f"(l) {name} not found: skipped")
        return
    X, y = data
    print(f"\n(l) {name} {X.shape[0]}x{X.shape[1]} (below the screen): 5-fold accuracy of a Gaussian SVM on the top "
          "50, fold splits (shuffle seeds) 0-3: mean (per split); CPU s per fit")
    print("| ranker | accuracy | fit s |")
    print("| --- | --- | --- |")
    for lab, rank in rankers.items():
        per, t0, n_fit = [], time.process_time(), 0
        for split in range(4):
            accs = []
            for tr, te in StratifiedKFold(5, shuffle=True, random_state=split).split(X, y):
                cols = rank(X[tr], y[tr])[:50]
                n_fit += 1
                accs.append(_svm().fit(X[tr][:, cols], y[tr]).score(X[te][:, cols], y[te]))
            per.append(float(np.mean(accs)))
        print(f"| {lab} | {np.mean(per):.3f} ({', '.join(f'{a:.3f}' for a in per)}) | "
              f"{(time.process_time() - t0) / n_fit:.2f} |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["0", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"], default=None)
    ap.add_argument("--draws", type=int, default=20, help="(g), (h), (i), (j): draws of each set")
    ap.add_argument("--defaults", action="store_true", help="(f): RandSel's own settings, not the thesis config's")
    ap.add_argument("--fake-draws", type=int, default=0,
                    help="(f): also the fake class over make_dataset seeds 0 to N-1, each test's rate of selecting")
    ap.add_argument("--quick", action="store_true", help="5 XOR seeds instead of 20")
    ap.add_argument("--arrays", action="store_true", help="also (d), the micro-arrays")
    ap.add_argument("--no-peers", action="store_true")
    ap.add_argument("--fit-seeds", type=int, default=3,
                    help="(e): randSel fitted with this many seeds on each training set (default 3: with one, "
                         "the counts of two settings differ by up to 4 of 8 on a draw from randSel's seed alone)")
    ap.add_argument("--thesis-ch4", action="store_true",
                    help="(e): at the thesis config's chapter-4 randSel settings instead of RandSel's own")
    ap.add_argument("--split-seeds", default="0", help="(d): comma-separated shuffle seeds of the 5-fold splits")
    ap.add_argument("--kta-pick", action="store_true",
                    help="(d): also choose between the default's and the F-like screen's top 50 by alignment")
    ap.add_argument("--array-seeds", default="0",
                    help="(d): comma-separated random_state values of randSel, its accuracy averaged over them")
    ap.add_argument("--candidates", default=None, help="semicolon-separated candidate labels (default: all)")
    args = ap.parse_args()
    print(f"fscompbio {fscompbio.__version__}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"scikit-learn {sklearn.__version__}, Python {platform.python_version()}; 1 BLAS thread; "
          "times are process CPU seconds", flush=True)
    if args.candidates:
        keep = [c.strip() for c in args.candidates.split(";")]
        for k in list(CANDIDATES):
            if k not in keep:
                del CANDIDATES[k]
    with threadpool_limits(1):
        for part, fn in (("0", bench_0), ("a", bench_a), ("b", bench_b), ("c", bench_c), ("e", bench_e),
                         ("f", bench_f), ("g", bench_g), ("h", bench_h), ("i", bench_i), ("j", bench_j), ("k", bench_k),
                         ("l", bench_l),
                         ("d", bench_d)):
            if args.only == part or (args.only is None and (part != "d" or args.arrays)):
                fn(args)


if __name__ == "__main__":
    main()
