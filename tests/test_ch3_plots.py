"""Chapter-3 figures and table 3.2 (pure functions of data)."""

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from fscompbio.evaluation import simulate_selections
from fscompbio.plots.chapter3 import (
    plot_fig2_2,
    plot_fig2_3,
    plot_fig2_4,
    plot_method_panels,
    summary_frame,
    table3_2,
    table3_2_markdown,
)


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


def test_panels_and_toy_figures_render():
    rows = []
    for m in ("correlation", "random"):
        for s in ("cv", "kta"):
            rows.append({"method": m, "model_selection": s, "accuracy_mean": 0.8, "accuracy_sd": 0.1,
                         "n_selected_mean": 5.0, "n_selected_sd": 1.0, "precision_mean": np.nan, "precision_sd": np.nan,
                         "recall_mean": 0.5, "recall_sd": 0.2, "mean_variance": 0.01, "log_likelihood": -3.0})
    fig = plot_method_panels(summary_frame(rows), title="t", labels={"random": "Rand"})
    assert isinstance(fig, Figure) and len(fig.axes) == 6
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["correlation", "Rand"]
    mats = [simulate_selections(p, random_state=0) for p in (1.0, 0.5)]
    assert isinstance(plot_fig2_2(mats, [1.0, 0.5]), Figure)
    assert isinstance(plot_fig2_3([1.0, 0.5], [0.01, 0.1], [[0.01, 0.02], [0.1, 0.12]]), Figure)
    assert isinstance(plot_fig2_4([1.0, 0.5], [-3.0, 1.0]), Figure)
    with pytest.raises(ValueError, match=r"summary rows need columns \['model_selection'\]"):
        summary_frame([{"method": "x"}])
