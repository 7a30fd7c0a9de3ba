"""randSel's scorecard: each target of its standing against its peers, measured in one run, with its verdict.

Every target is measured here, in the same run as the peers it is compared with, and its verdict is computed
from those numbers, under each reading of the target that its wording leaves open (which draws, which fold
splits, which selected set). The targets:

(a) breast cancer (scikit-learn's 569 x 30): ``RandSel()`` selects a non-empty set, and a Gaussian SVM on it
    reaches at least 0.93 10-fold accuracy. Readings: the set selected on all samples, then the SVM's 10-fold
    accuracy on it (the selection has seen every test fold); ``make_pipeline(StandardScaler(), RandSel(),
    SVC())`` in ``cross_val_score`` (the selection refitted within each fold); and the first reading under
    every seed of the fit, not only seed 0 (seeds 0 to ``--draws`` - 1, the columns permuted with each).
(b) chapter 4's linear Zhang sets (feature noise, sample noise) and non-linear Weston: the relevant features in
    randSel's top 10, mean over 3 draws, at least the best of chapter 4's methods (Gaussian SVM-RFE, FoHSIC,
    BaHSIC at the thesis config's settings). Readings: ``make_dataset`` seeds 0-2 with the columns permuted;
    the workflow's draws 0-2 (seeds derived from ``config.yaml``'s master seed, columns as drawn); and, as the
    draws' own spread, seeds 0-19 (``--draws``).
(c) XOR 300 x 10,000 (columns permuted), seeds 0-4: the pair in randSel's top 2 for 5 of 5 seeds, each fit at
    most 30 CPU s.
(d) XOR 300 x 200 (``make_dataset`` seeds 0-19, columns permuted): the pair in the top 2 for at least 19 of 20;
    the madelon-style set (2,600 x 500, seeds 0-7, relevant features in the top 20) unchanged or better than
    randSel with the settings of the workflow's runs archived before the width fix (``ARCHIVED_RANDSEL``).
(e) the planted 200 x 10,000 set (draws 0-2) and the three real micro-arrays (prostate_ge, allaml, colon): a
    Gaussian SVM's 5-fold accuracy on randSel's top 50 at least MultiSURF's and ``f_classif``'s, at no more
    than a tenth of MultiSURF's fit time. Readings: one 5-fold split (shuffle seed 0); the mean over the
    splits of ``--split-seeds`` (default 0-3), with the paired difference's standard error over the folds of
    all splits beside it (folds of one split are not independent: a guide to the noise, not a test). Beside
    the target, a reading of ours that its wording does not ask for: the SVM on ``RandSel()``'s own model
    (``selected_`` under its default test, as many features as the test keeps) against the peers' top 50.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/bench_randsel_scorecard.py [--quick] [--only abcde]`` (about
30 minutes on one core; ``--quick`` a smoke run of a few minutes on smaller sets, whose verdicts are not the
targets'). ``--params '{"fix_main_effects": true}'`` scores a candidate setting instead of the defaults: the
parameters are passed to every randSel fit of every part (not to the archived baseline of (d), nor to the peers).
MultiSURF needs the ``bench`` extra (``pip install -e '.[bench]'``). Prints a plain-text report; nothing is
written.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy
import sklearn
from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

import fscompbio
import fscompbio.selection as S
from fscompbio.selection import ARCHIVED_RANDSEL, RandSel

# bench/ is the script's directory
from bench_randsel_readings import PEERS, permuted, workflow_draw
from bench_randsel_seeds import breast_cancer_over_seeds
from bench_randsel_wide import (TOP, _accuracy, _own_model_randsel, _rank_f, _rank_multisurf, _rank_randsel, _svm,
                                expression_set, planted_wide, xor_pair_ranks)

ROOT = Path(__file__).resolve().parents[1]
VERDICTS = []  # (target, reading, randSel, peers, verdict), printed together at the end
PARAMS = {}  # --params: the candidate's RandSel parameters, for every randSel fit but the archived baseline


def verdict(target, reading, ours, theirs, held):
    VERDICTS.append((target, reading, ours, theirs, "held" if held else "not held"))


def quiet_fit(X, y, baseline=False, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return RandSel(**({} if baseline else PARAMS), **kw).fit(X, y)


def top(ranking, k):
    return np.argsort(ranking, kind="stable")[:k]


def part_a(args):
    X, y = load_breast_cancer(return_X_y=True)
    cv = StratifiedKFold(10, shuffle=True, random_state=0)
    t0 = time.process_time()
    sel = quiet_fit(X, y, random_state=0)
    dt = time.process_time() - t0
    cols = sel.selected_
    on_all = cross_val_score(_svm(), X[:, cols], y, cv=cv).mean() if cols.size else float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        piped = cross_val_score(make_pipeline(StandardScaler(), RandSel(random_state=0, **PARAMS), SVC()), X, y,
                                cv=cv).mean()
    svm_all = cross_val_score(_svm(), X, y, cv=cv).mean()
    print(f"\n(a) breast cancer 569 x 30: selected_ {cols.size} features ({dt:.1f} CPU s); SVM 10-fold accuracy on "
          f"them {on_all:.3f}; the pipeline in cross_val_score {piped:.3f}; SVM on all 30 features {svm_all:.3f}",
          flush=True)
    theirs = f"target 0.93 (all 30 features {svm_all:.3f})"
    verdict("breast cancer", "selected on all samples", f"{cols.size} features, {on_all:.3f}", theirs,
            cols.size > 0 and on_all >= 0.93)
    verdict("breast cancer", "selection within each fold (pipeline)", f"{piped:.3f}", theirs, piped >= 0.93)
    # the target's "RandSel()" under every seed, not one: the columns permuted with each seed of the fit
    n_seeds = 3 if args.quick else args.draws
    sizes, accs, _ = breast_cancer_over_seeds(lambda Xp, yp, seed: quiet_fit(Xp, yp, random_state=seed).selected_,
                                              n_seeds)
    n_empty, n_good = sum(v == 0 for v in sizes), int(np.sum(accs >= 0.93))
    print(f"    seeds 0-{n_seeds - 1}, columns permuted: selected_ sizes {sizes}; SVM 10-fold accuracy "
          f"{np.round(accs, 3).tolist()}", flush=True)
    verdict("breast cancer", f"every seed 0-{n_seeds - 1}, selected on all samples",
            f"empty in {n_empty}, >= 0.93 in {n_good} of {n_seeds} (lowest {np.nanmin(accs):.3f})", theirs,
            n_empty == 0 and n_good == n_seeds)


def part_b(args):
    sets = ("linear_zhang_feature_noise", "linear_zhang_sample_noise", "nonlinear_weston")
    n_draws = 3 if args.quick else args.draws
    readings = {
        "seeds 0-2, columns permuted": lambda name: [permuted(name, s) for s in range(3)],
        "the workflow's draws 0-2": lambda name: [(d.X, d.y, d.relevant) for d in
                                                  (workflow_draw(name, k) for k in range(3))],
    }
    if n_draws > 3:
        readings[f"seeds 0-{n_draws - 1}, columns permuted"] = lambda name: [permuted(name, s) for s in range(n_draws)]
    rankers = {"RandSel()": lambda X, y, s: quiet_fit(X, y, random_state=s).ranking_}
    for lab, (cls, kw) in PEERS.items():
        rankers[lab] = lambda X, y, s, cls=cls, kw=kw: getattr(S, cls)(**kw).fit(X, y).ranking_
    print("\n(b) relevant features in the top 10, mean (per draw); peers at the thesis config's settings")
    print("| set | reading | " + " | ".join(rankers) + " |")
    print("| --- " * (len(rankers) + 2) + "|")
    for name in sets:
        for reading, draw in readings.items():
            data = draw(name)
            hits = {lab: [int(np.isin(top(rank(X, y, s), 10), rel).sum()) for s, (X, y, rel) in enumerate(data)]
                    for lab, rank in rankers.items()}
            means = {lab: float(np.mean(h)) for lab, h in hits.items()}
            print(f"| {name} | {reading} | " + " | ".join(
                f"{means[lab]:.2f} ({' '.join(map(str, hits[lab]))})" for lab in rankers) + " |", flush=True)
            best = max((lab for lab in rankers if lab != "RandSel()"), key=means.get)
            verdict(name, reading, f"{means['RandSel()']:.2f}", f"best peer {best} {means[best]:.2f}",
                    means["RandSel()"] >= means[best])


def part_c(args):
    n_features = 2000 if args.quick else 10_000
    print(f"\n(c) XOR 300 x {n_features:,} (columns permuted): RandSel(n_features_to_select=2), seeds 0-4")
    print("| seed | the pair's ranks | fit CPU s |")
    print("| --- | --- | --- |")
    found, slowest = 0, 0.0
    for seed in range(5):
        ranks, dt = xor_pair_ranks(seed, n_features, params=PARAMS)
        found += ranks == [1, 2]
        slowest = max(slowest, dt)
        print(f"| {seed} | {ranks[0]}, {ranks[1]} | {dt:.1f} |", flush=True)
    verdict(f"XOR 300 x {n_features:,}", "seeds 0-4", f"{found}/5 in the top 2, slowest fit {slowest:.1f} s",
            "target 5/5, <= 30 s", found == 5 and slowest <= 30.0)


def part_d(args):
    sys.path.insert(0, str(ROOT / "tests"))
    from test_randsel_wide import madelon

    n_draws = 5 if args.quick else 20
    hits = 0
    for s in range(n_draws):
        X, y, rel = permuted("xor", s)
        hits += set(top(quiet_fit(X, y, random_state=s).ranking_, 2).tolist()) == set(rel.tolist())
    print(f"\n(d) XOR 300 x 200, seeds 0-{n_draws - 1}: the pair in the top 2 in {hits} of {n_draws}", flush=True)
    need = int(np.ceil(0.95 * n_draws))
    verdict("XOR 300 x 200", f"seeds 0-{n_draws - 1}", f"{hits}/{n_draws}", f"target {need}/{n_draws}", hits >= need)
    seeds = range(2 if args.quick else 8)
    n_samples = 1300 if args.quick else 2600
    mad = [madelon(s, n_samples=n_samples) for s in seeds]
    found = {}
    for lab, kw in (("RandSel()", {}), ("archived settings", dict(ARCHIVED_RANDSEL, baseline=True))):
        t0 = time.process_time()
        found[lab] = [int(np.isin(top(quiet_fit(X, y, random_state=s, **kw).ranking_, 20), rel).sum())
                      for s, (X, y, rel) in zip(seeds, mad)]
        print(f"(d) madelon-style {n_samples:,} x 500, {lab}: relevant in the top 20 {np.mean(found[lab]):.2f} "
              f"({' '.join(map(str, found[lab]))}), {(time.process_time() - t0) / len(mad):.1f} CPU s per fit",
              flush=True)
    ours, old = float(np.mean(found["RandSel()"])), float(np.mean(found["archived settings"]))
    verdict(f"madelon-style {n_samples:,} x 500", f"seeds 0-{seeds[-1]}", f"{ours:.2f}", f"archived settings {old:.2f}",
            ours >= old)


def _cv(X, y, rankers, split_seed):
    """Per fold: accuracy of the SVM on each ranker's top 50 (an own model: on its features; none: the
    training part's majority class) and the ranker's CPU s."""
    acc = {lab: [] for lab in rankers}
    secs = {lab: [] for lab in rankers}
    for tr, te in StratifiedKFold(5, shuffle=True, random_state=split_seed).split(X, y):
        for lab, rank in rankers.items():
            t0 = time.process_time()
            cols = rank(X[tr], y[tr])
            cols = cols if getattr(rank, "own_model", False) else cols[:TOP]
            secs[lab].append(time.process_time() - t0)
            acc[lab].append(_accuracy(X, y, tr, te, cols))
    return acc, secs


def part_e(args):
    rankers = {"MultiSURF": _rank_multisurf, "f_classif": _rank_f, "RandSel()": _rank_randsel(PARAMS),
               "RandSel() selected_": _own_model_randsel(PARAMS)}
    split_seeds = [int(s) for s in args.split_seeds.split(",")][:1 if args.quick else None]
    sets = {}
    for name in ("prostate_ge",) if args.quick else ("prostate_ge", "allaml", "colon"):
        data = expression_set(name)
        if data is None:
            print(f"(e) {name}: not found, skipped")
            continue
        sets[name] = [(data, s) for s in split_seeds]
    n_features = 2000 if args.quick else 10_000
    planted = [(planted_wide(n_features=n_features, random_state=k)[:2], 0) for k in range(1 if args.quick else 3)]
    sets[f"planted 200 x {n_features:,}"] = planted
    print(f"\n(e) 5-fold accuracy of a Gaussian SVM on the top {TOP} / fit CPU s per fold; paired differences "
          "randSel - peer with their standard error over the folds")
    print("| set | reading | MultiSURF | f_classif | RandSel() | RandSel() selected_ | randSel - MultiSURF "
          "| randSel - f_classif | randSel / MultiSURF time |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, runs in sets.items():
        per_run = [_cv(*data, rankers, seed) for data, seed in runs]
        groups = {f"split seed {split_seeds[0]}": per_run[:1]} if not name.startswith("planted") else {}
        if len(per_run) > 1 or name.startswith("planted"):
            what = (f"{len(runs)} draw(s), split seed 0" if name.startswith("planted")
                    else "splits " + ",".join(map(str, split_seeds)))
            groups[what] = per_run
        for reading, runs_ in groups.items():
            acc = {lab: np.concatenate([r[0][lab] for r in runs_]) for lab in rankers}
            secs = {lab: float(np.mean(np.concatenate([r[1][lab] for r in runs_]))) for lab in rankers}
            mean = {lab: float(acc[lab].mean()) for lab in rankers}
            diff = {lab: acc["RandSel()"] - acc[lab] for lab in ("MultiSURF", "f_classif")}
            ratio = secs["RandSel()"] / secs["MultiSURF"]
            cells = [f"{mean[lab]:.3f} / {secs[lab]:.2f} s" for lab in rankers]
            cells += [f"{d.mean():+.3f} (se {d.std(ddof=1) / np.sqrt(d.size):.3f})" for d in diff.values()]
            print(f"| {name} | {reading} | " + " | ".join(cells) + f" | {ratio:.3f} |", flush=True)
            verdict(f"{name}, top 50", reading, f"{mean['RandSel()']:.3f}, time ratio {ratio:.3f}",
                    f"MultiSURF {mean['MultiSURF']:.3f}, f_classif {mean['f_classif']:.3f}",
                    mean["RandSel()"] >= max(mean["MultiSURF"], mean["f_classif"]) and ratio <= 0.1)
            own, own_ratio = mean["RandSel() selected_"], secs["RandSel() selected_"] / secs["MultiSURF"]
            verdict(f"{name}, randSel's own model against the peers' top 50 (a reading of ours)", reading,
                    f"{own:.3f}, time ratio {own_ratio:.3f}",
                    f"MultiSURF {mean['MultiSURF']:.3f}, f_classif {mean['f_classif']:.3f}",
                    own >= max(mean["MultiSURF"], mean["f_classif"]) and own_ratio <= 0.1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run on smaller sets (not the targets' verdicts)")
    ap.add_argument("--only", default="abcde", help="the parts to run, e.g. 'be'")
    ap.add_argument("--draws", type=int, default=20, help="(a): the seeds; (b): the draws of the spread reading")
    ap.add_argument("--split-seeds", default="0,1,2,3", help="(e): the shuffle seeds of the real sets' 5-fold splits")
    ap.add_argument("--threads", type=int, default=1, help="BLAS threads (MultiSURF and randSel alike)")
    ap.add_argument("--params", default="{}", help="a candidate's RandSel parameters as JSON (default: the defaults)")
    args = ap.parse_args()
    PARAMS.update(json.loads(args.params))
    RandSel(**PARAMS)  # an unknown parameter fails here, before any fit
    print(f"numpy {np.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, fscompbio "
          f"{fscompbio.__version__}, Python {platform.python_version()}, {args.threads} BLAS thread(s)"
          + (" - QUICK: smaller sets, not the targets' verdicts" if args.quick else "")
          + (f"; randSel's parameters {PARAMS} (\"RandSel()\" below is that candidate)" if PARAMS else ""))
    with threadpool_limits(args.threads):
        for part in "abcde":
            if part in args.only:
                globals()[f"part_{part}"](args)
    print("\nScorecard: each target under each reading, its verdict computed from the numbers above")
    print("| target | reading | randSel | compared with | verdict |")
    print("| --- | --- | --- | --- | --- |")
    for row in VERDICTS:
        print("| " + " | ".join(row) + " |")
    held = sum(row[-1] == "held" for row in VERDICTS)
    print(f"{held} of {len(VERDICTS)} held")


if __name__ == "__main__":
    main()
