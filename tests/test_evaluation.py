"""Evaluation metrics (2.5, eq. 2.8), the protocol runner and the method registry."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from fscompbio.evaluation import (
    METHODS,
    TIMING_KEYS,
    aggregate_folds,
    accuracy,
    consistency_log_likelihood,
    make_selector,
    mean_variance,
    method_spec,
    outer_splits,
    precision_recall,
    run_outer_fold,
    selection_matrix,
    simulate_selections,
    split_timing,
    summarise_fold_jobs,
    model_selections_for,
)
from fscompbio.model_selection import KTASelect, NestedCVSelect, OwnModelSelect


def test_log_likelihood_hand_computation():
    # n = 5 features, 3 folds selecting {0,1}, {0,1,2}, {0}: s = 2, 3, 1 (sum 6), union s_u = 3
    W = selection_matrix([[0, 1], [0, 1, 2], [0]], 5)
    # log(3/5)*6 + 5 log 5 - 3 log 3 - 2 log 2
    expected = 6 * math.log(3 / 5) + 5 * math.log(5) - 3 * math.log(3) - 2 * math.log(2)
    assert consistency_log_likelihood(W) == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx(0.30010, abs=1e-4)  # -3.0650 + 8.0472 - 3.2958 - 1.3863


def test_log_likelihood_edge_cases():
    # every feature in the union: log(1) * sum + n log n - n log n - 0 = 0
    assert consistency_log_likelihood(np.ones((3, 4), dtype=bool)) == pytest.approx(0.0, abs=1e-12)
    assert consistency_log_likelihood(np.zeros((3, 4), dtype=bool)) == 0.0
    # the same single feature in all 10 folds of 100: 10 log(1/100) + 100 log 100 - 99 log 99
    W = np.zeros((10, 100), dtype=bool)
    W[:, 7] = True
    expected = 10 * math.log(0.01) + 100 * math.log(100) - 99 * math.log(99)
    assert consistency_log_likelihood(W) == pytest.approx(expected)


def test_log_likelihood_is_stirling_of_union_bound():
    # eq. 2.8 approximates log(C(n, s_u) (s_u/n)^sum s) with ln k! ~ k ln k - k
    W = simulate_selections(0.5, n_folds=30, n_features=200, random_state=0)
    n, s_u, tot = 200, int(W.any(axis=0).sum()), int(W.sum())
    exact = math.lgamma(n + 1) - math.lgamma(s_u + 1) - math.lgamma(n - s_u + 1) + tot * math.log(s_u / n)
    assert consistency_log_likelihood(W) == pytest.approx(exact, abs=0.5 * math.log(2 * math.pi * n) + 1)


def test_mean_variance_hand_computation():
    W = np.array([[1, 0, 1], [1, 1, 0], [1, 0, 0], [1, 1, 0]], dtype=bool)
    # per-feature population variances: 0, 0.25, 0.1875 -> mean 0.145833...
    assert mean_variance(W) == pytest.approx((0 + 0.25 + 0.1875) / 3)


@given(arrays(bool, st.tuples(st.integers(1, 12), st.integers(1, 15))))
@settings(max_examples=60, deadline=None)
def test_consistency_measures_properties(W):
    mv = mean_variance(W)
    assert 0.0 <= mv <= 0.25 + 1e-12
    ll = consistency_log_likelihood(W)
    assert np.isfinite(ll)
    # adding a fold that repeats an existing fold never makes the union larger, and
    # eq. 2.8 is monotone in sum s_i for a fixed union: log(s_u/n) <= 0
    W2 = np.vstack([W, W[:1]])
    assert consistency_log_likelihood(W2) <= ll + 1e-9


def test_figure_2_3_and_2_4_story():
    # the thesis' point: mean variance is not monotone in the selection probability of
    # the relevant features, the log-likelihood is much better at ranking them
    probs = [1.0, 0.9, 0.5, 0.1]
    ll = [np.mean([consistency_log_likelihood(simulate_selections(p, random_state=s)) for s in range(20)]) for p in probs]
    assert ll[0] < ll[1] < ll[2] < ll[3]
    mv = [np.mean([mean_variance(simulate_selections(p, random_state=s)) for s in range(20)]) for p in probs]
    assert mv[0] < mv[2] and mv[1] > mv[3]  # p = 0.9 looks less consistent than p = 0.1


def test_precision_recall_and_accuracy():
    assert precision_recall([0, 1, 5, 9], range(4)) == (0.5, 0.5)
    assert precision_recall([], [1]) == (0.0, 0.0)
    assert accuracy([1, -1, 1, 1], [1, 1, 1, -1]) == 0.5
    with pytest.raises(ValueError, match="equal shape"):
        accuracy([1, 2], [1])
    with pytest.raises(ValueError, match=r"fold 1: selected indices must lie in \[0, 3\); got 0..3"):
        selection_matrix([[0], [0, 3]], 3)


def test_outer_splits_stratified_and_deterministic():
    y = np.array([1] * 30 + [-1] * 20)
    a = outer_splits(y, 5, random_state=3)
    b = outer_splits(y, 5, random_state=3)
    assert all(np.array_equal(x[1], z[1]) for x, z in zip(a, b))
    tests = np.concatenate([te for _, te in a])
    assert sorted(tests.tolist()) == list(range(50))
    for _, te in a:
        assert np.sum(y[te] == 1) == 6 and np.sum(y[te] == -1) == 4


@pytest.fixture(scope="module")
def easy_data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 15))
    y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    return X, y


@pytest.mark.parametrize("msel", ["kta", "cv"])
def test_run_outer_fold_and_aggregate(easy_data, msel):
    X, y = easy_data
    folds = []
    for tr, te in outer_splits(y, 3, random_state=0):
        out = run_outer_fold(
            X, y, tr, te, make_selector("correlation"), model_selection=msel, relevant=[0, 1],
            kta=KTASelect(n_widths=3), cv=NestedCVSelect(sizes=[1, 2, 5, 15], n_widths=3, inner_folds=3, random_state=0),
        )
        assert set(out) >= {"accuracy", "selected", "n_selected", "precision", "recall", "gamma", "seconds_total"}
        assert out["seconds_total"] == pytest.approx(
            out["seconds_selection"] + out["seconds_model_selection"] + out["seconds_fit"]
        )
        assert out["n_selected"] == len(out["selected"])
        folds.append(out)
    agg = aggregate_folds(folds, 15)
    assert agg["accuracy_mean"] > 0.85
    assert agg["recall_mean"] == 1.0
    assert agg["n_folds"] == 3
    accs = [f["accuracy"] for f in folds]
    assert agg["accuracy_min"] == min(accs) and agg["accuracy_max"] == max(accs)
    assert not any(k.startswith("seconds") for k in agg)  # timings never reach the summaries
    W = selection_matrix([f["selected"] for f in folds], 15)
    assert agg["mean_variance"] == mean_variance(W)
    assert agg["log_likelihood"] == consistency_log_likelihood(W)


def test_nested_cv_is_slower_than_kta(easy_data):
    # the point of table 3.2: nested CV refits the selector on every inner fold
    X, y = easy_data
    tr, te = outer_splits(y, 3, random_state=0)[0]
    sel = make_selector("stabsel_lasso", {"n_bootstraps": 20}, random_state=0)
    kta = run_outer_fold(X, y, tr, te, sel, model_selection="kta", kta=KTASelect(n_widths=3))
    cv = run_outer_fold(
        X, y, tr, te, sel, model_selection="cv", cv=NestedCVSelect(n_widths=3, inner_folds=5, random_state=0)
    )
    assert cv["seconds_total"] > 2 * kta["seconds_total"]


def test_registry():
    assert set(METHODS) >= {"correlation", "stabsel_lasso", "stabsel_logreg", "stabsel_lpboost", "linear_rfe", "random"}
    sel = make_selector("stabsel_logreg", {"n_bootstraps": 7}, random_state=3)
    assert sel.learner == "logistic" and sel.n_bootstraps == 7 and sel.random_state == 3
    assert make_selector("correlation", random_state=1).get_params() == {"n_features_to_select": 0.1}
    assert method_spec("random").cv_sizes == "support"
    with pytest.raises(ValueError, match="unknown method 'bogus'; registered: "):
        make_selector("bogus")
    with pytest.raises(ValueError, match=r"model_selection must be one of \['cv', 'kta', 'kta_abs', 'own'\]; got 'loo'"):
        run_outer_fold(np.zeros((4, 2)), [1, -1, 1, -1], [0, 1], [2, 3], make_selector("correlation"), model_selection="loo")


def test_one_fit_serves_every_model_selection(easy_data):
    """A sequence of model selections reads one selector fit: same selection time, KTA and own agree
    with their single runs, and split_timing keeps the wall-clock fields apart."""
    X, y = easy_data
    tr, te = outer_splits(y, 3, random_state=0)[0]
    sel = make_selector("correlation", {"n_features_to_select": 2})
    kw = dict(relevant=[0, 1], kta=KTASelect(n_widths=3), own=OwnModelSelect(n_widths=3),
              cv=NestedCVSelect(sizes=[1, 2, 5], n_widths=3, inner_folds=3, random_state=0))
    both = run_outer_fold(X, y, tr, te, sel, model_selection=["cv", "kta", "own"], **kw)
    assert set(both) == {"cv", "kta", "own"}
    assert len({r["seconds_selection"] for r in both.values()}) == 1
    single = run_outer_fold(X, y, tr, te, sel, model_selection="kta", **kw)
    assert single["selected"] == both["kta"]["selected"] and single["accuracy"] == both["kta"]["accuracy"]
    assert both["own"]["selected"] == [0, 1] and both["own"]["precision"] == 1.0
    result, timing = split_timing({**both["cv"], "dataset": "d", "method": "correlation", "fold": 0})
    assert set(timing) == {"dataset", "method", "model_selection", "fold", *TIMING_KEYS}
    assert not set(TIMING_KEYS) & set(result) and result["accuracy"] == both["cv"]["accuracy"]


def test_union_of_all_features_is_flagged():
    """Eq. 2.8 is exactly 0 when the folds together select every feature: the summary says so."""
    folds = [{"accuracy": 0.5, "n_selected": 3, "precision": None, "recall": None, "selected": [0, 1, 2]},
             {"accuracy": 0.6, "n_selected": 1, "precision": None, "recall": None, "selected": [3]}]
    agg = aggregate_folds(folds, 4)
    assert agg["log_likelihood"] == 0.0 and agg["union_is_all"]
    assert agg["precision_mean"] is None and agg["n_selected_min"] == 1 and agg["n_selected_max"] == 3
    assert not aggregate_folds(folds, 5)["union_is_all"]


def _fold(k, selected, accuracy, n_features=4):
    return {"fold": k, "results": {"kta": {"accuracy": accuracy, "n_selected": len(selected), "precision": None,
                                           "recall": None, "selected": selected, "n_features": n_features}}}


def test_a_summary_pools_each_method_over_its_fold_jobs():
    """Folds of one method split over two jobs (folds_per_job) give the row of one job with all of them, in
    fold order whatever the order of the jobs."""
    jobs = [{"method": "correlation", "folds": [_fold(2, [0, 1], 0.5)]},
            {"method": "random", "folds": [_fold(0, [3], 0.25)]},
            {"method": "correlation", "folds": [_fold(0, [0], 1.0), _fold(1, [0, 2], 0.75)]}]
    summary = summarise_fold_jobs(jobs, "toy")
    assert list(summary["method"]) == ["correlation", "random"] and set(summary["dataset"]) == {"toy"}
    row = summary.iloc[0]
    assert row["n_folds"] == 3 and row["accuracy_mean"] == pytest.approx(0.75)
    assert row["n_selected_min"] == 1 and row["n_selected_max"] == 2
    folds = [_fold(0, [0], 1.0), _fold(1, [0, 2], 0.75), _fold(2, [0, 1], 0.5)]
    expected = aggregate_folds([{**f["results"]["kta"], "fold": f["fold"]} for f in folds], 4)
    assert row["log_likelihood"] == pytest.approx(expected["log_likelihood"])


def test_a_summary_refuses_folds_of_different_widths():
    jobs = [{"method": "correlation", "folds": [_fold(0, [0], 1.0), _fold(1, [0], 1.0, n_features=5)]}]
    with pytest.raises(ValueError, match="toy/correlation/kta: folds disagree on n_features"):
        summarise_fold_jobs(jobs, "toy")
    with pytest.raises(ValueError, match="toy: no outer fold results"):
        summarise_fold_jobs([], "toy")


def test_model_selections_for_own_models():
    assert model_selections_for("randsel", ["cv", "kta", "own"]) == ["cv", "kta", "own"]
    assert model_selections_for("bahsic", ["cv", "kta", "own"]) == ["cv", "kta"]


def test_an_empty_own_model_predicts_the_majority_class(easy_data):
    """An error-controlled selector may select nothing: the model is then the training majority class."""
    from sklearn.base import BaseEstimator

    class Nothing(BaseEstimator):
        def fit(self, X, y):
            self.ranking_ = np.arange(1, X.shape[1] + 1)
            return self

        def get_support(self):
            return np.zeros_like(self.ranking_, dtype=bool)

    X, y = easy_data
    tr, te = outer_splits(y, 3, random_state=0)[0]
    out = run_outer_fold(X, y, tr, te, Nothing(), model_selection="own", relevant=[0, 1])
    values, counts = np.unique(y[tr], return_counts=True)
    assert out["n_selected"] == 0 and out["gamma"] is None and out["precision"] == 0.0
    assert out["accuracy"] == np.mean(y[te] == values[np.argmax(counts)])


def test_reshuffle_table_means_the_fold_times():
    from fscompbio.evaluation import reshuffle_table

    folds = [{"reshuffle": r, "accuracy": a, "n_selected": 1, "precision": 1.0, "recall": 0.5, "selected": [0],
              "seconds_total": s} for r, a, s in ((0, 0.8, 1.0), (0, 0.6, 3.0), (1, 0.9, 2.0))]
    row = reshuffle_table([{"dataset": "d", "method": "m", "n_features": 3, "folds": folds}]).iloc[0]
    assert row["seconds_mean"] == pytest.approx(2.0)
    assert row["accuracy_mean"] == pytest.approx((0.7 + 0.9) / 2) and row["n_reshuffles"] == 2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_absolute_width_grid_gives_the_thesis_sparsity_on_linear_weston(seed):
    """The thesis states no KTA width grid. On linear Weston, KTA on an absolute grid (gamma = 10^[0, 2])
    keeps about one feature for correlation, as the thesis reports (1.3 on average), while the grid relative
    to the median distance keeps several; kta_abs is KTASelect with that grid on the same fit."""
    from fscompbio.datasets import make_dataset
    from fscompbio.evaluation import ABSOLUTE_GAMMAS, outer_splits

    ds = make_dataset("linear_weston", random_state=100 + seed)
    perm = np.random.default_rng(seed).permutation(ds.X.shape[1])
    X, relevant = ds.X[:, perm], np.flatnonzero(np.isin(perm, ds.relevant))
    tr, te = outer_splits(ds.y, 10, random_state=seed)[0]
    out = run_outer_fold(X, ds.y, tr, te, make_selector("correlation"), model_selection=["kta", "kta_abs"],
                         relevant=relevant, kta=KTASelect(n_widths=5, max_sizes=50))
    assert out["kta_abs"]["n_selected"] <= 2 < out["kta"]["n_selected"]
    assert out["kta_abs"]["precision"] == 1.0
    fitted = make_selector("correlation").fit(X[tr], ds.y[tr])
    direct = KTASelect(gammas=ABSOLUTE_GAMMAS).select(X[tr], ds.y[tr], fitted.ranking_)
    assert out["kta_abs"]["selected"] == sorted(direct.features.tolist())
    assert out["kta_abs"]["gamma"] == pytest.approx(direct.gamma)


def test_each_fold_records_its_chance_level():
    """majority_accuracy: the accuracy of always predicting the training part's majority class on the test
    part (the dotted line of the method panels), the same for every model selection of a fold."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(90, 6))
    y = np.where(np.arange(90) < 60, 1, -1)  # 2:1
    folds = []
    for tr, te in outer_splits(y, 3, random_state=0):
        out = run_outer_fold(X, y, tr, te, make_selector("correlation"), model_selection=["kta", "kta_abs"],
                             kta=KTASelect(n_widths=2))
        expected = np.mean(y[te] == 1)  # +1 is the training majority of every stratified fold
        assert out["kta"]["majority_accuracy"] == out["kta_abs"]["majority_accuracy"] == pytest.approx(expected)
        folds.append(out["kta"])
    assert aggregate_folds(folds, 6)["majority_accuracy_mean"] == pytest.approx(2 / 3)
    legacy = [{k: v for k, v in f.items() if k != "majority_accuracy"} for f in folds]
    assert aggregate_folds(legacy, 6)["majority_accuracy_mean"] is None


