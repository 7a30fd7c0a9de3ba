"""The pair screen's quadratic terms: interactions of two features' distances from their means (genotypes)."""

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2

from fscompbio.selection import RandSel
from fscompbio.selection._pair_screen import (centred_label_columns, pair_product_screen, pair_pvalues,
                                              pair_quadratic_screen, quadratic_basis)


def genotypes(kind, n_loci, seed, n_samples=400):
    """Allele counts 0/1/2 (minor-allele frequencies 0.05-0.5), columns permuted; the label from a logistic
    model of one pair of common loci with no marginal effect: ``het`` (both or neither heterozygous) or
    ``product`` (``(x_a - 1)(x_b - 1)``). Returns X, y and the pair's columns."""
    rng = np.random.default_rng(seed)
    maf = rng.uniform(0.05, 0.5, n_loci)
    maf[:2] = 0.5
    G = rng.binomial(2, maf, size=(n_samples, n_loci)).astype(float)
    a, b = G[:, 0], G[:, 1]
    eta = 1.6 * (np.where((a == 1) == (b == 1), 1.0, -1.0) if kind == "het" else (a - 1) * (b - 1))
    y = np.where(rng.random(n_samples) < 1 / (1 + np.exp(-eta)), 1, -1)
    perm = rng.permutation(n_loci)
    return G[:, perm], y, np.sort(np.argsort(perm)[:2])


def brute_force_r2(X, y):
    """Every pair's R^2 of the centred label on the centred products of its members' polynomials of degree 1
    and 2 (orthonormalised by Gram-Schmidt over the samples), and their number; by least squares."""
    yc = centred_label_columns(y)[:, 0]  # a real label by its normal scores, as every pair test reads it
    polys = []
    for j in range(X.shape[1]):
        x = X[:, j]
        u = (x - x.mean()) / x.std()
        v = u**2 - 1 - np.mean((u**2 - 1) * u) * u
        v = v - v.mean()
        polys.append([u] + ([v / v.std()] if v.std() > 1e-6 else []))
    out = {}
    for a, b in itertools.combinations(range(X.shape[1]), 2):
        P = np.column_stack([p * q for p in polys[a] for q in polys[b]])
        P = P - P.mean(axis=0)
        beta, *_ = np.linalg.lstsq(P, yc, rcond=None)
        out[(a, b)] = (1 - np.sum((yc - P @ beta) ** 2) / np.sum(yc**2), P.shape[1])
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), levels=st.sampled_from([2, 3, 5]), real=st.booleans())
def test_quadratic_screen_matches_brute_force(seed, levels, real):
    """The screen's pairs, R^2 and degrees of freedom are those of a pair-by-pair least squares, on features
    of two values (no quadratic polynomial), three (genotypes) or more, beside continuous ones."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, levels, size=(50, 5)), rng.standard_t(4, size=(50, 4))]).astype(float)
    X[:, 0] = np.arange(50) % 2  # two values whatever the draw
    y = X[:, 2] * X[:, 6] + rng.normal(size=50) if real else np.where(rng.random(50) < 0.5, -1, 1)
    if np.ptp(X, axis=0).min() == 0:
        return
    ref = brute_force_r2(X, y)
    pairs, r2, df = pair_quadratic_screen(X, y, n_pairs=len(ref))
    assert len(pairs) == len(ref) and all(a < b for a, b in pairs.tolist())
    for (a, b), r, k in zip(pairs.tolist(), r2, df):
        assert r == pytest.approx(ref[(a, b)][0], abs=1e-9) and k == ref[(a, b)][1]
    # ranked by p-value: a pair of fewer products competes on the chi-squared scale
    logp = chi2.logsf((len(y) - 1) * r2, df)
    assert np.all(np.diff(logp) >= -1e-9)


def test_quadratic_basis_is_orthonormal_and_empty_for_two_values():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.binomial(2, 0.3, 200), rng.integers(0, 2, 200), rng.exponential(size=200)]).astype(float)
    U, V, has_v = quadratic_basis(X)
    assert has_v.tolist() == [True, False, True]
    np.testing.assert_allclose(U.mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(U.std(0), 1)
    np.testing.assert_allclose(V[:, has_v].mean(0), 0, atol=1e-12)
    np.testing.assert_allclose(V[:, has_v].std(0), 1)
    np.testing.assert_allclose((U * V).mean(0), 0, atol=1e-12)
    assert np.all(V[:, 1] == 0)


@pytest.mark.parametrize("n_loci", [300, 2000])
@pytest.mark.parametrize("seed", range(3))
def test_a_heterozygosity_interaction_is_the_quadratic_screens_first_pair(n_loci, seed):
    """Two loci that raise the risk when both or neither are heterozygous: no marginal effect and no
    product term, so the product screen does not rank them first; the quadratic terms do, far below the
    Bonferroni level over all pairs."""
    X, y, pair = genotypes("het", n_loci, seed)
    pairs, r2, df = pair_quadratic_screen(X, y, 5)
    assert pairs[0].tolist() == pair.tolist() and df[0] == 4
    assert pair_pvalues(r2, y, n_loci, diagonal=False, df=df)[0] < 1e-15
    assert pair_product_screen(X, y, 1)[0][0].tolist() != pair.tolist()


@pytest.mark.parametrize("seed", range(3))
def test_randsel_with_quadratic_pair_terms_ranks_the_interaction_first(seed):
    """Below the screen (300 loci) and above it (2,000): the pair is fixed and ranked first; after the
    screen it is in selected_ too."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n_loci in (300, 2000):
            X, y, pair = genotypes("het", n_loci, seed)
            sel = RandSel(pair_terms="quadratic", random_state=seed).fit(X, y)
            assert sorted(sel.ranking_[pair].tolist()) == [1, 2]
            assert set(pair.tolist()) <= set(sel.fixed_.tolist())
            if n_loci > 500:
                assert set(pair.tolist()) <= set(sel.selected_.tolist())


