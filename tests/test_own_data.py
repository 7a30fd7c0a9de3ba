"""A user's own data set through the workflow: only its jobs (the ``own_data`` target or its file targets),
every outer fold by default, a label the chapters cannot use refused at the data-set job with the methods that
accept it, and a failed job's error on the console (the profiles' ``show-failed-logs``).

Each test plans or runs a handful of jobs in a temporary directory (seconds); the run of every method on an
80 x 300 CSV with three planted genes is the slow test at the end.
"""

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
PLANTED = ("gene17", "gene123", "gene250")


def _csv(path, n=80, d=300, labels=None, seed=36):
    """n samples x d genes; the label is the sign of the three planted genes' sum (plus noise), or ``labels``."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    planted = [int(g.removeprefix("gene")) for g in PLANTED]
    if labels is None:
        labels = np.where(X[:, planted].sum(axis=1) + 0.5 * rng.standard_normal(n) > 0, "sick", "well")
    df = pd.DataFrame(X.round(4), columns=[f"gene{j}" for j in range(d)])
    df.insert(0, "status", labels)
    df.insert(0, "patient", [f"p{i}" for i in range(n)])
    df.to_csv(path, index=False)
    return path


def _config(workdir, name="my_study", study_sets=("fake_class", "allaml"), **entry):
    """docs/own_data.md's my_study.yaml: the CSV under datasets.csv, listed beside some of the study's sets."""
    cfg = {
        "datasets": {"csv": {name: {"path": str(workdir / f"{name}.csv"), "label_column": "status",
                                    "id_column": "patient", **entry}}},
        "chapter3": {"datasets": [*study_sets, name]},
        "chapter4": {"datasets": [*study_sets, name]},
    }
    path = workdir / f"{name}.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return path


def _snakemake(workdir, *args, configs=()):
    # cwd = the repository: Snakemake applies profiles/default there, as it does for a user
    cmd = [sys.executable, "-m", "snakemake", *args, "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
           "--configfile", str(REPO / "config.yaml"), *map(str, configs)]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=1200)


def _jobs(dry_run_output):
    """[(rule, wildcards text)] of a dry run."""
    jobs, rule = [], None
    for line in dry_run_output.splitlines():
        if m := re.match(r"(?:local)?rule (\w+):", line):
            rule = m.group(1)
            jobs.append([rule, ""])
        elif line.strip().startswith("wildcards:") and jobs:
            jobs[-1][1] = line.split(":", 1)[1].strip()
    return [tuple(j) for j in jobs]


def test_own_data_builds_only_that_data_set_with_every_outer_fold(tmp_path):
    _csv(tmp_path / "my_study.csv")
    config = _config(tmp_path)
    run = _snakemake(tmp_path, "own_data", "--dry-run", "--cores", "2", configs=[config])
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-3000:]
    jobs = _jobs(run.stdout)
    assert jobs and all("my_study" in wc for rule, wc in jobs if wc), [j for j in jobs if "my_study" not in j[1]]
    rules = {rule for rule, _ in jobs}
    # the quick config runs every method of a chapter in one job per group of outer folds (method_groups)
    assert rules == {"dataset", "ch3_fold_group1", "ch4_fold_group1", "ch3_summary", "ch4_summary", "features",
                     "ch3_chapter3_my_study", "ch4_chapter4_my_study", "own_data"}
    # all 10 outer folds of the quick config for a user's set (the study's sets run the first 3)
    groups = {wc for rule, wc in jobs if rule == "ch3_fold_group1"}
    assert {re.search(r"ch3_first=(\d+), ch3_last=(\d+)", g).groups() for g in groups} == {
        ("0", "2"), ("3", "5"), ("6", "8"), ("9", "9")}
    # the same files as targets plan the same jobs
    files = _snakemake(tmp_path, "figures/my_study_features.csv", "figures/chapter3_my_study.png",
                       "figures/chapter4_my_study.png", "--dry-run", "--cores", "2", configs=[config])
    assert files.returncode == 0, files.stderr[-3000:]
    assert sorted(j for j in _jobs(files.stdout) if j[0] != "own_data") == sorted(j for j in jobs if j[0] != "own_data")
    # the study's sets keep the quick reduction
    study = _snakemake(tmp_path, "figures/fake_class_features.csv", "--dry-run", "--cores", "2", configs=[config])
    assert study.returncode == 0, study.stderr[-3000:]
    assert {wc.split("ch3_first=")[1] for r, wc in _jobs(study.stdout) if r == "ch3_fold_group1"} == {"0, ch3_last=2"}


def test_a_multiclass_label_is_refused_at_the_data_set_job_with_the_methods_that_accept_it(tmp_path):
    labels = np.array(["a", "b", "c", "d"] * 20)
    _csv(tmp_path / "four.csv", labels=labels)
    config = _config(tmp_path, name="four")
    run = _snakemake(tmp_path, "figures/chapter3_four.png", "--cores", "1", configs=[config])
    out = run.stdout + run.stderr
    assert run.returncode != 0
    line = next(x for x in out.splitlines() if "a multi-class label" in x)
    assert "four.csv: column 'status': a multi-class label (4 classes)" in line
    assert "chapter3.datasets and chapter4.datasets need two classes" in line
    assert "randsel, bahsic, fohsic, ovr_l1_logistic" in line
    assert not (tmp_path / "results" / "chapter3" / "folds").exists()  # no fold ran


def test_a_continuous_label_is_refused_too(tmp_path):
    _csv(tmp_path / "cont.csv", labels=np.linspace(0.5, 9.5, 80))
    config = _config(tmp_path, name="cont")
    run = _snakemake(tmp_path, "figures/chapter4_cont.png", "--cores", "1", configs=[config])
    out = run.stdout + run.stderr
    assert run.returncode != 0 and "a continuous label (80 distinct values from 0.5 to 9.5)" in out
    assert "local_learning, hsic_lasso, bahsic, randsel (the workflow runs them on a datasets.csv entry listed " \
           "under regression.folds.datasets" in out


def test_a_declared_multiclass_task_is_refused_before_anything_runs(tmp_path):
    _csv(tmp_path / "four.csv", labels=np.array(["a", "b", "c", "d"] * 20))
    config = _config(tmp_path, name="four", task="multiclass")
    run = _snakemake(tmp_path, "own_data", "--dry-run", configs=[config])
    assert run.returncode != 0
    assert "datasets.csv.four (task multiclass): a multi-class label" in run.stdout + run.stderr


def _regression_config(workdir, name="dose", outer_folds=3, **entry):
    """A CSV with a real-valued label under datasets.csv and regression.folds.datasets, nothing else of yours."""
    cfg = {
        "datasets": {"csv": {name: {"path": str(workdir / f"{name}.csv"), "label_column": "status",
                                    "id_column": "patient", **entry}}},
        "regression": {"folds": {"datasets": [name], "outer_folds": outer_folds}},
    }
    path = workdir / f"{name}.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return path


def _regression_csv(path, seed, n=90, d=12):
    """A response of two genes (one through a sine) at random columns; returns their names."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = 2 * X[:, 0] + 3 * np.sin(X[:, 1]) + 0.2 * rng.standard_normal(n)
    perm = rng.permutation(d)
    df = pd.DataFrame(X[:, perm].round(4), columns=[f"gene{j}" for j in range(d)])
    df.insert(0, "status", y.round(4))
    df.insert(0, "patient", [f"p{i}" for i in range(n)])
    df.to_csv(path, index=False)
    return {f"gene{c}" for c in range(d) if perm[c] < 2}


