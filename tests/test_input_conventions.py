"""The library's input conventions, for every selector and model selector: pandas in and out, NaN refused with
the column's name and the imputation fix, sparse input where the mathematics allows and one clear line
elsewhere, string and integer labels alike."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.impute import SimpleImputer
from sklearn.pipeline import make_pipeline

from fscompbio.model_selection import KTASelect, NestedCVSelect, OwnModelSelect
from fscompbio.pipelines import SelectThenSVM
from fscompbio.selection import (
    AnticorrelationWeighting,
    BaHSIC,
    CorrelationSelector,
    FoHSIC,
    HSICLasso,
    KernelRFE,
    LinearRFE,
    LocalLearningRegression,
    RandomSelector,
    StabilitySelection,
)


def _classifying():
    """Every classification selector (small settings), by name."""
    return {
        "CorrelationSelector": lambda: CorrelationSelector(n_features_to_select=2),
        "LinearRFE": lambda: LinearRFE(n_features_to_select=2, random_state=0),
        "StabilitySelection": lambda: StabilitySelection(learner="logistic", n_bootstraps=10, random_state=0),
        "RandomSelector": lambda: RandomSelector(n_features_to_select=2, random_state=0),
        "KernelRFE": lambda: KernelRFE(n_features_to_select=2),
        "FoHSIC": lambda: FoHSIC(n_features_to_select=2),
        "BaHSIC": lambda: BaHSIC(n_features_to_select=2),
        "AnticorrelationWeighting": lambda: AnticorrelationWeighting(n_partitions=20, random_state=0),
        "KTASelect": lambda: KTASelect(CorrelationSelector()),
        "NestedCVSelect": lambda: NestedCVSelect(CorrelationSelector(), inner_folds=3, random_state=0),
        "OwnModelSelect": lambda: OwnModelSelect(CorrelationSelector(n_features_to_select=2)),
    }


CLASSIFYING = _classifying()
SPARSE_OK = {"CorrelationSelector", "LinearRFE", "RandomSelector"}


def _data(seed=0, m=60, d=6, labels=("no", "yes")):
    """Labels from features 1 and 4 (classes cut by the quantiles of their sum)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    s = X[:, 1] + X[:, 4]
    y = np.asarray(labels)[np.digitize(s, np.quantile(s, np.linspace(0, 1, len(labels) + 1)[1:-1]))]
    return X, y


def _frame(X):
    return pd.DataFrame(X, columns=[f"gene_{j}" for j in range(X.shape[1])])


@pytest.mark.parametrize("name", sorted(CLASSIFYING))
def test_nan_names_the_column_and_suggests_imputing_in_a_pipeline(name):
    X, y = _data()
    Xn = X.copy()
    Xn[[3, 7], 2] = np.nan
    with pytest.raises(ValueError, match=r"X has NaN in 1 column\(s\) \(2 value\(s\)\), the first 'gene_2' "
                                         r"\(column 2\) at sample 3: .*make_pipeline\(SimpleImputer"):
        CLASSIFYING[name]().fit(_frame(Xn), y)
    Xn[5, 0] = np.nan
    with pytest.raises(ValueError, match=r"X has NaN in 2 column\(s\) \(3 value\(s\)\), the first column 0 at sample 5"):
        CLASSIFYING[name]().fit(Xn, y)
    Xi = X.copy()
    Xi[5, 0] = np.inf
    with pytest.raises(ValueError, match=r"X has infinity \(inf\) in 1 column\(s\) .*first column 0 at sample 5"):
        CLASSIFYING[name]().fit(Xi, y)
    pipe = make_pipeline(SimpleImputer(strategy="median"), CLASSIFYING[name]()).fit(_frame(Xn), y)
    assert pipe.transform(_frame(Xn)).shape[0] == X.shape[0]


def test_nan_in_a_regression_selector():
    X, _ = _data()
    y = X[:, 1] ** 2
    X[0, 4] = np.nan
    with pytest.raises(ValueError, match=r"'gene_4' \(column 4\).*LocalLearningRegression does not take missing"):
        LocalLearningRegression(max_iter=2).fit(_frame(X), y)


