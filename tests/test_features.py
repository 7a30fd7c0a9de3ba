"""The features table of a data set (which features, how often, how high) and the folds that name them."""

import json

import numpy as np
import pandas as pd
import pytest

from fscompbio.datasets import Dataset
from fscompbio.evaluation import (
    CONSENSUS_RULE,
    FEATURE_COLUMNS,
    evaluate_folds,
    feature_table,
    fold_seeds,
    make_selector,
    outer_splits,
    run_outer_fold,
    top_features,
)
from fscompbio.model_selection import KTASelect, NestedCVSelect, ranking_order
from fscompbio.seeding import derive_seed

NAMES = ["gene0", "gene1", "gene2", "gene3", "gene4"]


def _job(method, folds):
    """A fold job's JSON: folds = {fold: {msel: (selected, ranks or None)}}."""
    out = []
    for k, res in folds.items():
        results = {}
        for ms, (sel, ranks) in res.items():
            results[ms] = {"selected": sel, **({"selected_ranks": ranks} if ranks is not None else {})}
        out.append({"fold": k, "results": results})
    return {"dataset": "toy", "method": method, "folds": out}


def test_counts_frequencies_ranks_and_the_consensus_rule():
    job = _job("correlation", {
        0: {"cv": ([1, 3], [1, 2]), "kta": ([1], [1])},
        1: {"cv": ([1, 4], [2, 1]), "kta": ([1], [1])},
        2: {"cv": ([3], [1]), "kta": ([2], [1])},
        3: {"cv": ([1], [3]), "kta": ([2], [1])},
    })
    t = feature_table([("chapter3", job)], NAMES)
    assert list(t.columns) == list(FEATURE_COLUMNS)
    cv = t[t.model_selection == "cv"].set_index("feature")
    assert list(cv.index) == ["gene1", "gene3", "gene4"]  # most often first, then by mean rank
    assert cv.loc["gene1", "n_folds_selected"] == 3 and cv.loc["gene1", "n_folds"] == 4
    assert cv.loc["gene1", "mean_rank"] == pytest.approx(2.0)
    assert cv.loc["gene3", "selection_frequency"] == 0.5 and cv.loc["gene3", "mean_rank"] == 1.5
    # at least half of the folds: 2 of 4 is in, 1 of 4 is out
    assert cv.loc["gene3", "consensus"] and not cv.loc["gene4", "consensus"]
    kta = t[t.model_selection == "kta"].set_index("feature")
    assert set(kta.index) == {"gene1", "gene2"} and kta["consensus"].all()
    assert "gene0" not in set(t.feature)  # never selected: not listed
    assert t["relevant"].isna().all()
    assert "at least half" in CONSENSUS_RULE


def test_names_follow_the_indices_and_relevant_is_marked():
    job = _job("randsel", {0: {"own": ([0, 4], None)}, 1: {"own": ([4], None)}})
    t = feature_table([("chapter4", job)], ["a", "b", "c", "d", "e"], relevant=[4])
    assert t["feature"].tolist() == ["e", "a"] and t["feature_index"].tolist() == [4, 0]
    assert t["relevant"].tolist() == [True, False]
    assert t["mean_rank"].isna().all()  # folds written without ranks (an archived run)
    assert t["chapter"].eq("chapter4").all()


def test_bad_fold_results_are_refused():
    with pytest.raises(ValueError, match="fold 0 appears twice"):
        feature_table([("chapter3", _job("m", {0: {"cv": ([0], [1])}})),
                       ("chapter3", _job("m", {0: {"cv": ([1], [1])}}))], NAMES)
    with pytest.raises(ValueError, match="index 7 outside the 5 features"):
        feature_table([("chapter3", _job("m", {0: {"cv": ([7], [1])}}))], NAMES)


def test_top_features_caps_and_orders():
    jobs = [("chapter3", _job("m", {0: {"cv": ([0, 1, 2], None)}, 1: {"cv": ([1, 2], None)},
                                    2: {"cv": ([2], None)}}))]
    t = feature_table(jobs, NAMES)
    assert top_features(t, 2) == ["gene2", "gene1"]
    assert top_features(t.iloc[:0], 5) == []


def _planted(seed, n=80, d=60, planted=(7, 23, 41)):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, list(planted)].sum(axis=1) + 0.3 * rng.standard_normal(n) > 0, 1, -1)
    names = np.array([f"gene{j}" for j in range(d)])
    return Dataset(X=X, y=y, relevant=np.asarray(planted, dtype=np.int64), task="binary", feature_names=names,
                   name="planted")


