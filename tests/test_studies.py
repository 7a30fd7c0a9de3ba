"""The studies behind the spine figures, and proposition 4.2.3 on XOR."""

import numpy as np
import pytest

from fscompbio.studies import (
    alignment_vs_sample_size,
    alignment_vs_width,
    batched_subset_sq_distances,
    class_proportions,
    classification_losses,
    split_alignments,
    weston_2d,
)
from fscompbio.datasets import make_dataset
from fscompbio.kernels import alignment, gaussian_kernel, label_kernel, median_distance, sq_distances


def test_class_proportions():
    p = class_proportions(np.array([1, 1, -1, 1]))
    assert (p["pos"], p["neg"], p["pos_pct"]) == (3, 1, 75.0)
    with pytest.raises(ValueError, match="labels must be"):
        class_proportions(np.array([0, 1]))


def test_losses_at_known_margins():
    L = classification_losses(np.array([-1.0, 0.0, 1.0, 2.0]))
    np.testing.assert_array_equal(L["0-1"], [1, 1, 0, 0])
    np.testing.assert_allclose(L["hinge"], [2, 1, 0, 0])
    np.testing.assert_allclose(L["square"], [4, 1, 0, 1])
    assert L["logistic"][1] == pytest.approx(1.0)  # log2(1 + e^0) = 1


def test_batched_subset_distances_equal_direct():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((12, 6))
    masks = (rng.random((6, 4)) < 0.5).astype(float)
    D2 = batched_subset_sq_distances(X, masks)
    for k in range(4):
        np.testing.assert_allclose(D2[k], sq_distances(X[:, masks[:, k] > 0]), atol=1e-10)


def test_alignment_vs_width_peaks_inside_the_grid():
    ds = make_dataset("linear_zhang_feature_noise", random_state=0)
    sigmas = np.logspace(-1, 2, 16)
    a = alignment_vs_width(ds.X[:, :10], ds.y, sigmas)
    assert 0 < np.argmax(a) < len(sigmas) - 1


def test_biased_alignment_falls_with_sample_size_unbiased_does_not():
    """Figure 4.1: on data unrelated to the labels the centred alignment is inflated by its
    diagonal terms at small samples; the HSIC1-based alignment stays near zero."""
    rng = np.random.default_rng(1)
    _, y = weston_2d(rng, 2000)
    X = rng.standard_normal((2000, 25))
    r = alignment_vs_sample_size(X, y, [10, 160], 60, rng)
    assert r["biased_mean"][0] > 3 * r["biased_mean"][1] > 0
    assert abs(r["unbiased_mean"][1]) < 0.02 and abs(r["unbiased_mean"][0]) < 0.05


def test_split_alignments_halves_with_both_xor_features_align_more():
    rng = np.random.default_rng(2)
    ds = make_dataset("xor", random_state=3, n_features=12)
    r = split_alignments(ds.X, ds.y, 120, 100, rng)
    a = np.r_[r["a"], r["b"]]
    has = np.r_[r["a_has"], r["b_has"]]
    assert a[has == 2].mean() > 1.5 * max(a[has == 1].mean(), a[has == 0].mean())


def _best_alignment(X, y):
    L = label_kernel(y)
    med = median_distance(X)
    return max(alignment(gaussian_kernel(X, sigma=f * med), L) for f in (0.25, 0.5, 1.0))


def test_proposition_4_2_3_relevant_raise_and_irrelevant_lower_alignment():
    """Thesis proposition 4.2.3, on average over draws: on XOR, adding the relevant pair to a
    set of noise features raises the alignment; adding noise features to the pair lowers it."""
    gains, losses = [], []
    for seed in range(8):
        ds = make_dataset("xor", random_state=seed, n_samples=200, n_features=12)
        pair, noise = ds.X[:, :2], ds.X[:, 2:]
        a_pair = _best_alignment(pair, ds.y)
        a_noise = _best_alignment(noise[:, :4], ds.y)
        a_both = _best_alignment(np.hstack([pair, noise[:, :4]]), ds.y)
        gains.append(a_both - a_noise)
        losses.append(a_both - a_pair)
    assert np.mean(gains) > 0.02 and np.mean(np.array(gains) > 0) >= 0.75
    assert np.mean(losses) < -0.05 and np.all(np.array(losses) < 0)


def test_lasso_path_starts_empty_and_grows():
    from fscompbio.studies import lasso_regularisation_path

    ds = make_dataset("linear_zhang_sample_noise", random_state=0)
    alphas, coefs = lasso_regularisation_path(ds.X, ds.y, n_alphas=30)
    assert np.all(np.diff(alphas) < 0) and coefs.shape == (200, 30)
    nonzero = (coefs != 0).sum(axis=0)
    assert nonzero[0] == 0 and nonzero[-1] > 10
    nz = coefs != 0
    entry = np.where(nz.any(axis=1), nz.argmax(axis=1), coefs.shape[1])
    first = np.argsort(entry, kind="stable")[:5]
    assert np.mean(first < 10) >= 0.6  # the first features to enter are mostly the relevant ones


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_unbiased_alignment_is_hsic1_normalised_and_shift_invariant(seed):
    """The diagonal-free alignment of figure 4.1 is HSIC1(K, L) / sqrt(HSIC1(K, K) HSIC1(L, L)) (Song et al. 2007,
    eq. 5): 1 for a kernel with itself, unchanged by a constant added to K (HSIC1 is a U-statistic of centred
    kernels) and by scaling K."""
    from fscompbio.studies import _unbiased_alignment

    rng = np.random.default_rng(seed)
    X = rng.standard_normal((40, 3))
    y = np.where(X[:, 0] + 0.5 * rng.standard_normal(40) > 0, 1, -1)
    K, L = gaussian_kernel(X, sigma=1.5), label_kernel(y)
    a = _unbiased_alignment(K, L)
    assert 0.1 < a < 1.0
    assert _unbiased_alignment(K, K) == pytest.approx(1.0, abs=1e-12)
    assert _unbiased_alignment(3.0 * K + 2.0, L) == pytest.approx(a, abs=1e-10)
    assert abs(_unbiased_alignment(np.ones_like(K), L)) < 1e-6  # a constant kernel carries nothing (round-off)
