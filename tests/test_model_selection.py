"""Greedy KTA model selection (algorithm 3) and nested CV (2.5.1)."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator

from fscompbio.kernels import alignment, gaussian_kernel, label_kernel
from fscompbio.model_selection import KTASelect, NestedCVSelect, prefix_sizes, ranking_order
from fscompbio.selection import CorrelationSelector, RandomSelector


class FixedRanking(BaseEstimator):
    """A mock selector with a given ranking (1 = best)."""

    def __init__(self, ranking=None):
        self.ranking = ranking

    def fit(self, X, y):
        self.ranking_ = np.asarray(self.ranking)
        return self


@pytest.mark.parametrize("max_sizes", [None, 4])
def test_alignment_table_matches_brute_force(max_sizes):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 9))
    y = np.where(X[:, 2] * X[:, 5] > 0, 1, -1)
    ranking = rng.permutation(9) + 1
    sizes, gammas, scores = KTASelect(n_widths=4, max_sizes=max_sizes).alignment_table(X, y, ranking)
    order = ranking_order(ranking)
    L = label_kernel(y, kind="linear")
    for i, k in enumerate(sizes):
        for j in range(4):
            K = gaussian_kernel(X[:, order[:k]], gamma=gammas[i, j])
            assert scores[i, j] == pytest.approx(alignment(K, L), abs=1e-10)


def test_relative_width_grid():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    y = np.array([1, -1] * 15)
    sizes, gammas, _ = KTASelect(n_widths=3, low=-1, high=1).alignment_table(X, y, [1, 2, 3, 4])
    from fscompbio.kernels import median_distance

    for i, k in enumerate(sizes):
        med = median_distance(X[:, :k])
        sig = 1 / np.sqrt(2 * gammas[i])
        np.testing.assert_allclose(sig, med * np.array([0.1, 1.0, 10.0]), rtol=0.05)


def test_kta_picks_relevant_prefix_xor():
    # XOR in the first two features, 20 N(0,1) noise features; ranking puts the
    # relevant two first: the alignment peaks at exactly the two (unambiguous).
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 22))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    res = KTASelect().select(X, y, np.arange(1, 23))
    assert sorted(res.features.tolist()) == [0, 1]
    assert res.score > 0.1 and res.seconds >= 0


def test_kta_picks_relevant_prefix_linear_with_correlation_ranking():
    from fscompbio.datasets import make_dataset

    ds = make_dataset("linear_weston", random_state=0)
    sel = CorrelationSelector().fit(ds.X, ds.y)
    res = KTASelect().select(ds.X, ds.y, sel.ranking_)
    # perfect precision: every chosen feature is relevant (thesis: KTA models are precise)
    assert set(res.features.tolist()) <= set(ds.relevant.tolist())


def test_kta_ties_go_to_smaller_subset():
    # a constant feature adds zero distance: the prefix with it has exactly the same
    # alignment as the one without, and algorithm 3's ">=" keeps the smaller one
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 3))
    X[:, 1] = 3.0
    y = np.where(X[:, 0] > 0, 1, -1)
    res = KTASelect(gammas=[0.5]).select(X, y, [1, 2, 3])
    sizes, _, scores = KTASelect(gammas=[0.5]).alignment_table(X, y, [1, 2, 3])
    assert scores[0, 0] == pytest.approx(scores[1, 0], abs=1e-12)
    assert res.features.tolist() == [0]


def test_prefix_sizes():
    assert prefix_sizes(5).tolist() == [1, 2, 3, 4, 5]
    s = prefix_sizes(1000, 20)
    assert s[0] == 1 and s[-1] == 1000 and len(s) <= 20 and np.all(np.diff(s) > 0)
    with pytest.raises(ValueError, match="max_sizes must be >= 2 or None; got 1"):
        prefix_sizes(10, 1)


def test_kta_errors_name_values():
    X = np.random.default_rng(0).normal(size=(10, 3))
    y = np.array([1, -1] * 5)
    with pytest.raises(ValueError, match="ranking has 2 entries but X has 3 features"):
        KTASelect().select(X, y, [1, 2])
    with pytest.raises(ValueError, match=r"gammas must be a non-empty list of finite floats > 0; got \[-1.0\]"):
        KTASelect(gammas=[-1.0]).select(X, y, [1, 2, 3])
    with pytest.raises(ValueError, match="'n_widths' parameter of KTASelect"):
        KTASelect(n_widths=0).select(X, y, [1, 2, 3])


def test_nested_cv_picks_relevant_features():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 12))
    y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    ranking = np.arange(1, 13)
    ms = NestedCVSelect(sizes=[1, 2, 6, 12], n_widths=3, inner_folds=3, random_state=0)
    res = ms.select(X, y, FixedRanking(ranking))
    assert res.features.tolist() == [0, 1]
    assert res.scores.shape == (4, 3) and res.score == res.scores.max()
    assert res.score > 0.85


def test_nested_cv_ties_to_smaller_model():
    # all labels predictable only from a constant? no: every candidate equally bad on
    # a one-feature ranking where extra features are copies of the first -> identical
    rng = np.random.default_rng(0)
    x = rng.normal(size=(60, 1))
    X = np.hstack([x, np.zeros((60, 3))])  # zero columns: identical kernels for all sizes
    y = np.where(x[:, 0] > 0, 1, -1)
    res = NestedCVSelect(sizes=[1, 2, 4], n_widths=2, inner_folds=3, random_state=0).select(
        X, y, FixedRanking([1, 2, 3, 4])
    )
    np.testing.assert_allclose(res.scores[0], res.scores[2])
    assert res.n_features == 1


def test_nested_cv_support_mode_keeps_the_random_subset():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 30))
    y = np.where(X[:, 0] > 0, 1, -1)
    sel = RandomSelector(random_state=3)
    fitted = sel.fit(X, y)
    res = NestedCVSelect(sizes="support", n_widths=2, inner_folds=2, random_state=0).select(X, y, sel, fitted=fitted)
    assert sorted(res.features.tolist()) == sorted(np.flatnonzero(fitted.get_support()).tolist())
    assert res.scores.shape == (1, 2)


def test_nested_cv_same_seed_same_choice():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(90, 10))
    y = np.where(X[:, 3] - X[:, 4] > 0, 1, -1)
    a = NestedCVSelect(n_widths=2, inner_folds=3, random_state=5).select(X, y, CorrelationSelector())
    b = NestedCVSelect(n_widths=2, inner_folds=3, random_state=5).select(X, y, CorrelationSelector())
    assert a.features.tolist() == b.features.tolist() and a.gamma == b.gamma
    np.testing.assert_array_equal(a.scores, b.scores)


def test_nested_cv_errors():
    X = np.random.default_rng(0).normal(size=(20, 3))
    y = np.array([1, -1] * 10)
    with pytest.raises(ValueError, match="sizes must be positive integers; got \\[0, 2\\]"):
        NestedCVSelect(sizes=[0, 2], inner_folds=2).select(X, y, FixedRanking([1, 2, 3]))
    with pytest.raises(ValueError, match="'inner_folds' parameter of NestedCVSelect"):
        NestedCVSelect(inner_folds=1).select(X, y, FixedRanking([1, 2, 3]))


class RecordingRanking(BaseEstimator):
    """A ranking selector that records the ``tag`` and sample count of every fit (class-wide)."""

    fits = []

    def __init__(self, tag="own"):
        self.tag = tag

    def fit(self, X, y):
        RecordingRanking.fits.append((self.tag, X.shape[0]))
        self.ranking_ = np.arange(1, X.shape[1] + 1)
        return self


def test_nested_cv_inner_params_reach_the_inner_fits_only():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    y = np.where(X[:, 0] > 0, 1, -1)
    RecordingRanking.fits = []
    NestedCVSelect(sizes=[1, 2], n_widths=2, inner_folds=4, random_state=0,
                   inner_params={"tag": "inner"}).select(X, y, RecordingRanking())
    assert RecordingRanking.fits == [("inner", 45)] * 4 + [("own", 60)]
    RecordingRanking.fits = []
    NestedCVSelect(sizes=[1, 2], n_widths=2, inner_folds=4, random_state=0).select(X, y, RecordingRanking())
    assert RecordingRanking.fits == [("own", 45)] * 4 + [("own", 60)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_nested_cv_inner_params_equal_a_cheaper_selector_in_the_inner_folds(seed):
    """Choosing with inner stability selection at 8 subsamples = choosing with a selector of 8 subsamples, applied
    to the ranking of the fit at 40 (the outer fit's own)."""
    from fscompbio.selection import StabilitySelection

    rng = np.random.default_rng(seed)
    X = rng.normal(size=(80, 12))[:, rng.permutation(12)]
    y = np.where(X[:, 2] - X[:, 7] + 0.3 * rng.normal(size=80) > 0, 1, -1)
    fitted = StabilitySelection(n_bootstraps=40, random_state=seed).fit(X, y)
    a = NestedCVSelect(sizes=[1, 2, 4, 8], n_widths=2, inner_folds=3, random_state=seed,
                       inner_params={"n_bootstraps": 8}).select(
        X, y, StabilitySelection(n_bootstraps=40, random_state=seed), fitted=fitted)
    b = NestedCVSelect(sizes=[1, 2, 4, 8], n_widths=2, inner_folds=3, random_state=seed).select(
        X, y, StabilitySelection(n_bootstraps=8, random_state=seed), fitted=fitted)
    np.testing.assert_array_equal(a.scores, b.scores)
    assert a.features.tolist() == b.features.tolist() and a.gamma == b.gamma
    order = ranking_order(fitted.ranking_)
    assert set(order[:2].tolist()) == {2, 7}  # the outer fit finds the two relevant features
    assert a.features.tolist() == order[: a.features.size].tolist()  # the chosen size applies to the outer ranking


def test_nested_cv_inner_params_that_do_not_fit_the_selector():
    X = np.random.default_rng(0).normal(size=(20, 3))
    y = np.array([1, -1] * 10)
    with pytest.raises(ValueError, match=r"inner_params \{'n_bootstraps': 5\} do not fit FixedRanking"):
        NestedCVSelect(inner_folds=2, inner_params={"n_bootstraps": 5}).select(X, y, FixedRanking([1, 2, 3]))


class VaryingSupport(BaseEstimator):
    """A mock selector whose support size depends on the number of training samples."""

    def fit(self, X, y):
        self.ranking_ = np.arange(1, X.shape[1] + 1)
        self.k_ = 1 + X.shape[0] % 3
        return self

    def get_support(self):
        return self.ranking_ <= self.k_


def test_nested_cv_support_mode_with_varying_support_sizes():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(61, 6))
    y = np.where(X[:, 0] > 0, 1, -1)
    sel = VaryingSupport()
    res = NestedCVSelect(sizes="support", n_widths=2, inner_folds=4, random_state=0).select(X, y, sel)
    # the final subset is the support of the fit on all 61 samples: 1 + 61 % 3 = 2 features
    assert res.features.tolist() == [0, 1]
    assert res.scores.shape == (1, 2) and 0.5 < res.score <= 1.0