def test_run_outer_fold_names_and_ranks_its_selection():
    ds = _planted(1)
    train, test = outer_splits(ds.y, 4, random_state=0)[0]
    sel = make_selector("correlation")
    plain = run_outer_fold(ds.X, ds.y, train, test, sel, model_selection=["kta", "cv"], cv=NestedCVSelect(
        inner_folds=3, random_state=0))
    named = run_outer_fold(ds.X, ds.y, train, test, sel, model_selection=["kta", "cv"], cv=NestedCVSelect(
        inner_folds=3, random_state=0), feature_names=ds.feature_names)
    fitted = make_selector("correlation").fit(ds.X[train], ds.y[train])
    position = {int(j): i + 1 for i, j in enumerate(ranking_order(fitted.ranking_))}
    for ms in ("kta", "cv"):
        extra = {k: v for k, v in named[ms].items() if k not in plain[ms]}
        assert set(extra) == {"selected_names", "selected_ranks"}  # nothing else changes
        assert all(named[ms][k] == v for k, v in plain[ms].items() if not k.startswith("seconds"))
        assert named[ms]["selected_names"] == [f"gene{j}" for j in named[ms]["selected"]]
        assert named[ms]["selected_ranks"] == [position[j] for j in named[ms]["selected"]]
        # a prefix of the ranking: ranks 1..k
        assert sorted(named[ms]["selected_ranks"]) == list(range(1, named[ms]["n_selected"] + 1))
    with pytest.raises(ValueError, match="3 names for 60 features"):
        run_outer_fold(ds.X, ds.y, train, test, sel, feature_names=["a", "b", "c"])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_planted_features_lead_the_table(seed):
    """Three planted features (columns permuted by the seed) are the three most often selected, by name."""
    rng = np.random.default_rng(100 + seed)
    planted = tuple(int(j) for j in rng.choice(60, 3, replace=False))
    ds = _planted(seed, planted=planted)
    settings = dict(widths={"n_widths": 3, "low": -1.0, "high": 1.0}, kta={"max_sizes": 20},
                    cv={"inner_folds": 3, "sizes": [1, 2, 3, 5, 10]}, outer_folds=5)
    res, _ = evaluate_folds(ds, "correlation", range(5), seed=seed, chapter="chapter3", dataset="planted",
                            model_selection=["cv", "kta"], **settings)
    t = feature_table([("chapter3", {"method": "correlation", "folds": res})], ds.feature_names, ds.relevant)
    for ms in ("cv", "kta"):
        top = t[t.model_selection == ms].head(3)
        assert set(top["feature"]) == {f"gene{j}" for j in planted}, top
        assert top["consensus"].all() and top["relevant"].all()


def test_evaluate_folds_is_the_protocol_with_the_fold_seeds():
    """evaluate_folds = run_outer_fold on the outer folds and the selector / inner seeds of fold_seeds."""
    ds = _planted(3)
    widths = {"n_widths": 3, "low": -1.0, "high": 1.0}
    res, tim = evaluate_folds(ds, "stabsel_lasso", [1, 3], seed=11, chapter="chapter3", dataset="planted",
                              selector_params={"n_bootstraps": 5}, model_selection=["cv", "kta"], outer_folds=4,
                              widths=widths, kta={"max_sizes": 10}, cv={"inner_folds": 3, "sizes": [1, 3, 5]})
    assert [f["fold"] for f in res] == [1, 3] and [f["fold"] for f in tim] == [1, 3]
    splits = outer_splits(ds.y, 4, random_state=derive_seed(11, "chapter3", "planted", "outer"))
    for f in res:
        s = fold_seeds(11, "chapter3", "planted", "stabsel_lasso", f["fold"])
        assert s.selector == derive_seed(11, "chapter3", "planted", "stabsel_lasso", str(f["fold"]))
        train, test = splits[f["fold"]]
        ref = run_outer_fold(ds.X, ds.y, train, test,
                             make_selector("stabsel_lasso", {"n_bootstraps": 5}, random_state=s.selector),
                             model_selection=["cv", "kta"], relevant=ds.relevant,
                             kta=KTASelect(**widths, max_sizes=10),
                             cv=NestedCVSelect(**widths, sizes=[1, 3, 5], inner_folds=3, random_state=s.inner))
        for ms in ("cv", "kta"):
            assert f["results"][ms]["selected"] == ref[ms]["selected"]
            assert f["results"][ms]["accuracy"] == ref[ms]["accuracy"]
            assert "seconds_total" not in f["results"][ms]
    # chapter 4 tests the same outer folds (the chapters compare), with other selector seeds
    assert fold_seeds(11, "chapter4", "planted", "bahsic", 2).outer == fold_seeds(11, "chapter3", "planted", "x", 0).outer
    assert fold_seeds(11, "chapter4", "planted", "m", 2).selector != fold_seeds(11, "chapter3", "planted", "m", 2).selector
    with pytest.raises(ValueError, match="chapter must be one of"):
        fold_seeds(11, "chapter5", "planted", "m", 0)
    with pytest.raises(ValueError, match="out of range"):
        evaluate_folds(ds, "correlation", [4], seed=0, chapter="chapter3", dataset="planted", outer_folds=4)