def test_a_real_valued_label_runs_the_regression_folds_of_your_data_only(tmp_path):
    """own_data on a CSV listed under regression.folds.datasets: one fold job per method, its panel and its
    features table, nothing of the study; each fold keeps the two genes of the response, and kernel ridge on them
    explains most of the held-out variance."""
    planted = _regression_csv(tmp_path / "dose.csv", seed=3)
    config = _regression_config(tmp_path)
    plan = _snakemake(tmp_path, "own_data", "--dry-run", configs=[config])
    assert plan.returncode == 0, plan.stderr[-3000:]
    assert sorted(_jobs(plan.stdout)) == sorted([
        ("dataset", "dataset=dose"), ("features", "dataset=dose"), ("own_data", ""), ("reg_summary", "dataset=dose"),
        *[("reg_fold", f"dataset=dose, reg_fold_method={m}") for m in ("randsel", "bahsic", "hsic_lasso",
                                                                       "local_learning")]])
    run = _snakemake(tmp_path, "own_data", "--cores", "2", configs=[config])
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    summary = pd.read_csv(tmp_path / "results" / "regression" / "summary" / "dose.csv")
    methods = ("randsel", "bahsic", "hsic_lasso", "local_learning")
    assert set(zip(summary["method"], summary["model_selection"])) == {
        ("randsel", "own"), *((m, ms) for m in methods for ms in ("cv", "kta"))}
    chosen = summary[summary["model_selection"] != "own"]
    assert (chosen["r2_min"] > 0.9).all() and (chosen["n_selected_min"] >= 2).all(), chosen
    table = pd.read_csv(tmp_path / "figures" / "dose_features.csv")
    kept = table[(table["model_selection"] != "own") & (table["selection_frequency"] == 1.0)]
    assert set(kept["chapter"]) == {"regression"} and set(kept["feature"]) == planted
    assert (tmp_path / "figures" / "regression_dose.png").stat().st_size > 10_000
    assert not (tmp_path / "results" / "datasets" / "fake_class.npz").exists()
    # the command line's folds of the workflow's data set, seed and settings are the workflow's folds
    from fscompbio.cli import main

    out = tmp_path / "cli.json"
    assert main(["evaluate", str(tmp_path / "results" / "datasets" / "dose.npz"), "--method", "bahsic", "--param",
                 "step=0.25", "--seed", "2014", "--folds", "3", "--inner-folds", "5", "--output", str(out)]) == 0
    cli = json.loads(out.read_text())["folds"]
    job = json.loads((tmp_path / "results" / "regression" / "folds" / "dose" / "bahsic.json").read_text())["folds"]
    for mine, theirs in zip(cli, job, strict=True):  # equal up to the CPU kernels' rounding (the jobs pin theirs)
        theirs = theirs["results"]["cv"]
        assert mine["selected_names"] == theirs["selected_names"] and mine["alpha"] == theirs["alpha"]
        assert mine["r2"] == pytest.approx(theirs["r2"], rel=1e-9) and mine["gamma"] == pytest.approx(theirs["gamma"])