def test_own_model_keeps_the_support_and_picks_the_best_aligned_width():
    """OwnModelSelect: exactly the selector's get_support(); the width of maximal alignment on it."""
    from fscompbio.kernels import alignment, label_kernel
    from fscompbio.model_selection import OwnModelSelect
    from fscompbio.selection import CorrelationSelector

    rng = np.random.default_rng(3)
    X = rng.normal(size=(90, 8))
    y = np.where(X[:, 2] - X[:, 5] > 0, 1, -1)
    perm = rng.permutation(8)
    Xp = X[:, perm]
    sel = CorrelationSelector(n_features_to_select=2).fit(Xp, y)
    res = OwnModelSelect(n_widths=4).select(Xp, y, sel)
    assert sorted(perm[res.features].tolist()) == [2, 5]
    sub = Xp[:, res.features]
    L = label_kernel(y)
    # recompute the grid's alignments directly and check the choice is their argmax
    from fscompbio.model_selection import _pairwise_sq
    from fscompbio.kernels import median_sq_distance, sigma_to_gamma
    med = np.sqrt(median_sq_distance(_pairwise_sq(sub)))
    gammas = sigma_to_gamma(med * 10.0 ** np.linspace(-1, 1, 4))
    aligns = np.array([alignment(np.exp(-g * _sqdist(sub)), L) for g in gammas])
    np.testing.assert_allclose(res.scores[0], aligns, rtol=1e-8)
    assert res.gamma == pytest.approx(gammas[np.argmax(aligns)])


def _sqdist(A):
    sq = (A * A).sum(1)
    return np.maximum(sq[:, None] + sq[None, :] - 2 * A @ A.T, 0.0)


def test_own_model_empty_support_and_bad_selector():
    from fscompbio.model_selection import OwnModelSelect

    class Empty:
        def get_support(self):
            return np.zeros(3, dtype=bool)

    res = OwnModelSelect().select(np.ones((5, 3)), [1, -1, 1, -1, 1], Empty())
    assert res.n_features == 0 and np.isnan(res.gamma)  # the empty model
    with pytest.raises(ValueError, match="needs a fitted selector with get_support"):
        OwnModelSelect().select(np.ones((5, 3)), [1, -1, 1, -1, 1], object())
