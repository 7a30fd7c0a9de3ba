"""Fewer, larger jobs: grouping work into one job (chapters 3 and 4's method_groups and summaries_one_job,
datasets.synthetic_one_job,
chapter 5's groups, the group_jobs of regression, multiclass, paper and the premises) changes how many jobs run,
never which files the workflow writes (a forced dry run of the quick config with
and without the grouping); per-fold seeds do not depend on the grouping, so the files' content does not either
(tests/test_evaluate_reproduces_workflow.py runs the folds themselves)."""

from collections import Counter
from pathlib import Path

import pytest
from dry_run import forced_dry_run
import yaml

REPO = Path(__file__).resolve().parents[1]

# the quick config with the thesis config's three draws of each synthetic set (the draws' jobs are grouped too)
DRAWS = {"chapter3": {"draws": {"n": 3}}, "chapter4": {"draws": {"n": 3}}}
# ... and with every grouping turned off: a job per method, per synthetic set
UNGROUPED = {"chapter3": {"method_groups": [], "premises": {"group_jobs": False}, "summaries_one_job": False,
                          "draws": {"n": 3}},
             "chapter4": {"method_groups": [], "summaries_one_job": False, "draws": {"n": 3}},
             "datasets": {"synthetic_one_job": False},
             "chapter5": {"prediction": {"group": []}, "learning_curve": {"group": []}},
             "regression": {"figR_2": {"group_jobs": False}}, "multiclass": {"group_jobs": False},
             "paper": {"tableP_2": {"group_jobs": False}}}


def _dry_run(workdir, overrides=None):
    """{rule: job count} and the set of output files of a forced dry run of the quick config."""
    configs = [REPO / "config.yaml"]
    if overrides:
        configs.append(workdir / "overrides.yaml")
        configs[-1].write_text(yaml.safe_dump(overrides))
    jobs = forced_dry_run(workdir, "--configfile", *configs)
    rules = Counter(j["rule"] for j in jobs)
    outputs = {f for j in jobs for f in j["output"]}
    return rules, outputs


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    grouped = _dry_run(tmp_path_factory.mktemp("grouped"), DRAWS)
    ungrouped = _dry_run(tmp_path_factory.mktemp("ungrouped"), UNGROUPED)
    return grouped, ungrouped


def test_grouping_writes_the_same_files(runs):
    (_, grouped), (_, ungrouped) = runs
    assert grouped == ungrouped
    assert any(f.startswith("results/chapter3/folds/xor/stabsel_lpboost/") for f in grouped)


def test_grouping_runs_fewer_jobs(runs):
    (grouped, _), (ungrouped, _) = runs
    # chapter 3: one job per (data set, group of folds) for all six methods; chapter 4 the same for its four
    assert grouped["ch3_fold_group1"] * 6 == ungrouped["ch3_fold"] and "ch3_fold" not in grouped
    assert grouped["ch4_fold_group1"] * 4 == ungrouped["ch4_fold"] and "ch4_fold" not in grouped
    # every synthetic set and draw in one job; the CSV matrices keep one job each (their file is the input)
    n_csv = len(yaml.safe_load((REPO / "config.yaml").read_text())["datasets"]["csv"])
    assert grouped["synthetic_datasets"] == 1 and "synthetic_datasets" not in ungrouped
    assert grouped["dataset"] == n_csv and ungrouped["dataset"] > n_csv + 20  # 14 sets and their draws
    # one job per chapter summarises every data set and its draws (23) and draws their panels (11)
    for short in ("ch3", "ch4"):
        assert grouped[f"{short}_summaries"] == 1 and f"{short}_summary" not in grouped
        assert ungrouped[f"{short}_summary"] == 23 and sum(n for r, n in ungrouped.items() if r.startswith(f"{short}_fig")) >= 11
    # at most 300 jobs even with three draws (the ungrouped layout, the thesis config's grain, has over 600)
    assert sum(grouped.values()) <= 300 < 600 < sum(ungrouped.values())