def test_two_classes_under_regression_folds_are_refused_at_the_data_set_job(tmp_path):
    _csv(tmp_path / "dose.csv", n=30, d=5, labels=np.array(["sick", "well"] * 15))
    run = _snakemake(tmp_path, "own_data", "--cores", "1", configs=[_regression_config(tmp_path)])
    assert run.returncode != 0
    assert (f"{tmp_path / 'dose.csv'}: column 'status' has 2 classes, not a real-valued label, as "
            "regression.folds.datasets needs") in run.stdout + run.stderr
    assert not (tmp_path / "results" / "regression").exists()


@pytest.mark.parametrize("profile", sorted(p.parent.name for p in (REPO / "profiles").glob("*/config.yaml")))
def test_every_profile_shows_failed_logs(profile):
    assert yaml.safe_load((REPO / "profiles" / profile / "config.yaml").read_text())["show-failed-logs"] is True


def test_bad_input_reaches_the_console_with_file_row_and_column(tmp_path):
    """A NaN in the CSV: the console (not only logs/) shows the line naming the file, row and column."""
    path = _csv(tmp_path / "my_study.csv", n=20, d=5, labels=np.array(["sick", "well"] * 10))
    text = path.read_text().splitlines()
    cells = text[3].split(",")
    cells[3] = ""  # row 4 (the header is row 1), column gene1
    text[3] = ",".join(cells)
    path.write_text("\n".join(text) + "\n")
    config = _config(tmp_path)
    run = _snakemake(tmp_path, "results/datasets/my_study.npz", "--cores", "1", configs=[config])
    assert run.returncode != 0
    assert f"{path}: missing value at row 4, column 'gene1' (sample 'p2')" in run.stdout + run.stderr


