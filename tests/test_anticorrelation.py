"""The anticorrelation weighting scheme of thesis section 4.5 (algorithm 7)."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from fscompbio.kernels import gaussian_kernel, hsic, label_kernel, sq_distances
from fscompbio.selection import AnticorrelationWeighting
from fscompbio.selection._anticorrelation import epsilon_insensitive_weights, random_partition_differences


@parametrize_with_checks([AnticorrelationWeighting(n_partitions=10, random_state=0)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_param_validation():
    check_param_validation("AnticorrelationWeighting", AnticorrelationWeighting())


def test_partition_differences_equal_one_kernel_at_a_time():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 7))
    y = np.where(X[:, 0] > 0, 1, -1)
    B, z = random_partition_differences(X, y, 5, np.random.RandomState(0))
    assert B.shape == (5, 7) and set(np.unique(B)) == {-1.0, 1.0}
    assert np.all((B > 0).sum(axis=1) == 3)
    # recompute: equal width for both halves, the median distance of the first halves
    iu = np.triu_indices(30, 1)
    med = np.median(np.concatenate([sq_distances(X[:, B[i] > 0])[iu] for i in range(5)]))
    gamma = 1.0 / (2.0 * med)
    L = label_kernel(y)
    for i in range(5):
        h1 = hsic(gaussian_kernel(X[:, B[i] > 0], gamma=gamma), L)
        h2 = hsic(gaussian_kernel(X[:, B[i] < 0], gamma=gamma), L)
        np.testing.assert_allclose(z[i], h1 - h2, rtol=1e-8)


def test_epsilon_insensitive_regression_recovers_planted_weights():
    """z = B w* exactly: the non-negative l1 fit recovers the support of w*."""
    rng = np.random.default_rng(0)
    B = np.where(rng.random((200, 12)) < 0.5, 1.0, -1.0)
    w_true = np.zeros(12)
    w_true[[2, 7]] = [1.0, 0.5]
    z = B @ w_true
    w = epsilon_insensitive_weights(B, z, epsilon=0.01, alpha=0.01)
    assert set(np.flatnonzero(w > 0.05)) == {2, 7}
    assert np.all(w >= 0)


def test_selects_relevant_features():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 20))
    y = np.where(X[:, 0] + X[:, 1] + X[:, 2] + 0.3 * rng.normal(size=200) > 0, 1, -1)
    sel = AnticorrelationWeighting(n_partitions=200, random_state=0).fit(X, y)
    top3 = set(np.argsort(sel.ranking_)[:3].tolist())
    assert top3 == {0, 1, 2}
    assert sel.get_support()[[0, 1, 2]].all()
    assert sel.differences_.shape == (200,) and sel.partitions_.shape == (200, 20)


def test_errors_name_the_parameter():
    with pytest.raises(ValueError, match="epsilon"):
        AnticorrelationWeighting(epsilon=-1.0).fit(np.zeros((10, 3)), np.r_[np.ones(5), -np.ones(5)])
