"""A config's group_jobs runs several items of a rule in one job, and changes nothing else.

reg_recovery (regression.figR_2.group_jobs), mc_fold (multiclass.group_jobs), paper_tableP_2_method
(paper.tableP_2.group_jobs) and premise (chapter3.premises.group_jobs) run one item per job by default (the
thesis config) and every item of a data set per job when grouped (the quick config). A forced dry run of the
quick config, with the thesis config's draws of the synthetic sets (the premises' items), both ways: fewer jobs
grouped, each item's files at the same paths, one log per job.
"""

from pathlib import Path

import pytest
from dry_run import forced_dry_run
import yaml

from fscompbio.datasets import DATASETS, draw_name

REPO = Path(__file__).resolve().parents[1]
QUICK = yaml.safe_load((REPO / "config.yaml").read_text())
THESIS = yaml.safe_load((REPO / "config" / "thesis.yaml").read_text())
RULES = ["reg_recovery", "mc_fold", "paper_tableP_2_method", "premise"]
#: the group_jobs key of each rule
KEYS = {
    "reg_recovery": ("regression", "figR_2"),
    "mc_fold": ("multiclass",),
    "paper_tableP_2_method": ("paper", "tableP_2"),
    "premise": ("chapter3", "premises"),
}
#: the synthetic sets of chapter 3 (premises) and the draws of each
SETS = [d for d in QUICK["chapter3"]["datasets"] if d in DATASETS]
N_DRAWS = THESIS["chapter3"]["draws"]["n"]
#: the quick config runs one draw; the premises group the draws of a set, so the test runs the thesis' three
DRAWS = {"chapter3": {"draws": {"n": N_DRAWS}}, "chapter4": {"draws": {"n": N_DRAWS}}}
#: the consumers of the four rules' outputs, and the premises of every draw
TARGETS = ["figures/figR_2.csv", "figures/figM_1.csv", "figures/tableP_2.csv",
           *[f"results/premises/{draw_name(d, k)}.json" for d in SETS for k in range(N_DRAWS)]]


def _section(config, path):
    for key in path:
        config = config[key]
    return config


def _jobs(workdir, *configfiles):
    """{rule: [(outputs, logs)]} of a forced dry run of the quick config (with ``configfiles`` over it)."""
    jobs = {}
    for job in forced_dry_run(workdir, "--cores", "1", "--configfile", REPO / "config.yaml", *configfiles, "--",
                              *TARGETS):
        jobs.setdefault(job["rule"], []).append({"output": job["output"], "log": job["log"]})
    return jobs


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    """The jobs of the quick config as it is (grouped) and with every group_jobs of the four rules false."""
    ungrouped = {"chapter3": {"draws": {"n": N_DRAWS}}, "chapter4": {"draws": {"n": N_DRAWS}}}
    for path in KEYS.values():
        node = ungrouped
        for key in path:
            node = node.setdefault(key, {})
        node["group_jobs"] = False
    workdir = tmp_path_factory.mktemp("group_jobs")
    (workdir / "ungrouped.yaml").write_text(yaml.safe_dump(ungrouped))
    (workdir / "draws.yaml").write_text(yaml.safe_dump(DRAWS))
    return _jobs(workdir, workdir / "draws.yaml"), _jobs(workdir, workdir / "ungrouped.yaml")


#: the thesis config groups the items of a few seconds each and keeps a job per item of minutes
THESIS_GROUPED = {"reg_recovery": False, "mc_fold": True, "paper_tableP_2_method": False, "premise": True}


def test_the_quick_config_groups_and_the_thesis_config_groups_its_short_items():
    for rule, path in KEYS.items():
        assert _section(QUICK, path)["group_jobs"] is True
        assert _section(THESIS, path)["group_jobs"] is THESIS_GROUPED[rule]


@pytest.mark.parametrize("rule", RULES)
def test_grouping_drops_the_jobs_and_keeps_every_output(both, rule):
    grouped, ungrouped = both
    reg, mc, tp2 = QUICK["regression"]["figR_2"], QUICK["multiclass"], QUICK["paper"]["tableP_2"]
    n_mc = (len(mc["methods"]) - 1) * len(mc["model_selection"]) + 1  # the baseline: its own CV only
    items, jobs = {  # quick: 32 -> 4, 24 -> 2, 18 -> 3, 18 -> 6
        "reg_recovery": (len(reg["datasets"]) * len(reg["methods"]) * len(reg["sample_sizes"]), len(reg["datasets"])),
        "mc_fold": (len(mc["datasets"]) * n_mc * mc["outer_folds"], len(mc["datasets"])),
        "paper_tableP_2_method": (len(tp2["datasets"]) * len(tp2["methods"]), len(tp2["datasets"])),
        "premise": (len(SETS) * N_DRAWS, len(SETS)),
    }[rule]
    # one job per item ungrouped, one per data set grouped
    assert (len(ungrouped[rule]), len(grouped[rule])) == (items, jobs) and jobs < items
    outputs = [f for job in grouped[rule] for f in job["output"]]
    assert len(outputs) == len(set(outputs))  # no file written by two jobs
    assert set(outputs) == {f for job in ungrouped[rule] for f in job["output"]}
    # one log per job, none shared
    logs = [f for job in grouped[rule] for f in job["log"]]
    assert all(len(job["log"]) == 1 for job in grouped[rule]) and len(set(logs)) == len(grouped[rule])


def test_the_rest_of_the_workflow_is_unchanged(both):
    grouped, ungrouped = both
    assert set(grouped) == set(ungrouped)
    for rule in set(grouped) - set(RULES):
        assert sorted(j["output"] for j in grouped[rule]) == sorted(j["output"] for j in ungrouped[rule]), rule
