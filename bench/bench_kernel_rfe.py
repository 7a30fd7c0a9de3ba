"""Gaussian-kernel SVM-RFE (``KernelRFE``): the dual sensitivities over support-vector pairs against the previous
implementation (copied below), in the same run.

The previous step gathered every feature's squared differences over all m(m-1)/2 sample pairs of the pair tensor
(recomputed when the tensor does not fit its memory budget: chapter 5's 2,000 windows) and indexed the
support-vector pairs out of them, then evaluated ``|a'Ka - a'K^(i)a| / 2`` as the difference of two float64
quadratic forms. Now the differences are computed over the support-vector pairs only and the sensitivity is
``|(aa * K) . expm1(gamma t_i)|`` (no cancellation). Prints CPU seconds per fit (BLAS on one thread), the ratio,
and whether the rankings agree (they may differ where two sensitivities tie to round-off).

``--multiclass``: on the two multiclass micro-arrays (glioma, 4 classes; tox_171, 4 classes), the 5-fold accuracy of
a Gaussian SVM on the top 50 of ``KernelRFE`` with the sensitivity summed over the one-vs-one SVC's binary
classifiers (now) and over the rows of ``dual_coef_`` as libsvm stores them (before), beside ``f_classif``,
MultiSURF and ``RandSel()``.

Run: ``.venv/bin/python bench/bench_kernel_rfe.py [--quick] [--multiclass]``. Nothing is written.
"""
import argparse
import time

import numpy as np
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from fscompbio.datasets import make_dataset
from fscompbio.kernels import label_kernel
from fscompbio.selection import KernelRFE
from fscompbio._pairs import PairLayout, PairTensor, hsic_pair_weights, pairs_to_square
from fscompbio.selection._hsic import _choose_gamma
from fscompbio.selection._kernel_rfe import dual_sensitivities
from fscompbio._scaling import standardize


class PreviousKernelRFE(KernelRFE):
    """KernelRFE as of 2026-11-22 (classification only): sensitivities from the full pair tensor."""

    def fit(self, X, y):
        X = standardize(np.asarray(X, dtype=np.float64))
        mults = np.asarray(self.width_multipliers, dtype=float)
        m, d = X.shape
        layout = PairLayout(m)
        tensor = PairTensor(X, layout)
        weights = hsic_pair_weights(label_kernel(y), layout, "biased")
        S = np.arange(d)
        d2 = tensor.matvec_mask(S)
        removed = []
        while S.size > 1:
            gamma, _ = _choose_gamma(d2, mults, weights)
            svm = SVC(kernel="precomputed", C=self.C).fit(pairs_to_square(np.exp(-gamma * d2), m), y)
            sv = np.sort(svm.support_)
            coef = np.atleast_2d(svm.dual_coef_)[:, np.argsort(svm.support_)]
            k = min(self._n_step(S.size), S.size - 1)
            iu, iv = np.triu_indices(sv.size, k=1)
            a, b = sv[iu], sv[iv]
            pidx = a * m - a * (a + 1) // 2 + (b - a - 1)
            sens = np.empty(S.size)
            for start in range(0, S.size, tensor.chunk):
                cols = S[start : start + tensor.chunk]
                sens[start : start + cols.size] = dual_sensitivities(coef, d2[pidx], tensor.get(cols)[pidx], gamma)
            out = np.argsort(sens, kind="stable")[:k]
            removed.extend(S[out].tolist())
            d2 = np.maximum(d2 - tensor.matvec_mask(S[out]), 0.0)
            keep = np.ones(S.size, dtype=bool)
            keep[out] = False
            S = S[keep]
        removed.extend(S.tolist())
        ranking = np.empty(d, dtype=int)
        ranking[np.asarray(removed[::-1], dtype=int)] = np.arange(1, d + 1)
        self.ranking_ = ranking
        return self


def cpu(f):
    t = time.process_time()
    out = f()
    return time.process_time() - t, out


