"""Every job asks for threads, memory and run time that fit it (rules/resources.smk), and the figure, table
and summary rules run on the submitting node.

The resources of every job are read from a dry run of the quick and the thesis configs (``--forceall``):
each job carries ``mem_mb`` and ``runtime`` within sane bounds, the per-fold rules' run times follow the
config's sizes (bootstraps, subsets, inner folds, folds per job, the data set's size), and chapter 5's
memory follows its matrices. The rule files are read for ``threads`` and ``localrule``.
"""

import re
from pathlib import Path

import pytest
from dry_run import forced_dry_run

REPO = Path(__file__).resolve().parents[1]
RULE_FILES = [REPO / "Snakefile", *sorted((REPO / "rules").glob("*.smk"))]
# rules that run on the submitting node: figures, tables, summaries, the data sets (seconds each)
LOCAL_RULE = re.compile(
    r"^(ch[345]_fig\w+|ch[345]_table\w+|\w+_summary|ch[34]_summaries|table\w+|fig\d_\d|ch3_consistency_toy|workflow_rulegraph|"
    r"reg_figR_2|mc_figM_1|paper_tableP_2|paper_figP_2|dataset|synthetic_datasets|environment|claims|features|own_data|all)$"
)
# figures that compute for minutes at the thesis' sizes: cluster jobs (none: figure 5.4's SVM on 4,000 windows x
# 1,500 sparse-filtering features is its own rule, ch5_sv_correlations)
COMPUTED_FIGURES = set()


def _jobs(tmp_path_factory, configfile):
    """(rule, wildcards, resources) of every job of a forced dry run of ``configfile``."""
    jobs = forced_dry_run(tmp_path_factory.mktemp("dry"), "--configfile", REPO / configfile)
    return [j for j in jobs if j["rule"] != "all"]


@pytest.fixture(scope="module")
def quick_jobs(tmp_path_factory):
    return _jobs(tmp_path_factory, "config.yaml")


@pytest.fixture(scope="module")
def thesis_jobs(tmp_path_factory):
    return _jobs(tmp_path_factory, "config/thesis.yaml")


def _runtime(jobs, rule, **wildcards):
    [job] = [j for j in jobs if j["rule"] == rule and all(j["wildcards"].get(k) == v for k, v in wildcards.items())]
    return int(job["resources"]["runtime"]), int(job["resources"]["mem_mb"])


@pytest.mark.parametrize("which", ["quick", "thesis"])
def test_every_job_asks_for_memory_and_run_time(which, quick_jobs, thesis_jobs):
    jobs = quick_jobs if which == "quick" else thesis_jobs
    assert len(jobs) > (100 if which == "quick" else 400)
    for job in jobs:
        res = job["resources"]
        assert "mem_mb" in res and "runtime" in res, f"{job['rule']} {job['wildcards']}: no mem_mb/runtime: {res}"
        mem, runtime = int(res["mem_mb"]), int(res["runtime"])
        # at least 1 GB and 10 minutes; at most what a common cluster node has (64 GB) and 3 days
        assert 1000 <= mem <= 64_000, f"{job['rule']} {job['wildcards']}: mem_mb={mem}"
        assert 10 <= runtime <= 3 * 24 * 60, f"{job['rule']} {job['wildcards']}: runtime={runtime} min"
    if which == "quick":  # the quick workflow fits any node: <= 4 GB and <= 2 hours per job
        assert max(int(j["resources"]["mem_mb"]) for j in jobs) <= 4000
        assert max(int(j["resources"]["runtime"]) for j in jobs) <= 120


def test_fold_run_times_follow_the_config(quick_jobs, thesis_jobs):
    # thesis: 1,000 bootstraps x (10 inner folds + 1) fits on allaml's 7,129 features per outer fold;
    # quick: 20 x (3 + 1) on its 500 features of highest variance (3 outer folds per job, every method of the
    # chapter in the job)
    quick, _ = _runtime(quick_jobs, "ch3_fold_group1", dataset="allaml", ch3_first="0")
    thesis, _ = _runtime(thesis_jobs, "ch3_fold", dataset="allaml", ch3_method="stabsel_logreg", ch3_first="0")
    assert quick == 10 and thesis > 2 * quick  # quick: the 10-minute floor
    # selectors that cost little ask for little: the job of correlation, random and linear RFE below stability
    # selection's
    corr, _ = _runtime(thesis_jobs, "ch3_fold_group1", dataset="allaml", ch3_first="0")
    assert corr < thesis
    # the data set's size counts: FoHSIC's 150 steps on prostate_ge (5,966 features) above xor (200)
    fo_xor, _ = _runtime(thesis_jobs, "ch4_fold", dataset="xor", ch4_method="fohsic", ch4_first="0")
    fo_pro, _ = _runtime(thesis_jobs, "ch4_fold", dataset="prostate_ge", ch4_method="fohsic", ch4_first="0")
    assert fo_pro > fo_xor
    # LPBoost's 1,000 bootstraps: the micro-arrays' thousands of features above xor's 200
    lp = {j["wildcards"]["dataset"]: int(j["resources"]["runtime"]) for j in thesis_jobs
          if j["rule"] == "ch3_fold" and j["wildcards"]["ch3_method"] == "stabsel_lpboost"}
    assert min(lp["allaml"], lp["prostate_ge"]) > lp["xor"] > 10


