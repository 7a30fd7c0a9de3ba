"""randSel's width candidates side by side: chapter 4's synthetic sets, breast cancer, the micro-arrays.

Why the defaults selected nothing on breast cancer: the width of an iteration is fixed from the median
distance of its minus-subsets, so the plus-subsets (one feature more) are evaluated with a kernel narrower
relative to their own distances, and the contribution ``a(S+) - a(S)`` carries the alignment's change with
the width besides the feature's information. (0) measures this directly on breast cancer: the
contributions of one pass, and the "width-only" contribution of a plus-subset that is the minus-subset
itself with its squared distances scaled by ``(h + 1) / h`` (no feature added, the kernel only narrowed as
one average feature would narrow it).

Candidates (``RandSel`` parameters; every other one at its default):

- ``minus 0.22``: ``width_scale="minus"``, width 0.22 (the defaults before ``width_scale``);
- ``size 0.22``, ``size 0.5``, ``size 1.0``: ``width_scale="subset_size"`` (the squared width of a subset
  grows with its size) at widths 0.22, 0.5, 1.0 of the minus-subsets' median distance;
- ``minus 1.0``: a wider kernel without the size scaling.

(a) chapter 4's six synthetic sets (300 x 200; columns permuted, draws 0-2): relevant features in the top 10
    (top 2 for XOR), the size of ``selected_`` and its false positives; the chapter's peers (Gaussian
    SVM-RFE, FoHSIC, BaHSIC with the thesis config's settings) on the same draws for the linear Zhang and
    Weston sets.
(b) breast cancer (scikit-learn, 569 x 30, standardised): ``selected_``, a Gaussian SVM's 10-fold accuracy
    on ``selected_`` (chosen on all samples) and of ``make_pipeline(StandardScaler(), RandSel(), SVC())``
    (selection inside each fold), against the SVM on all 30 features.
(c) the micro-arrays (prostate_ge, allaml, colon; screened): 5-fold accuracy of a Gaussian SVM on
    ``selected_`` chosen in each training part, and its size.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/bench_randsel_width.py [--only 0|a|b|c] [--draws 3]``.
Prints a plain-text report; nothing is written.
"""

from __future__ import annotations

import argparse
import platform
import time
import warnings

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
import fscompbio.selection._randsel as rs
import fscompbio.selection._randsel_passes as passes
from fscompbio.datasets import make_dataset
from fscompbio.selection import RandSel

from bench_randsel_wide import expression_set  # bench/ is the script's directory

SETS = ["linear_zhang_feature_noise", "linear_zhang_sample_noise", "linear_weston", "nonlinear_weston", "xor",
        "fake_class"]
CANDIDATES = {
    "minus 0.22": dict(width_scale="minus", width=0.22),
    "size 0.22": dict(width_scale="subset_size", width=0.22),
    "size 0.5": dict(width_scale="subset_size", width=0.5),
    "size 1.0": dict(width_scale="subset_size", width=1.0),
    "minus 1.0": dict(width_scale="minus", width=1.0),
    "size {0.22, 1.0}": dict(width_scale="subset_size", width=(0.22, 1.0), width_rule="evidence"),
    "size {0.22, 0.5, 2.0}": dict(width_scale="subset_size", width=(0.22, 0.5, 2.0), width_rule="evidence"),
}
PEERS = {  # chapter 4's peers with the thesis config's settings
    "Gaussian RFE": ("KernelRFE", dict(step=0.25)),
    "FoHSIC": ("FoHSIC", dict(n_steps=150)),
    "BaHSIC": ("BaHSIC", dict(step=0.25)),
}


def permuted(name, seed):
    ds = make_dataset(name, random_state=seed)
    perm = np.random.default_rng(1000 + seed).permutation(ds.X.shape[1])
    return ds.X[:, perm], ds.y, np.flatnonzero(np.isin(perm, ds.relevant))


def quiet_fit(est, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rs.EmptySelectionWarning)
        return est.fit(X, y)


def bench_0(args):
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    orig = passes._sq_distances
    print("(0) breast cancer, one pass over all 30 features (2,000 partitions, seed 0): mean and largest "
          "contribution, features with c > 0, largest c / se")
    print("| width | kind | mean c | max c | c > 0 | max c/se |")
    print("| --- | --- | --- | --- | --- | --- |")
    for w in (0.22, 1.0):
        for kind in ("minus", "width-only", "subset_size"):
            def patched(Xr, layout, Mm, extra=None, ws=None, kind=kind):
                D2 = orig(Xr, layout, Mm, extra, ws)
                if kind == "width-only":
                    B, h = Mm.shape[1], int(Mm[:, 0].sum())
                    D2[:, B:] = D2[:, :B] * np.float32((h + 1) / h)
                return D2
            passes._sq_distances = patched
            try:
                scale = "subset_size" if kind == "subset_size" else "minus"
                c, se, _, _ = rs.expected_contributions(X, y, random_state=0, width=w, n_subsets=2000,
                                                        width_scale=scale)
            finally:
                passes._sq_distances = orig
            print(f"| {w} | {kind} | {c.mean():+.4f} | {c.max():+.4f} | {(c > 0).sum()} | {(c / se).max():+.2f} |",
                  flush=True)


