"""CPU per FoHSIC step and per fit: the blocked candidate HSIC against the previous implementation.

``fscompbio.selection._hsic.candidate_hsic`` scores every candidate ``i`` of a
greedy HSIC step by ``w . exp(-gamma (D2_S -/+ D_i))`` over the sample pairs.
The previous implementation (copied below as ``_old_candidate_hsic`` with its
``_OldPairTensor``, so both run in the same process) gathered the candidate
rows of a tensor cached row-major in the pairs (one cache line per pair) into
a ~32 MB chunk and made four more passes over it; the current one reads
contiguous rows per feature in blocks of ``BLOCK_BYTES`` that stay in cache.

    .venv/bin/python bench/bench_hsic_candidates.py          # a few minutes, single-threaded
    .venv/bin/python bench/bench_hsic_candidates.py --quick  # smoke run

(a) one FoHSIC step (all candidates, 10 features already included) on tox_171
(a 90% training fold, one-hot label kernel as in the multi-class figure),
prostate_ge and XOR 300 x 200: CPU old / new / ratio, the largest relative
difference of the candidate HSICs and whether their order is the same.
(b) the block size of the new path (``BLOCK_BYTES``) on the same steps.
(c) whole FoHSIC fits (``n_steps``; the old path patched in): CPU per fit and
per step, old / new, and whether ``ranking_``, ``widths_`` agree and the largest
relative difference of ``hsic_path_``.

CPU time (``time.process_time``) with BLAS limited to one thread: the machine
may be shared, so the ratio is the number to read. Nothing is asserted or written.
"""

from __future__ import annotations

import argparse
import time
from unittest import mock

import numpy as np
import scipy
import sklearn
from sklearn.model_selection import StratifiedKFold
from threadpoolctl import threadpool_limits

import fscompbio
from fscompbio._scaling import standardize
from fscompbio.datasets import load_csv_dataset, make_dataset
from fscompbio.kernels import label_kernel
from fscompbio.selection import FoHSIC
import fscompbio._pairs as gu
from fscompbio.selection import _hsic
from fscompbio._pairs import PairLayout, PairTensor, hsic_pair_weights


