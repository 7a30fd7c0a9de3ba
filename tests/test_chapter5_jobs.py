"""Table P1's and figure 5.5's cells grouped into fewer jobs (chapter5.prediction.group,
chapter5.learning_curve.group) write the same files.

Forced dry runs of the quick config up to table P1 and figure 5.5, with the grouping of config.yaml and
with other groupings given by ``--config``: the ``ch5_predict`` and ``ch5_learning_curve`` jobs are fewer
when grouped, each job has its own log and benchmark, and the union of their outputs is the same set of
per-cell files (same paths) as one job per cell. That the files' bytes do not depend on the grouping either
(each cell keeps its seed) is checked by running both layouts on the tiny workflow config (slow).
"""

import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from dry_run import forced_dry_run
import yaml

REPO = Path(__file__).resolve().parents[1]
TARGETS = ["figures/table_P1.csv", "figures/fig5_5.png"]
RULES = ("ch5_predict", "ch5_predict_raw", "ch5_learning_curve")


def _predict_jobs(workdir, *args):
    """(rule, outputs, log, benchmark, wildcards) of every ch5_predict, ch5_predict_raw, ch5_learning_curve and
    ch5_table_P1 job of a forced dry run up to table P1 and figure 5.5."""
    jobs = forced_dry_run(workdir, *TARGETS, "--cores", "1", *args, timeout=300)
    return [j for j in jobs if j["rule"] in (*RULES, "ch5_table_P1")]


def _cells(config):
    """(cv, protocol, approach, fold) of every cell of table P1 in a config (its defaults as the schema's)."""
    pred = config["chapter5"]["prediction"]
    schema = yaml.safe_load((REPO / "schemas" / "chapter5.schema.yaml").read_text())
    approaches = pred.get("approaches", schema["properties"]["prediction"]["properties"]["approaches"]["default"])
    return {
        (cv, protocol, approach, fold)
        for cv in ("random", "homology")
        for protocol in pred["protocols"]
        for approach in approaches
        if cv == "random" or approach in pred["homology_approaches"]
        for fold in range(pred["n_folds"])
    }


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("dry")


@pytest.fixture(scope="module")
def runs(workdir):
    quick = ["--configfile", str(REPO / "config.yaml")]
    return {
        "quick": _predict_jobs(workdir, *quick),
        "none": _predict_jobs(workdir, *quick, "--config",
                              "chapter5={prediction: {group: []}, learning_curve: {group: []}}"),
        "fold": _predict_jobs(workdir, *quick, "--config",
                              "chapter5={prediction: {group: [fold]}, learning_curve: {group: [fold]}}"),
    }


@pytest.fixture(scope="module")
def layouts(runs):
    """The ch5_predict jobs of each run."""
    return {name: [j for j in jobs if j["rule"] == "ch5_predict"] for name, jobs in runs.items()}


def test_the_quick_config_groups_table_P1_into_one_job_per_cv_and_approach(layouts):
    config = yaml.safe_load((REPO / "config.yaml").read_text())
    assert config["chapter5"]["prediction"]["group"] == ["protocol", "fold"]
    cells = _cells(config)
    pred = config["chapter5"]["prediction"]
    per_job = len(pred["protocols"]) * pred["n_folds"]
    assert len(layouts["none"]) == len(cells) == 120
    assert len(layouts["quick"]) == len(cells) // per_job == 20
    assert len(layouts["fold"]) == len(cells) // pred["n_folds"] == 40
    # a grouped job: the cv and the approach as wildcards, every protocol and fold of them as its files
    for job in layouts["quick"]:
        wildcards = job["wildcards"]
        assert set(wildcards) == {"cv", "approach"}
        assert len(job["output"]) == 3 * per_job
        assert all(f"/{wildcards['cv']}/" in f and f"/{wildcards['approach']}/" in f for f in job["output"])


@pytest.mark.parametrize("grouping", ["quick", "fold"])
def test_grouping_writes_the_same_files(layouts, grouping):
    config = yaml.safe_load((REPO / "config.yaml").read_text())
    expected = {
        f"results/chapter5/predict/{cv}/{protocol}/{approach}/fold{fold}{ext}"
        for cv, protocol, approach, fold in _cells(config)
        for ext in (".npz", ".json", ".timing.json")
    }
    ungrouped = [f for job in layouts["none"] for f in job["output"]]
    grouped = [f for job in layouts[grouping] for f in job["output"]]
    assert len(ungrouped) == len(set(ungrouped)) and len(grouped) == len(set(grouped))  # one job per file
    assert set(grouped) == set(ungrouped) == expected


