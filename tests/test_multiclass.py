"""Multi-class selection: the one-hot label kernel, HSIC selectors on four classes, the one-vs-rest baseline."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils.estimator_checks import check_param_validation

from fscompbio.evaluation import OneHotKTASelect, multiclass_fold, multiclass_table, outer_splits, ovr_l1_logistic_fold
from fscompbio.kernels import center, hsic, label_kernel
from fscompbio.selection import BaHSIC, FoHSIC, RandSel


def _one_hot(y):
    classes, inv = np.unique(y, return_inverse=True)
    Y = np.zeros((y.size, classes.size))
    Y[np.arange(y.size), inv] = 1.0
    return Y


@settings(max_examples=50, deadline=None)
@given(y=st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=2, max_size=40))
def test_onehot_label_kernel_is_the_linear_kernel_on_one_hot_labels(y):
    """L = Y Y^T with Y the one-hot (indicator) matrix: the thesis' linear label kernel for K classes."""
    y = np.array(y)
    Y = _one_hot(y)
    np.testing.assert_array_equal(label_kernel(y, kind="onehot"), Y @ Y.T)


def test_onehot_and_linear_kernels_agree_on_two_classes():
    """Two classes: y y^T = 2 L_onehot - 1, so both centre to proportional kernels (same alignment, HSIC x 2)."""
    rng = np.random.default_rng(0)
    y = rng.choice([-1, 1], 30)
    L1, L2 = label_kernel(y, kind="linear"), label_kernel(y, kind="onehot")
    np.testing.assert_allclose(L1, 2 * L2 - 1)
    K = np.exp(-rng.random((30, 30)))
    K = (K + K.T) / 2
    np.testing.assert_allclose(hsic(K, L1), 2 * hsic(K, L2))
    np.testing.assert_allclose(center(L1), 2 * center(L2), atol=1e-12)


def test_auto_label_kernel_of_a_multiclass_target_is_onehot():
    y = np.array([0, 1, 2, 3, 2, 1, 0, 3])
    np.testing.assert_array_equal(label_kernel(y), label_kernel(y, kind="onehot"))


def _quadrants(seed, n=160, d=40):
    """Four classes from the signs of two features (relevant), in permuted columns."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = 2 * (X[:, 0] > 0) + (X[:, 1] > 0)
    perm = rng.permutation(d)
    return X[:, perm], y, np.flatnonzero(np.isin(perm, [0, 1]))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "selector",
    [BaHSIC(label_kernel="onehot", n_features_to_select=2), FoHSIC(label_kernel="onehot", n_features_to_select=2),
     RandSel(label_kernel="onehot", n_subsets=300, n_features_to_select=2)],
    ids=["bahsic", "fohsic", "randsel"],
)
def test_hsic_selectors_find_the_two_features_that_define_four_classes(selector, seed):
    X, y, relevant = _quadrants(seed)
    if "random_state" in selector.get_params():
        selector.set_params(random_state=seed)
    sel = selector.fit(X, y)
    assert set(np.flatnonzero(sel.get_support())) == set(relevant)


def test_onehot_kta_select_validates_and_picks_the_relevant_prefix():
    check_param_validation("OneHotKTASelect", OneHotKTASelect())
    X, y, relevant = _quadrants(3)
    ranking = np.arange(1, X.shape[1] + 1)
    order = np.r_[relevant, np.setdiff1d(np.arange(X.shape[1]), relevant)]
    ranking[order] = np.arange(1, X.shape[1] + 1)
    res = OneHotKTASelect(n_widths=5).select(X, y, ranking)
    assert set(res.features) == set(relevant)


def test_ovr_baseline_fold_is_honest_and_sparse():
    """Linear four-class problem: high accuracy with few features; the test part is never fitted on."""
    rng = np.random.default_rng(0)
    n, d = 200, 60
    y = rng.integers(0, 4, n)
    X = rng.normal(size=(n, d))
    X[:, :4] += 3.5 * np.eye(4)[y]  # class k shifts feature k
    train, test = outer_splits(y, 4, random_state=0)[0]
    out = ovr_l1_logistic_fold(X, y, train, test, inner_folds=3, random_state=0)
    assert out["accuracy"] > 0.8
    assert {0, 1, 2, 3} <= set(out["selected"])
    assert out["n_selected"] < d
    # labels of the test part shuffled: the fitted model cannot know, accuracy falls to chance
    y_bad = y.copy()
    y_bad[test] = rng.permutation(y_bad[test])
    bad = ovr_l1_logistic_fold(X, y_bad, train, test, inner_folds=3, random_state=0)
    assert bad["accuracy"] < 0.5
    assert bad["selected"] == out["selected"]


def test_multiclass_fold_and_table():
    X, y, relevant = _quadrants(5, n=120, d=30)
    folds = outer_splits(y, 3, random_state=0)
    rows = []
    for f, (tr, te) in enumerate(folds):
        for method, msel in (("bahsic", "kta"), ("bahsic", "cv"), ("ovr_l1_logistic", "cv")):
            params = {"step": 0.25} if method == "bahsic" else {"inner_folds": 3}
            out = multiclass_fold(X, y, tr, te, method, model_selection=msel, params=params, widths={"n_widths": 3},
                                  kta={"max_sizes": 10}, cv={"inner_folds": 3, "sizes": [1, 2, 5, 10]},
                                  random_state=0, inner_seed=0)
            out.update(dataset="quadrants", fold=f)
            rows.append(out)
    table = multiclass_table(rows)
    assert len(table) == 3 and set(table["method"]) == {"bahsic", "ovr_l1_logistic"}
    for msel in ("kta", "cv"):
        bahsic = table[(table["method"] == "bahsic") & (table["model_selection"] == msel)].iloc[0]
        assert bahsic["accuracy_mean"] > 0.8, msel  # four quadrants of two features: a Gaussian SVM separates
        assert bahsic["n_selected_mean"] <= 10, msel
    assert (table["accuracy_mean"].between(0, 1)).all()