def multiclass():
    from sklearn.model_selection import StratifiedKFold

    from bench_randsel_wide import _rank_f, _rank_multisurf, _svm, expression_set  # bench/: the script's directory
    from fscompbio.selection import RandSel
    from fscompbio.selection import _kernel_rfe

    def rows_as_stored(dual_coef, n_support):  # before: dual_coef_'s k - 1 rows taken as sub-problems
        return np.atleast_2d(dual_coef)

    def rfe_before(X, y):
        now = _kernel_rfe.one_vs_one_rows
        _kernel_rfe.one_vs_one_rows = rows_as_stored
        try:
            return KernelRFE(step=0.25).fit(X, y).ranking_
        finally:
            _kernel_rfe.one_vs_one_rows = now

    rankers = {
        "f_classif": _rank_f,
        "MultiSURF": _rank_multisurf,
        "RandSel()": lambda X, y: np.argsort(RandSel(random_state=0, n_features_to_select=50).fit(X, y).ranking_,
                                             kind="stable"),
        "KernelRFE, one-vs-one (now)": lambda X, y: np.argsort(KernelRFE(step=0.25).fit(X, y).ranking_, kind="stable"),
        "KernelRFE, rows as stored (before)": lambda X, y: np.argsort(rfe_before(X, y), kind="stable"),
    }
    print("\nmulticlass micro-arrays: 5-fold accuracy of a Gaussian SVM on the top 50 (split 0); CPU s per fit")
    print("| data set | " + " | ".join(rankers) + " |")
    print("| --- " * (len(rankers) + 1) + "|")
    for name in ("glioma", "tox_171"):
        data = expression_set(name)
        if data is None:
            continue
        X, y = data
        cells = []
        for rank in rankers.values():
            accs, secs = [], []
            for tr, te in StratifiedKFold(5, shuffle=True, random_state=0).split(X, y):
                t, order = cpu(lambda: rank(X[tr], y[tr]))
                cols = order[:50]
                secs.append(t)
                accs.append(_svm().fit(X[tr][:, cols], y[tr]).score(X[te][:, cols], y[te]))
            cells.append(f"{np.mean(accs):.3f} / {np.mean(secs):.2f} s")
        print(f"| {name} {X.shape[0]}x{X.shape[1]}, {np.unique(y).size} classes | " + " | ".join(cells) + " |",
              flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--multiclass", action="store_true", help="only the multiclass micro-arrays")
    args = ap.parse_args()
    if args.multiclass:
        with threadpool_limits(1):
            multiclass()
        return
    cases = [("xor 300 x 200 (chapter 4)", make_dataset("xor", random_state=0))]
    rng = np.random.default_rng(0)
    m, n = (600, 300) if args.quick else (2000, 400)
    X = rng.normal(size=(m, n))
    y = (X[:, :4].sum(axis=1) + X[:, 4] * X[:, 5] + rng.normal(size=m) > 0).astype(int)
    cases.append((f"{m} x {n}, 4 additive + 1 product feature (chapter 5's 2,000 windows, pair tensor not cached)",
                  type("D", (), {"X": X, "y": y})))
    print("Gaussian SVM-RFE, 25% per step: CPU s per fit (BLAS on one thread)")
    with threadpool_limits(1):
        for name, ds in cases:
            t_old, old = cpu(lambda ds=ds: PreviousKernelRFE(step=0.25).fit(ds.X, ds.y))
            t_new, new = cpu(lambda ds=ds: KernelRFE(step=0.25).fit(ds.X, ds.y))
            same = np.array_equal(old.ranking_, new.ranking_)
            top = min(20, ds.X.shape[1])
            agree = len(set(np.argsort(old.ranking_)[:top]) & set(np.argsort(new.ranking_)[:top]))
            print(f"  {name}: previous {t_old:.2f} s, now {t_new:.2f} s, x{t_old / t_new:.1f}; "
                  f"rankings identical: {same}; top-{top} overlap {agree}")


if __name__ == "__main__":
    main()