# ---------------------------------------------------------------------------------------------------------
# the previous implementation (fscompbio at commit 8f1af04), verbatim but for the names
class _OldPairTensor:
    """``PairTensor`` before the blocked candidate HSIC (cache row-major in the pairs)."""

    def __init__(self, X, layout, *, budget=None):
        budget = gu.TENSOR_BUDGET if budget is None else budget
        self.X = X
        self.layout = layout
        self.cached = layout.n_pairs * X.shape[1] * 4 <= budget
        self.T = self._compute(np.arange(X.shape[1])) if self.cached else None
        self.chunk = max(1, int(32 * 2**20 // (4 * max(layout.n_pairs, 1))))

    def _compute(self, cols):
        Xt = np.asarray(self.X[:, cols].T, dtype=np.float32)  # (c, m)
        T = Xt[:, self.layout.ia] - Xt[:, self.layout.ib]  # (c, P), in fact F order
        np.square(T, out=T)
        return T.T

    def get(self, cols, out=None):
        cols = np.asarray(cols, dtype=np.intp)
        if self.cached:
            if out is None:
                out = np.empty((cols.size, self.layout.n_pairs), dtype=np.float32)
            rows = self.T.T
            for k, c in enumerate(cols):
                out[k] = rows[c]
            return out.T
        T = self._compute(cols)
        if out is None:
            return T
        out[...] = T.T
        return out.T

    def matvec_mask(self, features, weights=None):
        features = np.asarray(features, dtype=np.intp)
        out = np.zeros(self.layout.n_pairs)
        if self.cached and weights is None:
            rows = self.T.T
            for c in features:
                out += rows[c]
            return out
        for start in range(0, features.size, self.chunk):
            cols = features[start : start + self.chunk]
            Tc = self.get(cols)
            if weights is None:
                out += Tc.sum(axis=1, dtype=np.float64)
            else:
                out += Tc.astype(np.float64) @ weights[start : start + self.chunk]
        return out


def _old_candidate_hsic(tensor, d2_set, candidates, gamma, weights, *, sign):
    """``candidate_hsic`` before the blocking (chunks of ~32 MB, five passes each)."""
    w, c0 = weights
    k_set = np.exp(-gamma * d2_set)
    h_set = c0 + np.einsum("p,p->", w, k_set)
    k_set32 = k_set.astype(np.float32)[None, :]
    base = d2_set.astype(np.float32)[None, :]
    w32 = w.astype(np.float32)
    g = np.float32(-gamma)
    out = np.empty(candidates.size)
    buf = np.empty((min(tensor.chunk, candidates.size), tensor.layout.n_pairs), dtype=np.float32)
    for start in range(0, candidates.size, tensor.chunk):
        cols = candidates[start : start + tensor.chunk]
        E = tensor.get(cols, out=buf[: cols.size]).T
        if sign < 0:
            np.subtract(base, E, out=E)
        else:
            np.add(base, E, out=E)
        E *= g
        np.exp(E, out=E)
        E -= k_set32
        out[start : start + cols.size] = E @ w32
    return h_set + out


# ---------------------------------------------------------------------------------------------------------
def _datasets(quick):
    tox = load_csv_dataset("data/expression/tox_171.csv.gz")
    tr = next(StratifiedKFold(10, shuffle=True, random_state=0).split(tox.X, tox.y))[0]
    pro = load_csv_dataset("data/expression/prostate_ge.csv.gz")
    xor = make_dataset("xor", random_state=0)
    sets = [
        ("tox_171 fold", tox.X[tr], tox.y[tr], "onehot"),
        ("prostate_ge", pro.X, pro.y, "auto"),
        ("xor 300x200", xor.X, xor.y, "auto"),
    ]
    if quick:  # a quarter of the features
        sets = [(n, X[:, : max(200, X.shape[1] // 4)], y, k) for n, X, y, k in sets]
    return sets


def _cpu(f, repeat):
    """Smallest CPU time of ``repeat`` calls, and the last result."""
    best, res = np.inf, None
    for _ in range(repeat):
        t = time.process_time()
        res = f()
        best = min(best, time.process_time() - t)
    return best, res


def _step_state(X, y, kind, n_included=10):
    """A FoHSIC step's inputs after ``n_included`` features (those FoHSIC includes first)."""
    Xs = standardize(X)
    layout = PairLayout(X.shape[0])
    weights = hsic_pair_weights(label_kernel(y, kind=kind), layout, "unbiased")
    sel = FoHSIC(n_steps=n_included, label_kernel=kind).fit(X, y)
    included = np.argsort(sel.ranking_, kind="stable")[:n_included]
    cand = np.setdiff1d(np.arange(X.shape[1]), included)
    return Xs, layout, weights, included, cand


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a quarter of the features, fewer repeats and steps")
    args = parser.parse_args()
    repeat = 2 if args.quick else 5
    print(
        f"numpy {np.__version__}, scipy {scipy.__version__}, scikit-learn {sklearn.__version__}, "
        f"fscompbio {fscompbio.__version__}; CPU seconds, BLAS on one thread"
    )
    sets = _datasets(args.quick)
    with threadpool_limits(1):
        print("\n(a) one FoHSIC step (10 features included): old / new candidate HSIC")
        print(f"{'data':14s} {'m x d':>11s} {'build old':>10s} {'build new':>10s} {'step old':>9s} {'step new':>9s} "
              f"{'ratio':>6s} {'max rel diff':>12s} {'same order':>10s}")
        states = {}
        for name, X, y, kind in sets:
            Xs, layout, weights, included, cand = _step_state(X, y, kind)
            t_old_build, old_t = _cpu(lambda: _OldPairTensor(Xs, layout), 1)
            t_new_build, new_t = _cpu(lambda: PairTensor(Xs, layout), 1)
            d2 = new_t.matvec_mask(included)
            gamma, _ = _hsic._choose_gamma(d2 * (included.size + 1) / included.size, (0.35, 0.5, 0.7, 1.0), weights)
            t_old, h_old = _cpu(lambda: _old_candidate_hsic(old_t, d2, cand, gamma, weights, sign=+1), repeat)
            t_new, h_new = _cpu(lambda: _hsic.candidate_hsic(new_t, d2, cand, gamma, weights, sign=+1), repeat)
            rel = np.max(np.abs(h_new - h_old) / np.abs(h_old))
            same = np.array_equal(np.argsort(-h_old, kind="stable"), np.argsort(-h_new, kind="stable"))
            print(f"{name:14s} {X.shape[0]:4d} x {X.shape[1]:4d} {t_old_build:10.3f} {t_new_build:10.3f} "
                  f"{t_old:9.4f} {t_new:9.4f} {t_old / t_new:6.1f} {rel:12.1e} {str(same):>10s}")
            states[name] = (new_t, d2, cand, gamma, weights, t_new)
            del old_t

        print("\n(b) block size of the new path: CPU per step for each block size (the default BLOCK_BYTES "
              f"is {gu.BLOCK_BYTES / 2**20:g} MB)")
        sizes = [2**18, 2**20, 2**21, 2**22, 2**23, 2**24, 2**25]
        print(f"{'data':14s} " + " ".join(f"{s / 2**20:>7g}MB" for s in sizes))
        for name, (tensor, d2, cand, gamma, weights, t_ref) in states.items():
            default = tensor.block
            row = []
            for s in sizes:
                tensor.block = max(1, s // (4 * tensor.layout.n_pairs))
                t, _ = _cpu(lambda: _hsic.candidate_hsic(tensor, d2, cand, gamma, weights, sign=+1), repeat)
                row.append(t)
            tensor.block = default
            print(f"{name:14s} " + " ".join(f"{t:9.4f}" for t in row))
        del states

        n_steps = 5 if args.quick else 30
        print(f"\n(c) FoHSIC(n_steps={n_steps}) fits: old path (patched in) / new")
        print(f"{'data':14s} {'fit old':>8s} {'fit new':>8s} {'ratio':>6s} {'step old':>9s} {'step new':>9s} "
              f"{'same ranking':>12s} {'same widths':>11s} {'path rel diff':>13s}")
        for name, X, y, kind in sets:
            def fit():
                return FoHSIC(n_steps=n_steps, label_kernel=kind).fit(X, y)

            with mock.patch.object(_hsic, "candidate_hsic", _old_candidate_hsic), mock.patch.object(
                _hsic, "PairTensor", _OldPairTensor
            ):
                t_old, old = _cpu(fit, 1)
            t_new, new = _cpu(fit, 1)
            rel = np.max(np.abs(new.hsic_path_ - old.hsic_path_) / np.abs(old.hsic_path_))
            print(f"{name:14s} {t_old:8.2f} {t_new:8.2f} {t_old / t_new:6.1f} {t_old / n_steps:9.4f} "
                  f"{t_new / n_steps:9.4f} {str(np.array_equal(old.ranking_, new.ranking_)):>12s} "
                  f"{str(np.array_equal(old.widths_, new.widths_)):>11s} {rel:13.1e}")


if __name__ == "__main__":
    main()
