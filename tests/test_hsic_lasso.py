"""The HSIC Lasso peer (Yamada et al. 2014) through pyHSICLasso's public API (optional 'bench' extra)."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from fscompbio.selection import HSICLasso

pytest.importorskip("pyHSICLasso")


@parametrize_with_checks([HSICLasso(n_features_to_select=2)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_param_validation():
    check_param_validation("HSICLasso", HSICLasso())


@pytest.mark.parametrize("seed", [0, 1])
def test_finds_the_features_of_a_nonlinear_regression(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(100, 40))
    y = np.sin(2 * X[:, 5]) + X[:, 17] ** 2 + 0.1 * rng.normal(size=100)
    perm = rng.permutation(40)
    relevant = np.flatnonzero(np.isin(perm, [5, 17]))
    sel = HSICLasso(n_features_to_select=2).fit(X[:, perm], y)
    assert set(sel.path_features_) == set(relevant)
    assert set(np.argsort(sel.ranking_)[:2]) == set(relevant)
    assert np.all(sel.scores_[relevant] > 0)


def test_classification_target():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(90, 20))
    y = np.where(X[:, 3] > 0, "case", "control")
    sel = HSICLasso(n_features_to_select=1).fit(X, y)
    assert sel.path_features_.tolist() == [3]