def test_features_of_different_scales_are_named_on_the_console_and_standardised_on_request(tmp_path):
    """A gene measured in other units (sd 10,000 times the others'): the data-set job names it on the console with
    the config key that scales it; with ``standardize: true`` every feature of the data set has unit variance.
    An entry without the key keeps its params, so data sets converted before the option existed are not rebuilt."""
    path = _csv(tmp_path / "my_study.csv", n=30, d=6, labels=np.array(["sick", "well"] * 15))
    df = pd.read_csv(path)
    df["gene4"] *= 1e4
    df.to_csv(path, index=False)
    run = _snakemake(tmp_path, "results/datasets/my_study.npz", "--cores", "1", configs=[_config(tmp_path)])
    assert run.returncode == 0, run.stderr[-3000:]
    assert (f"fscompbio: warning: {path}: the features' standard deviations range from " in run.stderr
            and "(gene4), over 1,000 times" in run.stderr
            and "`standardize: true` under datasets.csv.my_study in the config" in run.stderr), run.stderr[-3000:]
    raw = np.load(tmp_path / "results" / "datasets" / "my_study.npz")["X"]
    assert raw[:, 4].std() > 1e3

    (tmp_path / "results" / "datasets" / "my_study.npz").unlink()
    run = _snakemake(tmp_path, "results/datasets/my_study.npz", "--cores", "1",
                     configs=[_config(tmp_path, standardize=True)])
    assert run.returncode == 0, run.stderr[-3000:]
    assert "fscompbio: warning" not in run.stderr
    X = np.load(tmp_path / "results" / "datasets" / "my_study.npz")["X"]
    np.testing.assert_allclose(X.std(axis=0), 1.0, rtol=1e-12)
    np.testing.assert_allclose(X * raw.std(axis=0) + raw.mean(axis=0), raw, rtol=1e-9, atol=1e-9)

    schema = yaml.safe_load((REPO / "schemas" / "config.schema.yaml").read_text())
    entry = schema["properties"]["datasets"]["properties"]["csv"]["additionalProperties"]["properties"]
    assert entry["standardize"]["type"] == "boolean" and "default" not in entry["standardize"]


@pytest.mark.slow
def test_planted_genes_lead_the_features_table(tmp_path):
    """docs/own_data.md's own-data command on 80 x 300 with three planted genes: only its jobs; the planted genes
    are the three most often selected for at least three methods (measured: see docs/own_data.md)."""
    _csv(tmp_path / "my_study.csv")
    config = _config(tmp_path)
    start = time.perf_counter()
    run = _snakemake(tmp_path, "own_data", "--cores", "2", configs=[config])
    seconds = time.perf_counter() - start
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    print(f"own_data on 80 x 300: {seconds:.0f} s")
    table = pd.read_csv(tmp_path / "figures" / "my_study_features.csv")
    assert not (tmp_path / "results" / "datasets" / "fake_class.npz").exists()  # nothing of the study
    leading = []
    for (chapter, method), t in table.groupby(["chapter", "method"]):
        best = t.groupby("feature")["selection_frequency"].max().sort_values(ascending=False, kind="stable")
        if set(best.index[:3]) == set(PLANTED) and best.iloc[3:].max() < best.iloc[:3].min():
            leading.append(method)
    assert len(leading) >= 3, (leading, table.head(20))


def test_own_data_without_a_data_set_of_your_own_says_what_to_add(tmp_path):
    run = _snakemake(tmp_path, "own_data", "--dry-run")
    assert run.returncode != 0
    assert ("own_data: no data set of your own in chapter3.datasets, chapter4.datasets or regression.folds.datasets"
            in run.stdout + run.stderr)
