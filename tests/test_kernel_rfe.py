"""Gaussian-kernel SVM-RFE with the dual sensitivity of definition 2.4.2."""

import numpy as np
import pytest
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from fscompbio.datasets import make_dataset
from fscompbio.kernels import gaussian_kernel, sq_distances
from fscompbio.selection import KernelRFE
from fscompbio.selection._kernel_rfe import _sensitivities, dual_sensitivities, one_vs_one_rows


@parametrize_with_checks([KernelRFE(), KernelRFE(step=2, n_features_to_select=1)])
def test_sklearn_compatible(estimator, check):
    check(estimator)


def test_param_validation():
    check_param_validation("KernelRFE", KernelRFE())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dual_sensitivity_equals_brute_force(seed):
    """|a'Ka - a'K^(i)a| / 2 with K^(i) recomputed from X without feature i."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40, 6))
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    gamma = 0.2
    K = gaussian_kernel(X, gamma=gamma)
    svm = SVC(kernel="precomputed", C=1.0).fit(K, y)
    sv = svm.support_
    a = svm.dual_coef_[0]
    w2 = a @ K[np.ix_(sv, sv)] @ a
    ref = []
    for i in range(6):
        Ki = gaussian_kernel(np.delete(X, i, axis=1)[sv], gamma=gamma)
        ref.append(abs(w2 - a @ Ki @ a) / 2)
    order = np.argsort(sv)
    Xs = X[sv[order]]
    iu, iv = np.triu_indices(sv.size, k=1)
    d2 = sq_distances(Xs)[iu, iv]
    t = (Xs[iu] - Xs[iv]) ** 2
    got = dual_sensitivities(svm.dual_coef_[:, order], d2, t, gamma)
    np.testing.assert_allclose(got, ref, rtol=1e-8, atol=1e-12)
    # the fit's path: support-vector pairs only, (aa * K) . expm1(gamma t); the pair values are float32
    fast = _sensitivities(svm.dual_coef_[:, order], d2, Xs, np.arange(6), gamma)
    np.testing.assert_allclose(fast, ref, rtol=1e-5, atol=1e-9)
    t32 = ((Xs[iu].astype(np.float32) - Xs[iv].astype(np.float32)) ** 2).astype(np.float64)
    np.testing.assert_allclose(fast, dual_sensitivities(svm.dual_coef_[:, order], d2, t32, gamma), rtol=1e-9)


def test_recovers_planted_features():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 20))
    y = np.where(X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4, 1, -1)  # a circle: non-linear in two features
    sel = KernelRFE(n_features_to_select=2, step=1).fit(X, y)
    assert set(np.flatnonzero(sel.get_support())) == {0, 1}
    assert sorted(sel.ranking_.tolist()) == list(range(1, 21))


def test_linear_weston_mostly_relevant():
    ds = make_dataset("linear_weston", random_state=0, n_features=40)
    sel = KernelRFE(n_features_to_select=10).fit(ds.X, ds.y)
    # the five strongest (means 3..5 in either block) are found; RFE is the weakest method here (thesis 4.3)
    assert np.isin(np.flatnonzero(sel.get_support()), ds.relevant).sum() >= 5


def test_regression_and_multiclass():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 8))
    y = np.sin(2 * X[:, 2]) + 0.05 * rng.normal(size=100)
    assert KernelRFE(step=1).fit(X, y).ranking_[2] == 1
    y3 = np.digitize(X[:, 5], [-0.5, 0.5])
    assert KernelRFE(step=1).fit(X, y3).ranking_[5] <= 2


def test_errors_name_the_parameter():
    X = np.random.default_rng(0).normal(size=(20, 4))
    with pytest.raises(ValueError, match="width_multipliers"):
        KernelRFE(width_multipliers=()).fit(X, np.r_[np.ones(10), -np.ones(10)])


@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1])
def test_one_vs_one_rows_are_the_binary_classifiers_of_a_multiclass_svc(n_classes, seed):
    """With a linear kernel, each row of one_vs_one_rows times the support vectors is the primal weight vector
    scikit-learn reports for that pair of classes (SVC.coef_, one-vs-one in the order (0, 1), (0, 2), ...)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(40 * n_classes, 5))
    y = rng.integers(0, n_classes, size=X.shape[0])
    X[:, 0] += y  # separable enough to have few support vectors, not a trivial problem
    svm = SVC(kernel="linear", C=0.5).fit(X, y)
    rows = one_vs_one_rows(svm.dual_coef_, svm.n_support_)
    assert rows.shape == (n_classes * (n_classes - 1) // 2, svm.support_.size)
    np.testing.assert_allclose(rows @ svm.support_vectors_, svm.coef_, atol=1e-10)


def test_one_vs_one_rows_refuses_counts_that_do_not_match():
    with pytest.raises(ValueError, match="n_support sums to 5, but dual_coef has 6 columns"):
        one_vs_one_rows(np.ones((2, 6)), [2, 2, 1])
