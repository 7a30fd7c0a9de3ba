"""randSel (thesis 4.2, algorithm 6; seed 004 algorithm 1) and the batched alignment it uses."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from fscompbio.datasets import make_dataset
from fscompbio.kernels import alignment, gaussian_kernel, hsic, label_kernel, sq_distances
from fscompbio.selection import RandSel
from fscompbio.selection._gaussian_updates import (
    CenteredTarget,
    PairLayout,
    batched_alignment,
    batched_unbiased_alignment,
    pair_sq_diffs,
)
from fscompbio.selection._randsel import balanced_subsample, random_subset_masks

CHEAP = dict(n_subsets=20, batch_size=10, random_state=0)


@parametrize_with_checks([RandSel(**CHEAP), RandSel(**CHEAP, estimator="unbiased", n_features_to_select=2)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_param_validation():
    check_param_validation("RandSel", RandSel(**CHEAP))


@settings(max_examples=25, deadline=None)
@given(m=st.integers(4, 15), d=st.integers(2, 8), b=st.integers(1, 6), seed=st.integers(0, 2**31 - 1))
def test_batched_distances_and_alignments_equal_one_kernel_at_a_time(m, d, b, seed):
    """D2 = T @ mask, batched centred and HSIC1 alignments == fscompbio.kernels per kernel."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    y = np.r_[[-1, 1], rng.choice([-1, 1], m - 2)]
    masks = random_subset_masks(np.random.RandomState(seed % 1000), d, max(1, d // 2), b)
    lay = PairLayout(m)
    D2 = pair_sq_diffs(X, lay) @ masks
    L = label_kernel(y)
    target = CenteredTarget(L, lay)
    Kp = np.exp(-0.3 * D2)
    ref_a, ref_u = [], []
    for j in range(b):
        cols = np.flatnonzero(masks[:, j])
        np.testing.assert_allclose(D2[:, j], lay.take(sq_distances(X[:, cols])), atol=1e-10)
        K = gaussian_kernel(X[:, cols], gamma=0.3)
        ref_a.append(alignment(K, L))
        h = lambda A, B: hsic(A, B, estimator="unbiased")  # noqa: E731
        kk, ll = h(K, K), h(L, L)
        ref_u.append(h(K, L) / np.sqrt(kk * ll) if kk > 0 and ll > 0 else 0.0)
    np.testing.assert_allclose(batched_alignment(Kp, target), ref_a, atol=1e-9)
    np.testing.assert_allclose(batched_unbiased_alignment(Kp, target), ref_u, atol=1e-8)


def test_subset_masks_and_balanced_subsample():
    rng = np.random.RandomState(0)
    M = random_subset_masks(rng, 11, 5, 30)
    assert M.shape == (11, 30) and np.all(M.sum(axis=0) == 5)
    y = np.r_[np.zeros(90), np.ones(10)]
    idx = balanced_subsample(rng, y, 20, True)
    assert np.bincount(y[idx].astype(int)).tolist() == [10, 10]
    assert np.unique(idx).size == idx.size


def _top2(sel):
    return set(np.argsort(sel.ranking_, kind="stable")[:2].tolist())


def test_xor_small_recovers_pair_for_all_seeds():
    """XOR 300 x 50: {0, 1} are the top 2 for 5 seeds of 5 (fast version of the 200-d test)."""
    for seed in range(5):
        ds = make_dataset("xor", random_state=seed, n_features=50)
        sel = RandSel(n_subsets=300, subsample=0.25, batch_size=100, random_state=seed).fit(ds.X, ds.y)
        assert _top2(sel) == {0, 1}, f"seed {seed}: top 2 = {_top2(sel)}"


@pytest.mark.slow
def test_xor_200d_recovers_pair_for_all_seeds():
    """The thesis' XOR 300 x 200: {0, 1} in the top 2 for 5 seeds of 5 (1,500 subsets of m/4)."""
    for seed in range(5):
        ds = make_dataset("xor", random_state=seed)
        sel = RandSel(n_subsets=1500, subsample=0.25, batch_size=100, random_state=seed).fit(ds.X, ds.y)
        assert _top2(sel) == {0, 1}, f"seed {seed}: top 2 = {_top2(sel)}"


def test_nonlinear_weston_recovers_relevant_features():
    """Non-linear Weston (10 relevant of 200): the top 10 of the ranking are the relevant ones."""
    ds = make_dataset("nonlinear_weston", random_state=0)
    sel = RandSel(n_subsets=200, subsample=0.25, batch_size=100, random_state=0).fit(ds.X, ds.y)
    top10 = np.argsort(sel.ranking_, kind="stable")[:10]
    assert np.isin(top10, ds.relevant).sum() >= 9
    # thesis 4.2.4: the selected model (positive contributions) holds relevant features only
    assert np.isin(sel.selected_, ds.relevant).mean() >= 0.8


def test_noise_contributions_not_positive_on_average():
    """Proposition 4.2.3: an irrelevant feature's expected contribution is <= 0."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 30))
    y = np.where(X[:, 0] + X[:, 1] + 0.5 * rng.normal(size=200) > 0, 1, -1)
    sel = RandSel(n_subsets=400, subsample=60, batch_size=100, cull_fraction=0.5, random_state=0).fit(X, y)
    c = sel.contributions_[0]
    noise = c[2:]
    se = noise.std(ddof=1) / np.sqrt(noise.size)
    assert noise.mean() <= 2 * se
    assert c[0] > noise.max() and c[1] > noise.max()


def test_history_attributes_are_consistent():
    ds = make_dataset("xor", random_state=3, n_features=30)
    sel = RandSel(n_subsets=100, batch_size=50, random_state=0).fit(ds.X, ds.y)
    hist = sel.support_history_
    assert hist[0].tolist() == list(range(30)) and hist[-1].size == 2
    for big, small in zip(hist[:-1], hist[1:]):
        assert small.size < big.size and np.isin(small, big).all()  # nested, largest first
    assert sel.contributions_.shape == (sel.n_iterations_, 30) == (len(hist) - 1, 30)
    for row, surv in zip(sel.contributions_, hist[:-1]):
        assert np.isfinite(row[surv]).all() and np.isnan(np.delete(row, surv)).all()
    assert sorted(sel.ranking_.tolist()) == list(range(1, 31))
    # features culled later rank better
    assert set(np.flatnonzero(sel.ranking_ <= 2)) == set(hist[-1].tolist())
    again = RandSel(n_subsets=100, batch_size=50, random_state=0).fit(ds.X, ds.y)
    np.testing.assert_array_equal(again.ranking_, sel.ranking_)
    np.testing.assert_array_equal(again.contributions_, sel.contributions_)


def test_fixing_keeps_features():
    ds = make_dataset("xor", random_state=0, n_features=30)
    sel = RandSel(n_subsets=100, batch_size=50, fix_after=1, top_fraction=0.1, random_state=0).fit(ds.X, ds.y)
    assert sel.fixed_.size >= 1
    assert np.isin(sel.fixed_, sel.support_history_[-1]).all()


def test_regression_and_multiclass_targets_run():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 12))
    y_reg = np.sin(2 * X[:, 0]) + 0.1 * rng.normal(size=120)
    sel = RandSel(n_subsets=200, batch_size=100, subsample=60, random_state=0).fit(X, y_reg)
    assert sel.ranking_[0] <= 3
    y_mc = np.digitize(X[:, 1], [-0.5, 0.5])
    sel = RandSel(n_subsets=200, batch_size=100, subsample=60, random_state=0).fit(X, y_mc)
    assert sel.ranking_[1] <= 3


def test_errors_name_the_parameter():
    X = np.random.default_rng(0).normal(size=(20, 4))
    with pytest.raises(ValueError, match="width_multipliers"):
        RandSel(width_multipliers=(0.5, -1.0)).fit(X, np.r_[np.ones(10), -np.ones(10)])
    with pytest.raises(ValueError, match="balanced=True"):
        RandSel(balanced=True).fit(X, np.linspace(0, 1, 20))
