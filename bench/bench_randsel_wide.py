"""randSel at micro-array width: accuracy and fit time against MultiSURF and f_classif; growth with features.

(a) 5-fold stratified CV (shuffled, seed 0) on the real micro-arrays at full width (prostate_ge, allaml,
    colon from ``../shared/data/expression/``) and a synthetic 200 x 10,000 set with a planted XOR pair and
    ten planted mean shifts (columns permuted). Each selector ranks the features of the training part; a
    standardised Gaussian SVM (C = 1, gamma = "scale") is trained on the top 50 and scored on the test
    part. Methods: the SVM on all features, skrebate's MultiSURF, ``f_classif`` and ``RandSel()`` with its
    defaults and ``n_features_to_select=50`` (it ranks; no permutation null for ``selected_``), optionally
    also the thesis' old micro-array settings; beside them ``RandSel()``'s own model: the SVM on ``selected_``
    of ``RandSel()`` with its default test (after the screen, the permutation test), as many features as the
    test keeps (the majority class when it keeps none), with its size and planted features. Prints mean
    accuracy and mean fit time per fold, and randSel's ratios against MultiSURF and f_classif from the same
    run. The planted set is drawn 3 times (one draw's 5-fold accuracy has a standard error of about 0.03)
    and the mean row compares them.
    ``--ms-like-draws k`` adds k draws of a mass-spectrometry-like 200 x 10,000 set (log-normal intensities,
    correlated neighbouring bins, signal in five blocks of 20: redundant relevant features; ``ms_like``).
    ``--local`` adds ``RandSel(label_kernel="local")``.
    ``--real`` names other shipped expression sets (the multi-class glioma and tox_171, the TB sets);
    ``--split-seeds 0,1,2,3`` repeats the real sets' CV over several shuffles and reports their mean.
(b) ``RandSel()`` fit time and peak traced memory (tracemalloc) on 200 x n synthetic sets, n = 1,000,
    10,000, 50,000, ranking only and with the defaults (the permutation test of ``selected_``), with the
    growth exponent between successive sizes.
(c) ``RandSel()``'s own model ``selected_`` (after the screen, a permutation test) fitted on all samples:
    its size with the real labels and with 5 permuted labels (where no feature is relevant).
(d) XOR 300 x 10,000 (``y = sign(x_a x_b)``, every other feature noise, columns permuted), seeds 0-4:
    whether ``RandSel(n_features_to_select=2)`` ranks the pair on top, the pair's ranks and the fit's CPU
    time (an interaction with no marginal effect, which only the second-order screen can keep).

(e) Multi-class sets (tox_171 and glioma, or ``--real``): per ranker, the class each top-50 feature separates
    best (one-vs-rest F statistic) and each class's recall of the SVM on the top 50, 5-fold CV (split seed 0):
    whether a ranker spends its 50 features on the easiest class.

(f) randSel's own model (the SVM on ``selected_``) with the default ``n_permutations="auto"`` against
    ``--own-permutations`` (99), randSel's seeds ``--fit-seeds`` (0,1,2), on the planted set's draw 0 and the
    three real micro-arrays (5 folds, split seed 0): accuracy, sizes of the selected sets and fit CPU time.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/bench_randsel_wide.py [--quick] [--only a|b|c|d|e|f]``
(MultiSURF needs the ``bench`` extra: ``pip install -e '.[bench]'``). Prints a plain-text report; nothing
is written.
"""

from __future__ import annotations

import warnings

import argparse
import platform
import time
import tracemalloc
from pathlib import Path

import numpy as np
import scipy
import sklearn
from sklearn.feature_selection import f_classif
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio.datasets import load_csv_dataset
from fscompbio.selection import RandSel

ROOT = Path(__file__).resolve().parents[1]
DATA = [ROOT / "data" / "expression", ROOT.parent / "shared" / "data" / "expression"]
REAL = ["prostate_ge", "allaml", "colon"]
TOP = 50
#: the label of RandSel()'s own model (``selected_``) in the tables
OWN = "RandSel() selected_"
#: the first this many of the 5 folds are run (``--folds-run``)
FOLDS_RUN = [5]


