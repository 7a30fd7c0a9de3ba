"""Per-sequence cleavage-site evaluation: the accuracy against a brute-force loop, sequence-wise folds."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.estimator_checks import parametrize_with_checks

from fscompbio.evaluation._cleavage import (
    APPROACHES,
    PAPER_TABLE1,
    RandSelMKL,
    SelectThenSVM,
    balanced_subsample,
    cleavage_accuracy,
    cross_validate_cleavage,
    make_approach,
    run_fold,
    sequence_folds,
    summarise_accuracy,
)
from fscompbio.prediction import LPBoostMKL
from fscompbio.selection import CorrelationSelector, RandSel


def _planted(n_seq=60, n_win=39, d=8, shift=1.5, seed=0):
    """Sequences of n_win windows, one positive each, the positive shifted in features 0 and 1."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_seq), n_win)
    y = np.zeros(n_seq * n_win, dtype=int)
    y[np.arange(n_seq) * n_win + rng.integers(0, n_win, n_seq)] = 1
    X = rng.normal(size=(y.size, d))
    X[y == 1, :2] += shift
    return X, y, groups


def _brute_force(scores, y, groups):
    right = []
    for g in np.unique(groups):
        s, t = scores[groups == g], y[groups == g]
        top = np.flatnonzero(s == s.max())
        right.append(top.size == 1 and t[top[0]] == t.max())
    return np.mean(right)


@settings(max_examples=40, deadline=None)
@given(n_seq=st.integers(1, 12), n_win=st.integers(2, 8), seed=st.integers(0, 2**16), levels=st.integers(2, 50))
def test_accuracy_matches_a_loop_over_sequences(n_seq, n_win, seed, levels):
    rng = np.random.default_rng(seed)
    groups = rng.permutation(np.repeat(np.arange(n_seq) * 7 + 3, n_win))  # ids need not be 0..n-1 nor sorted
    y = np.zeros(groups.size, dtype=int)
    for g in np.unique(groups):
        y[rng.choice(np.flatnonzero(groups == g))] = 1
    scores = rng.integers(0, levels, groups.size).astype(float)  # few levels: ties happen
    assert cleavage_accuracy(scores, y, groups) == pytest.approx(_brute_force(scores, y, groups))


def test_perfect_constant_and_labels_pm1():
    X, y, groups = _planted(n_seq=5, n_win=4)
    assert cleavage_accuracy(y.astype(float), y, groups) == 1.0
    assert cleavage_accuracy(np.zeros(y.size), y, groups) == 0.0  # a tie at the top counts as wrong
    assert cleavage_accuracy(-y.astype(float), 2 * y - 1, groups) == 0.0


@pytest.mark.parametrize(
    "mutate, match",
    [
        (lambda s, y, g: (s, np.zeros_like(y), g), r"exactly one positive window; sequences \[0, 1, 2, 3, 4\] have \[0, 0, 0, 0, 0\]"),
        (lambda s, y, g: (s, np.r_[1, y[1:]] if y[0] == 0 else y, g), r"sequences \[0\] have \[2\] positives"),
        (lambda s, y, g: (np.r_[np.nan, s[1:]], y, g), r"scores must be finite; windows \[0\]"),
        (lambda s, y, g: (s[:-1], y, g), "must be 1-D of equal length"),
        (lambda s, y, g: (s, np.arange(y.size) % 3, g), "y must be binary"),
    ],
)
def test_accuracy_errors_name_the_sequence(mutate, match):
    X, y, groups = _planted(n_seq=5, n_win=4)
    with pytest.raises(ValueError, match=match):
        cleavage_accuracy(*mutate(X[:, 0], y, groups))


def test_sequence_folds_keep_sequences_together():
    _, _, groups = _planted(n_seq=53, n_win=5)
    folds = sequence_folds(groups, n_splits=10, random_state=1)
    for g in np.unique(groups):
        assert np.unique(folds[groups == g]).size == 1
    sizes = np.bincount(folds) // 5
    assert sizes.min() >= 5 and sizes.max() <= 6  # 53 sequences into 10 folds
    np.testing.assert_array_equal(folds, sequence_folds(groups, n_splits=10, random_state=1))
    assert not np.array_equal(folds, sequence_folds(groups, n_splits=10, random_state=2))
    with pytest.raises(ValueError, match=r"n_splits must be an int in \[2, 53\]"):
        sequence_folds(groups, n_splits=54)


def test_balanced_subsample():
    y = np.r_[np.ones(10, int), np.zeros(380, int)]
    idx = balanced_subsample(y, None, 0)
    assert np.bincount(y[idx]).tolist() == [10, 10]
    idx = balanced_subsample(y, 4, 0)
    assert np.bincount(y[idx]).tolist() == [4, 4]


def test_run_fold_trains_on_other_sequences_and_beats_chance():
    X, y, groups = _planted(n_seq=80, shift=2.0)
    folds = sequence_folds(groups, n_splits=4, random_state=0)
    r = run_fold(make_approach("original"), X, y, groups, folds, 2, random_state=0)
    assert not set(groups[r["train_index"]]) & set(groups[r["test_index"]])  # no leakage of test sequences
    assert np.bincount(y[r["train_index"]]).tolist() == [60, 60]  # balanced by the positives
    assert r["accuracy"] > 5 / 39  # chance is 1/39


