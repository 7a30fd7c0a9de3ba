"""randSel (thesis 4.2, algorithm 6; "Principled Non-Linear Feature Selection", algorithm 1).

Every recovery test permutes the columns (the generators put the relevant features first, and a stable
sort of tied scores favours low indices) and uses several seeds.
"""

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

import fscompbio._pairs as pairs
import fscompbio.selection._randsel as rs
import fscompbio.selection._randsel_passes as passes
import fscompbio.selection._tail_scaling as tails
from fscompbio.datasets import make_dataset
from fscompbio.kernels import sq_distances
from fscompbio.selection import RandSel
from fscompbio._pairs import PairLayout
from fscompbio.selection._randsel import balanced_subsample, expected_contributions, random_subset_masks
from fscompbio.selection._randsel_inference import _max_of_k_scores, _tail_scores

CHEAP = dict(n_subsets=20, batch_size=10, random_state=0)


@pytest.mark.filterwarnings("ignore::fscompbio.selection.EmptySelectionWarning")  # an empty set is expected here
@parametrize_with_checks([RandSel(**CHEAP), RandSel(**CHEAP, estimator="biased", n_features_to_select=2)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_param_validation():
    check_param_validation("RandSel", RandSel(**CHEAP))


def permuted(name, seed, **kw):
    """A registry data set with its columns permuted; returns X, y and the relevant columns."""
    ds = make_dataset(name, random_state=seed, **kw)
    perm = np.random.default_rng(1000 + seed).permutation(ds.X.shape[1])
    return ds.X[:, perm], ds.y, np.flatnonzero(np.isin(perm, ds.relevant))


def top(sel, k):
    return set(np.argsort(sel.ranking_, kind="stable")[:k].tolist())


# --- the distances of a batch's subsets (the batched alignments are tested in test_pairs.py) ---------


@settings(max_examples=20, deadline=None)
@given(m=st.integers(4, 12), n=st.integers(2, 9), b=st.integers(1, 5), seed=st.integers(0, 2**31 - 1))
def test_partition_distances_are_those_of_the_minus_and_plus_subsets(m, n, b, seed):
    """The batch's D2: minus-subsets S, and plus-subsets = complement of S (+ one member of S when n is even)."""
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(m, n))
    lay = PairLayout(m)
    Mm = random_subset_masks(rng, n, n // 2, b)
    extra = np.argmax(Mm * rng.random_sample(Mm.shape), axis=0) if n % 2 == 0 else None
    D2 = passes._sq_distances(X, lay, Mm, extra)
    for k in range(b):
        minus = np.flatnonzero(Mm[:, k])
        plus = np.flatnonzero(1 - Mm[:, k])
        if extra is not None:
            assert Mm[extra[k], k] == 1  # the added feature is a member of S
            plus = np.r_[plus, extra[k]]
        assert minus.size == n // 2 and plus.size == n // 2 + 1
        np.testing.assert_allclose(D2[:, k], lay.take(sq_distances(X[:, minus])), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(D2[:, b + k], lay.take(sq_distances(X[:, plus])), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("seed", [0, 1])
def test_partition_distances_in_blocks_of_pairs_and_chunks_of_features(seed, monkeypatch):
    """Many blocks of pair rows (64 rows each) and features summed in chunks of 7: the distances of the subsets."""
    rng = np.random.RandomState(seed)
    m, n, b = 30, 40, 6
    X = rng.normal(size=(m, n))
    lay = PairLayout(m)
    Mm = random_subset_masks(rng, n, n // 2, b)
    extra = np.argmax(Mm * rng.random_sample(Mm.shape), axis=0)
    whole = passes._sq_distances(X, lay, Mm, extra).copy()  # one block, all features at once
    monkeypatch.setattr(pairs, "PAIR_BLOCK_BYTES", 4 * n * 64)  # 64 pair rows per block: 7 blocks of 435 pairs
    monkeypatch.setattr(passes, "TENSOR_CHUNK_BUDGET", 4 * lay.n_pairs * 7)  # 7 features per chunk
    D2 = passes._sq_distances(X, lay, Mm, extra)
    np.testing.assert_allclose(D2, whole, rtol=1e-5)  # float32 sums over feature chunks: round-off only
    for k in range(b):
        minus = np.flatnonzero(Mm[:, k])
        plus = np.r_[np.flatnonzero(1 - Mm[:, k]), extra[k]]
        np.testing.assert_allclose(D2[:, k], lay.take(sq_distances(X[:, minus])), rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(D2[:, b + k], lay.take(sq_distances(X[:, plus])), rtol=1e-4, atol=1e-4)


def test_subset_masks_and_balanced_subsample():
    rng = np.random.RandomState(0)
    M = random_subset_masks(rng, 11, 5, 30)
    assert M.shape == (11, 30) and np.all(M.sum(axis=0) == 5)
    y = np.r_[np.zeros(90), np.ones(10)]
    idx = balanced_subsample(rng, y, 20, True)
    assert np.bincount(y[idx].astype(int)).tolist() == [10, 10]
    assert np.unique(idx).size == idx.size


def test_contribution_estimate_matches_its_definition():
    """c_j = mean of a(S+) - a(S) over the partitions with j in S+ only; se from the batch sums."""
    sums = np.array([[2.0, 0.0], [4.0, 1.0], [0.0, 3.0]])
    counts = np.array([[1.0, 1.0], [2.0, 1.0], [1.0, 2.0]])
    c, se = passes._estimates(sums, counts)
    np.testing.assert_allclose(c, [6.0 / 4.0, 4.0 / 4.0])
    resid = sums - c * counts
    np.testing.assert_allclose(se, np.sqrt(3 / 2 * (resid**2).sum(axis=0)) / 4.0)


# --- the study's problems: recovery and the error-controlled selected set ----------------------------


def test_xor_200d_pair_on_top_and_selected_exactly():
    """XOR 300 x 200, defaults: {0, 1} (permuted) are the top 2 (seeds 0, 1) and selected_ is exactly the
    pair (seed 0; the rate over 20 seeds, 18 of 20, is the slow test's)."""
    for seed in (0, 1):
        X, y, rel = permuted("xor", seed)
        sel = RandSel(random_state=seed).fit(X, y)
        assert top(sel, 2) == set(rel.tolist()), f"seed {seed}: top 2 {top(sel, 2)}, relevant {rel}"
        if seed == 1:
            continue
        assert set(sel.selected_.tolist()) == set(rel.tolist()), f"seed {seed}: selected {sel.selected_}"
        assert np.array_equal(np.flatnonzero(sel.pvalues_ <= sel.alpha), np.sort(sel.selected_))
        assert np.array_equal(np.flatnonzero(sel.get_support()), np.sort(sel.selected_))


def test_nonlinear_weston_top10_and_selected_set():
    """Non-linear Weston (10 relevant of 200), defaults: the top 10 are the relevant ones; selected_ holds
    all 10 and at most one irrelevant feature."""
    for seed in (0, 1):
        X, y, rel = permuted("nonlinear_weston", seed)
        sel = RandSel(random_state=seed).fit(X, y)
        assert top(sel, 10) == set(rel.tolist()), f"seed {seed}"
        chosen = set(sel.selected_.tolist())
        assert set(rel.tolist()) <= chosen and len(chosen - set(rel.tolist())) <= 1, f"seed {seed}: {sorted(chosen)}"


@pytest.mark.filterwarnings("ignore::fscompbio.selection.EmptySelectionWarning")  # an empty set is expected here
def test_fake_class_selects_few():
    """Fake class (labels permuted: no signal), defaults, seeds 0-9: selected_ holds at most two features in
    every draw and fewer than one on average (the default test's false positives; the refit test removes them,
    see the refit tests below); no feature is fixed as a main effect (under the global null the
    false-discovery control is family-wise)."""
    sizes = []
    for seed in range(10):
        X, y, _ = permuted("fake_class", seed)
        sel = RandSel(random_state=seed).fit(X, y)
        sizes.append(sel.selected_.size)
        assert sel.fixed_.size == 0, seed
    assert max(sizes) <= 2 and np.mean(sizes) <= 1.0, sizes


@pytest.mark.slow
def test_xor_200d_targets_20_seeds():
    """XOR 300 x 200, defaults, seeds 0-19: pair in the top 2 in >= 19, selected_ == pair in >= 18."""
    top_ok = sel_ok = 0
    for seed in range(20):
        X, y, rel = permuted("xor", seed)
        sel = RandSel(random_state=seed).fit(X, y)
        top_ok += top(sel, 2) == set(rel.tolist())
        sel_ok += set(sel.selected_.tolist()) == set(rel.tolist())
    assert top_ok >= 19 and sel_ok >= 18, (top_ok, sel_ok)


@pytest.mark.slow
def test_weston_and_fake_class_targets_5_seeds():
    """Seeds 0-4, defaults: nonlinear_weston top-10 10/10 in every seed, at least 9 of the 10 selected in
    every seed and 49 of 50 in all, with <= 1 false positive on average; nonlinear_weston_100 top-5 >= 4.0/5
    on average (4.6 with the median width; the spread's kernel is a little wider on its 50-feature halves);
    fake_class <= 1 selected on average."""
    fp, found = [], []
    for seed in range(5):
        X, y, rel = permuted("nonlinear_weston", seed)
        sel = RandSel(random_state=seed).fit(X, y)
        assert top(sel, 10) == set(rel.tolist()), seed
        found.append(len(set(rel.tolist()) & set(sel.selected_.tolist())))
        fp.append(len(set(sel.selected_.tolist()) - set(rel.tolist())))
    assert min(found) >= 9 and sum(found) >= 49 and np.mean(fp) <= 1, (found, fp)
    hits = []
    for seed in range(5):
        X, y, rel = permuted("nonlinear_weston_100", seed)
        hits.append(len(top(RandSel(random_state=seed).fit(X, y), 5) & set(rel.tolist())))
    assert np.mean(hits) >= 4.0, hits
    sizes = []
    for seed in range(5):
        X, y, _ = permuted("fake_class", seed)
        sizes.append(RandSel(random_state=seed).fit(X, y).selected_.size)
    assert np.mean(sizes) <= 1, sizes


def test_noise_contributions_not_positive_on_average():
    """Proposition 4.2.3: an irrelevant feature's expected contribution is <= 0 (one pass, no culling)."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 30))
    y = np.where(X[:, 0] + X[:, 1] + 0.5 * rng.normal(size=200) > 0, 1, -1)
    perm = rng.permutation(30)
    X = X[:, perm]
    rel = np.flatnonzero(perm < 2)
    c, se, width, _ = expected_contributions(X, y, n_subsets=1000, subsample=60, random_state=0)
    noise = np.delete(c, rel)
    assert noise.mean() <= 2 * noise.std(ddof=1) / np.sqrt(noise.size)
    assert c[rel].min() > noise.max()
    assert np.all(c[rel] / se[rel] > 5)  # the relevant ones stand far above their standard errors
    assert width == 0.5


# --- structure, fixing, batches, errors -----------------------------------------------------------


def test_history_attributes_are_consistent():
    X, y, _ = permuted("xor", 3, n_features=30)
    sel = RandSel(n_subsets=100, batch_size=50, random_state=0).fit(X, y)
    hist = sel.support_history_
    assert hist[0].tolist() == list(range(30)) and hist[-1].size == 2
    for big, small in zip(hist[:-1], hist[1:]):
        assert small.size < big.size and np.isin(small, big).all()  # nested, largest first
    n_it = sel.n_iterations_
    assert sel.contributions_.shape == sel.contribution_se_.shape == (n_it, 30) == (len(hist) - 1, 30)
    for row, surv in zip(sel.contributions_, hist[:-1]):
        assert np.isfinite(row[surv]).all() and np.isnan(np.delete(row, surv)).all()
    assert sorted(sel.ranking_.tolist()) == list(range(1, 31))
    assert set(np.flatnonzero(sel.ranking_ <= 2)) == set(hist[-1].tolist())  # culled later = ranked better
    assert sel.widths_.shape == sel.mean_alignment_.shape == sel.n_subsets_.shape == (n_it,)
    assert np.all((sel.pvalues_ >= 0) & (sel.pvalues_ <= 1))
    again = RandSel(n_subsets=100, batch_size=50, random_state=0).fit(X, y)
    np.testing.assert_array_equal(again.ranking_, sel.ranking_)
    np.testing.assert_array_equal(again.contributions_, sel.contributions_)


def _scripted(monkeypatch, rows):
    """Make every iteration return the next scripted contribution row (indexed by feature)."""
    calls = iter(rows)

    def fake(problem, cols, n_subsets, batch_size, width, estimator, rng, *args):
        full = np.asarray(next(calls), dtype=float)
        return full[cols], np.ones(cols.size), 0.25, 0.0, rs._normal_scores(full[cols], np.ones(cols.size), 20)

    monkeypatch.setattr(rs, "_iteration", fake)


def _rows(*tops):
    """Contribution rows over 10 features: features 0-7 at 0.00-0.07, then {feature: value} overrides."""
    rows = []
    for over in tops:
        r = np.arange(10) * 0.01
        r[8] = r[9] = 0.05
        for j, v in over.items():
            r[j] = v
        rows.append(r)
    return rows + [rows[-1]] * 10


@pytest.mark.filterwarnings("ignore::fscompbio.selection.EmptySelectionWarning")  # an empty set is expected here
def test_fix_after_streak_and_its_reset(monkeypatch):
    """fix_after=2 with the top 10% (one feature): a feature is fixed after two consecutive iterations on
    top, a break resets its streak, and a fixed feature is never culled."""
    X = np.random.default_rng(0).normal(size=(40, 10))
    y = np.r_[np.ones(20), -np.ones(20)]
    kw = dict(fix_after=2, top_fraction=0.1, cull_fraction=0.25, min_features=2, cull_by="contribution")
    # A: 9 on top in iterations 1 and 2, then the lowest: fixed, so it survives to the end
    _scripted(monkeypatch, _rows({9: 1.0}, {9: 1.0}, {9: -1.0}))
    sel = RandSel(**kw).fit(X, y)
    assert 9 in sel.fixed_ and 8 not in sel.fixed_ and 9 in sel.support_history_[-1]
    # B: 9 on top in 1 and 3 but not 2 (8 is): the streak resets, 9 is not fixed and is culled in 4
    _scripted(monkeypatch, _rows({9: 1.0}, {8: 1.0, 9: 0.5}, {9: 1.0}, {9: -1.0}))
    sel = RandSel(**kw).fit(X, y)
    assert 9 not in sel.fixed_ and 8 not in sel.fixed_
    assert 9 in sel.support_history_[3] and 9 not in sel.support_history_[4]
    # C: without fixing, A's feature 9 is culled as soon as it is the lowest (iteration 3)
    _scripted(monkeypatch, _rows({9: 1.0}, {9: 1.0}, {9: -1.0}))
    sel = RandSel(**{**kw, "fix_after": None}).fit(X, y)
    assert sel.fixed_.size == 0 and 9 in sel.support_history_[2] and 9 not in sel.support_history_[3]


@pytest.mark.parametrize("n_subsets, batch_size", [(30, 20), (150, 100), (7, 3), (25, 100)])
def test_uneven_batches_never_crash(n_subsets, batch_size):
    X, y, _ = permuted("xor", 0, n_features=12, n_samples=80)
    sel = RandSel(n_subsets=n_subsets, batch_size=batch_size, random_state=0).fit(X, y)
    assert sel.n_iterations_ >= 1 and np.all(np.isfinite(sel.contributions_[0]))
    assert np.all(sel.n_subsets_ == n_subsets)
    c, se, _, _ = expected_contributions(X, y, n_subsets=n_subsets, batch_size=batch_size, random_state=0)
    assert c.shape == (12,) and np.all(np.isfinite(c))


@pytest.mark.filterwarnings("ignore::fscompbio.selection.EmptySelectionWarning")  # an empty set is expected here
def test_balanced_false_redraws_single_class_subsamples_and_refuses_hopeless_ones():
    """Tiny unbalanced subsamples of a rare class are redrawn (never a one-class kernel), and a setup where most
    subsamples would hold one class is refused with a clear error."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 6))
    y = np.r_[np.ones(15), -np.ones(85)]
    sel = RandSel(n_subsets=60, batch_size=10, subsample=8, random_state=0).fit(X, y)
    assert np.all(np.isfinite(sel.contributions_[0]))
    y_rare = np.r_[np.ones(1), -np.ones(99)]
    with pytest.raises(ValueError, match="single class with probability"):
        RandSel(subsample=8).fit(X, y_rare)
    with pytest.raises(ValueError, match="one class only"):
        RandSel().fit(X, np.ones(100))


def test_width_grid_picks_a_grid_value_per_iteration():
    """A list of widths: each iteration uses the grid value of largest mean alignment on its pilot batches."""
    X, y, rel = permuted("xor", 1, n_features=12, n_samples=150)
    sel = RandSel(width=[0.22, 0.5, 1.0], n_subsets=200, random_state=0).fit(X, y)
    assert set(sel.widths_.tolist()) <= {0.22, 0.5, 1.0}
    assert np.all(np.isfinite(sel.contributions_[0])) and top(sel, 2) == set(rel.tolist())


def test_regression_and_multiclass_targets_run():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 12))
    y_reg = np.sin(2 * X[:, 0]) + 0.1 * rng.normal(size=120)
    sel = RandSel(n_subsets=200, subsample=60, random_state=0).fit(X, y_reg)
    assert sel.ranking_[0] <= 3
    y_mc = np.digitize(X[:, 1], [-0.5, 0.5])
    sel = RandSel(n_subsets=200, subsample=60, random_state=0).fit(X, y_mc)
    assert sel.ranking_[1] <= 3


def test_errors_name_the_parameter():
    X = np.random.default_rng(0).normal(size=(20, 4))
    y = np.r_[np.ones(10), -np.ones(10)]
    with pytest.raises(ValueError, match="width"):
        RandSel(width=(0.5, -1.0)).fit(X, y)
    with pytest.raises(ValueError, match="balanced=True"):
        RandSel(balanced=True).fit(X, np.linspace(0, 1, 20))
    with pytest.raises(ValueError, match="subsample=50 asks for 50 samples"):
        RandSel(subsample=50).fit(X, y)
    with pytest.raises(ValueError, match="at least 4"):
        RandSel(subsample=0.1).fit(X, y)
    with pytest.raises(ValueError, match="n_subsets"):
        RandSel(n_subsets=0).fit(X, y)
    with pytest.raises(ValueError, match="batch_size"):
        RandSel(batch_size=0).fit(X, y)


def test_memory_is_bounded_for_large_subsamples(monkeypatch):
    """A subsample of 400 points (79,800 pairs) with a 1 MB batch budget: partitions are evaluated a few at
    a time and the feature tensor in chunks, with the same alignments as one pass."""
    X, y, _ = permuted("xor", 0, n_features=10, n_samples=400)
    full = expected_contributions(X, y, n_subsets=40, batch_size=40, subsample=400, random_state=0)
    monkeypatch.setattr(passes, "BATCH_BUDGET", 2**20)
    monkeypatch.setattr(passes, "TENSOR_CHUNK_BUDGET", 2**20)
    small = expected_contributions(X, y, n_subsets=40, batch_size=40, subsample=400, random_state=0)
    np.testing.assert_allclose(small[0], full[0], rtol=1e-4, atol=1e-7)


def test_empty_selection_warns_with_what_to_set():
    """No signal: fit warns naming alpha and n_features_to_select; transform warns and returns no column;
    with n_features_to_select the same fit is silent and keeps k columns."""
    X, y, _ = permuted("fake_class", 0, n_features=20)
    with pytest.warns(rs.EmptySelectionWarning, match=r"alpha=0\.05.*n_features_to_select=k"):
        sel = RandSel(n_subsets=200, random_state=0).fit(X, y)
    assert sel.selected_.size == 0
    with pytest.warns(rs.EmptySelectionWarning, match="next step of a pipeline"):
        assert sel.transform(X).shape == (X.shape[0], 0)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", rs.EmptySelectionWarning)
        Xt = RandSel(n_subsets=200, random_state=0, n_features_to_select=3).fit_transform(X, y)
    assert Xt.shape == (X.shape[0], 3)


def test_breast_cancer_width_relative_to_subset_size():
    """Breast cancer (569 x 30, correlated informative features, standardised): one pass at the minus-subsets'
    width has no positive contribution, and its mean is mostly the narrowing alone (a minus-subset's kernel
    narrowed by (h + 1) / h with no feature added); with the width relative to the subset's size most
    features are positive and RandSel() selects a non-empty set that an SVM in a pipeline can use."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    X, y = load_breast_cancer(return_X_y=True)
    Xs = StandardScaler().fit_transform(X)
    old = dict(width=0.22, standardize=True)
    c_old, *_ = expected_contributions(Xs, y, width_scale="minus", n_subsets=600, random_state=0, **old)
    c_new, se_new, *_ = expected_contributions(Xs, y, width_scale="subset_size", n_subsets=600, random_state=0,
                                               **old)
    assert c_old.max() < 0 and (c_new > 0).sum() >= 10 and (c_new / se_new).max() > 2
    sel = RandSel(random_state=0).fit(Xs, y)
    assert sel.selected_.size >= 1
    scores = cross_val_score(make_pipeline(StandardScaler(), RandSel(random_state=0), SVC()), X, y, cv=3,
                             error_score="raise")
    assert scores.mean() >= 0.9, scores


@pytest.mark.slow
def test_breast_cancer_selected_set_is_accurate():
    """Breast cancer (569 x 30), RandSel() on the standardised data: selected_ holds at least 3 features and a
    Gaussian SVM on them reaches >= 0.93 10-fold accuracy (0.916 on the 2 features of the median width; 0.975
    on all 30); make_pipeline(StandardScaler(), RandSel(), SVC()) runs in cross_val_score."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    X, y = load_breast_cancer(return_X_y=True)
    sel = RandSel(random_state=0).fit(StandardScaler().fit_transform(X), y)
    assert sel.selected_.size >= 3, sel.selected_
    cv = StratifiedKFold(10, shuffle=True, random_state=0)
    acc = cross_val_score(make_pipeline(StandardScaler(), SVC()), X[:, sel.selected_], y, cv=cv).mean()
    assert acc >= 0.93, (sel.selected_, acc)
    pipe = cross_val_score(make_pipeline(StandardScaler(), RandSel(random_state=0), SVC()), X, y,
                           cv=StratifiedKFold(3, shuffle=True, random_state=0), error_score="raise")
    assert pipe.mean() >= 0.9, pipe


def test_breast_cancer_selects_an_accurate_set_under_every_seed():
    """Breast cancer (569 x 30), nearly every feature a main effect, so the fit culls nothing and repeats its test
    on fresh partitions: under each of the seeds 0-9 (the columns permuted with it) RandSel() selects a non-empty
    set on which a Gaussian SVM reaches >= 0.93 10-fold accuracy. With a single tested iteration (two
    iterations), 3 of 20 seeds selected nothing."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC

    X0, y = load_breast_cancer(return_X_y=True)
    cv = StratifiedKFold(10, shuffle=True, random_state=0)
    for seed in range(10):
        perm = np.random.default_rng(seed).permutation(X0.shape[1])
        X = X0[:, perm]
        sel = RandSel(random_state=seed).fit(X, y)
        assert sel.n_iterations_ == 5 and sel.selected_.size >= 2, (seed, sel.selected_)
        acc = cross_val_score(make_pipeline(StandardScaler(), SVC()), X[:, sel.selected_], y, cv=cv).mean()
        assert acc >= 0.93, (seed, perm[sel.selected_], acc)


def redundant_group(seed, k=5, n_noise=15, m=300):
    """One relevant signal z (y = sign(z + noise)) seen through k copies with small noise, and n_noise
    irrelevant features; columns permuted. Returns X, y and the group's columns."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=m)
    y = np.where(z + 0.5 * rng.normal(size=m) > 0, 1, -1)
    X = np.hstack([z[:, None] + 0.1 * rng.normal(size=(m, k)), rng.normal(size=(m, n_noise))])
    perm = rng.permutation(X.shape[1])
    return X[:, perm], y, np.flatnonzero(perm < k)


def test_redundant_group_is_selected_whole():
    """A relevant feature copied 5 times with small noise among 15 irrelevant ones (seeds 0-3): the width
    from the distances' spread selects exactly the group in every seed; 0.22 of the median distance, nearly
    the identity kernel on so few correlated features, misses members of the group in most seeds."""
    old = dict(width_scale="subset_size", width=0.22, standardize=True)
    new_exact, old_exact = 0, 0
    for seed in range(4):
        X, y, rel = redundant_group(seed)
        new_exact += set(RandSel(random_state=seed).fit(X, y).selected_.tolist()) == set(rel.tolist())
        old_exact += set(RandSel(random_state=seed, **old).fit(X, y).selected_.tolist()) == set(rel.tolist())
    assert new_exact == 4 and old_exact <= 2, (new_exact, old_exact)


def test_normal_scores_are_invariant_to_monotone_transforms():
    """standardize="normal_scores": each column becomes standard-normal scores of its ranks, so a fit is
    byte-identical after any strictly increasing transform of the features (here exp and a cube), and
    a constant column becomes 0."""
    X, y, _ = permuted("xor", 0, n_features=12)
    Z = rs.normal_scores(X)
    np.testing.assert_allclose(np.sort(Z, axis=0), np.sort(Z[:, :1], axis=0).repeat(12, axis=1))
    assert abs(Z.mean()) < 1e-12 and Z.std() == pytest.approx(1.0, abs=0.02)
    ns = dict(n_subsets=200, random_state=0, standardize="normal_scores")
    a = RandSel(**ns).fit(X, y)
    b = RandSel(**ns).fit(np.exp(X) ** 3 + 5.0, y)
    assert np.array_equal(a.ranking_, b.ranking_)
    assert np.array_equal(a.contributions_, b.contributions_, equal_nan=True)
    np.testing.assert_array_equal(rs.normal_scores(np.ones((7, 2))), 0.0)


def test_heavy_tails_get_normal_scores_and_light_tails_keep_unit_variance():
    """standardize="auto": columns with 5% outliers of standard deviation 10 are heavy-tailed and become their
    normal scores; normal, uniform and bimodal (non-linear Weston) columns keep unit variance, byte for byte;
    a constant column is never heavy-tailed, and below 20 samples no column is tested. On XOR (normal
    features) the default ("auto_skip", the same test) is unit variance exactly: the same fit as standardize=True."""
    from fscompbio._scaling import standardize

    rng = np.random.default_rng(0)
    m = 300
    normal = rng.normal(size=(m, 20))
    heavy = rng.normal(size=(m, 5))
    out = rng.random((m, 5)) < 0.05
    heavy[out] = 10 * rng.normal(size=out.sum())
    uniform = rng.uniform(-1, 1, size=(m, 3))
    bimodal = np.where(rng.random((m, 3)) < 0.5, -3.0, 3.0) + rng.normal(size=(m, 3))
    X = np.hstack([normal, heavy, uniform, bimodal, np.ones((m, 1))])
    flags = tails.heavy_tailed(X)
    assert flags[20:25].all() and not flags[25:].any() and flags[:20].sum() == 0, np.flatnonzero(flags)
    Z = tails.tail_adaptive_scale(X)
    np.testing.assert_array_equal(Z[:, ~flags], standardize(X)[:, ~flags])
    np.testing.assert_array_equal(Z[:, flags], rs.normal_scores(X[:, flags]))
    assert not tails.heavy_tailed(heavy[:19]).any()
    assert RandSel().standardize == "auto_skip"
    X, y, _ = permuted("xor", 0, n_features=30)
    a, b = RandSel(n_subsets=200, random_state=0).fit(X, y), RandSel(n_subsets=200, random_state=0,
                                                                       standardize=True).fit(X, y)
    assert np.array_equal(a.contributions_, b.contributions_, equal_nan=True)


def test_within_class_kurtosis_is_scipys_test_on_one_class_and_calibrated_under_class_shifts():
    """Without labels the pooled within-class kurtosis test is scipy's kurtosistest (Anscombe & Glynn);
    with labels its null is a feature normal within each class with any class means and variances: at
    level 0.05 it rejects about 5% of such features (class sizes 40 and 20, means 10 apart, standard
    deviations 1 and 5), and none of them at the family-wise level, where the marginal test flags nothing
    either here but a gene 'on' in one class only (a bulk of near-zero values, the other class far out) is
    flagged by the marginal test and not by the within-class one (its class means differ); within-class
    outliers are flagged."""
    from scipy.stats import kurtosistest, norm

    rng = np.random.default_rng(0)
    for m in (20, 57, 300):
        X = rng.standard_t(5, size=(m, 30))
        b2, mean, var, k3, _ = tails.within_class_kurtosis(X, np.zeros(m))
        np.testing.assert_allclose(tails._anscombe_glynn_z(b2, mean, var, k3), kurtosistest(X, axis=0).statistic,
                                   atol=1e-10)
    y = np.r_[np.zeros(40), np.ones(20)]
    rejected = []
    for seed in range(40):
        X = np.random.default_rng(seed).normal(size=(60, 100)) * np.where(y[:, None] == 1, 5, 1) + 10 * y[:, None]
        b2, mean, var, k3, _ = tails.within_class_kurtosis(X, y)
        rejected.append(np.mean(norm.sf(tails._anscombe_glynn_z(b2, mean, var, k3)) < 0.05))
        assert not tails.heavy_tailed(X, y).any()
    assert 0.035 <= np.mean(rejected) <= 0.065, np.mean(rejected)
    y = np.r_[np.zeros(180), np.ones(20)]
    on = rng.normal(size=(200, 3)) + 8.0 * y[:, None]  # one-class gene: 10% of the samples far out
    on[:180] = 0.2 * rng.normal(size=(180, 3))
    out = rng.normal(size=(200, 3))
    mask = rng.random((200, 3)) < 0.05
    out[mask] = 10 * rng.normal(size=mask.sum())
    X = np.hstack([on, out, rng.normal(size=(200, 10))])
    within, marginal = tails.heavy_tailed(X, y), tails.heavy_tailed(X)
    assert within[:6].tolist() == [False] * 3 + [True] * 3, np.flatnonzero(within)
    assert marginal[:6].all(), np.flatnonzero(marginal)
    assert np.array_equal(tails.heavy_tailed(X, np.linspace(0, 1, 200)), marginal)  # a real target: marginal
    from fscompbio._scaling import standardize

    np.testing.assert_array_equal(tails.tail_adaptive_scale(X, y)[:, :3], standardize(X)[:, :3])


def test_outlying_values_by_the_median_mad_rule():
    """outlying_values: the planted values (9 to 40 robust standard deviations out) are outlying, a normal column
    has about 0.27% of its values beyond 3 robust standard deviations, and a column with no robust scale (more
    than half of its values equal) has none."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    X[[3, 17, 50], 0] = [12.0, -9.0, 40.0]
    X[:150, 3] = 0.0  # a sparse column: MAD 0
    out = tails.outlying_values(X)
    assert out[[3, 17, 50], 0].all() and out[:, 0].sum() <= 5 and not out[:, 3].any()
    assert out[:, 1:3].sum() <= 4


@settings(max_examples=25, deadline=None)
@given(m=st.integers(5, 40), d=st.integers(1, 6), seed=st.integers(0, 2**31 - 1))
def test_outlying_values_read_no_order_of_the_samples(m, d, seed):
    """The rule reads each column alone: permuting the rows permutes the mask (so it cannot carry a label's
    information into the transformed data); every value left unmarked lies within 3 robust standard deviations
    of its column's median, every marked one beyond."""
    rng = np.random.default_rng(seed)
    X = rng.standard_t(2, size=(m, d)).round(2)
    perm = rng.permutation(m)
    out = tails.outlying_values(X)
    np.testing.assert_array_equal(tails.outlying_values(X[perm]), out[perm])
    med = np.median(X, axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        dist = np.abs(X - med) / (1.4826 * np.median(np.abs(X - med), axis=0))
        assert np.all(dist[out] > 3.0) and np.all((dist[~out] <= 3.0) | ~np.isfinite(dist[~out]))


def test_auto_skip_transforms_the_heavy_tailed_features_only():
    """tail_adaptive_scale(heavy="skip") (standardize="auto_skip"): light-tailed columns keep unit variance as
    under "auto"; in heavy-tailed columns a lone outlying value is set to the median before the column is
    standardised, while a sample outlying in most heavy-tailed columns keeps its normal scores (far out); a
    heavy-tailed sparse column (MAD 0) keeps its normal scores; any other value is refused."""
    from fscompbio._scaling import standardize

    rng = np.random.default_rng(1)
    m = 300
    normal = rng.normal(size=(m, 10))
    heavy = rng.normal(size=(m, 4))
    out = rng.random((m, 4)) < 0.05
    out[:6] = False
    heavy[out] = 10 * rng.normal(size=out.sum())
    heavy[:6] = 20 * np.sign(rng.normal(size=(6, 4))) + rng.normal(size=(6, 4))  # six outlying samples
    sparse = np.where(rng.random((m, 1)) < 0.9, 0.0, rng.exponential(5.0, size=(m, 1)))
    X = np.hstack([normal, heavy, sparse])
    flags = tails.heavy_tailed(X)
    assert flags[10:].all() and not flags[:10].any()
    Z = tails.tail_adaptive_scale(X, heavy="skip")
    np.testing.assert_array_equal(Z[:, :10], tails.tail_adaptive_scale(X)[:, :10])
    H = X[:, 10:14]
    cells = tails.outlying_values(H)
    assert np.array_equal(cells.mean(axis=1) > 0.5, np.arange(m) < 6) and cells[out].mean() > 0.6
    np.testing.assert_array_equal(Z[:6, 10:14], rs.normal_scores(H)[:6])  # the outlying samples
    skipped = np.where(cells | (np.arange(m) < 6)[:, None], np.median(H, axis=0), H)
    np.testing.assert_allclose(Z[6:, 10:14], standardize(skipped)[6:], rtol=0, atol=1e-12)
    assert np.abs(Z[6:, 10:14]).max() < 4.0  # the lone outlying values are at the median
    np.testing.assert_array_equal(Z[:, 14], rs.normal_scores(X[:, 14:])[:, 0])
    with pytest.raises(ValueError, match="heavy must be"):
        tails.tail_adaptive_scale(X, heavy="clip")


def test_auto_skip_ranks_more_relevant_features_on_linear_zhang_with_feature_noise():
    """standardize="auto_skip" on linear Zhang (draws 0-4, columns permuted). With feature noise normal scores
    keep the 5% outlying values of the relevant features at their extreme ranks, skipping sets them to the
    median: the relevant features in the top 10 go from 8.0 (auto, these draws) to at least 8.6 on average,
    by the kernel's evidence alone (``main_effect_weight=0``; with the marginal evidence, 8.4 and 8.8).
    With sample noise the outlying samples are found and keep their normal scores: at most one relevant feature
    fewer in all than "auto" over the five draws. XOR's normal features are not transformed (the same fit as
    "auto")."""
    for name in ("linear_zhang_feature_noise", "linear_zhang_sample_noise"):
        skip, auto = [], []
        for seed in range(5):
            X, y, rel = permuted(name, seed)
            for std, hits in (("auto_skip", skip), ("auto", auto)):
                sel = RandSel(random_state=seed, standardize=std, main_effect_weight=0.0).fit(X, y)
                hits.append(len(top(sel, 10) & set(rel.tolist())))
        if name == "linear_zhang_feature_noise":
            assert np.mean(skip) >= 8.6 and np.mean(skip) >= np.mean(auto) + 0.5, (skip, auto)
        else:
            assert sum(skip) >= sum(auto) - 1, (skip, auto)
    X, y, _ = permuted("xor", 0, n_features=30)
    a = RandSel(n_subsets=200, random_state=0, standardize="auto").fit(X, y)
    b = RandSel(n_subsets=200, random_state=0, standardize="auto_skip").fit(X, y)
    assert np.array_equal(a.contributions_, b.contributions_, equal_nan=True)


@pytest.mark.slow
def test_heavy_tailed_relevant_features_rank_under_auto_scales():
    """Linear Zhang with feature noise (draws 0-2): the relevant features, whose 5% outliers compress their bulk
    under unit variance, reach the top 10 at least as often as FoHSIC's (8.0 on these draws) with the default
    scaling (standardize="auto_skip": their bulk scaled apart from their tails), against at most 6 with unit
    variance everywhere; non-linear Weston keeps all ten."""
    auto, unit = [], []
    for seed in range(3):
        X, y, rel = permuted("linear_zhang_feature_noise", seed)
        auto.append(len(top(RandSel(random_state=seed).fit(X, y), 10) & set(rel.tolist())))
        unit.append(len(top(RandSel(random_state=seed, standardize=True).fit(X, y), 10) & set(rel.tolist())))
    assert np.mean(auto) >= 8.0 and np.mean(unit) <= 6.0, (auto, unit)
    X, y, rel = permuted("nonlinear_weston", 0)
    assert top(RandSel(random_state=0).fit(X, y), 10) == set(rel.tolist())


def test_spread_width_matches_the_median_width_on_independent_halves():
    """width_scale="spread" at 0.5 is, on 100 independent standard features, the kernel of 0.22 of the
    median distance (within 10%), and on 15 strongly correlated features a wider one (the median rule's kernel
    there is nearly the identity)."""
    rng = np.random.default_rng(0)
    layout = PairLayout(150)

    def ratio(X):
        M = np.ones((X.shape[1], 1))
        spread = passes._spread_sq_distance(X, layout, M, np.random.RandomState(0))
        median = passes._median_sq_distance(X, layout, M, np.random.RandomState(0))
        return (0.5**2 * spread) / (0.22**2 * median)  # squared widths: spread rule over median rule

    assert ratio(rng.normal(size=(150, 100))) == pytest.approx(1.0, rel=0.1)
    z = rng.normal(size=(150, 1))
    assert ratio(z + 0.3 * rng.normal(size=(150, 15))) > 3.0


def test_archived_settings_keep_the_median_width_and_unit_variance():
    """ARCHIVED_RANDSEL pins the settings of the archived runs, whatever the defaults."""
    assert rs.ARCHIVED_RANDSEL == {"width_scale": "minus", "width": 0.22, "standardize": True, "screen_pairs": 0,
                                   "fix_main_effects": False, "main_effect_weight": 0.0}


REFIT = dict(n_subsets=100, refit_permutations=19)


@pytest.mark.parametrize("seed", [0, 1])
def test_refit_permutation_test_finds_the_xor_pair_and_nothing_on_a_null(seed):
    """The max-T test of the whole fit (refits on permuted labels): on XOR (columns permuted) exactly the pair,
    on a class unrelated to every feature nothing (an exact test at level 0.05: nothing on 95% of null draws;
    here the fake class's draws 0 and 2); p-values are (1 + #{refit maxima >= t_j}) / 20 and selected_ is
    exactly pvalues_ <= alpha."""
    X, y, rel = permuted("xor", seed, n_features=20)
    sel = RandSel(random_state=seed, **REFIT).fit(X, y)
    assert sorted(sel.selected_.tolist()) == sorted(rel.tolist())
    assert sel.n_permutations_ == 19 and sel.null_max_zscores_.shape == (19,)
    t = sel.test_zscores_
    expected = (1 + (sel.null_max_zscores_[None, :] >= t[:, None]).sum(axis=1)) / 20
    np.testing.assert_array_equal(sel.pvalues_, expected)
    np.testing.assert_array_equal(sel.selected_, np.flatnonzero(sel.pvalues_ <= 0.05))
    Xn, yn, _ = permuted("fake_class", 2 * seed, n_features=20)
    with pytest.warns(rs.EmptySelectionWarning, match="refits on permuted labels"):
        null = RandSel(random_state=seed, **REFIT).fit(Xn, yn)
    assert null.selected_.size == 0 and null.pvalues_.min() > 0.05


def test_refit_permutation_test_is_reproducible_and_leaves_the_ranking_alone():
    """Same seed, same refits; the ranking is the fit's own (the refits only test); with n_features_to_select
    no refit runs."""
    X, y, _ = permuted("xor", 2, n_features=12)
    a = RandSel(random_state=3, **REFIT).fit(X, y)
    b = RandSel(random_state=3, **REFIT).fit(X, y)
    plain = RandSel(random_state=3, n_subsets=100).fit(X, y)
    np.testing.assert_array_equal(a.null_max_zscores_, b.null_max_zscores_)
    np.testing.assert_array_equal(a.ranking_, plain.ranking_)
    top = RandSel(random_state=3, n_features_to_select=2, **REFIT).fit(X, y)
    assert top.n_permutations_ == 0 and top.null_max_zscores_ is None


def test_refit_permutations_too_few_for_alpha_is_refused():
    X, y, _ = permuted("xor", 0, n_features=8)
    with pytest.raises(ValueError, match=r"refit_permutations=5 cannot reach alpha=0\.05.*at least 19"):
        RandSel(refit_permutations=5, random_state=0).fit(X, y)
    ok = RandSel(refit_permutations=9, alpha=0.1, n_subsets=20, random_state=0).fit(X, y)  # 1/10 <= 0.1
    assert ok.n_permutations_ == 9 and ok.pvalues_.min() >= 0.1


# --- the width grid: the choice per iteration and its adjustment -----------------------------------------


@given(st.lists(st.floats(-12, 30), min_size=2, max_size=40), st.integers(2, 5))
@settings(max_examples=60, deadline=None)
def test_max_of_k_scores_is_increasing_and_below_the_score(z, k):
    """Sidak's adjustment is strictly increasing over the whole line (the negative scores keep their order,
    which the evidence summed over the iterations needs) and lowers every score."""
    z = np.unique(np.round(np.asarray(z), 3))
    a = _max_of_k_scores(z, k)
    assert np.all(np.diff(a) > 0)
    assert np.all(a < z)


def test_max_of_k_scores_formula_and_calibration():
    """k = 1 is the identity; elsewhere isf(1 - (1 - sf(z))^k), continuous where the log-tail branch takes
    over; and the adjusted maximum of k independent normal scores is a standard normal score."""
    from scipy.stats import norm

    z = np.linspace(-6, 9, 3001)
    assert np.array_equal(_max_of_k_scores(z, 1), z)
    mid = z[(z > -2) & (z < 4)]
    np.testing.assert_allclose(_max_of_k_scores(mid, 3), norm.isf(1 - (1 - norm.sf(mid)) ** 3), atol=1e-9)
    assert np.max(np.abs(np.diff(_max_of_k_scores(z, 2)))) < 0.01
    m = np.random.default_rng(0).standard_normal((200_000, 2)).max(axis=1)
    adj = _max_of_k_scores(m, 2)
    for q in (0.5, 0.9, 0.99):
        assert abs(np.mean(adj <= norm.ppf(q)) - q) < 0.005


def _one_select_pass(X, y, seed=0, grid=(0.5, 1.0), n_subsets=600, rule="select", **params):
    """One pass of ``width_rule="select"`` (or ``rule``) over every column; a fresh problem and generator per
    call, so that two calls with the same seed draw the same subsamples and partitions."""
    problem, _ = RandSel(**params)._setup(X, y, np.random.RandomState(seed))
    return passes._iteration(problem, np.arange(X.shape[1]), n_subsets, 30, np.asarray(grid), "unbiased",
                             np.random.RandomState(seed), "spread", rule)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_select_rule_keeps_the_narrow_width_for_an_interaction_and_the_wide_for_an_additive_signal(seed):
    """One pass of the grid [0.5, 1.0] under ``width_rule="select"`` over 30 features: with an XOR
    pair the pass keeps 0.5 and the pair scores highest; with an additive signal (two features' sum plus
    noise) it keeps 1.0 and those two score highest."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(300, 30))
    c, se, width, _, z = _one_select_pass(X, np.where(X[:, 0] * X[:, 1] > 0, 1, -1), seed)
    assert width == 0.5 and set(np.argsort(-z)[:2].tolist()) == {0, 1}
    y = np.where(X[:, 0] + X[:, 1] + 2.0 * rng.normal(size=300) > 0, 1, -1)
    c, se, width, _, z = _one_select_pass(X, y, seed)
    assert width == 1.0 and set(np.argsort(-z)[:2].tolist()) == {0, 1}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_calibrated_rule_keeps_the_narrow_width_where_chance_alignment_fools_the_select_rule(seed):
    """An XOR pair among 60 features, 1,200 partitions on all 400 samples: every feature's contribution is
    precise, and at the wider width 1.0 features aligned with the label by chance score as high as the pair,
    so the select rule keeps 1.0 (and loses the pair on two of the three seeds). Against the same partitions
    with permuted labels, where chance alignment is all there is, width 1.0 has no feature above the null's
    best: the calibrated rule keeps 0.5, and the pair contributes most."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(400, 60))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    select = _one_select_pass(X, y, seed, n_subsets=1200, subsample=400)
    c, se, width, _, z = _one_select_pass(X, y, seed, n_subsets=1200, rule="calibrated", subsample=400)
    assert select[2] == 1.0
    assert width == 0.5 and set(np.argsort(-c)[:2].tolist()) == {0, 1}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_tail_rule_keeps_the_xor_pair_on_top_where_chance_alignment_fools_the_evidence_rule(seed):
    """An XOR pair among 60 features, 1,200 partitions on all 400 samples, the grid (0.5, 2.0): at the wide width
    a feature aligned with the label by chance has a precise, positive contribution, so under the evidence rule
    (each feature's larger normal score) it outscores a member of the pair on seeds 1 and 2. Scored against the
    permuted labels' contributions at each width, the pair comes first on every seed, at the narrow width."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(400, 60))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    run = functools.partial(_one_select_pass, X, y, seed, grid=(0.5, 2.0), n_subsets=1200, subsample=400)
    c, se, width, _, z = run(rule="tail")
    assert width == 0.5 and set(np.argsort(-z, kind="stable")[:2].tolist()) == {0, 1}
    if seed in (1, 2):
        z_evidence = run(rule="evidence")[4]
        assert set(np.argsort(-z_evidence, kind="stable")[:2].tolist()) != {0, 1}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_tail_scores_are_calibrated_on_a_right_skewed_null(seed):
    """Contributions drawn from the null's own law (a scaled, shifted chi-squared with one degree of freedom, as a
    squared chance correlation is) pass the 1% and 0.1% levels about as often as they should when scored
    against 600 null values by their Pearson type III tail; a normal law with the null's mean and standard
    deviation passes the 0.1% level 15 to 25 times too often. On a normal null the scores are calibrated too."""
    rng = np.random.default_rng(seed)

    def law(n):
        return 1e-3 * rng.chisquare(1, n) - 2e-4

    null, fresh = law(600), law(200_000)
    z = _tail_scores(fresh, null)
    assert 0.004 < np.mean(z > norm.isf(0.01)) < 0.02 and 0.0002 < np.mean(z > norm.isf(0.001)) < 0.003
    naive = (fresh - null.mean()) / null.std(ddof=1)
    assert np.mean(naive > norm.isf(0.001)) > 0.01
    assert np.all(np.diff(_tail_scores(np.sort(fresh[:1000]), null)) >= 0)  # monotone
    z = _tail_scores(rng.normal(size=200_000), rng.normal(size=600))
    assert 0.004 < np.mean(z > norm.isf(0.01)) < 0.02


def test_grid_rules_with_a_single_width_are_the_single_width_fit():
    """With one width there is nothing to choose: the select, calibrated and tail rules draw no permutation and
    give the fit of the evidence rule (the default) bit for bit."""
    ds = make_dataset("xor", random_state=3, n_features=20)
    ref = RandSel(random_state=0, width=0.7).fit(ds.X, ds.y)
    for rule in ("select", "calibrated", "tail"):
        est = RandSel(random_state=0, width=[0.7], width_rule=rule).fit(ds.X, ds.y)
        np.testing.assert_array_equal(est.ranking_, ref.ranking_)
        np.testing.assert_array_equal(est.scores_, ref.scores_)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_calibrated_rule_on_a_rare_class_and_small_balanced_subsamples(seed):
    """6 cases among 60 samples, balanced subsamples of 12: the real labels' subsample holds both classes, the
    permuted labels on the same rows often only the common one (a constant label, no alignment). The fit
    runs, and the feature that shifts the cases ranks first."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, 12))
    y = np.r_[np.ones(6, dtype=int), np.zeros(54, dtype=int)]
    X[:6, 3] += 3.0
    est = RandSel(random_state=seed, width=[0.5, 1.0], width_rule="calibrated", balanced=True, subsample=12)
    assert est.fit(X, y).ranking_[3] == 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_calibrated_rule_finds_an_additive_signal(seed):
    """The additive signal of the select rule's test (two features' sum plus noise, 30 features): under the
    calibrated rule the two features score highest, at whichever width of the grid it keeps."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(300, 30))
    y = np.where(X[:, 0] + X[:, 1] + 2.0 * rng.normal(size=300) > 0, 1, -1)
    c, se, width, _, z = _one_select_pass(X, y, seed, rule="calibrated")
    assert width in (0.5, 1.0) and set(np.argsort(-z)[:2].tolist()) == {0, 1}


def test_select_rule_without_evidence_keeps_the_grid_s_first_width(monkeypatch):
    """When no score passes the threshold at any width (here a threshold no score reaches), the pass keeps
    the grid's first width, whichever it is, and reports its scores adjusted for the grid."""
    monkeypatch.setattr(passes, "SELECT_LEVEL", 1e-300)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 30))
    y = np.where(X[:, 0] + X[:, 1] + 2.0 * rng.normal(size=300) > 0, 1, -1)
    for grid in ([0.5, 1.0], [1.0, 0.5]):
        out, single = _one_select_pass(X, y, 0, grid, 300), _one_select_pass(X, y, 0, grid[:1], 300)
        assert out[2] == grid[0]
        np.testing.assert_allclose(out[0], single[0])  # the same partitions: the first width's contributions
        np.testing.assert_allclose(out[4], _max_of_k_scores(single[4], 2))
