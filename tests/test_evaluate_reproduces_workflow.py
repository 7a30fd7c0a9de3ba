"""`fscompbio evaluate` and the workflow run one fold the same way: the same fold runner
(fscompbio.evaluation.evaluate_folds) and the same seeds (fold_seeds), so the command line given the workflow's
seed, data set name and settings reproduces a workflow fold's selection byte for byte, in both chapters."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from fscompbio.cli import main
from fscompbio.environment import KERNEL_VARIABLES, pin_cpu_kernels

REPO = Path(__file__).resolve().parents[1]

# a small chapter 3 and 4: 4 outer folds, 2 per job, few bootstraps, widths and sizes
SETTINGS = {
    "outer_folds": 4, "folds_run": None, "folds_per_job": 2, "model_selection": ["cv", "kta"],
    "widths": {"n_widths": 3, "low": -1.0, "high": 1.0}, "kta": {"max_sizes": 10},
    "cv": {"inner_folds": 2, "sizes": [1, 2, 5, 10]}, "draws": {"n": 1, "folds_run": None},
}


@pytest.fixture(scope="module")
def workflow_folds(tmp_path_factory):
    """One fold job per chapter on a user's 60 x 20 CSV, run by the workflow."""
    work = tmp_path_factory.mktemp("folds")
    rng = np.random.default_rng(5)
    X = rng.standard_normal((60, 20))
    df = pd.DataFrame(X.round(4), columns=[f"gene{j}" for j in range(20)])
    df.insert(0, "label", np.where(X[:, 4] - X[:, 11] > 0, "case", "control"))
    df.insert(0, "sample_id", [f"s{i}" for i in range(60)])
    df.to_csv(work / "tiny.csv", index=False)
    # the same samples in other units (scale and offset per gene), standardised when the data set is written
    units = df.copy()
    units.iloc[:, 2:] = units.iloc[:, 2:] * np.geomspace(1e-3, 1e3, 20) + np.linspace(-5.0, 5.0, 20)
    units.to_csv(work / "units.csv", index=False)
    cfg = {
        "seed": 31,
        "datasets": {"csv": {"tiny": {"path": str(work / "tiny.csv"), "positive_label": "case"},
                             "units": {"path": str(work / "units.csv"), "positive_label": "case",
                                       "standardize": True}}},
        "chapter3": {**SETTINGS, "datasets": ["tiny"], "methods": ["stabsel_lasso"],
                     "selectors": {"stabsel_lasso": {"n_bootstraps": 4}}, "dataset_selectors": {}},
        "chapter4": {**SETTINGS, "datasets": ["tiny", "units"], "methods": ["bahsic"],
                     "selectors": {"bahsic": {"step": 0.5}}, "dataset_selectors": {}},
    }
    (work / "tiny.yaml").write_text(yaml.safe_dump(cfg))
    targets = ["results/chapter3/folds/tiny/stabsel_lasso/folds2-3.json", "results/chapter4/folds/tiny/bahsic/folds0-1.json",
               "results/chapter4/folds/units/bahsic/folds0-1.json"]
    cmd = [sys.executable, "-m", "snakemake", *targets, "-s", str(REPO / "Snakefile"), "--directory", str(work),
           "--cores", "2", "--configfile", str(REPO / "config.yaml"), str(work / "tiny.yaml")]
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600, env=_unpinned())
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    return work


def _unpinned():
    """This process's environment without a choice of CPU kernels of the machine's own."""
    return {k: v for k, v in os.environ.items() if k not in KERNEL_VARIABLES}


