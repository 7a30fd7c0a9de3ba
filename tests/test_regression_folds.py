"""Outer folds of a real-valued target: the selector and the model chosen on the training part only, Gaussian
kernel ridge regression tested on the held-out part."""

import numpy as np
import pytest
from sklearn.metrics import r2_score

from fscompbio.evaluation import (aggregate_folds, make_selector, regression_fold, regression_seeds,
                                  regression_splits)
from fscompbio.model_selection import KTASelect
from fscompbio.prediction import GaussianKernelRidge
from fscompbio.selection import RandSel


def _interaction(seed, n=150, d=20):
    """y = x_a x_b + noise, the pair at random columns: invisible to any marginal correlation."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = X[:, 0] * X[:, 1] + 0.1 * rng.normal(size=n)
    perm = rng.permutation(d)
    return X[:, perm], y, sorted(np.flatnonzero(perm < 2).tolist())


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("method", ["randsel", "bahsic", "hsic_lasso", "local_learning"])
def test_every_fold_keeps_an_interacting_pair_and_predicts_the_product(method, seed):
    """Nested CV (the default) and KTA read the same selector fit: both keep the pair in every fold, nested CV at
    most one feature more, and its width predicts better (measured: mean R^2 0.98-0.99 against KTA's 0.79-0.90)."""
    X, y, pair = _interaction(seed)
    both = [regression_fold(X, y, tr, te, make_selector(method, {}, random_state=seed), relevant=pair,
                            model_selection=["cv", "kta"]) for tr, te in regression_splits(y.size, 3, random_state=seed)]
    cv, kta = ([f[ms] for f in both] for ms in ("cv", "kta"))
    assert all(f["selected"] == pair and f["precision"] == 1.0 for f in kta)
    assert all(set(pair) <= set(f["selected"]) and f["n_selected"] <= 3 and f["recall"] == 1.0 for f in cv)
    summary = {ms: aggregate_folds(folds, X.shape[1]) for ms, folds in (("cv", cv), ("kta", kta))}
    assert summary["cv"]["r2_min"] > 0.95 and summary["kta"]["r2_mean"] > 0.75, summary
    assert summary["cv"]["r2_mean"] > summary["kta"]["r2_mean"]
    assert summary["cv"]["rmse_mean"] < 0.3 * summary["cv"]["mean_rmse_mean"]
    assert "accuracy_mean" not in summary["cv"] and "majority_accuracy_mean" not in summary["cv"]


def test_a_fold_is_kta_then_kernel_ridge_on_the_training_part():
    X, y, _ = _interaction(3)
    train, test = regression_splits(y.size, 4, random_state=0)[1]
    selector = make_selector("bahsic", {}, random_state=0)
    out = regression_fold(X, y, train, test, selector, model_selection="kta",
                          feature_names=[f"g{j}" for j in range(X.shape[1])])
    fitted = make_selector("bahsic", {}, random_state=0).fit(X[train], y[train])
    res = KTASelect().select(X[train], y[train], fitted.ranking_)
    feats = np.sort(res.features)
    model = GaussianKernelRidge(gamma=res.gamma).fit(X[train][:, feats], y[train])
    pred = model.predict(X[test][:, feats])
    assert out["selected"] == feats.tolist() and out["gamma"] == res.gamma and out["alpha"] == model.alpha_
    assert out["r2"] == r2_score(y[test], pred)
    assert out["rmse"] == pytest.approx(np.sqrt(np.mean((y[test] - pred) ** 2)), rel=1e-12)
    assert out["mean_rmse"] == pytest.approx(np.sqrt(np.mean((y[test] - y[train].mean()) ** 2)), rel=1e-12)
    assert out["selected_names"] == [f"g{j}" for j in feats]


def test_an_empty_own_set_predicts_the_training_mean():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 8)), rng.normal(size=60)  # no signal, and a test at level 1e-12: nothing kept
    train, test = regression_splits(60, 3, random_state=0)[0]
    with pytest.warns(UserWarning):
        out = regression_fold(X, y, train, test, RandSel(n_subsets=200, alpha=1e-12, random_state=0),
                              model_selection="own")
    assert out["n_selected"] == 0 and out["alpha"] is None and out["gamma"] is None
    assert out["r2"] == r2_score(y[test], np.full(test.size, y[train].mean()))
    assert out["rmse"] == out["mean_rmse"]