def planted_wide(n_samples=200, n_features=10_000, random_state=0):
    """Binary set with a planted interaction and planted marginal effects, columns permuted.

    Features are N(0, 1). The class is the sign of ``x_a x_b`` (an XOR pair, no marginal effect) for 85%
    of the samples and flipped for the rest; ten further features are shifted by ``+-delta y`` with
    ``delta`` from 0.25 to 0.5 (a mean difference of 0.5 to 1 standard deviation). Returns ``X, y`` and the
    permuted indices of the pair and of the shifted features.
    """
    rng = np.random.default_rng(random_state)
    y = np.where(rng.random(n_samples) < 0.5, -1, 1)
    X = rng.normal(size=(n_samples, n_features))
    z = np.where(rng.random(n_samples) < 0.85, y, -y)  # the XOR's own label, 15% disagree with y
    X[:, 1] = np.abs(X[:, 1]) * np.sign(X[:, 0]) * z
    X[:, 2:12] += np.linspace(0.25, 0.5, 10)[None, :] * y[:, None]
    perm = rng.permutation(n_features)
    inv = np.argsort(perm)
    return X[:, perm], y, inv[:2], inv[2:12]


def ms_like(n_samples=200, n_features=10_000, block=20, n_blocks_shifted=5, rho=0.8, random_state=0):
    """A mass-spectrometry-like set: log-normal intensities, correlated neighbouring bins, signal in a few blocks.

    The features come in blocks of ``block`` neighbouring bins whose latent normal values follow an AR(1)
    chain (correlation ``rho`` between neighbours); ``n_blocks_shifted`` blocks are shifted by ``+-delta y``
    (``delta`` from 0.3 to 0.6 latent standard deviations, every bin of the block alike: redundant relevant
    features). Intensities are ``exp(mu_f + s_f z + t_i)`` with ``mu_f ~ N(0, 1)``, ``s_f ~ U(0.5, 1.5)``
    (every bin right-skewed) and a per-sample scale ``t_i ~ N(0, 0.3)`` (a total-ion-current factor
    shared by all the features of a sample). Balanced classes, columns permuted. Returns ``X, y`` and the
    permuted indices of the shifted blocks' features.
    """
    rng = np.random.default_rng(random_state)
    y = np.where(np.arange(n_samples) < n_samples // 2, -1, 1)
    rng.shuffle(y)
    nb = n_features // block
    E = rng.standard_normal((n_samples, nb, block))
    Z = np.empty_like(E)
    Z[:, :, 0] = E[:, :, 0]
    for k in range(1, block):
        Z[:, :, k] = rho * Z[:, :, k - 1] + np.sqrt(1 - rho**2) * E[:, :, k]
    shifted = rng.choice(nb, n_blocks_shifted, replace=False)
    for b, delta in zip(shifted, np.linspace(0.3, 0.6, n_blocks_shifted)):
        Z[:, b, :] += delta * y[:, None]
    Z = Z.reshape(n_samples, nb * block)
    s, mu = rng.uniform(0.5, 1.5, nb * block), rng.normal(0.0, 1.0, nb * block)
    X = np.exp(mu + s * Z + rng.normal(0.0, 0.3, n_samples)[:, None])
    perm = rng.permutation(nb * block)
    relevant = np.concatenate([np.arange(b * block, (b + 1) * block) for b in shifted])
    return X[:, perm], y, np.argsort(perm)[relevant]


def expression_set(name):
    """``(X, y)`` of a shipped expression set (``data/expression`` here or in ``../shared/data``), or None."""
    path = next((d / f"{name}.csv.gz" for d in DATA if (d / f"{name}.csv.gz").exists()), None)
    if path is None:
        return None
    ds = load_csv_dataset(path)
    return ds.X, ds.y


def _svm():
    return make_pipeline(StandardScaler(), SVC(C=1.0, gamma="scale"))


def _accuracy(X, y, tr, te, cols):
    """Test accuracy of ``_svm()`` trained on the columns ``cols`` of the training part; with no column, of the
    training part's majority class."""
    if np.size(cols) == 0:
        values, counts = np.unique(y[tr], return_counts=True)
        return float(np.mean(y[te] == values[counts.argmax()]))
    return _svm().fit(X[tr][:, cols], y[tr]).score(X[te][:, cols], y[te])


def _rank_multisurf(X, y):
    from skrebate import MultiSURF

    return np.argsort(-MultiSURF(n_jobs=1).fit(X, y).feature_importances_, kind="stable")


def _rank_f(X, y):
    with warnings.catch_warnings():  # constant columns of a training part: f is nan, ranked last
        warnings.simplefilter("ignore")
        return np.argsort(-np.nan_to_num(f_classif(X, y)[0], nan=-np.inf), kind="stable")


def _rank_randsel(params):
    def rank(X, y):  # the protocol ranks: n_features_to_select=TOP (no permutation null for selected_)
        sel = RandSel(random_state=0, n_features_to_select=TOP, **params).fit(X, y)
        return np.argsort(sel.ranking_, kind="stable")

    return rank


def _own_model_randsel(params):
    """randSel's own model: ``selected_`` of ``RandSel(**params)`` with its default test (after a screen, the
    permutation test), as many features as the test keeps."""
    def own(X, y):
        with warnings.catch_warnings():  # an empty selected_ warns; the protocol scores the majority class then
            warnings.simplefilter("ignore")
            return RandSel(random_state=0, **params).fit(X, y).selected_

    own.own_model = True  # cv_table and the scorecard: the SVM on the features returned, not on a top 50
    return own


def _rankers(args):
    """The rankers compared: MultiSURF, f_classif, RandSel() and, with ``--local``, RandSel(label_kernel="local");
    beside them ``RandSel()``'s own model (``selected_``, as many features as its test keeps)."""
    rankers = {"MultiSURF": _rank_multisurf, "f_classif": _rank_f, "RandSel()": _rank_randsel({})}
    if args.local:
        rankers["RandSel(local)"] = _rank_randsel(dict(label_kernel="local"))
    rankers[OWN] = _own_model_randsel({})
    return rankers


def cv_table(name, X, y, methods, relevant=None, split_seed=0):
    """Mean test accuracy and mean fit time per fold of each method (None: the SVM on all features).

    With ``relevant`` (a planted set) also, per method: the planted features in the top 50, the accuracy on
    the top 10, the accuracy on the planted features of the top 50 alone, and on those planted features with
    the rest of the 50 filled by noise features drawn at random (what its own 50 - hits noise
    features add or cost)."""
    folds = list(StratifiedKFold(5, shuffle=True, random_state=split_seed).split(X, y))[:FOLDS_RUN[0]]
    out = {}
    for label, rank in methods.items():
        accs, times, hits, acc10, acc_rel, acc_fill, sizes = [], [], [], [], [], [], []
        fill_rng = np.random.default_rng(0)
        for tr, te in folds:
            if rank is None:
                cols, dt = slice(None), 0.0
            elif getattr(rank, "own_model", False):
                t0 = time.process_time()
                cols = rank(X[tr], y[tr])
                dt = time.process_time() - t0
                sizes.append(cols.size)
                if relevant is not None:
                    hits.append(int(np.isin(cols, relevant).sum()))
            else:
                t0 = time.process_time()
                order = rank(X[tr], y[tr])
                dt = time.process_time() - t0
                cols = order[:TOP]
                if relevant is not None:
                    found = cols[np.isin(cols, relevant)]
                    hits.append(found.size)
                    acc10.append(_svm().fit(X[tr][:, order[:10]], y[tr]).score(X[te][:, order[:10]], y[te]))
                    acc_rel.append(_accuracy(X, y, tr, te, found))
                    noise = np.flatnonzero(~np.isin(np.arange(X.shape[1]), relevant))
                    fill = np.concatenate([found, fill_rng.choice(noise, TOP - found.size, replace=False)])
                    acc_fill.append(_svm().fit(X[tr][:, fill], y[tr]).score(X[te][:, fill], y[te]))
            accs.append(_accuracy(X, y, tr, te, cols))
            times.append(dt)
        out[label] = (float(np.mean(accs)), float(np.mean(times)))
        extra = ""
        if sizes:
            out[label] += (float(np.mean(sizes)), float(np.mean(hits)) if hits else float("nan"))
            extra = f"  features {out[label][2]:.1f}" + (f", planted {out[label][3]:.1f}" if hits else "")
        elif hits:
            out[label] += (float(np.mean(hits)), float(np.mean(acc10)), float(np.mean(acc_rel)),
                           float(np.mean(acc_fill)))
            extra = (f"  planted in top 50 {out[label][2]:.1f}  top-10 accuracy {out[label][3]:.3f}  "
                     f"planted-of-top-50 accuracy {out[label][4]:.3f}  planted + random noise accuracy "
                     f"{out[label][5]:.3f}")
        print(f"  {name:14s} {label:22s} accuracy {out[label][0]:.3f}  fit {out[label][1]:7.2f} s/fold{extra}",
              flush=True)
    return out


def bench_a(args):
    methods = {"SVM all features": None, **_rankers(args)}
    if args.old:
        methods["RandSel(thesis old)"] = _rank_randsel(dict(n_subsets=10000, subsample=0.333, screen_above=None))
    sets = {}
    real = args.real.split(",") if args.real else REAL
    for name in [] if args.no_real else real[:1] if args.quick else real:
        data = expression_set(name)
        if data is None:
            print(f"(a) {name} not found in {[str(d) for d in DATA]}: skipped")
            continue
        sets[name] = data
    planted_sets = {}
    for k in range(1 if args.quick else args.planted_draws):
        X, y, pair, shifted = planted_wide(n_features=2000 if args.quick else 10_000, random_state=k)
        sets[f"planted draw {k}"] = (X, y)
        planted_sets[f"planted draw {k}"] = np.concatenate([pair, shifted])
    for k in range(args.ms_like_draws):
        X, y, relevant = ms_like(n_features=2000 if args.quick else 10_000, random_state=k)
        sets[f"ms-like draw {k}"] = (X, y)
        planted_sets[f"ms-like draw {k}"] = relevant
    rows = []
    split_seeds = [int(s) for s in args.split_seeds.split(",")]
    for name, (X, y) in sets.items():
        print(f"(a) {name}: {X.shape[0]} x {X.shape[1]}", flush=True)
        if name in planted_sets or len(split_seeds) == 1:
            rows.append((name, X.shape, cv_table(name, X, y, methods, planted_sets.get(name), split_seeds[0])))
            continue
        per = [cv_table(f"{name} s{k}", X, y, methods, split_seed=k) for k in split_seeds]
        rows.append((f"{name}, mean of splits {args.split_seeds} (per split: "
                     + "; ".join(f"{p['RandSel()'][0]:.3f} vs f {p['f_classif'][0]:.3f}, MS {p['MultiSURF'][0]:.3f}"
                                 for p in per) + ")", X.shape,
                     {k: tuple(float(np.mean([p[k][i] for p in per])) for i in range(len(per[0][k])))
                      for k in methods}))
    for kind in ("planted", "ms-like"):
        drawn = [(shape, res) for name, shape, res in rows if name.startswith(f"{kind} draw")]
        if len(drawn) > 1:  # one draw's 5-fold accuracy has a standard error of about 0.03: the mean of the draws
            mean = {k: tuple(float(np.mean([r[k][i] for _, r in drawn])) for i in range(len(drawn[0][1][k])))
                    for k in methods}
            rows.append((f"{kind}, mean of {len(drawn)} draws", drawn[0][0], mean))
    planted = [name for name, _, _ in rows if name.startswith(("planted", "ms-like"))]
    labels = list(methods)
    print("\n(a) summary: mean accuracy over 5 folds (top 50, Gaussian SVM) / fit CPU s per fold; "
          "randSel ratios from the same run")
    print("| data set | " + " | ".join(labels) + " | randSel - MultiSURF acc | randSel - f_classif acc "
          "| randSel / MultiSURF time | own model - MultiSURF acc | own model / MultiSURF time |")
    print("| --- " * (len(labels) + 6) + "|")
    for name, shape, res in rows:
        cells = [f"{res[k][0]:.3f}" + ("" if methods[k] is None else f" / {res[k][1]:.2f} s")
                 + (f" / {res[k][2]:.1f} features" if getattr(methods[k], "own_model", False) else "")
                 for k in labels]
        r, m, f = res["RandSel()"], res["MultiSURF"], res["f_classif"]
        o = res[OWN]
        print(f"| {name} {shape[0]}x{shape[1]} | " + " | ".join(cells)
              + f" | {r[0] - m[0]:+.3f} | {r[0] - f[0]:+.3f} | {r[1] / m[1]:.3f} | {o[0] - m[0]:+.3f} "
              f"| {o[1] / m[1]:.3f} |")
    if planted:
        ranked = [k for k in labels if methods[k] is not None and not getattr(methods[k], "own_model", False)]
        print("\n(a) planted sets: planted features (2 XOR + 10 shifted; ms-like: the 100 of the shifted "
              "blocks) in the top 50 / accuracy on the top 10 / "
              "accuracy on the planted features of the top 50 alone / on them with the rest of the 50 random noise "
              "features (mean over 5 folds)")
        print("| data set | " + " | ".join(ranked) + " |")
        print("| --- " * (len(ranked) + 1) + "|")
        for name, shape, res in rows:
            if name.startswith(("planted", "ms-like")):
                print(f"| {name} | " + " | ".join(
                    f"{res[k][2]:.1f} / {res[k][3]:.3f} / {res[k][4]:.3f} / {res[k][5]:.3f}" for k in ranked) + " |")


def bench_b(args):
    sizes = [1000, 5000] if args.quick else [1000, 10_000, 50_000]
    print("\n(b) RandSel() on 200 x n planted sets: fit CPU time and peak traced memory, ranking only "
          "(n_features_to_select=50) and with the defaults (selected_ with its permutation test)")
    print("| features | fit s, ranking | peak MiB, ranking | fit s, defaults | peak MiB, defaults | data MiB "
          "| time growth exponent (ranking / defaults) | memory growth exponent (ranking / defaults) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    prev = None
    for n in sizes:
        X, y, _, _ = planted_wide(n_features=n, random_state=1)
        cur = [n]
        for params in (dict(n_features_to_select=TOP), {}):
            tracemalloc.start()
            t0 = time.process_time()
            RandSel(random_state=0, **params).fit(X, y)
            cur += [time.process_time() - t0, tracemalloc.get_traced_memory()[1] / 2**20]
            tracemalloc.stop()
        grow = ("", "") if prev is None else tuple(
            " / ".join(f"{np.log(cur[i] / prev[i]) / np.log(n / prev[0]):.2f}" for i in idx)
            for idx in ((1, 3), (2, 4)))
        print(f"| {n:,} | {cur[1]:.2f} | {cur[2]:.0f} | {cur[3]:.2f} | {cur[4]:.0f} | {X.nbytes / 2**20:.0f} "
              f"| {grow[0]} | {grow[1]} |", flush=True)
        prev = cur


def bench_c(args):
    """selected_ (the own model, with its permutation test after the screen) on real and on permuted labels."""
    print("\n(c) RandSel() fitted on all samples: size of selected_ with the real labels and with permuted labels "
          "(none is relevant), fit CPU s with the permutation null")
    print("| data set | selected, real labels | selected, permuted labels (each draw) | fit s |")
    print("| --- | --- | --- | --- |")
    sets = {}
    for name in REAL[:1] if args.quick else REAL:
        data = expression_set(name)
        if data is not None:
            sets[name] = (*data, None)
    X, y, pair, shifted = planted_wide(n_features=2000 if args.quick else 10_000, random_state=0)
    sets["planted draw 0"] = (X, y, np.concatenate([pair, shifted]))
    rng = np.random.default_rng(0)
    for name, (X, y, planted) in sets.items():
        t0 = time.process_time()
        sel = RandSel(random_state=0).fit(X, y)
        dt = time.process_time() - t0
        real = f"{sel.selected_.size}"
        if planted is not None:
            real += f" ({np.isin(sel.selected_, planted).sum()} planted of {planted.size})"
        fake = [RandSel(random_state=k + 1).fit(X, rng.permutation(y)).selected_.size for k in range(args.null_draws)]
        print(f"| {name} {X.shape[0]}x{X.shape[1]} | {real} | {', '.join(map(str, fake))} | {dt:.2f} |", flush=True)


def xor_pair_ranks(seed, n_features, n_samples=300, params=None):
    """XOR ``n_samples x n_features`` (``y = sign(x_a x_b)``, every other feature noise, columns permuted, drawn
    from ``seed``): the pair's ranks under ``RandSel(n_features_to_select=2, random_state=seed, **params)``,
    ascending, and the fit's CPU seconds."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_samples, n_features))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    perm = rng.permutation(n_features)
    pair = np.flatnonzero(np.isin(perm, [0, 1]))
    t0 = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sel = RandSel(n_features_to_select=2, random_state=seed, **(params or {})).fit(X[:, perm], y)
    return sorted(int(r) for r in sel.ranking_[pair]), time.process_time() - t0


def bench_d(args):
    """The XOR pair among 10,000 features: in the top 2, its ranks, the fit's CPU time, per seed."""
    n_features = 2000 if args.quick else 10_000
    print(f"\n(d) XOR 300 x {n_features:,} (columns permuted): RandSel(n_features_to_select=2), seeds 0-4")
    print("| seed | pair in the top 2 | the pair's ranks | fit CPU s |")
    print("| --- | --- | --- | --- |")
    found = 0
    for seed in range(5):
        ranks, dt = xor_pair_ranks(seed, n_features)
        found += ranks == [1, 2]
        print(f"| {seed} | {'yes' if ranks == [1, 2] else 'no'} | {ranks[0]}, {ranks[1]} | {dt:.1f} |", flush=True)
    print(f"pair in the top 2 for {found} of 5 seeds")


def bench_e(args):
    """Multi-class sets: which class each ranker's top 50 separates, and each class's recall."""
    from sklearn.metrics import confusion_matrix

    names = args.real.split(",") if args.real else ["tox_171", "glioma"]
    methods = _rankers(args)
    print("\n(e) multi-class sets, 5-fold CV (split seed 0), top 50: the class each top-50 feature separates best "
          "(largest one-vs-rest F statistic on all samples; counts summed over the folds, per class) and each "
          "class's recall of the Gaussian SVM on the top 50")
    print("| data set | ranker | top-50 features by the class they separate best | recall per class | accuracy |")
    print("| --- | --- | --- | --- | --- |")
    for name in names:
        data = expression_set(name)
        if data is None:
            print(f"(e) {name} not found: skipped")
            continue
        X, y = data
        classes = np.unique(y)
        with warnings.catch_warnings():  # constant columns: F is nan, never the best class
            warnings.simplefilter("ignore")
            F = np.nan_to_num(np.array([f_classif(X, (y == c).astype(int))[0] for c in classes]), nan=-np.inf)
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
        for label, rank in methods.items():
            conf = np.zeros((classes.size, classes.size), dtype=int)
            counts = np.zeros(classes.size, dtype=int)
            for tr, te in folds:
                cols = rank(X[tr], y[tr])[:TOP]
                counts += np.bincount(np.argmax(F[:, cols], axis=0), minlength=classes.size)
                pred = _svm().fit(X[tr][:, cols], y[tr]).predict(X[te][:, cols])
                conf += confusion_matrix(y[te], pred, labels=classes)
            recall = np.diag(conf) / conf.sum(axis=1)
            print(f"| {name} | {label} | " + ", ".join(f"{c}: {k}" for c, k in zip(classes, counts))
                  + " | " + ", ".join(f"{c}: {r:.3f}" for c, r in zip(classes, recall))
                  + f" | {np.trace(conf) / conf.sum():.3f} |", flush=True)


def bench_f(args):
    """The own model's first-order permutation test: the default ("auto") permutations against more, per seed."""
    more = args.own_permutations
    seeds = [int(s) for s in args.fit_seeds.split(",")]
    print(f"\n(f) randSel's own model (a Gaussian SVM on selected_), 5-fold CV (split seed 0): "
          f"n_permutations='auto' against {more}, randSel's seeds {args.fit_seeds}")
    print("| data set | seed | accuracy, auto | accuracy, more | features per fold, auto | features per fold, more "
          "| fit CPU s, auto | fit CPU s, more |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    sets = {"planted draw 0": planted_wide(n_features=2000 if args.quick else 10_000, random_state=0)[:2]}
    for name in REAL[:1] if args.quick else REAL:
        data = expression_set(name)
        if data is not None:
            sets[name] = data
    means = {}
    for name, (X, y) in sets.items():
        folds = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, y))
        for seed in seeds:
            row = {}
            for setting in ("auto", more):
                accs, sizes, times = [], [], []
                for tr, te in folds:
                    t0 = time.process_time()
                    with warnings.catch_warnings():  # an empty selected_ warns; scored as the majority class
                        warnings.simplefilter("ignore")
                        cols = RandSel(random_state=seed, n_permutations=setting).fit(X[tr], y[tr]).selected_
                    times.append(time.process_time() - t0)
                    sizes.append(cols.size)
                    accs.append(_accuracy(X, y, tr, te, cols))
                row[setting] = (float(np.mean(accs)), sizes, float(np.mean(times)))
                means.setdefault((name, setting), []).append(row[setting][0])
            a, m = row["auto"], row[more]
            print(f"| {name} | {seed} | {a[0]:.3f} | {m[0]:.3f} | {a[1]} | {m[1]} | {a[2]:.2f} | {m[2]:.2f} |",
                  flush=True)
    for name in sets:
        a, m = np.mean(means[(name, "auto")]), np.mean(means[(name, more)])
        print(f"{name}: mean over seeds {a:.3f} (auto) against {m:.3f} ({more} permutations), difference {m - a:+.3f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    ap.add_argument("--only", choices=["a", "b", "c", "d", "e", "f"], default=None)
    ap.add_argument("--planted-draws", type=int, default=3, help="draws of the planted set in (a) (default 3)")
    ap.add_argument("--null-draws", type=int, default=5, help="permuted labels per data set in (c) (default 5)")
    ap.add_argument("--old", action="store_true", help="also the thesis' old micro-array settings in (a)")
    ap.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    ap.add_argument("--folds-run", type=int, default=5, help="run the first k of the 5 folds in (a) (default 5)")
    ap.add_argument("--no-real", action="store_true", help="(a): the planted sets only")
    ap.add_argument("--local", action="store_true",
                    help="(a), (e): also RandSel(label_kernel='local') (Relief's near hits and misses as the target)")
    ap.add_argument("--ms-like-draws", type=int, default=0,
                    help="(a): draws of the mass-spectrometry-like 200 x 10,000 set (log-normal, correlated bins; "
                         "default 0)")
    ap.add_argument("--split-seeds", default="0",
                    help="(a): comma-separated shuffle seeds of the real sets' 5-fold splits (default 0); with "
                         "several, each set's row is the mean over the splits")
    ap.add_argument("--real", default=None,
                    help="(a), (e): comma-separated shipped expression sets (default: prostate_ge,allaml,colon, and "
                         "tox_171,glioma for (e); also "
                         "glioma, tox_171, tb_blood_gambia, tb_serum_metabolomics)")
    ap.add_argument("--own-permutations", type=int, default=99,
                    help="(f): the permutations compared with the default's (default 99)")
    ap.add_argument("--fit-seeds", default="0,1,2", help="(f): comma-separated seeds of randSel (default 0,1,2)")
    args = ap.parse_args()
    FOLDS_RUN[0] = args.folds_run
    print(f"fscompbio {fscompbio.__version__}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"scikit-learn {sklearn.__version__}, Python {platform.python_version()}, {platform.machine()}; "
          f"{args.threads} BLAS thread(s); times are process CPU seconds", flush=True)
    with threadpool_limits(args.threads):
        if args.only in (None, "a"):
            bench_a(args)
        if args.only in (None, "b"):
            bench_b(args)
        if args.only in (None, "c"):
            bench_c(args)
        if args.only in (None, "d"):
            bench_d(args)
        if args.only in (None, "e"):
            bench_e(args)
        if args.only in (None, "f"):
            bench_f(args)


if __name__ == "__main__":
    main()