def _cli(work, method, folds, model_selection, extra=(), data=None):
    """The command line in a process of its own with the workflow's CPU kernels, as the README says to run it
    (``eval "$(python -m fscompbio.environment pin)"``): the workflow's jobs run with them."""
    out = work / f"cli_{method}_{model_selection}.json"
    data = data or work / "results" / "datasets" / "tiny.npz"
    argv = ["evaluate", str(data), "--method", method, "--seed", "31",
            "--folds", "4", *[f"--fold={k}" for k in folds], "--model-selection", model_selection,
            "--inner-folds", "2", "--sizes", "1,2,5,10", "--kta-max-sizes", "10", "--n-widths", "3",
            "--width-low", "-1", "--width-high", "1", "--output", str(out), *extra]
    env = _unpinned()
    pin_cpu_kernels(env)
    run = subprocess.run([sys.executable, "-m", "fscompbio.cli", *argv], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(out.read_text())


@pytest.mark.parametrize("chapter, method, params, folds, job", [
    ("chapter3", "stabsel_lasso", ["--param", "n_bootstraps=4"], [2, 3], "folds2-3"),
    ("chapter4", "bahsic", ["--param", "step=0.5"], [0, 1], "folds0-1"),
])
@pytest.mark.parametrize("model_selection", ["cv", "kta"])
def test_evaluate_reproduces_a_workflow_fold(workflow_folds, chapter, method, params, folds, job, model_selection):
    wf = json.loads((workflow_folds / "results" / chapter / "folds" / "tiny" / method / f"{job}.json").read_text())
    cli = _cli(workflow_folds, method, folds, model_selection, params)
    assert cli["chapter"] == chapter and cli["name"] == "tiny"  # the method's chapter and the .npz's name
    for w, c in zip(wf["folds"], cli["folds"], strict=True):
        ref = w["results"][model_selection]
        assert c["fold"] == w["fold"]
        # byte for byte: every field of the workflow's result, serialised the same way
        for key, value in ref.items():
            assert json.dumps(c[key], sort_keys=True) == json.dumps(value, sort_keys=True), (key, c[key], value)
        assert c["selected_features"] == ref["selected_names"]


def test_another_chapter_or_name_gives_other_seeds(workflow_folds):
    wf = json.loads((workflow_folds / "results/chapter4/folds/tiny/bahsic/folds0-1.json").read_text())
    same = _cli(workflow_folds, "bahsic", [0], "kta", ["--param", "step=0.5"])
    other = _cli(workflow_folds, "bahsic", [0], "kta", ["--param", "step=0.5", "--name", "other"])
    assert same["folds"][0]["n_test"] == wf["folds"][0]["results"]["kta"]["n_test"]
    # another name: other outer folds (a different test part)
    assert other["name"] == "other" and other["folds"][0] != same["folds"][0]


def test_a_fold_out_of_range_is_a_usage_error(workflow_folds, capsys):
    code = main(["evaluate", str(workflow_folds / "results/datasets/tiny.npz"), "--method", "correlation",
                 "--folds", "4", "--fold", "4"])
    assert code == 2 and "fold 4 out of range for --folds 4" in capsys.readouterr().err


def test_a_data_set_standardised_when_written_is_scaled_again_by_each_training_part(workflow_folds):
    """``standardize: true`` scales the features over all samples when the data set is written; its folds scale
    each training part again by its own mean and sd, which cancels the first scaling, so no test sample's values
    reach a model: the workflow's fold is the command line's on the raw CSV with ``--standardize`` (per fold),
    and ``evaluate`` on the written data set scales by the training part without being told."""
    wf = json.loads((workflow_folds / "results/chapter4/folds/units/bahsic/folds0-1.json").read_text())
    from_npz = _cli(workflow_folds, "bahsic", [0, 1], "kta", ["--param", "step=0.5"],
                    data=workflow_folds / "results" / "datasets" / "units.npz")
    assert from_npz["settings"]["standardize"] is True
    raw = _cli(workflow_folds, "bahsic", [0, 1], "kta",
               ["--param", "step=0.5", "--standardize", "--name", "units", "--positive-label", "case"],
               data=workflow_folds / "units.csv")
    for w, c, r in zip(wf["folds"], from_npz["folds"], raw["folds"], strict=True):
        ref = w["results"]["kta"]
        for key, value in ref.items():  # the data set as written: byte for byte
            assert json.dumps(c[key], sort_keys=True) == json.dumps(value, sort_keys=True), (key, c[key], value)
        # the raw values scaled by the training part: the same model (scores equal to rounding)
        assert r["selected_features"] == ref["selected_names"] and r["accuracy"] == ref["accuracy"]
        assert r["sigma"] == pytest.approx(ref["sigma"], rel=1e-9)
