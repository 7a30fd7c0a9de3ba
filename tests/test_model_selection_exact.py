"""The fast paths of nested CV and greedy KTA give exactly (bit for bit) what the straightforward code gives.

The references below are the plain algorithms: squared distances summed feature after feature in the order of
the ranking (the order that fixes every rounding), and ``SVC(kernel="precomputed")`` fitted and asked to
predict through its public API for every (size, width) of every inner fold.
"""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, clone
from sklearn.model_selection import StratifiedKFold
from sklearn.svm import SVC
from sklearn.utils import check_random_state

from fscompbio import model_selection as ms
from fscompbio._pairs import CenteredTarget, PairLayout, batched_alignment
from fscompbio.kernels import label_kernel
from fscompbio.selection import CorrelationSelector, RandomSelector


class ShuffledRanking(BaseEstimator):
    """A ranking that depends on the data it is fitted on (so every inner fold ranks differently)."""

    def fit(self, X, y):
        score = np.abs(np.corrcoef(X.T, np.unique(y, return_inverse=True)[1])[-1, :-1])
        self.ranking_ = np.empty(X.shape[1], dtype=int)
        self.ranking_[np.argsort(-score, kind="stable")] = np.arange(1, X.shape[1] + 1)
        return self


def reference_sq_dists(A, B, order, k):
    """Squared distances over the first k ranked features, summed feature after feature."""
    D2 = np.zeros((A.shape[0], B.shape[0]))
    for f in order[:k]:
        diff = A[:, f][:, None] - B[:, f][None, :]
        D2 += diff * diff
    return D2


def reference_nested_scores(est, X, y, selector):
    """The inner-CV accuracy table of NestedCVSelect, straightforwardly with SVC's fit and predict."""
    gammas_abs = ms._check_gammas(est.gammas)
    mults = ms._width_grid(est.n_widths, est.low, est.high)
    rng = check_random_state(est.random_state)
    cv = StratifiedKFold(est.inner_folds, shuffle=True, random_state=rng.randint(2**31 - 1))
    table = None
    for itr, iva in cv.split(X, y):
        order, sizes = est._ordered_candidates(clone(selector).fit(X[itr], y[itr]), X.shape[1])
        if table is None:
            table = np.zeros((sizes.size, gammas_abs.size if gammas_abs is not None else mults.size))
        for r, k in enumerate(sizes):
            D_tr = reference_sq_dists(X[itr], X[itr], order, k)
            D_va = reference_sq_dists(X[iva], X[itr], order, k)
            g = ms._gammas_for(D_tr[np.triu_indices(itr.size, k=1)], gammas_abs, mults)
            for j, gamma in enumerate(g):
                svm = SVC(C=est.C, kernel="precomputed").fit(np.exp(-gamma * D_tr), y[itr])
                table[r, j] += np.mean(svm.predict(np.exp(-gamma * D_va)) == y[iva])
    return table / est.inner_folds


def problem(seed, m=60, n=12, classes=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, n))
    X[:, rng.permutation(n)[:2]] *= 3.0  # features of different scales
    z = X[:, 0] * X[:, 1] + 0.5 * X[:, 2]
    y = np.digitize(z, np.quantile(z, np.linspace(0, 1, classes + 1)[1:-1]))
    return X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "kwargs",
    [
        dict(sizes=[1, 2, 3, 5, 12], n_widths=5),
        dict(sizes=[2, 7, 40], gammas=[0.01, 0.3, 3.0]),  # an absolute grid; 40 > n is dropped
        dict(sizes=None, n_widths=3, low=-0.5, high=1.5, C=10.0),
    ],
)
def test_nested_cv_table_is_bit_identical_to_svc(seed, kwargs):
    X, y = problem(seed)
    est = ms.NestedCVSelect(inner_folds=3, random_state=seed, **kwargs)
    res = est.select(X, y, ShuffledRanking())
    ref = reference_nested_scores(est, X, y, ShuffledRanking())
    assert res.scores.shape == ref.shape
    assert np.array_equal(res.scores, ref)  # bit for bit, not approximately


@pytest.mark.parametrize("labels", [np.array([-1, 1, 2]), np.array(["b", "a", "c"])])
def test_nested_cv_several_classes_and_string_labels(labels):
    X, y = problem(3, m=75, classes=3)
    y = labels[y]
    est = ms.NestedCVSelect(sizes=[1, 3, 6], n_widths=3, inner_folds=3, random_state=0)
    assert np.array_equal(est.select(X, y, CorrelationSelector()).scores,
                          reference_nested_scores(est, X, y, CorrelationSelector()))


