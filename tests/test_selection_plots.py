"""The consistency toy (figures 2.2-2.4), the per-data-set method panels and table 3.2 (pure functions of data)."""

import numpy as np
import pandas as pd
import pytest

from fscompbio.evaluation import simulate_selections
from fscompbio.plots.consistency import plot_fig2_2, plot_fig2_3, plot_fig2_4
from fscompbio.plots.kta_speedup import table3_2, table3_2_markdown
from fscompbio.plots.selection_panels import plot_method_panels, summary_frame


def _timings():
    rows = []
    for dataset in ("xor", "linear_weston"):
        for fold in range(2):
            for method, kta_s, cv_s in (("correlation", 1.0, 6.0), ("stabsel_lasso", 2.0, 20.0 + fold)):
                rows.append({"dataset": dataset, "method": method, "fold": fold, "model_selection": "kta", "seconds_total": kta_s})
                rows.append({"dataset": dataset, "method": method, "fold": fold, "model_selection": "cv", "seconds_total": cv_s})
    return pd.DataFrame(rows)


def test_table3_2_ratios_by_hand():
    t = table3_2(_timings(), labels={"correlation": "Corr"}).set_index("method")
    assert t.loc["correlation", "fold_decrease_mean"] == pytest.approx(6.0)
    assert t.loc["correlation", "fold_decrease_sd"] == pytest.approx(0.0)
    # ratios 10, 10.5, 10, 10.5 -> mean 10.25, sample sd 0.288675
    assert t.loc["stabsel_lasso", "fold_decrease_mean"] == pytest.approx(10.25)
    assert t.loc["stabsel_lasso", "fold_decrease_sd"] == pytest.approx(np.std([10, 10.5, 10, 10.5], ddof=1))
    assert t.loc["stabsel_lasso", "n_pairs"] == 4
    assert t.loc["correlation", "thesis_mean"] == pytest.approx(6.05)
    md = table3_2_markdown(t.reset_index())
    assert "| Corr | 6.00 ± 0.00 | 6.05 ± 0.29 |" in md


def test_table3_2_needs_both_settings():
    df = _timings()
    with pytest.raises(ValueError, match=r"table3_2 needs both 'cv' and 'kta' runs; got \['kta'\]"):
        table3_2(df[df.model_selection == "kta"])


def _rows(truth=True, own=False, all_selected=()):
    rows = []
    for m in ("correlation", "random", "randsel"):
        for ms in ("cv", "kta", "own") if own else ("cv", "kta"):
            if ms == "own" and m != "randsel":
                continue
            r = {"method": m, "model_selection": ms, "accuracy_mean": 0.8, "accuracy_min": 0.6, "accuracy_max": 1.0,
                 "n_selected_mean": 5.0, "n_selected_min": 1.0, "n_selected_max": 12.0,
                 "mean_variance": 0.01, "log_likelihood": 0.0 if (m, ms) in all_selected else -3.0,
                 "union_is_all": (m, ms) in all_selected}
            for q in ("precision", "recall"):
                r.update({f"{q}_mean": 0.5 if truth else np.nan, f"{q}_min": 0.0 if truth else np.nan,
                          f"{q}_max": 1.0 if truth else np.nan})
            rows.append(r)
    return summary_frame(rows)


def _visible(fig):
    return [ax for ax in fig.axes if ax.get_visible()]


def test_panels_error_bars_span_the_fold_range():
    """Bars end at the mean; error bars run from the fold minimum to the maximum (never below 0 or above 1)."""
    fig = plot_method_panels(_rows(), title="t", labels={"random": "Rand"})
    axes = _visible(fig)
    assert [ax.get_title() for ax in axes][:4] == ["Accuracy", "Number of features", "Precision", "Recall"]
    assert [t.get_text() for t in axes[0].get_xticklabels()] == ["correlation", "Rand", "randsel"]
    segs = [seg for coll in axes[0].collections for seg in coll.get_segments()]  # the error-bar lines
    ys = np.array([[p[1] for p in seg] for seg in segs])
    np.testing.assert_allclose(np.sort(ys, axis=1), [[0.6, 1.0]] * 6)
    heights = sorted({round(p.get_height(), 6) for p in axes[0].patches})
    assert heights == [0.8]


def test_panels_without_ground_truth_drop_precision_and_recall():
    fig = plot_method_panels(_rows(truth=False), footer="quick config: 3 outer folds")
    titles = [ax.get_title() for ax in _visible(fig)]
    assert titles == ["Accuracy", "Number of features", "Mean variance", "Log-likelihood (eq. 2.8)"]
    assert any("quick config" in t.get_text() for t in fig.texts)


def test_own_model_bars_and_the_all_selected_flag():
    fig = plot_method_panels(_rows(own=True, all_selected={("random", "kta")}))
    handles, texts = fig.legends[0].legend_handles, [t.get_text() for t in fig.legends[0].get_texts()]
    assert texts == ["nested CV", "KTA", "own model (randSel's selected set)"] and len(handles) == 3
    ll = [ax for ax in _visible(fig) if ax.get_title().startswith("Log-likelihood")][0]
    flags = [t for t in ll.texts if t.get_text() == "all"]
    assert len(flags) == 1  # only the (random, KTA) bar: its eq. 2.8 value 0 says nothing
    # the flag sits on the KTA bar of the second method: x = 1 + the KTA offset
    assert flags[0].xy[0] == pytest.approx(1.0, abs=0.3)
    # inside the panel, under the zero line: clear of the panel's title
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    box, frame = flags[0].get_window_extent(renderer), ll.get_window_extent(renderer)
    title = ll.title.get_window_extent(renderer)
    assert frame.y0 <= box.y0 and box.y1 <= frame.y1, (box, frame)
    assert box.y1 < title.y0


