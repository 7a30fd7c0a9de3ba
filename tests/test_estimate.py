"""bench/estimate_thesis_cost.py: strata, reductions and their extrapolation, the merged projection (no job is timed)."""

import importlib.util
import json
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "estimate", Path(__file__).resolve().parents[1] / "bench" / "estimate_thesis_cost.py"
)
estimate = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(estimate)


def _job(rule, inputs=(), **wildcards):
    return {"rule": rule, "wildcards": wildcards, "input": list(inputs), "output": [f"{rule}.out"], "local": False}


def test_strata_ignore_fold_and_data_set_but_split_shapes():
    shapes = {"xor": (300, 200), "linear_weston": (300, 200), "allaml": (72, 7129)}
    a = _job("ch3_fold", ["results/datasets/xor.npz"], dataset="xor", ch3_method="stabsel_lasso", ch3_first="0",
             ch3_last="0")
    b = _job("ch3_fold", ["results/datasets/linear_weston.npz"], dataset="linear_weston", ch3_method="stabsel_lasso",
             ch3_first="7", ch3_last="7")
    c = _job("ch3_fold", ["results/datasets/allaml.npz"], dataset="allaml", ch3_method="stabsel_lasso",
             ch3_first="0", ch3_last="0")
    d = _job("ch3_fold", ["results/datasets/xor.npz"], dataset="xor", ch3_method="correlation", ch3_first="0",
             ch3_last="0")
    assert estimate.stratum_of(a, shapes) == estimate.stratum_of(b, shapes)
    assert estimate.stratum_of(a, shapes) != estimate.stratum_of(c, shapes)
    assert estimate.stratum_of(a, shapes) != estimate.stratum_of(d, shapes)
    # a data-set wildcard of another name (paper_tableP_2_method's p2_dataset) is drawn too
    p1 = _job("paper_tableP_2_method", ["results/datasets/xor.npz"], p2_dataset="xor", p2_method="fohsic")
    p2 = _job("paper_tableP_2_method", ["results/datasets/linear_weston.npz"], p2_dataset="linear_weston",
              p2_method="fohsic")
    assert estimate.stratum_of(p1, shapes) == estimate.stratum_of(p2, shapes)


def test_parse_reduce_and_rule_filter():
    assert estimate.parse_reduce("ch4_fold[ch4_method=randsel,dataset=colon]:chapter4.dataset_selectors.colon."
                                 "randsel.n_subsets=250,500") == (
        "ch4_fold", {"ch4_method": "randsel", "dataset": "colon"},
        ["chapter4", "dataset_selectors", "colon", "randsel", "n_subsets"], [250, 500])
    assert estimate.parse_reduce("reg_recovery:regression.figR_2.n_repeats=2")[3] == [2]
    for bad in ["ch3_fold", "ch3_fold:a.b=0", "ch3_fold:a.b=3,3", "ch3_fold:a.b=1,2,3"]:
        with pytest.raises(SystemExit):
            estimate.parse_reduce(bad)
    assert estimate.parse_rule_filter("mc_fold[mc_method=randsel,shape=50x4434]") == (
        "mc_fold", {"mc_method": "randsel", "shape": "50x4434"})
    with pytest.raises(SystemExit):
        estimate.parse_rule_filter("mc_fold[")


def test_extrapolation_is_linear_and_never_below_a_measurement():
    # a fixed part of 10 s plus 0.5 s per unit: 25 -> 22.5, 50 -> 35; at 1000: 510
    assert estimate.extrapolate([(25, 22.5), (50, 35.0)], 1000) == pytest.approx(510.0)
    assert estimate.extrapolate([(2, 4.0)], 50) == pytest.approx(100.0)
    # noise that tilts the line downwards: at least the larger measurement
    assert estimate.extrapolate([(25, 30.0), (50, 29.0)], 1000) == pytest.approx(30.0)


def test_config_value_merges_files_later_wins(tmp_path):
    extra = tmp_path / "extra.yaml"
    extra.write_text("chapter3:\n  selectors:\n    stabsel_lasso: {n_bootstraps: 7}\n")
    thesis = Path(estimate.REPO) / "config" / "thesis.yaml"
    assert estimate.config_value([thesis], ["chapter3", "selectors", "stabsel_lasso", "n_bootstraps"]) == 1000
    assert estimate.config_value([thesis, extra], ["chapter3", "selectors", "stabsel_lasso", "n_bootstraps"]) == 7
    with pytest.raises(SystemExit):
        estimate.config_value([thesis], ["chapter3", "methods"])  # not a number


def test_merge_projects_stages_and_later_files_replace_strata(tmp_path, capsys):
    def run(cpu):
        return {"cores": 2, "threads": 1, "machine": "test", "overhead": [0, 0], "results": [
            {"stratum": ["ch3_fold", ["ch3_method", "random"]], "job": "j", "n_jobs": 60, "stage": "chapter 3",
             "local": False, "wall": cpu, "cpu": cpu, "rss_mb": 100},
            {"stratum": ["mc_fold", ["mc_method", "fohsic"]], "job": "k", "n_jobs": 20, "stage": "multi-class",
             "local": False, "wall": 360.0, "cpu": 360.0, "rss_mb": 100, "lower_bound": True}]}
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    first.write_text(json.dumps(run(600.0)))
    second.write_text(json.dumps({**run(60.0), "results": run(60.0)["results"][:1]}))
    estimate.main(["--merge", str(first), str(second)])
    out = capsys.readouterr().out
    # chapter 3: 60 jobs x 60 s (the second file's) = 1 h; multi-class 20 x 360 s = 2 h; 3 CPU-h on 2 cores
    assert "chapter 3" in out and "multi-class" in out
    assert "Projected wall time on 2 cores: 1.50 h" in out
    assert "lower bounds only" in out
