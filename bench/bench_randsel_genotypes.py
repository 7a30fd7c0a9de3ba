"""randSel on genotype-shaped data (allele counts 0/1/2): additive effects and one two-locus interaction.

Genome-wide association data are a shape the study's sets do not cover: discrete features with three values,
minor-allele frequencies from common to rare, and interactions between loci (epistasis) defined by a penetrance
table over the nine genotype pairs rather than by a product of centred values. Each draw has ``n`` samples and
``d`` loci (minor-allele frequency uniform on [0.05, 0.5], Hardy-Weinberg proportions), four additive loci
(log-odds ``0.6`` per minor allele, centred) and one interacting pair of two common loci (frequency 0.5), of
one of two kinds, neither with a marginal effect:

- ``het``: log-odds ``+1.6`` when both loci are heterozygous or both are not, ``-1.6`` otherwise (the label
  depends on ``(x_a - 1)^2`` and ``(x_b - 1)^2``: a term of the fourth order in the alignment's expansion);
- ``product``: log-odds ``1.6 (x_a - 1)(x_b - 1)`` (the second-order term the pair screen scores).

The label is drawn from the logistic model. Columns are permuted. For each method: additive loci in its top 10
(of 4), pair members in its top 10 (of 2) and CPU seconds per fit. Methods: ``RandSel()``,
``RandSel(pair_terms="quadratic")`` and ``RandSel(pair_terms="both")`` (their rankings, and ``selected_``: size,
additive and pair members in it),
``f_classif`` and skrebate's MultiSURF (built for epistasis in such data; needs the ``bench`` extra). Widths:
300 loci (below randSel's screen) and 2,000 (above).

Then the two pair screens alone on the study's wide interactions (XOR 300 x 10,000 and the planted 200 x 10,000
set of ``bench_randsel_wide.py``, seeds 0-2): their first pair, its Bonferroni-adjusted p-value and CPU seconds;
and the quadratic screen's level: over 40 draws of 100 loci with permuted labels, how often its smallest adjusted
p-value is at most 0.05.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python bench/bench_randsel_genotypes.py [--quick] [--seeds 5]``. Prints a
plain-text report; nothing is written.
"""

from __future__ import annotations

import argparse
import platform
import time
import warnings

import numpy as np
import scipy
import sklearn
from sklearn.feature_selection import f_classif
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio.selection import RandSel
from fscompbio.selection._pair_screen import pair_product_screen, pair_pvalues, pair_quadratic_screen

TOP = 10
KINDS = ("het", "product")
RANDSEL = {"RandSel()": {}, "RandSel(quadratic)": {"pair_terms": "quadratic"}, "RandSel(both)": {"pair_terms": "both"}}


def genotypes(kind, n_samples=400, n_loci=300, random_state=0):
    """Allele counts ``(n_samples, n_loci)``, labels in {-1, +1}, the additive loci's and the pair's columns."""
    rng = np.random.default_rng(random_state)
    maf = rng.uniform(0.05, 0.5, n_loci)
    maf[4:6] = 0.5
    G = rng.binomial(2, maf, size=(n_samples, n_loci)).astype(float)
    eta = 0.6 * (G[:, :4] - 2 * maf[:4]).sum(axis=1)
    a, b = G[:, 4], G[:, 5]
    if kind == "het":
        eta += 1.6 * np.where((a == 1) == (b == 1), 1.0, -1.0)
    elif kind == "product":
        eta += 1.6 * (a - 1) * (b - 1)
    else:
        raise ValueError(f"kind must be one of {KINDS}; got {kind!r}")
    y = np.where(rng.random(n_samples) < 1 / (1 + np.exp(-eta)), 1, -1)
    perm = rng.permutation(n_loci)
    where = np.argsort(perm)
    return G[:, perm], y, where[:4], where[4:6]


def _multisurf():
    try:
        from skrebate import MultiSURF
    except ImportError:
        return None
    return lambda X, y: np.argsort(-MultiSURF(n_jobs=1).fit(X, y).feature_importances_, kind="stable")