@pytest.mark.parametrize("msel", ["kta", "cv"])
def test_standardize_scales_by_the_training_part_only(msel):
    """standardize=True is the fold run on the data scaled by the training part's mean and sd (the test part
    with the same numbers, a constant feature centred only), and it is invariant to each feature's scale and
    offset, which the unscaled protocol is not."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(90, 6))
    y = np.where(X[:, 0] - X[:, 1] + 0.3 * rng.normal(size=90) > 0, 1, -1)
    X[:, 5] = 2.0  # constant
    tr, te = outer_splits(y, 3, random_state=0)[0]
    kw = dict(model_selection=msel, kta=KTASelect(n_widths=3), cv=NestedCVSelect(n_widths=3, inner_folds=3, random_state=0))
    out = run_outer_fold(X, y, tr, te, make_selector("correlation"), standardize=True, **kw)
    sd = X[tr].std(axis=0)
    scaled = (X - X[tr].mean(axis=0)) / np.where(sd > 0, sd, 1.0)
    ref = run_outer_fold(scaled, y, tr, te, make_selector("correlation"), **kw)
    assert out["selected"] == ref["selected"] and out["accuracy"] == ref["accuracy"]
    assert out["gamma"] == pytest.approx(ref["gamma"])
    if msel == "kta":  # (nested CV's inner accuracies tie, and rounding in the last bit may break a tie otherwise)
        # features measured in other units: the same fold under standardize
        units = X * np.array([1e3, 1.0, 1e-3, 5.0, 0.2, 1.0]) + 7.0
        moved = run_outer_fold(units, y, tr, te, make_selector("correlation"), standardize=True, **kw)
        assert moved["selected"] == out["selected"] and moved["accuracy"] == pytest.approx(out["accuracy"])


@pytest.mark.parametrize("task", ["binary", "regression"])
def test_a_data_set_standardised_when_written_is_scaled_by_each_training_part(task):
    """evaluate_folds and evaluate_regression_folds read a data set's ``standardized`` mark: its folds are those
    of the raw values with ``standardize=True`` (the scaling over all samples cancels in the training part's),
    not those of the scaled values as they are."""
    from fscompbio.datasets import Dataset, standardized
    from fscompbio.evaluation import evaluate_folds, evaluate_regression_folds

    rng = np.random.default_rng(4)
    X = rng.normal(size=(80, 6)) * np.array([1e3, 1.0, 1e-3, 5.0, 0.2, 1.0]) + 7.0
    signal = (X[:, 0] - 7.0) / 1e3 - (X[:, 2] - 7.0) / 1e-3 + 0.5 * rng.normal(size=80)
    y = np.where(signal > 0, 1, -1) if task == "binary" else signal
    raw = Dataset(X=X, y=y, relevant=np.empty(0, dtype=np.int64), task=task,
                  feature_names=np.array([f"g{j}" for j in range(6)]), name="units")
    scaled = standardized(raw)
    settings = dict(seed=3, dataset="units", selector_params=None, outer_folds=4, widths={"n_widths": 3},
                    kta={"max_sizes": 6}, model_selection=["kta"])

    def run(ds, **kw):
        if task == "binary":
            return evaluate_folds(ds, "correlation", [0, 1], chapter="chapter3", **settings, **kw)[0]
        return evaluate_regression_folds(ds, "correlation", [0, 1], **settings, **kw)[0]

    marked, per_fold = run(scaled), run(raw, standardize=True)
    unmarked = run(Dataset(**{**scaled.__dict__, "standardized": False}))
    metric = "accuracy" if task == "binary" else "r2"
    for m, p in zip(marked, per_fold, strict=True):
        a, b = m["results"]["kta"], p["results"]["kta"]
        assert a["selected"] == b["selected"] and a[metric] == pytest.approx(b[metric], abs=1e-9)
        assert a["sigma"] == pytest.approx(b["sigma"], rel=1e-9)
    # without the mark the folds read the matrix scaled over all samples: another kernel width
    assert any(u["results"]["kta"]["sigma"] != pytest.approx(p["results"]["kta"]["sigma"], rel=1e-6)
               for u, p in zip(unmarked, per_fold, strict=True))
