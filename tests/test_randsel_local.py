"""randSel's local label kernel: Relief's near hits and near misses as the alignment's target."""

import numpy as np
import pytest

from fscompbio.kernels import gaussian_kernel, local_label_kernels, neighbourhood
from fscompbio.selection import RandSel


def test_neighbourhood_is_the_symmetrised_k_nearest():
    """Each sample's k nearest (by brute force) are near, in either direction; nothing else, not itself."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 4))
    N = neighbourhood(X, 3)
    D = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    np.fill_diagonal(D, np.inf)
    knn = np.zeros_like(N)
    np.put_along_axis(knn, np.argsort(D, axis=1)[:, :3], 1.0, axis=1)
    np.testing.assert_array_equal(N, np.maximum(knn, knn.T))
    assert np.all(np.diag(N) == 0) and np.all(N.sum(axis=1) >= 3)


def test_local_label_kernel_is_relief_to_first_order_in_the_width():
    """<K, L> = sum L + gamma (sum over near misses - sum over near hits of the squared differences) + O(gamma^2)."""
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, size=40)
    x = rng.normal(size=(40, 1)) + 0.8 * y[:, None]
    L = local_label_kernels(y, neighbourhood(rng.normal(size=(40, 5)), 4))
    D = (x - x.T) ** 2
    relief = D[L < 0].sum() - D[L > 0].sum()
    for gamma in (1e-3, 1e-4):
        first = ((gaussian_kernel(x, gamma=gamma) * L).sum() - L.sum()) / gamma
        assert first == pytest.approx(relief, rel=20 * gamma * D.max())
    assert set(np.unique(L)) <= {-1.0, 0.0, 1.0}
    stacked = local_label_kernels(np.stack([y, y[::-1]]), L != 0)
    np.testing.assert_array_equal(stacked[0], L)


@pytest.mark.parametrize("seed", range(3))
def test_local_label_kernel_recovers_the_planted_features_of_a_multiclass_problem(seed):
    """4 classes of 60: ten features set class 3 apart, one tells classes 1 and 2 apart (with no effect on
    the others), 29 are noise; columns permuted. The 11 relevant features are randSel's top 11 and the
    1-versus-2 feature is selected."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(4), 60)
    X = rng.standard_normal((240, 40))
    X[:, :10] += 3.0 * (y == 3)[:, None]
    X[:, 10] += np.select([y == 1, y == 2], [1.0, -1.0], 0.0)
    perm = rng.permutation(40)
    X, relevant = X[:, perm], np.argsort(perm)[:11]
    # the target alone: without the pair screen, which here fixes products of two class-3 features (their
    # product's mean differs between the classes too), and without the main effects (the class-3 features),
    # fixed or as evidence: the screens and the marginal test read the class labels, not the local target, and
    # end the iterations, and the tests, earlier
    sel = RandSel(label_kernel="local", random_state=seed, pair_screen_above=None,
                  fix_main_effects=False, main_effect_weight=0.0).fit(X, y)
    assert set(np.argsort(sel.ranking_, kind="stable")[:11]) == set(relevant)
    assert set(sel.selected_) <= set(relevant) and sel.selected_.size >= 4


def test_local_label_kernel_selects_no_noise():
    """Labels unrelated to 60 noise features, seeds 0-2: nothing is selected (the neighbourhood is label-free,
    so the test's null holds)."""
    for seed in range(3):
        rng = np.random.default_rng(seed)
        X, y = rng.normal(size=(150, 60)), rng.integers(0, 3, size=150)
        with pytest.warns(UserWarning, match="no feature"):
            sel = RandSel(label_kernel="local", random_state=seed).fit(X, y)
        assert sel.selected_.size == 0


def test_local_label_kernel_needs_class_labels():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="label_kernel='local' needs class labels"):
        RandSel(label_kernel="local").fit(rng.normal(size=(50, 5)), rng.normal(size=50))


def test_n_neighbors_sets_the_neighbourhood_and_is_checked():
    """n_neighbors changes the fit under label_kernel='local' only, and one too many for the samples is an error
    that names it."""
    rng = np.random.default_rng(3)
    y = np.repeat(np.arange(3), 20)
    X = rng.normal(size=(60, 12)) + 1.5 * (y[:, None] == np.arange(12)[None, :] % 3)
    a = RandSel(label_kernel="local", n_neighbors=3, random_state=0).fit(X, y).scores_
    b = RandSel(label_kernel="local", n_neighbors=15, random_state=0).fit(X, y).scores_
    assert not np.allclose(a, b)
    np.testing.assert_array_equal(RandSel(n_neighbors=3, random_state=0).fit(X, y).scores_,
                                  RandSel(n_neighbors=15, random_state=0).fit(X, y).scores_)
    with pytest.raises(ValueError, match="n_neighbors=60 needs at least 1 and fewer than the 60 samples"):
        RandSel(label_kernel="local", n_neighbors=60).fit(X, y)