def test_evaluate_folds_inner_selectors_set_the_inner_refits_of_their_method_only():
    """cv's inner_selectors: the method's inner refits take those arguments (the outer fit and KTA keep the
    method's own); another method's entry changes nothing."""
    ds = _planted(4)
    widths = {"n_widths": 2, "low": -1.0, "high": 1.0}
    common = dict(seed=5, chapter="chapter3", dataset="planted", selector_params={"n_bootstraps": 12},
                  model_selection=["cv", "kta"], outer_folds=4, widths=widths, kta={"max_sizes": 10})
    cv = {"inner_folds": 3, "sizes": [1, 3, 5]}
    plain, _ = evaluate_folds(ds, "stabsel_lasso", [0, 2], cv=cv, **common)
    other, _ = evaluate_folds(ds, "stabsel_lasso", [0, 2], cv={**cv, "inner_selectors": {"stabsel_logreg": {
        "n_bootstraps": 3}}}, **common)
    cheap, _ = evaluate_folds(ds, "stabsel_lasso", [0, 2], cv={**cv, "inner_selectors": {"stabsel_lasso": {
        "n_bootstraps": 3}}}, **common)
    assert other == plain
    splits = outer_splits(ds.y, 4, random_state=derive_seed(5, "chapter3", "planted", "outer"))
    for f, p in zip(cheap, plain):
        assert f["results"]["kta"] == p["results"]["kta"]  # the outer fit is the method's own
        s = fold_seeds(5, "chapter3", "planted", "stabsel_lasso", f["fold"])
        train, _ = splits[f["fold"]]
        fitted = make_selector("stabsel_lasso", {"n_bootstraps": 12}, random_state=s.selector).fit(
            ds.X[train], ds.y[train])
        ref = NestedCVSelect(**widths, sizes=[1, 3, 5], inner_folds=3, random_state=s.inner).select(
            ds.X[train], ds.y[train], make_selector("stabsel_lasso", {"n_bootstraps": 3}, random_state=s.selector),
            fitted=fitted)
        assert f["results"]["cv"]["selected"] == sorted(ref.features.tolist())


def test_the_heat_map_draws_the_top_features(tmp_path):
    from fscompbio.plots import save_figure
    from fscompbio.plots.selected_features import plot_selection_frequency

    jobs = [("chapter3", _job("correlation", {0: {"cv": ([0, 1], [1, 2])}, 1: {"cv": ([1], [1])}})),
            ("chapter4", _job("randsel", {0: {"own": ([2], [1])}, 1: {"own": ([2, 3], [1, 2])}}))]
    t = feature_table(jobs, NAMES, relevant=[1])
    fig = plot_selection_frequency(t, title="toy", labels={"correlation": "Corr"}, max_features=3)
    ax = fig.axes[0]
    assert [tl.get_text() for tl in ax.get_yticklabels()] == ["gene1", "gene2", "gene0"]
    assert [tl.get_text() for tl in ax.get_xticklabels()] == ["Corr CV", "randsel own"]
    image = ax.images[0].get_array()
    assert image[0, 0] == 1.0 and image[1, 1] == 1.0 and image[2, 0] == 0.5
    save_figure(fig, tmp_path / "f.png")
    assert (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
    empty = plot_selection_frequency(t.iloc[:0], title="none")
    assert "no feature" in empty.axes[0].texts[0].get_text()


def test_the_table_round_trips_through_csv(tmp_path):
    t = feature_table([("chapter3", _job("correlation", {0: {"cv": ([0, 1], [1, 2])}}))], NAMES)
    t.to_csv(tmp_path / "t.csv", index=False)
    back = pd.read_csv(tmp_path / "t.csv")
    assert back["feature"].tolist() == ["gene0", "gene1"] and back["consensus"].tolist() == [True, True]
    json.dumps(t.to_dict(orient="records"), default=str)