def test_nested_cv_support_mode_is_bit_identical():
    X, y = problem(4, n=30)
    sel = RandomSelector(n_features_to_select=0.2, random_state=5)
    est = ms.NestedCVSelect(sizes="support", n_widths=4, inner_folds=4, random_state=1)
    res = est.select(X, y, sel)
    assert np.array_equal(res.scores, reference_nested_scores(est, X, y, sel))
    assert res.n_features == 6


def test_nested_cv_leaves_the_global_generator_where_svc_does():
    # SVC.fit (random_state=None) draws its libsvm seed from NumPy's global generator: so does the fast path
    X, y = problem(5)
    est = ms.NestedCVSelect(sizes=[1, 4], n_widths=2, inner_folds=3, random_state=0)
    np.random.seed(11)
    est.select(X, y, CorrelationSelector())
    after_fast = np.random.get_state()[1].copy()
    np.random.seed(11)
    reference_nested_scores(est, X, y, CorrelationSelector())
    assert np.array_equal(after_fast, np.random.get_state()[1])


@pytest.mark.parametrize("seed", range(4))
def test_precomputed_svc_predicts_as_svc(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(50, 5))
    y = np.array(["no", "yes", "maybe"])[rng.integers(0, 2 + seed % 2, size=50)]
    D = reference_sq_dists(X, X, np.arange(5), 5)
    for gamma in (0.01, 0.2, 5.0):
        K = np.exp(-gamma * D)
        svm = SVC(C=0.5, kernel="precomputed").fit(K[:35, :35], y[:35])
        fast = ms._PrecomputedSVC(0.5, y[:35]).predict(K[:35, :35], K[35:, :35])
        assert fast.dtype == y.dtype
        assert np.array_equal(fast, svm.predict(K[35:, :35]))


def test_precomputed_svc_refuses_what_svc_refuses():
    with pytest.raises(ValueError, match="number of classes has to be greater than one"):
        ms._PrecomputedSVC(1.0, np.ones(6))
    with pytest.raises(ValueError, match="Unknown label type"):
        ms._PrecomputedSVC(1.0, np.array([0.1, 0.7, 0.1, 0.7, 0.35]))
    svm = ms._PrecomputedSVC(1.0, np.array([0, 1, 0, 1]))
    with pytest.raises(ValueError, match="kernels of shapes"):
        svm.predict(np.eye(3), np.ones((2, 3)))


@pytest.mark.parametrize("seed", [0, 1])
def test_cumulative_distances_are_the_feature_by_feature_sums(seed):
    rng = np.random.default_rng(seed)
    A, B = rng.normal(size=(9, 7)), rng.normal(size=(5, 7))
    order = rng.permutation(7)
    for a, b in [(A, B), (A, A)]:
        got = {k: D.copy() for k, D in ms._cum_sq_dists(a, b, order, [1, 3, 7])}
        assert sorted(got) == [1, 3, 7]
        for k, D in got.items():
            assert np.array_equal(D, reference_sq_dists(a, b, order, k))


def reference_alignment_table(est, X, y, ranking):
    """KTASelect's table, gathering each feature's pair differences from X directly."""
    order = ms.ranking_order(ranking)
    gammas = ms._check_gammas(est.gammas)
    mults = ms._width_grid(est.n_widths, est.low, est.high)
    sizes = ms.prefix_sizes(X.shape[1], est.max_sizes)
    layout = PairLayout(X.shape[0])
    target = CenteredTarget(label_kernel(y, kind=ms.resolve_label_kind(y, est.label_kind)), layout)
    d2 = np.zeros(layout.n_pairs)
    scores = []
    for k, f in enumerate(order, start=1):
        diff = X[layout.ia, f] - X[layout.ib, f]
        d2 += diff * diff
        if k in sizes:
            g = ms._gammas_for(d2, gammas, mults)
            scores.append(batched_alignment(np.exp(-g[:, None] * d2[None, :]).T, target))
    return np.array(scores)


@pytest.mark.parametrize("kwargs", [dict(max_sizes=None), dict(max_sizes=5), dict(gammas=[0.05, 1.0], max_sizes=4)])
@pytest.mark.parametrize("seed", [0, 1])
def test_alignment_table_is_bit_identical_to_the_plain_loop(kwargs, seed):
    X, y = problem(seed, m=40, n=15)
    ranking = np.random.default_rng(seed).permutation(15) + 1
    est = ms.KTASelect(n_widths=4, **kwargs)
    _, _, scores = est.alignment_table(X, y, ranking)
    assert np.array_equal(scores, reference_alignment_table(est, X, y, ranking))