def test_chapter5_resources_follow_its_matrices(quick_jobs, thesis_jobs):
    # the thesis' 111,111 windows x (648 + 1,500 features) need more memory and time than the quick 300 sequences
    q_rt, q_mem = _runtime(quick_jobs, "ch5_sparse_filtering")
    t_rt, t_mem = _runtime(thesis_jobs, "ch5_sparse_filtering")
    assert t_mem > q_mem and t_rt > q_rt
    # quick: one job per CV scheme and approach (chapter5.prediction.group), every protocol and fold in it;
    # thesis: one job per CV scheme, protocol and approach, its 10 folds in it
    q_rt, q_mem = _runtime(quick_jobs, "ch5_predict", approach="rfe", cv="random")
    t_rt, t_mem = _runtime(thesis_jobs, "ch5_predict", approach="rfe", cv="random", protocol="adequate")
    assert t_mem > q_mem and t_rt >= q_rt
    # a grouped job asks for the run time of its cells together: above one cell's (the pwm's 10-minute floor)
    assert _runtime(quick_jobs, "ch5_predict", approach="randsel_mkl_original", cv="random")[0] > 10
    assert t_mem >= 2000  # the sparse-filtering matrix alone is ~640 MB at the thesis scale


def _rule_blocks():
    """(file, rule name or the f-string of a named rule, body) of every rule of the workflow."""
    blocks = []
    for path in RULE_FILES:
        text = path.read_text()
        for m in re.finditer(r"^( *)rule(?: (\w+))?:\n((?:\1 {4}.*\n|\n)+)", text, flags=re.M):
            name = m.group(2)
            if name is None:  # rule: name: f"..." (one rule per data set)
                name = re.search(r'name:\s*\n\s*f?"([^"]+)"', m.group(3)).group(1)
            blocks.append((path.name, name, m.group(3)))
    return blocks


def test_every_rule_declares_threads_and_resources():
    blocks = _rule_blocks()
    assert len(blocks) > 40
    for path, name, body in blocks:
        if name in ("all", "own_data"):  # targets only: no job of their own
            continue
        # a number, or the sparse-filtering fits' BLAS threads, which the config fixes (part of the result)
        assert re.search(r"^\s+threads: (\d+|\S+\[\"blas_threads\"\])$", body, flags=re.M), (
            f"{path}: rule {name} declares no threads")
        assert "resources:" in body and "mem_mb=" in body and "runtime=" in body, (
            f"{path}: rule {name} declares no mem_mb/runtime"
        )


def test_figure_table_and_summary_rules_are_local():
    names = []
    for path, name, body in _rule_blocks():
        local = "localrule: True" in body
        generic = name.replace("{_fig}", "fig_x")  # the per-data-set panel rules
        # the one fold rule of chapters 3 and 4 (rules/folds.smk) is ch3_fold and ch4_fold
        generics = {"{_short}_fold": ["ch3_fold", "ch4_fold"],
                    "{_short}_fold_group{_i}": ["ch3_fold_group", "ch4_fold_group"],
                    "{_short}_summaries": ["ch3_summaries", "ch4_summaries"]}.get(generic, [generic])
        names.extend(generics)
        for generic in generics:
            if LOCAL_RULE.match(generic) and generic not in COMPUTED_FIGURES:
                assert local, f"{path}: rule {name} (a figure, table or summary) is not a localrule"
            else:
                assert not local, f"{path}: rule {name} computes for minutes at the thesis' sizes: a cluster job"
    assert {"ch3_fold", "ch4_fold", "ch3_fold_group", "ch4_fold_group", "ch3_summaries", "ch5_predict", "ch5_sparse_filtering", "ch5_sv_correlations", "mc_fold",
            "reg_recovery"} <= set(names)
