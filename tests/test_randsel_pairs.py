"""randSel's second-order screen: the label's squared correlation with pairwise products of features."""

import itertools
import time
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threadpoolctl import threadpool_limits

from fscompbio.datasets import make_dataset
from fscompbio.selection import EmptySelectionWarning, RandSel
from fscompbio.selection._pair_screen import (centred_label_columns, main_effect_pvalues, main_effect_scores,
                                              pair_product_screen, pair_pvalues)


def brute_force(X, y, diagonal=True):
    """Every pair's squared correlation of the centred label with the product of the standardised columns."""
    Z = (X - X.mean(0)) / X.std(0)
    Yc = centred_label_columns(y)
    out = {}
    pairs = itertools.combinations_with_replacement(range(X.shape[1]), 2) if diagonal else \
        itertools.combinations(range(X.shape[1]), 2)
    for a, b in pairs:
        p = Z[:, a] * Z[:, b]
        out[(a, b)] = sum(np.corrcoef(Yc[:, q], p)[0, 1] ** 2 for q in range(Yc.shape[1]))
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("target", ["binary", "multiclass", "regression"])
def test_pair_screen_matches_brute_force(seed, target):
    """The top pairs and their scores are those of a pair-by-pair computation (heavy-tailed columns, so that
    the bounded block statistic and the exact one differ), whatever the blocks."""
    rng = np.random.default_rng(seed)
    X = rng.standard_t(3, size=(60, 14))
    X[:, 3] *= 5.0
    inter = X[:, 1] * X[:, 6]
    y = {"binary": np.where(inter + rng.normal(size=60) > 0, 1, -1),
         "multiclass": np.digitize(inter + rng.normal(size=60), [-1.0, 1.0]),
         "regression": inter + rng.normal(size=60)}[target]
    ref = brute_force(X, y)
    best = sorted(ref.items(), key=lambda kv: -kv[1])[:5]
    for budget in (10**9, 4 * 14 * 2):  # one block, and blocks of two columns
        pairs, scores = pair_product_screen(X, y, n_pairs=5, block_budget=budget)
        assert [tuple(p) for p in pairs.tolist()] == [k for k, _ in best], (budget, pairs, best)
        np.testing.assert_allclose(scores, [v for _, v in best], rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("budget", [10**9, 4 * 120 * 45])
def test_pair_screen_matches_brute_force_when_a_block_holds_more_rows_than_candidates(seed, budget):
    """120 columns and 2 pairs asked (40 candidates): the first block (all 120 rows, or 45) keeps only its
    entries at or above the 40th largest of its rows' maxima, and the top pairs are still those of a
    pair-by-pair computation."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(70, 120))
    y = np.where(X[:, 17] * X[:, 88] + 0.5 * rng.normal(size=70) > 0, 1, -1)
    best = sorted(brute_force(X, y).items(), key=lambda kv: -kv[1])[:2]
    pairs, scores = pair_product_screen(X, y, n_pairs=2, block_budget=budget)
    assert [tuple(p) for p in pairs.tolist()] == [k for k, _ in best], (pairs, best)
    np.testing.assert_allclose(scores, [v for _, v in best], rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("budget", [10**9, 4 * 10 * 3])
def test_pair_screen_without_the_squared_features_matches_brute_force(budget):
    """diagonal=False: the pairs (f, g > f) only, in one block and in blocks of three columns."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(50, 10))
    y = np.where(X[:, 2] * X[:, 5] + 0.5 * rng.normal(size=50) > 0, 1, -1)
    best = sorted(brute_force(X, y, diagonal=False).items(), key=lambda kv: -kv[1])[:4]
    pairs, scores = pair_product_screen(X, y, n_pairs=4, diagonal=False, block_budget=budget)
    assert [tuple(p) for p in pairs.tolist()] == [k for k, _ in best]
    np.testing.assert_allclose(scores, [v for _, v in best], rtol=1e-6, atol=1e-9)


def test_second_order_term_of_the_alignment_is_the_pair_expansion():
    """y_c' (D o D) y_c (the gamma^2 / 2 coefficient of y_c' exp(-gamma D) y_c) equals the sum over feature
    pairs of 4 (y_c' x_f x_g)^2 + 2 (y_c' x_f^2)(y_c' x_g^2) - 4 (y_c' x_f^2 x_g)(y_c' x_g)
    - 4 (y_c' x_g^2 x_f)(y_c' x_f), and the first-order one -y_c' D y_c = 2 sum_f (y_c' x_f)^2."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(25, 5))
    y = rng.normal(size=25)
    yc = y - y.mean()
    D = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    assert np.isclose(-yc @ D @ yc, 2 * ((yc @ X) ** 2).sum())
    lin, sq = yc @ X, yc @ X**2
    pair = np.einsum("i,if,ig->fg", yc, X, X)
    sq_lin = np.einsum("i,if,ig->fg", yc, X**2, X)  # y_c' (x_f^2 x_g)
    expansion = 4 * pair**2 + 2 * np.outer(sq, sq) - 4 * sq_lin * lin[None, :] - 4 * sq_lin.T * lin[:, None]
    assert np.isclose(yc @ (D * D) @ yc, expansion.sum())
    # and numerically, the second derivative at gamma = 0
    g = 1e-3
    f = [yc @ np.exp(-t * D) @ yc for t in (-g, 0.0, g)]
    assert np.isclose((f[2] - 2 * f[1] + f[0]) / g**2, yc @ (D * D) @ yc, rtol=1e-3)


def permuted_xor(seed, n_features, n_samples=None):
    ds = make_dataset("xor", random_state=seed, n_features=n_features, n_samples=n_samples)
    perm = np.random.default_rng(1000 + seed).permutation(n_features)
    return ds.X[:, perm], ds.y, set(np.flatnonzero(np.isin(perm, ds.relevant)).tolist())


@pytest.mark.parametrize("seed", [0, 1])
def test_xor_pair_survives_the_screen_and_ranks_on_top(seed):
    """XOR 300 x 1,500 (columns permuted): the second-order screen's best pair is the XOR pair, both members
    survive the first-order screen, and the exact iterations rank them top 2."""
    X, y, rel = permuted_xor(seed, 1500)
    sel = RandSel(random_state=seed, n_features_to_select=2).fit(X, y)
    assert set(sel.screen_pairs_[0].tolist()) == rel
    assert sel.screened_.any() and rel <= set(sel.support_history_[int(sel.screened_.sum())].tolist())
    assert set(np.argsort(sel.ranking_, kind="stable")[:2].tolist()) == rel
    # the pair is significant over all 1.1e6 pairs and fixed; the runners-up are not
    assert sel.screen_pair_pvalues_[0] <= 0.05 and np.all(sel.screen_pair_pvalues_[1:] > 0.05)
    assert set(sel.fixed_.tolist()) == rel


@pytest.mark.parametrize("target", ["binary", "multiclass", "regression"])
def test_pair_pvalues_are_calibrated_under_the_null(target):
    """Labels independent of the features (200 x 30, seeds 0-4, every pair by brute force): the unadjusted
    p-values, pair_pvalues / number of pairs, fall below 0.05 for about 5% of the 2,325 pairs (multiclass, a
    conservative bound: at most that), and the adjusted p-value of a pair is that times d (d + 1) / 2."""
    below, total = 0, 0
    for seed in range(5):
        rng = np.random.default_rng(seed)
        X = rng.standard_normal((200, 30))
        y = {"binary": rng.integers(0, 2, 200), "multiclass": rng.integers(0, 4, 200),
             "regression": rng.standard_normal(200)}[target]
        scores = np.array(list(brute_force(X, y).values()))
        n_tests = 30 * 31 // 2
        adj = pair_pvalues(scores, y, 30)
        raw = pair_pvalues(scores, y, 1)  # one test: the unadjusted p-values
        small = raw * n_tests < 1
        np.testing.assert_allclose(adj[small], raw[small] * n_tests)
        below += int((raw <= 0.05).sum())
        total += scores.size
    rate = below / total
    assert rate <= 0.065 and (target == "multiclass" or rate >= 0.035), rate


def test_a_skewed_real_label_passes_no_pair_or_feature_by_chance():
    """A log-normal label (sd 2 on the log scale: a few samples tens of standard deviations out) independent
    of 200 x 300 noise, seeds 0-9: the pair screen's Bonferroni test over the 45,150 pairs, and the main
    effects' over the 300 features, reject in at most 2 of the 10 fits (family-wise level 0.05). Scored on the
    label's values, the pair test rejected in 9 of them."""
    pairs_rejected = features_rejected = 0
    for seed in range(10):
        rng = np.random.default_rng(seed)
        X = rng.standard_normal((200, 300))
        y = np.exp(2.0 * rng.standard_normal(200))
        _, scores = pair_product_screen(X, y, 5)
        pairs_rejected += int(pair_pvalues(scores, y, 300).min() <= 0.05)
        features_rejected += int(main_effect_pvalues(main_effect_scores(X, y), y, 300).min() <= 0.05)
    assert pairs_rejected <= 2 and features_rejected <= 2, (pairs_rejected, features_rejected)


@given(st.integers(0, 2**32 - 1), st.sampled_from(["exp", "cube", "affine"]))
@settings(max_examples=25, deadline=None)
def test_a_real_label_enters_the_screens_by_its_ranks(seed, transform):
    """A strictly increasing transform of a real label leaves the pair screen's pairs and scores and the main
    effects' scores unchanged: both see the label's normal scores."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((40, 9))
    y = X[:, 0] * X[:, 1] + X[:, 2] + 0.5 * rng.standard_normal(40)
    f = {"exp": np.exp, "cube": lambda v: v**3, "affine": lambda v: 3.0 * v + 7.0}[transform]
    np.testing.assert_allclose(centred_label_columns(f(y)), centred_label_columns(y), atol=1e-12)
    np.testing.assert_allclose(main_effect_scores(X, f(y)), main_effect_scores(X, y), rtol=1e-10, atol=1e-14)
    pairs, scores = pair_product_screen(X, y, 6)
    pairs_f, scores_f = pair_product_screen(X, f(y), 6)
    np.testing.assert_array_equal(pairs_f, pairs)
    np.testing.assert_allclose(scores_f, scores, rtol=1e-6)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_randsel_fixes_no_noise_feature_on_a_skewed_real_label(seed):
    """Sun, Yao & Goodison's non-additive set (200 x 1,003, a label of skewness about -3, columns permuted): the
    pair screen fixes the relevant pair x0, x1 and no noise feature (on the label's values it fixed 4-5 noise
    features in each of these draws), and both rank first."""
    ds = make_dataset("nonadditive", random_state=seed)
    perm = np.random.default_rng(seed).permutation(ds.n_features)
    pair = set(np.flatnonzero(np.isin(perm, [0, 1])).tolist())
    fit = RandSel(random_state=0).fit(ds.X[:, perm], ds.y)
    assert set(fit.fixed_.tolist()) == pair, (fit.fixed_, pair)
    assert set(np.argsort(fit.ranking_)[:2].tolist()) == pair


@pytest.mark.parametrize("wide", [False, True])
def test_an_integer_coded_real_label_under_the_gaussian_label_kernel_is_read_as_real(wide):
    """A real target whose values are integers (107 distinct counts), with the Gaussian label kernel: the same
    fit as the same values as floats, the screens included (read as 107 classes, they would fix neither
    relevant feature)."""
    ds = make_dataset("nonadditive", random_state=0)
    X = ds.X if wide else ds.X[:, :60]
    counts = np.round(ds.y * 10).astype(np.int64)
    as_int = RandSel(label_kernel="gaussian", random_state=0).fit(X, counts)
    as_float = RandSel(label_kernel="gaussian", random_state=0).fit(X, counts.astype(float))
    np.testing.assert_array_equal(as_int.ranking_, as_float.ranking_)
    np.testing.assert_array_equal(as_int.fixed_, as_float.fixed_)
    np.testing.assert_array_equal(as_int.selected_, as_float.selected_)
    assert {0, 1} <= set(as_int.fixed_.tolist())


@pytest.mark.parametrize("seed", [0, 1])
def test_classes_coded_as_floats_are_read_as_classes(seed):
    """Four classes coded 0.0-3.0 (the one-hot label kernel): the same fit as the integer codes, screens
    included (read as a real target, the screens would test the codes' order); an XOR pair among 600 features
    and a main effect among 60, at random columns, are fixed either way."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((300, 600))
    a, b, c = rng.choice(60, 3, replace=False)  # the planted columns, among the first 60 (the narrow fit's)
    classes = 2 * (X[:, a] * X[:, b] > 0) + (X[:, c] + 0.5 * rng.standard_normal(300) > 0)
    for cols, planted in ((slice(None), {a, b}), (slice(0, 60), {c})):
        as_int = RandSel(random_state=0).fit(X[:, cols], classes)
        as_float = RandSel(random_state=0).fit(X[:, cols], classes.astype(float))
        np.testing.assert_array_equal(as_int.ranking_, as_float.ranking_)
        np.testing.assert_array_equal(as_int.fixed_, as_float.fixed_)
        assert planted <= set(as_int.fixed_.tolist()), (cols, planted, as_int.fixed_)


def test_no_pair_is_fixed_on_wide_noise():
    """300 x 2,000 noise with a random binary label (seeds 0-2): no pair passes the Bonferroni test over the
    two million pairs, so nothing is fixed."""
    for seed in range(3):
        rng = np.random.default_rng(seed)
        X, y = rng.standard_normal((300, 2000)), rng.integers(0, 2, 300)
        _, scores = pair_product_screen(X, y, 5)
        assert np.all(pair_pvalues(scores, y, 2000) > 0.05)


@pytest.mark.filterwarnings("ignore::fscompbio.selection.EmptySelectionWarning")  # an empty set is expected here
def test_no_pair_screen_up_to_its_threshold_or_when_disabled():
    X, y, _ = permuted_xor(0, 600, n_samples=100)
    assert RandSel(random_state=0, n_subsets=50).fit(X[:, :40], y).screen_pairs_.shape == (5, 2)  # any width
    assert RandSel(random_state=0, n_subsets=50, pair_screen_above=None,  # up to screen_above's 500
                   ).fit(X[:, :40], y).screen_pairs_.shape == (0, 2)
    assert RandSel(random_state=0, n_subsets=50, pair_screen_above=40).fit(X[:, :40], y).screen_pairs_.shape == (0, 2)
    assert RandSel(random_state=0, n_subsets=50, pair_screen_above=39).fit(X[:, :40], y).screen_pairs_.shape == (5, 2)
    assert RandSel(random_state=0, screen_above=None, pair_screen_above=0,
                   n_subsets=50).fit(X[:, :40], y).screen_pairs_.shape == (0, 2)
    sel = RandSel(random_state=0, screen_pairs=0, n_features_to_select=2, screen_subsets=20).fit(X, y)
    assert sel.screen_pairs_.shape == (0, 2)


@pytest.mark.slow
def test_xor_300x10000_five_seeds():
    """XOR 300 x 10,000 (columns permuted), defaults, seeds 0-4: the pair in the top 2 in every seed."""
    hits, times = 0, []
    with threadpool_limits(1):
        for seed in range(5):
            X, y, rel = permuted_xor(seed, 10_000)
            t = time.process_time()
            sel = RandSel(random_state=seed, n_features_to_select=2).fit(X, y)
            times.append(time.process_time() - t)
            hits += set(np.argsort(sel.ranking_, kind="stable")[:2].tolist()) == rel
    assert hits == 5, (hits, times)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pair_screen_fixes_an_established_pair_on_narrow_data(seed):
    """XOR 300 x 200 (columns permuted), ``pair_screen_above=0``: no first-order screen, but the pair screen
    scores every pair, the pair passes the test over all 19,900 pairs and is fixed, so the exact iterations
    rank it first."""
    X, y, rel = permuted_xor(seed, 200)
    sel = RandSel(random_state=seed, n_subsets=200, pair_screen_above=0).fit(X, y)
    assert not sel.screened_.any()
    assert set(sel.screen_pairs_[0].tolist()) == rel
    assert sel.screen_pair_pvalues_[0] <= 0.05
    assert set(sel.fixed_.tolist()) >= rel
    assert set(np.argsort(sel.ranking_, kind="stable")[:2].tolist()) == rel


@pytest.mark.parametrize("seed", [0, 1])
def test_a_fit_without_a_significant_pair_is_the_same_with_or_without_the_pair_screen(seed):
    """Linear Zhang with feature noise (300 x 200, columns permuted; binary labels shifted by +-0.25, so no
    product of two features is correlated with the label): the pair screen on data of any width (the default)
    scores every pair, fixes none and draws no random number, so the fit is that of ``pair_screen_above=None``
    bit for bit (both without fixing main effects, which the relevant features are)."""
    ds = make_dataset("linear_zhang_feature_noise", random_state=seed)
    X = ds.X[:, np.random.default_rng(seed).permutation(ds.X.shape[1])]
    a = RandSel(random_state=seed, n_subsets=200, fix_main_effects=False).fit(X, ds.y)
    b = RandSel(random_state=seed, n_subsets=200, pair_screen_above=None, fix_main_effects=False).fit(X, ds.y)
    assert a.screen_pairs_.shape == (5, 2) and b.screen_pairs_.shape == (0, 2)
    assert a.fixed_.size == 0 and np.all(a.screen_pair_pvalues_ > 0.05)
    np.testing.assert_array_equal(a.ranking_, b.ranking_)
    np.testing.assert_array_equal(a.selected_, b.selected_)
    np.testing.assert_array_equal(a.contributions_, b.contributions_)


@pytest.mark.parametrize("target", ["binary", "multiclass", "regression"])
def test_main_effect_scores_match_brute_force_and_their_pvalues_are_calibrated(target):
    """Each feature's score is its squared correlation with the centred label (summed over the label's
    columns), and under the null (200 x 40, seeds 0-9) the unadjusted p-values fall below 0.05 for about 5% of
    the features (multiclass, a conservative bound: at most that); adjusted = unadjusted x 40."""
    below, total = 0, 0
    for seed in range(10):
        rng = np.random.default_rng(seed)
        X = rng.standard_normal((200, 40)) * rng.uniform(0.5, 3.0, 40)
        y = {"binary": rng.integers(0, 2, 200), "multiclass": rng.integers(0, 4, 200),
             "regression": rng.standard_normal(200)}[target]
        Yc = centred_label_columns(y)
        ref = [sum(np.corrcoef(Yc[:, q], X[:, f])[0, 1] ** 2 for q in range(Yc.shape[1])) for f in range(40)]
        scores = main_effect_scores(X, y)
        np.testing.assert_allclose(scores, ref, rtol=1e-10)
        raw, adj = main_effect_pvalues(scores, y, 1), main_effect_pvalues(scores, y, 40)
        small = raw * 40 < 1
        np.testing.assert_allclose(adj[small], raw[small] * 40)
        below += int((raw <= 0.05).sum())
        total += scores.size
    rate = below / total
    assert rate <= 0.07 and (target == "multiclass" or rate >= 0.03), rate


def step_up(raw, q):
    """Benjamini and Hochberg's step-up procedure by its definition: reject the k smallest p-values, k the
    largest rank with p_(k) <= k q / m."""
    m = raw.size
    order = np.argsort(raw, kind="stable")
    ok = np.flatnonzero(raw[order] <= q * np.arange(1, m + 1) / m)
    out = np.zeros(m, dtype=bool)
    if ok.size:
        out[order[: ok[-1] + 1]] = True
    return out


@given(st.integers(0, 2**32 - 1), st.integers(1, 60), st.sampled_from([0.01, 0.05, 0.2]),
       st.sampled_from(["binary", "multiclass", "regression"]))
@settings(max_examples=60, deadline=None)
def test_fdr_control_is_the_step_up_procedure_and_contains_the_family_wise_set(seed, d, q, target):
    """``control="fdr"``: the features at or below ``q`` are the step-up procedure's discoveries (by its
    definition, above), a superset of the Bonferroni ones at the same level."""
    rng = np.random.default_rng(seed)
    y = {"binary": rng.integers(0, 2, 80), "multiclass": rng.integers(0, 3, 80),
         "regression": rng.standard_normal(80)}[target]
    Yc = centred_label_columns(y)
    X = rng.standard_normal((80, d)) + rng.uniform(0, 0.6, d) * Yc[:, :1] * (rng.random(d) < 0.3)
    scores = main_effect_scores(X, y)
    raw = main_effect_pvalues(scores, y, 1)
    fdr = main_effect_pvalues(scores, y, d, control="fdr")
    np.testing.assert_array_equal(fdr <= q, step_up(raw, q))
    assert np.all((main_effect_pvalues(scores, y, d) <= q) <= (fdr <= q))


@pytest.mark.parametrize("seed", [0, 2, 3])
def test_fix_main_effects_fdr_fixes_the_step_up_discoveries(seed):
    """``fix_main_effects="fdr"``: ten of 60 features (unequal scales) shifted with the class by 0.2-0.7 of
    their spread, columns permuted, unit variance (so that the marginal tests can be recomputed on X): the
    features at or below ``alpha`` are the step-up procedure's discoveries, more than the Bonferroni ones
    (these draws) and all relevant, and every fixed feature is one of them."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 200)
    X = rng.standard_normal((200, 60)) * rng.uniform(0.5, 3.0, 60)
    X[:, :10] += rng.uniform(0.2, 0.7, 10) * X[:, :10].std(0) * y[:, None]
    perm = rng.permutation(60)
    X, rel = X[:, perm], np.flatnonzero(perm < 10)
    kw = dict(random_state=seed, n_subsets=200, standardize=True)
    fdr = RandSel(fix_main_effects="fdr", **kw).fit(X, y)
    fwe = RandSel(fix_main_effects="fwe", **kw).fit(X, y)
    raw = main_effect_pvalues(main_effect_scores(X, y), y, 1)
    found_fdr, found_fwe = fdr.main_effect_pvalues_ <= 0.05, fwe.main_effect_pvalues_ <= 0.05
    np.testing.assert_array_equal(found_fdr, step_up(raw, 0.05))
    np.testing.assert_array_equal(found_fwe, raw * X.shape[1] <= 0.05)
    assert np.all(found_fwe <= found_fdr) and found_fdr.sum() > found_fwe.sum()
    assert np.isin(np.flatnonzero(found_fdr), rel).all()
    assert set(fdr.fixed_.tolist()) <= set(np.flatnonzero(found_fdr).tolist())


def test_fdr_control_names_a_wrong_count_or_control():
    scores, y = np.full(5, 0.1), np.arange(40) % 2
    with pytest.raises(ValueError, match="5 scores for 7 features"):
        main_effect_pvalues(scores, y, 7, control="fdr")
    with pytest.raises(ValueError, match="'fwe' or 'fdr'"):
        main_effect_pvalues(scores, y, 5, control="holm")


@pytest.mark.filterwarnings("ignore::fscompbio.selection.EmptySelectionWarning")  # an empty set is expected here
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_fix_main_effects_fixes_planted_linear_features(seed):
    """Linear Zhang with feature noise (300 x 200, columns permuted): the features fixed as main effects are
    relevant ones, at least five of the ten, and they rank above every other feature."""
    ds = make_dataset("linear_zhang_feature_noise", random_state=seed)
    perm = np.random.default_rng(seed).permutation(ds.X.shape[1])
    rel = np.flatnonzero(np.isin(perm, ds.relevant))
    sel = RandSel(random_state=seed, n_subsets=200, fix_main_effects=True).fit(ds.X[:, perm], ds.y)
    main = np.flatnonzero(sel.main_effect_pvalues_ <= sel.alpha)
    assert main.size >= 5 and np.isin(main, rel).all(), (main, rel)
    assert set(main.tolist()) <= set(sel.fixed_.tolist())
    assert sel.ranking_[main].max() == main.size


@pytest.mark.filterwarnings("ignore::fscompbio.selection.EmptySelectionWarning")  # an empty set is expected here
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("weight", [0.0, 1.5, 4.0])
def test_the_marginal_test_enters_the_evidence_with_its_weight(seed, weight):
    """``evidence_`` is Stouffer's sum of a feature's normal scores over the iterations it survived plus
    ``main_effect_weight`` times its marginal one-sided normal score (negative ones set to 0), computed on the
    data the fit sees (six features shifted with the class among 40 of unequal scales, columns permuted: main
    effects significant, so the marginal evidence is added)."""
    from scipy.stats import norm

    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 200)
    X = rng.standard_normal((200, 40)) * rng.uniform(0.5, 3.0, 40)
    X[:, :6] += rng.uniform(0.2, 0.8, 6) * y[:, None]
    X = X[:, rng.permutation(40)]
    sel = RandSel(random_state=seed, n_subsets=200, standardize=True, main_effect_weight=weight).fit(X, y)
    marginal = np.maximum(norm.isf(main_effect_pvalues(main_effect_scores(X, y), y, 1)), 0.0)
    assert (sel.main_effect_pvalues_ <= 0.05).any()
    np.testing.assert_allclose(sel.evidence_ - np.nansum(sel.zscores_history_, axis=0), weight * marginal,
                               atol=1e-9)


def test_the_marginal_evidence_ranks_more_weak_linear_features():
    """Linear Zhang (seeds 0-7, columns permuted), defaults: with sample noise the marginal evidence ranks more
    relevant features in the top 10 than the kernel's evidence alone (9.125 against 8.75 on these draws), and
    with feature noise at least 8.75 on average (9.0 on these draws, 9.125 without it)."""
    def hits(name, **kw):
        out = []
        for seed in range(8):
            ds = make_dataset(name, random_state=seed)
            perm = np.random.default_rng(1000 + seed).permutation(ds.X.shape[1])
            X, rel = ds.X[:, perm], np.flatnonzero(np.isin(perm, ds.relevant))
            sel = RandSel(random_state=seed, **kw).fit(X, ds.y)
            out.append(len(set(np.argsort(sel.ranking_, kind="stable")[:10].tolist()) & set(rel.tolist())))
        return np.array(out)

    weighted, alone = hits("linear_zhang_sample_noise"), hits("linear_zhang_sample_noise", main_effect_weight=0.0)
    assert weighted.mean() >= 9.0 and weighted.mean() >= alone.mean() + 0.25, (weighted, alone)
    assert hits("linear_zhang_feature_noise").mean() >= 8.75


def test_every_feature_a_main_effect_still_tests_selected():
    """All 12 features shifted with the label (200 samples): every one is fixed before the first iteration,
    the fit still runs MAIN_EFFECT_MIN_ITERATIONS (5) iterations (nothing culled; four tests, each confirmed at
    the next iteration), and selected_ is tested and non-empty."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    X = rng.standard_normal((200, 12)) + 1.0 * y[:, None]
    sel = RandSel(random_state=0, n_subsets=200, fix_main_effects=True).fit(X, y)
    assert sel.fixed_.size == 12 and sel.n_iterations_ == 5
    assert all(s.size == 12 for s in sel.support_history_)
    assert sel.selected_.size > 0


@pytest.mark.parametrize("seed", [0, 1])
def test_a_fit_without_a_main_effect_is_the_same_with_or_without_fixing_them(seed):
    """XOR 300 x 200 (no feature correlated with the label): no main effect passes, no random number is drawn
    for the test, and the marginal evidence is not added where no main effect is significant, so the fit is that
    of ``fix_main_effects=False, main_effect_weight=0`` bit for bit; on screened data the option does nothing
    (``main_effect_pvalues_`` None)."""
    X, y, _ = permuted_xor(seed, 200)
    a = RandSel(random_state=seed, n_subsets=200).fit(X, y)
    b = RandSel(random_state=seed, n_subsets=200, fix_main_effects=False, main_effect_weight=0.0).fit(X, y)
    assert np.all(a.main_effect_pvalues_ > 0.05) and b.main_effect_pvalues_ is None
    np.testing.assert_array_equal(a.ranking_, b.ranking_)
    np.testing.assert_array_equal(a.contributions_, b.contributions_)
    np.testing.assert_array_equal(a.selected_, b.selected_)
    np.testing.assert_array_equal(a.evidence_, b.evidence_)
    wide = RandSel(random_state=seed, fix_main_effects=True, screen_above=100, screen_subsets=20,
                   n_features_to_select=2).fit(X, y)
    assert wide.screened_.any() and wide.main_effect_pvalues_ is None


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_fixed_main_effect_is_released_when_the_kernel_turns_against_it(seed):
    """Non-linear Weston (300 x 200, columns permuted) with a noise column replaced by a weak main effect
    (shift 0.25 y): the marginal test fixes it, the exact iterations' contributions turn significantly negative
    once the survivors are the ten strong non-linear features, it is released and culled, and the ten relevant
    features rank on top; a strong main effect beside an XOR pair (shift 0.55 y, columns permuted) stays fixed
    and ranks first."""
    from fscompbio.selection._randsel import RELEASE_Z

    ds = make_dataset("nonlinear_weston", random_state=seed)
    X = ds.X.copy()
    X[:, 50] = np.random.default_rng(seed).standard_normal(300) + 0.25 * ds.y
    perm = np.random.default_rng(100 + seed).permutation(200)
    X, weak, rel = X[:, perm], int(np.flatnonzero(perm == 50)[0]), np.flatnonzero(np.isin(perm, ds.relevant))
    sel = RandSel(random_state=seed).fit(X, ds.y)
    assert sel.main_effect_pvalues_[weak] <= 0.05 and weak not in sel.fixed_
    assert np.nanmin(sel.zscores_history_[:, weak]) < -RELEASE_Z
    assert set(np.argsort(sel.ranking_, kind="stable")[:10].tolist()) == set(rel.tolist())
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((300, 40))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    X[:, 2] += 0.55 * y
    perm = rng.permutation(40)
    X, (a, b, strong) = X[:, perm], (int(np.flatnonzero(perm == k)[0]) for k in range(3))
    sel = RandSel(random_state=seed).fit(X, y)
    assert strong in sel.fixed_ and sel.ranking_[strong] == 1 and set(sel.ranking_[[a, b]].tolist()) == {2, 3}


def test_after_a_screen_selected_holds_the_pairs_the_second_order_screen_established():
    """On spiral (Sun, Yao & Goodison's eq. 4.21) among 1,000 noise columns, columns permuted, no first-order
    statistic sees x0 and x1; the pair screen establishes x0^2 and x1^2 far below its share of alpha, and
    ``selected_`` (the union of the two families' tests) holds both in every draw, with p-values that say so,
    and a noise column at most once in four draws (family-wise level 0.05 per fit: one in ten seeds 0-9 when
    measured); the first-order test alone (no pair screen) selects neither."""
    false = 0
    for seed in range(4):
        ds = make_dataset("spiral", random_state=seed)
        perm = np.random.default_rng(seed).permutation(ds.X.shape[1])
        planted = np.flatnonzero(np.isin(perm, ds.relevant))
        sel = RandSel(random_state=seed).fit(ds.X[:, perm], ds.y)
        assert sel.screened_.any() and set(planted) <= set(sel.selected_)
        assert np.array_equal(np.flatnonzero(sel.pvalues_ <= sel.alpha), np.sort(sel.selected_))
        assert np.all(sel.pvalues_[planted] < 1e-6)
        false += len(set(sel.selected_) - set(planted))
        if seed < 2:
            first_order = RandSel(random_state=seed, screen_pairs=0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", EmptySelectionWarning)
                assert not set(planted) & set(first_order.fit(ds.X[:, perm], ds.y).selected_)
    assert false <= 1


def test_the_union_splits_alpha_between_the_two_families():
    """The pairs are tested at ``PAIR_ALPHA_SHARE`` of alpha, the first-order permutation test at the rest, with
    the fewest permutations that reach it; without a pair screen the first-order test has all of alpha."""
    from fscompbio.selection._randsel import PAIR_ALPHA_SHARE

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 600)), np.repeat([0, 1], 30)
    X[:, 7] += 2.0 * y
    with_pairs = RandSel(random_state=0).fit(X, y)
    alpha_1 = 0.05 * (1 - PAIR_ALPHA_SHARE)
    assert with_pairs.n_permutations_ == int(np.ceil(1 / alpha_1 - 1e-9)) - 1
    assert 1 / (1 + with_pairs.n_permutations_) <= alpha_1 < 1 / with_pairs.n_permutations_
    first_order = RandSel(random_state=0, screen_pairs=0).fit(X, y)
    assert first_order.n_permutations_ == 19
    for sel in (with_pairs, first_order):
        assert 7 in sel.selected_ and np.array_equal(np.flatnonzero(sel.pvalues_ <= 0.05), np.sort(sel.selected_))


def test_an_empty_selection_names_a_pair_significant_at_alpha_but_not_at_its_share():
    """A rare class shifted in one of 800 columns: the pair screen finds its square (j, j) at adjusted p 0.013,
    below alpha (fixed, ranked first) but above the pairs' share of it, and the first-order test misses it on this
    draw; the warning names the column by name, its rank and the n_features_to_select that keeps it."""
    import pandas as pd

    rng = np.random.default_rng(0)
    n, d = 60, 800
    y = np.where(np.arange(n) < 10, 1, -1)[rng.permutation(n)]
    X = rng.normal(size=(n, d))
    j = int(rng.integers(d))
    X[:, j] += 3.0 * (y == 1)
    X = pd.DataFrame(X, columns=[f"gene{k}" for k in range(d)])
    with pytest.warns(EmptySelectionWarning) as record:
        sel = RandSel(random_state=0).fit(X, y)
    message = str(record[0].message)
    assert f"found 1 pair(s) of columns significant at alpha over all pairs, ('gene{j}', 'gene{j}')" in message
    assert "the rest of alpha going to the first-order test" in message
    assert "rank 1 in ranking_: n_features_to_select=1 keeps them" in message


@pytest.mark.filterwarnings("ignore::fscompbio.selection.EmptySelectionWarning")  # an empty set is expected here
def test_an_empty_selection_without_an_established_pair_says_nothing_of_pairs():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(80, 600)), np.repeat([0, 1], 40)
    sel = RandSel(random_state=0).fit(X, y)
    assert sel.selected_.size == 0 and not (sel.screen_pair_pvalues_ <= sel.alpha).any()
    assert "pair" not in sel._empty_message("fit")


