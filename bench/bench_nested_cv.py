"""Model selection of the chapter-3 and chapter-4 fold jobs against the previous implementation (copied below).

Previously, nested cross-validation (``NestedCVSelect.select``) built the cumulative squared distances of the
inner training rows and of the inner validation rows in two passes (a new difference array per feature),
and trained and tested every (size, width) with ``SVC(kernel="precomputed").fit(...).predict(...)``, whose
parameter and input validation cost several times libsvm's own work on these small kernels. Now one pass
builds the distances of both parts into one array with no allocation per feature, and the SVM is trained
and tested through the libsvm routines ``SVC`` calls, with its parameters (``_PrecomputedSVC``). Greedy KTA
(``KTASelect.alignment_table``) gathered each feature's pair differences from a strided column; now from a
contiguous row, into buffers. The results must be byte-identical: every item prints whether they are.

(a) ``NestedCVSelect.select`` alone (the quick config's settings: 3 inner folds, sizes 1-200, 5 widths) on
    the training part of an outer fold (9/10 of the samples), refitting a cheap ranker (correlation) on the
    inner folds so the time is the model selection's: XOR 300 x 200 (chapter 3's synthetic shape), colon
    (62 x 500, the quick config's 500 features of highest variance), and randSel's own subset width-only
    (``sizes="support"``, a random 10% subset).
(b) ``KTASelect.select`` (at most 50 prefix sizes, relative and absolute width grids) on the same parts.
(c) whole fold jobs (``fscompbio.evaluation.evaluate_folds``, outer folds 0-2, the quick config's settings,
    seeds and data sets as the workflow makes them) with the previous model selection patched in, against
    now: CPU seconds of the job's work (imports and scheduling excluded) and whether every per-fold result
    is identical. ``--jobs`` names them as ``chapter:dataset:methods`` (comma-separated, or ``group``: the
    config's method group, as the quick workflow's job runs it); by default the quick config's four jobs
    of XOR and colon.

CPU seconds (``time.process_time``) with BLAS on one thread; each measurement is the median of ``--repeats``
alternating runs of the previous and the new code, and the ratio new/previous is the number to read (the
machine may be shared).

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/bench_nested_cv.py [--only a|b|c] [--repeats 3]
[--jobs chapter3:xor:correlation,random ...]``. Nothing is written.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import time
import warnings
from pathlib import Path

import numpy as np
import scipy
import sklearn
import yaml
from sklearn.base import clone
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_X_y
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio import model_selection as ms
from fscompbio._pairs import CenteredTarget, PairLayout, batched_alignment
from fscompbio.datasets import load_csv_dataset, make_dataset, top_variance
from fscompbio.evaluation import evaluate_folds, model_selections_for
from fscompbio.evaluation._protocol import outer_splits
from fscompbio.kernels import gamma_to_sigma, label_kernel
from fscompbio.seeding import derive_seed
from fscompbio.selection import CorrelationSelector, RandomSelector

ROOT = Path(__file__).resolve().parents[1]
DATA = [ROOT / "data" / "expression", ROOT.parent / "shared" / "data" / "expression"]
CONFIG = ROOT / "config.yaml"
#: item (c)'s default: the quick config's fold jobs (one method group each) on a synthetic set and a micro-array
DEFAULT_JOBS = [f"{chapter}:{dataset}:group" for chapter in ("chapter3", "chapter4") for dataset in ("xor", "colon")]


# ----------------------------------------------------------------------------------------------------------
# the previous implementation (src/fscompbio/model_selection.py as of 2026-11-26, commit 91fbaab)
# ----------------------------------------------------------------------------------------------------------
def previous_cum_sq_dists(A, B, order, sizes):
    """Yield (size, D2(A, B) on the first `size` features of `order`), cumulatively."""
    D2 = np.zeros((A.shape[0], B.shape[0]))
    wanted = set(int(s) for s in sizes)
    last = max(wanted)
    for k, f in enumerate(order[:last], start=1):
        diff = A[:, f][:, None] - B[:, f][None, :]
        D2 += diff * diff
        if k in wanted:
            yield k, D2


def previous_nested_select(self, X, y, selector, *, fitted=None):
    """``NestedCVSelect.select`` as it was."""
    self._validate_params()
    t0 = time.perf_counter()
    X, y = check_X_y(X, y, dtype=np.float64)
    gammas_abs = ms._check_gammas(self.gammas)
    mults = ms._width_grid(self.n_widths, self.low, self.high)
    n = X.shape[1]
    rng = check_random_state(self.random_state)
    cv = StratifiedKFold(self.inner_folds, shuffle=True, random_state=rng.randint(2**31 - 1))
    n_w = gammas_abs.size if gammas_abs is not None else mults.size
    cand = None
    acc_sum = None
    for itr, iva in cv.split(X, y):
        inner = clone(selector).fit(X[itr], y[itr])
        order, sizes = self._ordered_candidates(inner, n)
        if cand is None:
            cand = sizes
            acc_sum = np.zeros((cand.size, n_w))
        support_mode = isinstance(self.sizes, str)
        Xtr, Xva = X[itr], X[iva]
        iu = np.triu_indices(itr.size, k=1)
        tr_gen = previous_cum_sq_dists(Xtr, Xtr, order, sizes)
        va_gen = previous_cum_sq_dists(Xva, Xtr, order, sizes)
        for (k, D_tr), (_, D_va) in zip(tr_gen, va_gen):
            r = 0 if support_mode else int(np.searchsorted(cand, k))
            g = ms._gammas_for(D_tr[iu], gammas_abs, mults)
            for j, gamma in enumerate(g):
                svm = SVC(C=self.C, kernel="precomputed").fit(np.exp(-gamma * D_tr), y[itr])
                acc_sum[r, j] += np.mean(svm.predict(np.exp(-gamma * D_va)) == y[iva])
    acc = acc_sum / self.inner_folds
    best = acc.max()
    r, j = np.argwhere(acc == best)[0]
    if fitted is None:
        fitted = clone(selector).fit(X, y)
    order, sizes = self._ordered_candidates(fitted, n)
    k = int(sizes[0]) if isinstance(self.sizes, str) else int(cand[r])
    feats = order[:k].copy()
    if gammas_abs is not None:
        gamma = float(gammas_abs[j])
    else:
        d2 = ms._pairwise_sq(X[:, feats])
        gamma = float(ms._gammas_for(d2, None, mults[j]))
    return ms.ModelSelectionResult(
        features=feats, gamma=gamma, sigma=float(gamma_to_sigma(gamma)), score=float(best),
        seconds=time.perf_counter() - t0, sizes=cand,
        log10_multipliers=mults if gammas_abs is None else np.full(n_w, np.nan), scores=acc,
    )


def previous_alignment_table(self, X, y, ranking):
    """``KTASelect.alignment_table`` as it was."""
    self._validate_params()
    X, y = check_X_y(X, y, dtype=np.float64)
    order = ms.ranking_order(ranking)
    if order.size != X.shape[1]:
        raise ValueError(f"ranking has {order.size} entries but X has {X.shape[1]} features")
    m = X.shape[0]
    gammas = ms._check_gammas(self.gammas)
    mults = ms._width_grid(self.n_widths, self.low, self.high)
    sizes = ms.prefix_sizes(X.shape[1], self.max_sizes)
    layout = PairLayout(m)
    target = CenteredTarget(label_kernel(y, kind=ms.resolve_label_kind(y, self.label_kind)), layout)
    iu, ju = layout.ia, layout.ib
    d2 = np.zeros(layout.n_pairs)
    wanted = np.zeros(X.shape[1] + 1, dtype=bool)
    wanted[sizes] = True
    n_w = gammas.size if gammas is not None else mults.size
    all_g = np.empty((sizes.size, n_w))
    scores = np.empty((sizes.size, n_w))
    row = 0
    for k, f in enumerate(order, start=1):
        diff = X[iu, f] - X[ju, f]
        d2 += diff * diff
        if not wanted[k]:
            continue
        g = ms._gammas_for(d2, gammas, mults)
        E = np.exp(-g[:, None] * d2[None, :])
        all_g[row] = g
        scores[row] = batched_alignment(E.T, target)
        row += 1
        if row == sizes.size:
            break
    return sizes, all_g, scores


@contextlib.contextmanager
def previous_model_selection():
    """Patch the previous nested CV and KTA table into fscompbio.model_selection (OwnModelSelect uses the table)."""
    saved = ms.NestedCVSelect.select, ms.KTASelect.alignment_table
    ms.NestedCVSelect.select, ms.KTASelect.alignment_table = previous_nested_select, previous_alignment_table
    try:
        yield
    finally:
        ms.NestedCVSelect.select, ms.KTASelect.alignment_table = saved


# ----------------------------------------------------------------------------------------------------------
# data and timing
# ----------------------------------------------------------------------------------------------------------
def quick_config():
    return yaml.safe_load(CONFIG.read_text())


def workflow_dataset(name, cfg):
    """The data set as the quick workflow writes it (a registry set with its seed, or a configured CSV)."""
    csv = cfg["datasets"]["csv"].get(name)
    if csv is None:
        return make_dataset(name, random_state=derive_seed(cfg["seed"], "dataset", name))
    path = next((d / Path(csv["path"]).name for d in DATA if (d / Path(csv["path"]).name).exists()), None)
    if path is None:
        return None
    ds = load_csv_dataset(path, positive_label=csv.get("positive_label"), name=name)
    return top_variance(ds, csv["max_features"]) if csv.get("max_features") else ds


def outer_training_part(ds, seed=2014):
    train, _ = outer_splits(ds.y, 10, random_state=seed)[0]
    return np.asarray(ds.X, dtype=float)[train], ds.y[train]


def cpu(f):
    t = time.process_time()
    out = f()
    return time.process_time() - t, out


def paired(previous, now, repeats):
    """Median CPU seconds of alternating runs of ``previous`` and ``now`` (inside the patch), and their results."""
    t_old, t_new = [], []
    for _ in range(repeats):
        with previous_model_selection():
            t, old = cpu(previous)
        t_old.append(t)
        t, new = cpu(now)
        t_new.append(t)
    return float(np.median(t_old)), float(np.median(t_new)), old, new


def same_result(a, b):
    return (np.array_equal(a.features, b.features) and a.gamma == b.gamma and a.score == b.score
            and np.array_equal(a.scores, b.scores) and np.array_equal(a.sizes, b.sizes))


def line(name, t_old, t_new, same):
    print(f"  {name:<58} previous {t_old:6.3f} s  now {t_new:6.3f} s  new/previous {t_new / t_old:5.2f}"
          f"  identical: {'yes' if same else 'NO'}")


def parts(cfg):
    out = [("xor 270 x 200", outer_training_part(workflow_dataset("xor", cfg)))]
    colon = workflow_dataset("colon", cfg)
    if colon is not None:
        out.append((f"colon {colon.X.shape[0] * 9 // 10} x {colon.X.shape[1]}", outer_training_part(colon)))
    return out


def item_a(cfg, repeats):
    c = cfg["chapter3"]
    print("(a) NestedCVSelect.select, 3 inner folds, CPU s per call")
    for name, (X, y) in parts(cfg):
        cases = [
            ("correlation ranking, sizes " + ",".join(map(str, c["cv"]["sizes"])), CorrelationSelector(),
             c["cv"]["sizes"]),
            ("random 10% subset, sizes='support'", RandomSelector(n_features_to_select=0.1, random_state=0),
             "support"),
        ]
        for label, sel, sizes in cases:
            est = ms.NestedCVSelect(**c["widths"], sizes=sizes, inner_folds=c["cv"]["inner_folds"], C=c["svm_C"],
                                    random_state=7)
            fitted = clone(sel).fit(X, y)

            def run(est=est, sel=sel, fitted=fitted, X=X, y=y):
                np.random.seed(0)  # SVC.fit draws a seed from the global generator: compare its state too
                res = est.select(X, y, sel, fitted=fitted)
                return res, np.random.randint(2**31 - 1)

            t_old, t_new, (old, g_old), (new, g_new) = paired(run, run, repeats)
            line(f"{name}: {label}", t_old, t_new, same_result(old, new) and g_old == g_new)


def item_b(cfg, repeats):
    c = cfg["chapter3"]
    print("(b) KTASelect.select, at most 50 prefix sizes, CPU s per call")
    for name, (X, y) in parts(cfg):
        ranking = CorrelationSelector().fit(X, y).ranking_
        for label, est in [("relative grid", ms.KTASelect(**c["widths"], max_sizes=c["kta"]["max_sizes"])),
                           ("absolute grid", ms.KTASelect(gammas=10.0 ** np.linspace(0, 2, 5),
                                                          max_sizes=c["kta"]["max_sizes"]))]:
            def run(est=est, X=X, y=y, ranking=ranking):
                return est.select(X, y, ranking)

            t_old, t_new, old, new = paired(run, run, repeats)
            line(f"{name}: {label}", t_old, t_new, same_result(old, new))


def item_c(cfg, jobs, repeats):
    print("(c) fold jobs (evaluate_folds, outer folds 0-2, the quick config), CPU s of the job's work")
    warnings.simplefilter("ignore")  # randSel's empty selections on inner folds, said once per fit
    for job in jobs:
        chapter, dataset, methods = job.split(":")
        c = cfg[chapter]
        methods = c["method_groups"][0] if methods == "group" else methods.split(",")
        ds = workflow_dataset(dataset, cfg)
        if ds is None:
            print(f"  {job}: data not found, skipped")
            continue

        def run(chapter=chapter, dataset=dataset, methods=methods, c=c, ds=ds):
            out = []
            for method in methods:
                res, _ = evaluate_folds(
                    ds, method, [0, 1, 2], seed=cfg["seed"], chapter=chapter, dataset=dataset,
                    selector_params={**c["selectors"].get(method, {})},
                    model_selection=model_selections_for(method, c["model_selection"]),
                    outer_folds=c["outer_folds"], widths=c["widths"], kta=c["kta"], cv=c["cv"], svm_C=c["svm_C"])
                out.append(res)
            return out

        t_old, t_new, old, new = paired(run, run, repeats)
        line(job, t_old, t_new, json.dumps(old) == json.dumps(new))  # as the workflow writes them (NaN == NaN)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=["a", "b", "c"])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--jobs", nargs="+", default=DEFAULT_JOBS,
                    help="item (c): chapter:dataset:methods (comma-separated, or 'group': the config's method group)")
    args = ap.parse_args()
    print(f"numpy {np.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, "
          f"fscompbio {fscompbio.__version__}, Python {platform.python_version()}")
    cfg = quick_config()
    with threadpool_limits(1):
        if args.only in (None, "a"):
            item_a(cfg, args.repeats)
        if args.only in (None, "b"):
            item_b(cfg, args.repeats)
        if args.only in (None, "c"):
            item_c(cfg, args.jobs, max(1, args.repeats // 3))


if __name__ == "__main__":
    main()