def test_the_raw_scale_cells_are_their_approaches_cells_under_their_own_paths(runs, workdir):
    # chapter5.prediction.scales.raw: the original representation again on raw-scale windows, every cv x protocol x
    # fold of its standardised cells, as new files; the standardised cells' files are those without it
    config = yaml.safe_load((REPO / "config.yaml").read_text())
    raw = config["chapter5"]["prediction"]["scales"]["raw"]
    assert raw == ["original"]
    expected = {
        f"results/chapter5/predict_raw/{cv}/{protocol}/{approach}/fold{fold}{ext}"
        for cv, protocol, approach, fold in _cells(config)
        if approach in raw
        for ext in (".npz", ".json", ".timing.json")
    }
    for name, run in runs.items():
        jobs = [j for j in run if j["rule"] == "ch5_predict_raw"]
        files = [f for job in jobs for f in job["output"]]
        assert len(files) == len(set(files)) and set(files) == expected, name
        assert all("results/peptides/encoded_raw.npz" in job["input"] for job in jobs), name
        assert not any("results/peptides/encoded.npz" in job["input"] for job in jobs), name
        table = next(j for j in run if j["rule"] == "ch5_table_P1")
        assert {f for f in expected if f.endswith(".json") and not f.endswith(".timing.json")} <= set(table["input"])
    assert len([j for j in runs["quick"] if j["rule"] == "ch5_predict_raw"]) == 2  # one job per CV scheme
    assert "logs/chapter5/predict_raw/homology/original.log" in {p for j in runs["quick"] for p in j["log"]}
    # without the key (the thesis config's default): no cell on raw scales, no raw encoding
    none = _predict_jobs(workdir, "--configfile", str(REPO / "config.yaml"), "--config",
                         "chapter5={prediction: {scales: {raw: []}}}")
    assert [j for j in none if j["rule"] == "ch5_predict_raw"] == []


def test_raw_scales_for_an_approach_not_run_is_an_error_naming_it(workdir):
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
           "--dry-run", "figures/table_P1.csv", "--cores", "1", "--configfile", str(REPO / "config.yaml"),
           "--config", "chapter5={prediction: {approaches: [pwm, pwm_prior], homology_approaches: [pwm_prior]}}"]
    run = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=300)
    assert run.returncode != 0
    assert "chapter5.prediction.scales.raw: ['original'] not among chapter5.prediction.approaches" in run.stdout + run.stderr


def test_figure_5_5_in_one_job_writes_the_same_files(runs):
    config = yaml.safe_load((REPO / "config.yaml").read_text())
    lc = config["chapter5"]["learning_curve"]
    assert lc["group"] == ["representation", "fold"]
    expected = {
        f"results/chapter5/learning_curve/{rep}/fold{fold}{ext}"
        for rep in lc["representations"]
        for fold in range(lc["n_folds"])
        for ext in (".json", ".timing.json")
    }
    jobs = {name: [j for j in run if j["rule"] == "ch5_learning_curve"] for name, run in runs.items()}
    assert [len(jobs[name]) for name in ("none", "fold", "quick")] == [9, 3, 1]
    for name, run in jobs.items():
        files = [f for job in run for f in job["output"]]
        assert len(files) == len(set(files)) and set(files) == expected, name


def test_every_job_has_its_own_log_and_benchmark(runs):
    for run in runs.values():
        for rule in RULES:
            jobs = [j for j in run if j["rule"] == rule]
            for key in ("log", "benchmark"):
                paths = [p for job in jobs for p in job[key]]
                assert len(paths) == len(jobs) == len(set(paths))
    layouts = {name: [j for j in run if j["rule"] == "ch5_predict"] for name, run in runs.items()}
    # without grouping, today's per-cell paths (the archived thesis run's layout)
    assert "logs/chapter5/predict/random/capped/original/fold0.log" in {p for j in layouts["none"] for p in j["log"]}
    assert "logs/chapter5/predict/random/original.log" in {p for j in layouts["quick"] for p in j["log"]}


# a few cells of the tiny workflow config: an approach of the sparse-filtering features, one of the 648 values
# and randSel's two rows (one seed per fold), under both CV schemes
TINY_CELLS = [
    f"results/chapter5/predict/{cv}/{protocol}/{approach}/fold{fold}{ext}"
    for cv, approach in [("random", "randsel"), ("random", "randsel_mkl"), ("random", "original"),
                         ("homology", "pwm_prior")]
    for protocol in ("capped", "adequate")
    for fold in (0, 1)
    for ext in (".npz", ".json")
] + [f"results/chapter5/learning_curve/{rep}/fold{fold}.json" for rep in ("scales", "sf") for fold in (0, 1)]


@pytest.mark.slow
def test_grouped_and_ungrouped_jobs_write_the_same_bytes(tmp_path):
    overrides = [str(path) for path in sorted((REPO / "tests" / "workflow").glob("*.yaml"))]

    def run(workdir, group, lc_group, targets):
        cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
               *targets, "--cores", "1", "--configfile", str(REPO / "config.yaml"), *overrides,
               "--config", f"chapter5={{prediction: {{group: {group}}}, learning_curve: {{group: {lc_group}}}}}"]
        done = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]

    one, grouped = tmp_path / "one", tmp_path / "grouped"
    one.mkdir()
    run(one, "[]", "[]", TINY_CELLS)
    # the same inputs (windows, encodings, homology, in-fold sparse filters), then the grouped jobs
    shutil.copytree(one / "results", grouped / "results", symlinks=True)
    shutil.rmtree(grouped / "results" / "chapter5")
    run(grouped, "[protocol, fold]", "[representation, fold]", TINY_CELLS)
    assert (grouped / "logs/chapter5/predict/random/randsel.log").exists()
    assert (grouped / "logs/chapter5/learning_curve/all.log").exists()
    for name in TINY_CELLS:
        assert filecmp.cmp(one / name, grouped / name, shallow=False), name