@pytest.mark.parametrize("seed", range(3))
def test_below_the_screen_selected_holds_an_even_effect_the_pair_screen_established(seed):
    """A U-shaped effect ``20 (x - 1/2)^2`` beside a stronger linear one, 300 x 50 uniform columns, columns
    permuted: its contribution vanishes beside the linear feature (docs/randsel.md, section 35), so the
    iterations' test cannot select it; the pair screen establishes its square far below the pairs' share of alpha,
    and ``selected_`` (the union of the two families' tests, as after a screen) holds exactly the two features,
    with p-values that say so. Without the pair screen the contributions' test has all of alpha and misses it."""
    from fscompbio.selection._randsel import PAIR_ALPHA_SHARE

    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(300, 50))
    y = 20 * (X[:, 0] - 0.5) ** 2 + 10 * X[:, 1] + rng.normal(size=300)
    perm = rng.permutation(50)
    u, lin = int(np.flatnonzero(perm == 0)[0]), int(np.flatnonzero(perm == 1)[0])
    sel = RandSel(random_state=seed).fit(X[:, perm], y)
    assert not sel.screened_.any() and abs(sel.zscores_history_[0, u]) < 2.0 < sel.zscores_history_[0, lin]
    square = sel.screen_pairs_.tolist().index([u, u])
    assert sel.screen_pair_pvalues_[square] < 1e-3 * PAIR_ALPHA_SHARE * sel.alpha
    assert sorted(sel.selected_.tolist()) == sorted([u, lin])
    assert np.array_equal(np.flatnonzero(sel.pvalues_ <= sel.alpha), np.sort(sel.selected_))
    assert sel.pvalues_[u] == pytest.approx(sel.screen_pair_pvalues_[square] / PAIR_ALPHA_SHARE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EmptySelectionWarning)
        kernel_only = RandSel(random_state=seed, screen_pairs=0).fit(X[:, perm], y)
    assert u not in kernel_only.selected_