def test_toy_figures_show_the_scenarios():
    mats = [simulate_selections(p, random_state=0) for p in (1.0, 0.5)]
    fig = plot_fig2_2(mats, [1.0, 0.5])
    images = [ax.images[0].get_array() for ax in fig.axes if ax.images]
    assert len(images) == 2 and images[0].shape == (30, 20)
    np.testing.assert_array_equal(~np.asarray(images[0], dtype=bool), mats[0])  # black = selected
    fig = plot_fig2_3([1.0, 0.5], [0.01, 0.1], [[0.01, 0.03], [0.1, 0.12]])
    assert fig.axes[0].get_ylabel() == "mean variance"
    fig = plot_fig2_4([1.0, 0.5], [-3.0, 1.0], [[-3.0, -2.0], [1.0, 2.0]])
    line = [ln for ln in fig.axes[0].lines if ln.get_marker() == "o"][0]
    np.testing.assert_allclose(line.get_ydata(), [-3.0, 1.0])
    with pytest.raises(ValueError, match=r"summary rows need columns \['model_selection'\]"):
        summary_frame([{"method": "x"}])


def test_table_a2_names_the_thesis_task_of_every_stand_in():
    from fscompbio.plots.datasets import STANDS_IN_FOR, table_a2

    tasks = {name: {"n_samples": 10, "n_features": 5, "classes": {"a": 5, "b": 5}, "positive_label": "b"}
             for name in ("tb_serum_metabolomics", "allaml", "prostate_ge", "colon", "tb_blood_gambia", "mine")}
    table = table_a2(tasks).set_index("task")
    for name, task in zip(("tb_serum_metabolomics", "allaml", "prostate_ge", "colon"), range(1, 5)):
        assert table.loc[name, "stands in for"].startswith(f"TB task {task}:")
    assert table.loc["tb_blood_gambia", "stands in for"].startswith("TB micro-array task")
    assert table.loc["mine", "stands in for"] == "" and len(STANDS_IN_FOR) == 5


@pytest.mark.parametrize("chance", [0.5, 0.645, 0.9])
def test_the_dotted_line_is_the_majority_class_rate(chance):
    """On unbalanced data the chance line is the majority class's share, not one half."""
    import matplotlib.pyplot as plt

    from fscompbio.plots.selection_panels import plot_method_panels

    rows = [{"method": m, "model_selection": ms, "accuracy_mean": 0.8, "accuracy_min": 0.7, "accuracy_max": 0.9,
             "n_selected_mean": 3.0, "n_selected_min": 2.0, "n_selected_max": 4.0, "mean_variance": 0.1,
             "log_likelihood": -3.0, "union_is_all": False}
            for m in ("a", "b") for ms in ("cv", "kta", "kta_abs")]
    for given, frame in ((chance, pd.DataFrame(rows)), (None, pd.DataFrame(rows).assign(majority_accuracy_mean=chance))):
        fig = plot_method_panels(frame, chance=given)
        accuracy = fig.axes[0]
        dotted = [line for line in accuracy.get_lines() if line.get_linestyle() == ":"]
        assert len(dotted) == 1 and dotted[0].get_ydata()[0] == pytest.approx(chance)
        assert [t.get_text() for t in fig.legends[0].get_texts()] == ["nested CV", "KTA", "KTA, absolute width grid"]
        plt.close(fig)
    fig = plot_method_panels(pd.DataFrame(rows))  # an older summary without the column: no line
    assert not [line for line in fig.axes[0].get_lines() if line.get_linestyle() == ":"]
    plt.close(fig)
    with pytest.raises(ValueError, match="chance must be in"):
        plot_method_panels(pd.DataFrame(rows), chance=1.5)


def test_a_real_valued_label_draws_r2_below_zero_and_the_empty_folds_note():
    """A regression summary: R^2 in the first panel, its axis reaching below 0 where a fold predicted worse than the
    training mean, the dotted line at 0, and an empty own set noted with what it predicts."""
    import matplotlib.pyplot as plt

    rows = [{"method": m, "model_selection": ms, "r2_mean": 0.6, "r2_min": -0.4 if m == "b" else 0.3,
             "r2_max": 0.9, "rmse_mean": 1.0, "n_selected_mean": 3.0, "n_selected_min": 0.0 if ms == "own" else 2.0,
             "n_selected_max": 4.0, "mean_variance": 0.1, "log_likelihood": -3.0, "union_is_all": False,
             "mean_rmse_mean": 1.5}
            for m in ("a", "b") for ms in ("cv", "kta", "own")]
    fig = plot_method_panels(pd.DataFrame(rows))
    r2 = fig.axes[0]
    assert r2.get_title() == "R\u00b2 (held-out)" and r2.get_ylim()[0] == pytest.approx(-0.45)
    dotted = [line for line in r2.get_lines() if line.get_linestyle() == ":"]
    assert len(dotted) == 1 and dotted[0].get_ydata()[0] == 0.0
    assert any("there it predicts the training mean" in t.get_text() for t in fig.texts)
    plt.close(fig)