def test_an_unknown_model_selection_is_refused():
    X, y, _ = _interaction(0, n=30, d=4)
    train, test = regression_splits(30, 3, random_state=0)[0]
    with pytest.raises(ValueError, match=r"model_selection must be one of \['cv', 'kta', 'kta_abs', 'own'\]; got 'f'"):
        regression_fold(X, y, train, test, make_selector("bahsic", {}), model_selection="f")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_nested_cv_chooses_the_size_and_width_of_least_validation_error(seed):
    """NestedCVRegressionSelect against a brute-force loop: the same inner folds, the selector refitted on each,
    kernel ridge (leave-one-out ridge) for every candidate size and width, the least summed squared error wins."""
    from sklearn.model_selection import KFold

    from fscompbio.kernels import gaussian_kernel, median_distance, sigma_to_gamma
    from fscompbio.model_selection import NestedCVRegressionSelect, ranking_order

    X, y, _ = _interaction(seed, n=60, d=6)
    selector = make_selector("bahsic", {"label_kernel": "gaussian"})
    res = NestedCVRegressionSelect(sizes=[1, 2, 4], n_widths=3, inner_folds=3, random_state=seed).select(X, y, selector)
    inner_seed = np.random.RandomState(seed).randint(2**31 - 1)  # as check_random_state(seed) draws it
    sse = np.zeros((3, 3))
    for itr, iva in KFold(3, shuffle=True, random_state=inner_seed).split(X):
        order = ranking_order(make_selector("bahsic", {"label_kernel": "gaussian"}).fit(X[itr], y[itr]).ranking_)
        for r, k in enumerate([1, 2, 4]):
            A, B = X[itr][:, order[:k]], X[iva][:, order[:k]]
            for j, t in enumerate([-1.0, 0.0, 1.0]):
                model = GaussianKernelRidge(gamma=sigma_to_gamma(median_distance(A) * 10**t)).fit(A, y[itr])
                sse[r, j] += np.sum((y[iva] - model.predict(B)) ** 2)
    np.testing.assert_allclose(res.scores, -sse / y.size, rtol=1e-8)
    r, j = np.unravel_index(np.argmin(sse), sse.shape)
    assert res.features.size == [1, 2, 4][r] and res.score == pytest.approx(-sse[r, j] / y.size)


def test_seeds_depend_on_the_data_set_for_the_folds_and_on_the_method_and_fold_for_the_selector():
    a, b = regression_seeds(0, "drug", "randsel", 0), regression_seeds(0, "drug", "bahsic", 1)
    assert a.outer == b.outer and a.selector != b.selector and a.inner != a.selector
    assert regression_seeds(0, "other", "randsel", 0).outer != a.outer
    assert regression_seeds(0, "drug", "randsel", 0) == a


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("method", ["randsel", "bahsic", "hsic_lasso"])
def test_a_target_of_whole_numbers_is_real_valued(method, seed):
    """A score rounded to whole numbers (float 151.0, 75.0, ...): scikit-learn's rule would take its hundred-odd
    values for classes, whose one-hot label kernel is nearly the identity and picks the narrowest width."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(150, 12))
    y = np.round(150 + 40 * X[:, 0] + 60 * np.sin(X[:, 1]))
    perm = rng.permutation(12)
    relevant = sorted(np.flatnonzero(perm < 2).tolist())
    folds = [regression_fold(X[:, perm], y, tr, te, make_selector(method, {}, random_state=seed))
             for tr, te in regression_splits(y.size, 3, random_state=seed)]
    assert all(f["selected"] == relevant for f in folds)
    assert aggregate_folds(folds, 12)["r2_mean"] > 0.95


def test_for_real_target_sets_only_what_would_be_inferred():
    from fscompbio.evaluation import for_real_target
    from fscompbio.model_selection import OwnModelSelect
    from fscompbio.selection import BaHSIC, HSICLasso

    assert for_real_target(BaHSIC()).label_kernel == "gaussian"
    assert for_real_target(BaHSIC(label_kernel="linear")).label_kernel == "linear"  # the user's choice stays
    assert for_real_target(RandSel()).label_kernel == "gaussian"
    assert for_real_target(HSICLasso()).task == "regression"
    assert for_real_target(KTASelect()).label_kind == "gaussian"
    assert for_real_target(OwnModelSelect(n_widths=3)).get_params()["label_kind"] == "gaussian"


def test_nested_cv_regression_as_an_estimator_in_a_pipeline():
    from sklearn.pipeline import make_pipeline

    from fscompbio.model_selection import NestedCVRegressionSelect

    X, y, pair = _interaction(4, n=120, d=8)
    model = make_pipeline(NestedCVRegressionSelect(inner_folds=3, random_state=0), GaussianKernelRidge(gamma=0.5))
    model.fit(X[:90], y[:90])
    chosen = model[0]
    assert set(pair) <= set(np.flatnonzero(chosen.get_support())) and chosen.n_features_ <= 3
    assert chosen.score_ < 0 and model.score(X[90:], y[90:]) > 0.8