def test_cross_validation_mean_sd_and_determinism():
    X, y, groups = _planted(n_seq=40, shift=2.5)
    a = cross_validate_cleavage(make_approach("original"), X, y, groups, n_splits=4, random_state=3)
    b = cross_validate_cleavage(make_approach("original"), X, y, groups, n_splits=4, random_state=3)
    np.testing.assert_array_equal(a["scores"], b["scores"])
    assert a["mean"] == pytest.approx(np.mean(a["fold_accuracy"]))
    assert a["sd"] == pytest.approx(np.std(a["fold_accuracy"], ddof=1))
    assert a["mean"] > 0.3


def test_randsel_mkl_uses_nested_sets_and_beats_chance():
    X, y, groups = _planted(n_seq=60, d=10, shift=2.0, seed=1)
    folds = sequence_folds(groups, n_splits=3, random_state=0)
    approach = RandSelMKL(selector=RandSel(n_subsets=40, balanced=True), mkl=LPBoostMKL(n_estimators=5), max_sets=4)
    r = run_fold(approach, X, y, groups, folds, 0, random_state=0)
    sets = r["model"].feature_sets_
    assert 1 < len(sets) <= 4
    assert all(set(b) <= set(a) for a, b in zip(sets, sets[1:]))  # nested, largest first
    assert r["accuracy"] > 5 / 39


def test_summary_and_registry():
    assert summarise_accuracy([0.5, 0.7]) == pytest.approx((0.6, np.std([0.5, 0.7], ddof=1)))
    assert summarise_accuracy([0.5]) == (0.5, 0.0)
    assert tuple(PAPER_TABLE1) == APPROACHES
    assert [v[0] for v in PAPER_TABLE1.values()] == [67.20, 71.46, 71.81, 72.75, 75.28]
    with pytest.raises(ValueError, match="approach must be one of"):
        make_approach("svm")


def test_label_correlations_match_corrcoef():
    from fscompbio.evaluation._cleavage import label_correlations, support_vector_correlations

    X, y, _ = _planted(n_seq=30, d=6)
    X[:, 5] = 3.0  # constant column
    r = label_correlations(X, y)
    for j in range(5):
        assert r[j] == pytest.approx(np.corrcoef(X[:, j], y)[0, 1])
    assert r[5] == 0.0
    res = support_vector_correlations(X, y, max_per_class=30, random_state=0)
    assert set(res["support"]) <= set(res["train_index"])
    assert res["corr_sv"].shape == (6,)
    assert r[0] > 0.1 and res["corr_all"][0] == pytest.approx(r[0])


@parametrize_with_checks(
    [
        SelectThenSVM(selector=CorrelationSelector(n_features_to_select=2)),
        RandSelMKL(selector=RandSel(n_subsets=10, batch_size=10, subsample=1.0), mkl=LPBoostMKL(n_estimators=2, nus=(0.5,), n_widths=1)),
    ]
)
def test_approaches_are_sklearn_compatible(estimator, check):
    check(estimator)


class _Nothing(SelectorMixin, BaseEstimator):
    """Selects no feature (as stability selection may), ranking feature 3 best."""

    def fit(self, X, y):
        self.ranking_ = np.r_[2, 3, 4, 1, 5, 6, 7, 8]
        return self

    def _get_support_mask(self):
        return np.zeros(8, dtype=bool)


def test_select_then_svm_falls_back_to_the_top_ranked():
    X, y, _ = _planted(n_seq=10, d=8)
    model = SelectThenSVM(selector=_Nothing(), min_features=2).fit(X, y)
    np.testing.assert_array_equal(model.support_, [0, 3])
    assert model.decision_function(X).shape == (X.shape[0],)


def test_table_p1_puts_the_paper_beside_ours():
    from fscompbio.plots.chapter5 import table_P1

    t = table_P1({"randsel_mkl": [0.7, 0.8], "original": [0.5, 0.6, 0.7]}, meta={"original": {"mean_features": 648}})
    assert t["approach"].tolist() == ["original", "randsel_mkl"]  # table 1's order
    assert t.loc[0, "accuracy_mean"] == pytest.approx(60.0) and t.loc[0, "accuracy_sd"] == pytest.approx(10.0)
    assert t.loc[1, "seed 004 table 1"] == "75.28 ± 1.91"
    assert t.loc[0, "mean_features"] == 648


def test_canonical_dot_is_independent_of_line_order():
    from fscompbio.plots.chapter5 import canonical_dot

    head = ["digraph snakemake_dag {", "    graph[bgcolor=white, margin=0];"]
    body = ['\t0[label = "all"];', '\t1[label = "a"];', '\t2[label = "b"];', "\t1 -> 0", "\t2 -> 0", "\t1 -> 2"]
    a = canonical_dot("\n".join(head + body + ["}"]))
    b = canonical_dot("\n".join(head + body[::-1] + ["}"]))
    assert a == b
    assert a.index("1 -> 0") < a.index("1 -> 2") < a.index("2 -> 0")
    with pytest.raises(ValueError, match="not a graphviz digraph"):
        canonical_dot("no graph here")


@pytest.mark.parametrize(
    "estimator",
    [SelectThenSVM(), RandSelMKL(selector=RandSel(n_subsets=10, batch_size=10, subsample=1.0),
                                 mkl=LPBoostMKL(n_estimators=2, nus=(0.5,), n_widths=1))],
)
def test_param_validation(estimator):
    from sklearn.utils.estimator_checks import check_param_validation

    check_param_validation(type(estimator).__name__, estimator)