def test_quadratic_pair_pvalues_hold_their_level_under_the_null():
    """Labels permuted (independent of the loci): the smallest adjusted p-value over all pairs is at most
    0.05 in few draws (a family-wise test at 0.05; binomial(40, 0.05) exceeds 5 with probability 0.05)."""
    rng = np.random.default_rng(1)
    rejected = 0
    for k in range(40):
        X, y, _ = genotypes("het", 100, 100 + k)
        y = rng.permutation(y)
        pairs, r2, df = pair_quadratic_screen(X, y, 3)
        rejected += pair_pvalues(r2, y, 100, diagonal=False, df=df)[0] <= 0.05
    assert rejected <= 5


def test_quadratic_pair_terms_refuse_several_classes():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 8))
    y = np.arange(60) % 3
    message = r"pair terms \(pair_terms='quadratic' or 'both'\) need two classes or a real-valued label; got 3"
    with pytest.raises(ValueError, match=message):
        pair_quadratic_screen(X, y)
    for terms in ("quadratic", "both"):
        with pytest.raises(ValueError, match=message):
            RandSel(pair_terms=terms, random_state=0, n_features_to_select=2).fit(X, y)
    with pytest.raises(ValueError, match="df other than 1 needs two classes"):
        pair_pvalues(np.array([0.1]), y, 8, diagonal=False, df=np.array([4]))


def test_the_default_pair_terms_are_the_product():
    assert RandSel().get_params()["pair_terms"] == "product"
    with pytest.raises(ValueError, match="pair_terms"):
        RandSel(pair_terms="cubic").fit(np.eye(4), [0, 1, 0, 1])


@pytest.mark.parametrize("kind", ["het", "product"])
def test_both_families_keep_either_kind_of_pair_at_half_alpha_each(kind):
    """pair_terms="both": the product and the quadratic screens' pairs, each family's p-values doubled (each
    at half of alpha), a pair in both with its smaller; best first. Either kind of pair ranks first."""
    X, y, pair = genotypes(kind, 300, 0)
    d = X.shape[1]
    sel = RandSel(pair_terms="both", random_state=0, n_features_to_select=2)
    pairs, scores, pvalues = sel._pair_screen(X, y)
    prod_pairs, prod_scores = pair_product_screen(X, y, sel.screen_pairs)
    quad_pairs, quad_r2, df = pair_quadratic_screen(X, y, sel.screen_pairs)
    expected = {}
    for ps, pv in ((prod_pairs, pair_pvalues(prod_scores, y, d)),
                   (quad_pairs, pair_pvalues(quad_r2, y, d, diagonal=False, df=df))):
        for p, v in zip(map(tuple, ps.tolist()), pv):
            expected[p] = min(expected.get(p, 1.0), min(1.0, 2 * v))
    assert {tuple(p) for p in pairs.tolist()} == set(expected)
    np.testing.assert_allclose(pvalues, [expected[tuple(p)] for p in pairs.tolist()])
    assert np.all(np.diff(pvalues) >= 0) and pairs[0].tolist() == pair.tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted = RandSel(pair_terms="both", random_state=0).fit(X, y)
    assert sorted(fitted.ranking_[pair].tolist()) == [1, 2]
