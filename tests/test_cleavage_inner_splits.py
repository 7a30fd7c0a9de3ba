"""Chapter 5: inner splits by homology cluster, the combined scorer's ablations, the saved model's choice."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin

from fscompbio.cleavage import (
    APPROACH_REPRESENTATION,
    COMBINED_SCORES,
    TABLE_ROWS,
    choose_model,
    fit_approach,
    make_approach,
    run_fold,
)
from fscompbio.pipelines import SelectThenSVM
from fscompbio.prediction import CombinedSiteScorer, GaussianSVC
from fscompbio.selection import CorrelationSelector


def _sites(n_seq=120, n_win=12, seed=0):
    """Sequences of n_win windows, one cleavage window at positions 4-7, shifted in two features, enriched in a
    residue; columns: 4 features, 2 residue codes, the position. Clusters of 3 consecutive sequences."""
    rng = np.random.default_rng(seed)
    groups = np.repeat(np.arange(n_seq), n_win)
    pos = np.tile(np.arange(n_win), n_seq)
    y = (pos == np.repeat(rng.integers(4, 8, n_seq), n_win)).astype(int)
    feats = rng.normal(size=(y.size, 4))
    feats[y == 1, :2] += 1.0
    codes = rng.integers(0, 4, size=(y.size, 2))
    codes[(y == 1) & (rng.random(y.size) < 0.5), 0] = 0
    X = np.column_stack([feats, codes, pos]).astype(float)
    return X, y, groups, groups // 3


class _RecordsGroups(ClassifierMixin, BaseEstimator):
    """Records what its fit got as groups (and split_groups when ``both``)."""

    def fit(self, X, y, groups=None):
        self.groups_ = np.asarray(groups)
        self.classes_ = np.unique(y)
        return self

    def decision_function(self, X):
        return np.asarray(X)[:, 0]


class _RecordsBoth(_RecordsGroups):
    def fit(self, X, y, groups=None, split_groups=None):
        self.split_groups_ = np.asarray(split_groups)
        return super().fit(X, y, groups)


def test_run_fold_gives_the_clusters_to_every_inner_split():
    X, y, groups, clusters = _sites()
    folds = (clusters % 3 == 0).astype(int)
    one = run_fold(_RecordsGroups(), X, y, groups, folds, 1, split_groups=clusters)
    np.testing.assert_array_equal(one["model"].groups_, clusters[one["train_index"]])  # tuning, validation: clusters
    both = run_fold(_RecordsBoth(), X, y, groups, folds, 1, split_groups=clusters)
    np.testing.assert_array_equal(both["model"].groups_, groups[both["train_index"]])  # the sequences
    np.testing.assert_array_equal(both["model"].split_groups_, clusters[both["train_index"]])
    default = run_fold(_RecordsGroups(), X, y, groups, folds, 1)
    np.testing.assert_array_equal(default["model"].groups_, groups[default["train_index"]])
    with pytest.raises(ValueError, match="split_groups must have one entry per window"):
        run_fold(_RecordsGroups(), X, y, groups, folds, 1, split_groups=clusters[:-1])


def test_combined_scorer_holds_out_whole_clusters_and_tunes_by_cluster():
    X, y, groups, clusters = _sites()
    svm = GaussianSVC(class_weight="balanced", Cs=(0.5, 2.0), cv=3, random_state=0)
    m = CombinedSiteScorer(base=svm, n_symbol_columns=3, random_state=0).fit(X, y, groups, split_groups=clusters)
    assert set(m.holdout_groups_) <= set(np.unique(clusters))
    assert m.holdout_groups_.size == round(0.25 * np.unique(clusters).size)
    held = np.isin(clusters, m.holdout_groups_)
    assert not set(clusters[held]) & set(clusters[~held])  # no cluster on both sides
    # the classifier of step 1 was fitted on the other clusters only
    assert m.holdout_base_.n_features_in_ == 4
    by_sequence = CombinedSiteScorer(base=svm, n_symbol_columns=3, random_state=0).fit(X, y, groups)
    assert set(by_sequence.holdout_groups_) <= set(np.unique(groups))


@pytest.mark.parametrize("scores", [("classifier", "position"), ("classifier", "residues"), ("position",)])
def test_combined_scorer_ablations_weight_only_their_scores(scores):
    X, y, groups, _ = _sites(seed=1)
    m = CombinedSiteScorer(n_symbol_columns=3, scores=scores, random_state=0).fit(X, y, groups)
    assert m.weights_.shape == (len(scores),)
    full = CombinedSiteScorer(n_symbol_columns=3, random_state=0).fit(X, y, groups)
    names = ("classifier", "residues", "position")
    F = np.column_stack([np.asarray(full.base_.decision_function(X[:, :4])), full.pwm_.decision_function(X[:, 4:6]),
                         full.prior_.decision_function(X[:, 6:])])
    np.testing.assert_allclose(full.decision_function(X), F @ full.weights_)
    parts = CombinedSiteScorer(n_symbol_columns=3, scores=scores, random_state=0).fit(X, y, groups)
    F = np.column_stack([np.asarray(parts.base_.decision_function(X[:, :4])),
                         parts.pwm_.decision_function(X[:, 4:6]), parts.prior_.decision_function(X[:, 6:])])
    np.testing.assert_allclose(parts.decision_function(X), F[:, [names.index(s) for s in scores]] @ parts.weights_)


@pytest.mark.parametrize("scores", [(), ("classifier", "classifier"), ("svm",)])
def test_combined_scorer_rejects_bad_scores(scores):
    X, y, groups, _ = _sites()
    with pytest.raises(ValueError, match="scores must be distinct names"):
        CombinedSiteScorer(n_symbol_columns=3, scores=scores).fit(X, y, groups)


def test_ablation_rows_are_the_combined_scorer_without_one_part():
    assert {"original_combined", "original_prior", "original_pwm"} <= set(TABLE_ROWS)
    for name, scores in COMBINED_SCORES.items():
        model = make_approach(name)
        assert isinstance(model, CombinedSiteScorer) and tuple(model.scores) == scores
        assert APPROACH_REPRESENTATION[name] == "scales_codes_position"
    assert "residues" not in COMBINED_SCORES["original_prior"]
    assert "position" not in COMBINED_SCORES["original_pwm"]


def test_select_then_svm_validates_its_size_on_held_out_groups():
    X, y, groups, clusters = _sites(n_seq=160)
    model = SelectThenSVM(selector=CorrelationSelector(), size="validate", select_max_per_class=60, random_state=0)
    model.fit(X[:, :4], y, groups=clusters)
    selected = set(clusters[model.selection_index_])
    assert model.validation_ is not None
    # the selection subsample comes from the groups not held out: about 3/4 of them
    assert len(selected) <= round(0.75 * np.unique(clusters).size)
    assert np.unique(clusters).size - len(selected) >= round(0.25 * np.unique(clusters).size)
    no_groups = SelectThenSVM(selector=CorrelationSelector(), size="validate", select_max_per_class=60,
                              random_state=0).fit(X[:, :4], y)
    assert no_groups.validation_ is not None


def test_fit_approach_trains_on_every_window_of_the_pool():
    X, y, groups, _ = _sites()
    model, train = fit_approach(make_approach("pwm_prior"), X[:, 4:], y, groups, negatives_per_positive=2,
                                random_state=0)
    assert set(groups[train]) == set(groups)  # every sequence's positive
    assert np.sum(y[train] == 1) == np.unique(groups).size and train.size == 3 * np.unique(groups).size
    pool = np.flatnonzero(groups < 60)
    _, train = fit_approach(make_approach("pwm_prior"), X[:, 4:], y, groups, pool=pool, random_state=0)
    assert set(train) <= set(pool)


def _table(rows):
    return pd.DataFrame(rows, columns=["approach", "protocol", "cv", "accuracy_mean", "accuracy_sd", "n_folds"])


def test_the_model_is_chosen_by_homology_aware_cv_with_both_figures():
    table = _table([
        ("original", "adequate", "random", 80.0, 2.0, 3),  # best by random CV
        ("original", "adequate", "homology", 60.0, 3.0, 3),
        ("original_combined", "adequate", "random", 75.0, 2.5, 3),
        ("original_combined", "adequate", "homology", 70.0, 3.5, 3),  # best by homology-aware CV
        ("pwm_prior", "paper", "homology", 70.0, 1.0, 3),  # a tie: the first by name wins
    ])
    choice = choose_model(table)
    assert (choice["approach"], choice["protocol"]) == ("original_combined", "adequate")
    assert choice["homology_cv_accuracy_mean"] == 70.0 and choice["random_cv_accuracy_mean"] == 75.0
    assert choice["random_cv_accuracy_sd"] == 2.5 and choice["cv_n_folds"] == 3
    only = choose_model(table, approach="pwm_prior")
    assert only["random_cv_accuracy_mean"] is None  # no random-CV cell in this table
    with pytest.raises(ValueError, match="homology_approaches"):
        choose_model(table, approach="rfe")
    with pytest.raises(ValueError, match="no homology-aware CV cell"):
        choose_model(table[table["cv"] == "random"])