@pytest.mark.parametrize("name", sorted(CLASSIFYING))
def test_sparse_input_accepted_where_the_mathematics_allows(name):
    X, y = _data()
    X[np.abs(X) < 0.5] = 0.0  # a third of the entries zero
    for fmt in ("csr", "csc"):
        Xs = sp.csr_matrix(X) if fmt == "csr" else sp.csc_matrix(X)
        if name in SPARSE_OK:
            sel = CLASSIFYING[name]().fit(Xs, y)
            dense = CLASSIFYING[name]().fit(X, y)
            if name == "CorrelationSelector":
                np.testing.assert_allclose(sel.scores_, dense.scores_, rtol=1e-10, atol=1e-12)
            if name != "RandomSelector":
                assert set(np.flatnonzero(sel.get_support())) == {1, 4}
            assert sp.issparse(sel.transform(Xs))
        else:
            with pytest.raises(TypeError, match=rf"^{name} needs dense X.*got a scipy.sparse {fmt} matrix of shape "
                                                r"\(60, 6\): pass X.toarray\(\).*CorrelationSelector, LinearRFE"):
                CLASSIFYING[name]().fit(Xs, y)


def test_sparse_linear_rfe_without_scaling_equals_dense():
    X, y = _data(1, m=80, d=12)
    X[np.abs(X) < 0.7] = 0.0
    dense = LinearRFE(standardize=False, random_state=0).fit(X, y)
    sparse = LinearRFE(standardize=False, random_state=0).fit(sp.csr_matrix(X), y)
    assert np.array_equal(dense.ranking_, sparse.ranking_)


@pytest.mark.parametrize("name", sorted(CLASSIFYING))
@pytest.mark.parametrize("labels", [("no", "yes"), ("a", "b", "c")])
def test_string_and_integer_labels_give_the_same_selection(name, labels):
    X, y = _data(2, m=90, labels=labels)
    codes = np.unique(y, return_inverse=True)[1]
    by_string = CLASSIFYING[name]().fit(X, y)
    by_int = CLASSIFYING[name]().fit(X, codes)
    assert np.array_equal(by_string.get_support(), by_int.get_support())
    if name not in ("RandomSelector", "StabilitySelection", "NestedCVSelect", "AnticorrelationWeighting"):
        assert set(np.flatnonzero(by_string.get_support())) == {1, 4}, name


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_kernel_rfe_finds_the_planted_pair_on_three_classes(seed):
    """Three classes cut from the sum of two features among 12, the columns permuted: the one-vs-one SVC's
    binary classifiers together rank the two first."""
    X, y = _data(seed, m=90, d=12, labels=("a", "b", "c"))
    perm = np.random.default_rng(100 + seed).permutation(12)
    planted = set(np.flatnonzero(np.isin(perm, [1, 4])))
    assert set(np.flatnonzero(KernelRFE(n_features_to_select=2).fit(X[:, perm], y).get_support())) == planted


@pytest.mark.parametrize("name", sorted(CLASSIFYING))
def test_dataframe_in_dataframe_out(name):
    X, y = _data(3)
    sel = CLASSIFYING[name]().set_output(transform="pandas").fit(_frame(X), y)
    out = sel.transform(_frame(X))
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == list(sel.get_feature_names_out())
    assert list(sel.feature_names_in_) == [f"gene_{j}" for j in range(6)]
    assert set(out.columns) <= set(sel.feature_names_in_)


def test_select_then_svm_takes_a_frame_and_string_labels():
    X, y = _data(4, m=80)
    model = SelectThenSVM(selector=CorrelationSelector(n_features_to_select=2), random_state=0).fit(_frame(X), y)
    assert model.support_.tolist() == [1, 4] and set(model.predict(_frame(X))) <= {"no", "yes"}


def test_hsic_lasso_follows_the_conventions():
    pytest.importorskip("pyHSICLasso")
    X, y = _data(5, m=80)
    X[2, 3] = np.nan
    with pytest.raises(ValueError, match=r"'gene_3' \(column 3\).*HSICLasso does not take missing"):
        HSICLasso(n_features_to_select=2).fit(_frame(X), y)
    with pytest.raises(TypeError, match="HSICLasso needs dense X"):
        HSICLasso(n_features_to_select=2).fit(sp.csr_matrix(np.nan_to_num(X)), y)