def _f(X, y):
    with warnings.catch_warnings():  # a locus constant in a draw: F is nan, ranked last
        warnings.simplefilter("ignore")
        return np.argsort(-np.nan_to_num(f_classif(X, y)[0], nan=-np.inf), kind="stable")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one seed, 300 loci (a smoke run)")
    ap.add_argument("--seeds", type=int, default=5, help="draws per setting (default 5)")
    ap.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    args = ap.parse_args()
    seeds = range(1 if args.quick else args.seeds)
    widths = [300] if args.quick else [300, 2000]
    print(f"fscompbio {fscompbio.__version__}, numpy {np.__version__}, scipy {scipy.__version__}, "
          f"scikit-learn {sklearn.__version__}, Python {platform.python_version()}, {platform.machine()}; "
          f"{args.threads} BLAS thread(s); times are process CPU seconds", flush=True)
    multisurf = _multisurf()
    if multisurf is None:
        print("skrebate not installed: MultiSURF left out (pip install -e '.[bench]')")
    print(f"\n400 samples, seeds 0-{len(seeds) - 1}: additive loci (of 4) and pair members (of 2) in each top {TOP}; "
          "selected_: its size, additive and pair members in it")
    print("| pair | loci | method | additive in top 10 | pair in top 10 | selected_: size / additive / pair | fit s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    with threadpool_limits(args.threads):
        for kind in KINDS:
            for d in widths:
                rows = {label: [] for label in RANDSEL}
                rows.update({"f_classif": [], **({"MultiSURF": []} if multisurf else {})})
                selected = {label: [] for label in RANDSEL}
                for seed in seeds:
                    X, y, additive, pair = genotypes(kind, n_loci=d, random_state=seed)
                    for label, params in RANDSEL.items():
                        t0 = time.process_time()
                        with warnings.catch_warnings():  # an empty selected_ warns; counted as 0 here
                            warnings.simplefilter("ignore")
                            sel = RandSel(random_state=seed, **params).fit(X, y)
                        dt = time.process_time() - t0
                        order = np.argsort(sel.ranking_, kind="stable")
                        rows[label].append((np.isin(additive, order[:TOP]).sum(), np.isin(pair, order[:TOP]).sum(),
                                            dt))
                        selected[label].append((sel.selected_.size, np.isin(additive, sel.selected_).sum(),
                                                np.isin(pair, sel.selected_).sum()))
                    for label, rank in (("f_classif", _f), ("MultiSURF", multisurf)):
                        if rank is None:
                            continue
                        t0 = time.process_time()
                        order = rank(X, y)
                        dt = time.process_time() - t0
                        rows[label].append((np.isin(additive, order[:TOP]).sum(), np.isin(pair, order[:TOP]).sum(),
                                            dt))
                for label, r in rows.items():
                    r = np.array(r, dtype=float)
                    extra = ""
                    if label in RANDSEL:
                        s = np.array(selected[label], dtype=float).mean(axis=0)
                        extra = f"{s[0]:.1f} / {s[1]:.1f} / {s[2]:.1f}"
                    add, hit = (", ".join(str(int(v)) for v in r[:, k]) for k in (0, 1))
                    print(f"| {kind} | {d:,} | {label} | {r[:, 0].mean():.1f} ({add}) | {r[:, 1].mean():.1f} ({hit}) "
                          f"| {extra} | {r[:, 2].mean():.2f} |", flush=True)
        screens(args.quick)


def screens(quick):
    """The product and the quadratic screens alone on wide interactions, and the quadratic screen's level."""
    from bench_randsel_wide import planted_wide

    n_features = 2000 if quick else 10_000
    print(f"\nthe pair screens alone (5 pairs), seeds 0-{0 if quick else 2}: first pair, adjusted p, CPU s")
    print("| data | seed | the pair | product: first, p, s | quadratic: first, p, s |")
    print("| --- | --- | --- | --- | --- |")
    for seed in range(1 if quick else 3):
        rng = np.random.default_rng(seed)
        X = rng.standard_normal((300, n_features))
        y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
        sets = {f"XOR 300 x {n_features:,}": (X, y, [0, 1])}
        Xp, yp, pair, _ = planted_wide(n_features=n_features, random_state=seed)
        sets[f"planted 200 x {n_features:,}"] = (Xp, yp, sorted(pair.tolist()))
        for name, (X, y, pair) in sets.items():
            t0 = time.process_time()
            pp, ps = pair_product_screen(X, y, 5)
            t1 = time.process_time()
            qp, qs, df = pair_quadratic_screen(X, y, 5)
            t2 = time.process_time()
            p1 = pair_pvalues(ps, y, X.shape[1])[0]
            p2 = pair_pvalues(qs, y, X.shape[1], diagonal=False, df=df)[0]
            print(f"| {name} | {seed} | {pair} | {pp[0].tolist()}, {p1:.1e}, {t1 - t0:.1f} "
                  f"| {qp[0].tolist()}, {p2:.1e}, {t2 - t1:.1f} |", flush=True)
    rng = np.random.default_rng(1)
    draws = 10 if quick else 40
    rejected = 0
    for k in range(draws):
        X, y, _, _ = genotypes("het", n_loci=100, random_state=100 + k)
        y = rng.permutation(y)
        qp, qs, df = pair_quadratic_screen(X, y, 3)
        rejected += pair_pvalues(qs, y, 100, diagonal=False, df=df)[0] <= 0.05
    print(f"quadratic screen, permuted labels (100 loci, 400 samples): smallest adjusted p <= 0.05 in {rejected} of "
          f"{draws} draws")


if __name__ == "__main__":
    main()
