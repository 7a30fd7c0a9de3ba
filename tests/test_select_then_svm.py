"""A selector then a Gaussian SVM on several classes, and then a support vector regression on a real target."""

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import cross_val_score
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from fscompbio.model_selection import KTASelect
from fscompbio.pipelines import SelectThenSVM, SelectThenSVR
from fscompbio.selection import BaHSIC, CorrelationSelector


@parametrize_with_checks([SelectThenSVR(), SelectThenSVR(selector=CorrelationSelector(n_features_to_select=2))])
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.parametrize("cls", [SelectThenSVM, SelectThenSVR])
def test_param_validation(cls):
    check_param_validation(cls.__name__, cls())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_several_classes_with_the_onehot_hsic_selector(seed):
    """Three classes planted in two of 15 columns (random places): BaHSIC's one-hot label kernel finds them
    and the one-vs-one SVM predicts well; string labels come back as strings."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(150, 15))
    a, b = rng.choice(15, size=2, replace=False)
    angle = np.arctan2(X[:, b], X[:, a])
    y = np.array(["red", "green", "blue"])[np.digitize(angle, [-np.pi / 3, np.pi / 3])]
    model = SelectThenSVM(selector=BaHSIC(n_features_to_select=2), random_state=seed).fit(X, y)
    assert sorted(model.support_.tolist()) == sorted([a, b])
    assert set(model.classes_) == {"red", "green", "blue"}
    assert model.decision_function(X).shape == (150, 3)
    assert model.score(X, y) > 0.9
    assert set(model.predict(X)) <= set(model.classes_)


def test_kta_inside_select_then_svm_on_iris():
    X, y = load_iris(return_X_y=True)
    model = SelectThenSVM(selector=KTASelect(BaHSIC()), random_state=0)
    assert cross_val_score(model, X, y, cv=3).mean() > 0.85


def test_validate_needs_two_classes():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="size='validate' compares the ROC AUCs of a binary SVM; y has 3 classes"):
        SelectThenSVM(selector=CorrelationSelector(), size="validate").fit(X, y)


def test_a_real_target_needs_select_then_svr():
    X = np.random.default_rng(0).normal(size=(40, 3))
    with pytest.raises(ValueError, match="continuous"):
        SelectThenSVM().fit(X, X[:, 0] * 1.5)


@pytest.mark.parametrize("seed", [0, 1])
def test_regression_with_the_gaussian_label_kernel(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(200, 10))
    j = int(rng.integers(10))
    y = np.sin(2 * X[:, j]) + 0.05 * rng.normal(size=200)
    model = SelectThenSVR(selector=KTASelect(BaHSIC()), select_max_per_class=120, random_state=seed).fit(X, y)
    assert j in model.support_.tolist() and model.support_.size <= 3
    assert model.selection_index_.size == 120
    assert model.score(X, y) > 0.8


def test_an_empty_own_model_falls_back_to_the_wrapped_selectors_ranking():
    """OwnModelSelect keeps nothing when its selector keeps nothing; min_features then takes the top of the
    ranking of the selector it wraps."""
    from fscompbio.model_selection import OwnModelSelect

    class Nothing(CorrelationSelector):
        def _get_support_mask(self):
            return np.zeros(self.n_features_in_, dtype=bool)

    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 6))
    y = np.where(X[:, 4] > 0, 1, 0)
    model = SelectThenSVM(selector=OwnModelSelect(Nothing()), min_features=1).fit(X, y)
    assert model.selector_.n_features_ == 0 and model.support_.tolist() == [4]