def bench_a(args):
    draws = range(args.draws)
    print(f"\n(a) chapter 4's synthetic sets, draws 0-{args.draws - 1} (columns permuted): relevant in the top 10 "
          "(XOR: top 2) / size of selected_ / false positives in it, mean over draws; fit s (mean)")
    labels = list(CANDIDATES)
    print("| data set | " + " | ".join(labels) + " |")
    print("| --- " * (len(labels) + 1) + "|")
    for name in SETS:
        cells = []
        for lab in labels:
            hit, size, fp, dt = [], [], [], []
            for seed in draws:
                X, y, rel = permuted(name, seed)
                k = 2 if name == "xor" else 10
                t0 = time.process_time()
                sel = quiet_fit(RandSel(random_state=seed, **CANDIDATES[lab]), X, y)
                dt.append(time.process_time() - t0)
                top = np.argsort(sel.ranking_, kind="stable")[:k]
                hit.append(np.isin(top, rel).sum() if name != "fake_class" else np.nan)
                size.append(sel.selected_.size)
                fp.append((~np.isin(sel.selected_, rel)).sum() if name != "fake_class" else sel.selected_.size)
            cells.append(f"{np.mean(hit):.1f} / {np.mean(size):.1f} / {np.mean(fp):.1f} ({np.mean(dt):.1f} s)")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    if args.no_peers:
        return
    import fscompbio.selection as S

    print("\n(a) peers, same draws: relevant in the top 10, mean (per draw)")
    print("| data set | " + " | ".join(PEERS) + " |")
    print("| --- " * (len(PEERS) + 1) + "|")
    for name in SETS[:4]:
        cells = []
        for lab, (cls, kw) in PEERS.items():
            hits = []
            for seed in draws:
                X, y, rel = permuted(name, seed)
                est = getattr(S, cls)(**kw).fit(X, y)
                hits.append(int(np.isin(np.argsort(est.ranking_, kind="stable")[:10], rel).sum()))
            cells.append(f"{np.mean(hits):.1f} ({', '.join(map(str, hits))})")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


def bench_b(args):
    X, y = load_breast_cancer(return_X_y=True)
    Xs = StandardScaler().fit_transform(X)
    cv = StratifiedKFold(10, shuffle=True, random_state=0)
    svm_all = cross_val_score(make_pipeline(StandardScaler(), SVC()), X, y, cv=cv).mean()
    print(f"\n(b) breast cancer 569 x 30: Gaussian SVM on all 30 features, 10-fold accuracy {svm_all:.3f}")
    print("| candidate | selected_ (seed 0) | SVM on selected_, 10-fold | pipeline StandardScaler-RandSel-SVC, "
          "10-fold | fit s |")
    print("| --- | --- | --- | --- | --- |")
    for lab, kw in CANDIDATES.items():
        t0 = time.process_time()
        sel = quiet_fit(RandSel(random_state=0, **kw), Xs, y)
        dt = time.process_time() - t0
        acc = (cross_val_score(make_pipeline(StandardScaler(), SVC()), X[:, sel.selected_], y, cv=cv).mean()
               if sel.selected_.size else float("nan"))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                pipe = cross_val_score(make_pipeline(StandardScaler(), RandSel(random_state=0, **kw), SVC()), X,
                                       y, cv=cv, error_score=np.nan)
            except ValueError:  # every fold failed (no feature selected in any)
                pipe = np.full(10, np.nan)
        print(f"| {lab} | {sel.selected_.size} {sel.selected_.tolist()} | {acc:.3f} | {np.nanmean(pipe) if np.isfinite(pipe).any() else np.nan:.3f} "
              f"({np.isnan(pipe).sum()} folds failed) | {dt:.2f} |", flush=True)


def bench_c(args):
    print("\n(c) micro-arrays: 5-fold accuracy of a Gaussian SVM on selected_ (chosen in each training part) / "
          "mean size of selected_")
    labels = [k for k in CANDIDATES if k in ("minus 0.22", "size 0.22", "size 0.5")]
    print("| data set | " + " | ".join(labels) + " |")
    print("| --- " * (len(labels) + 1) + "|")
    for name in ["prostate_ge", "allaml", "colon"]:
        data = expression_set(name)
        if data is None:
            continue
        X, y = data
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
        cells = []
        for lab in labels:
            accs, sizes = [], []
            for tr, te in folds:
                sel = quiet_fit(RandSel(random_state=0, **CANDIDATES[lab]), X[tr], y[tr])
                cols = sel.selected_ if sel.selected_.size else np.argsort(sel.ranking_)[:1]
                m = make_pipeline(StandardScaler(), SVC()).fit(X[tr][:, cols], y[tr])
                accs.append(m.score(X[te][:, cols], y[te]))
                sizes.append(sel.selected_.size)
            cells.append(f"{np.mean(accs):.3f} / {np.mean(sizes):.1f}")
        print(f"| {name} {X.shape[0]}x{X.shape[1]} | " + " | ".join(cells) + " |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["0", "a", "b", "c"], default=None)
    ap.add_argument("--draws", type=int, default=3)
    ap.add_argument("--no-peers", action="store_true")
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
        for part, fn in (("0", bench_0), ("a", bench_a), ("b", bench_b), ("c", bench_c)):
            if args.only in (None, part):
                fn(args)


if __name__ == "__main__":
    main()
