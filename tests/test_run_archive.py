"""The archive of the thesis config's results (archive/thesis/): it redraws its own report byte for byte with
the config its results came from, and refuses a part of another config."""

import re
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tools.run_archive import (  # noqa: E402
    TIMES,
    _archived_elsewhere,
    _keep_archive_config,
    archive_config,
    config_digest,
    coverage,
    coverage_text,
    manifests,
    TIMES_MARKERS,
    TIMES_PAGE,
    doc_times,
    redraw,
    times,
)
from tools import readme_blocks  # noqa: E402

ARCHIVE = REPO / "archive" / "thesis"
pytestmark = pytest.mark.skipif(not (ARCHIVE / "parts").is_dir(), reason="no archived run")


def test_every_part_records_its_provenance():
    for m in manifests(ARCHIVE):
        assert len(m["commit"]) == 40 and m["environment"]["packages"]
        assert m["config_sha256"] == config_digest(archive_config(ARCHIVE))
        # a part may come from a run still under way (n_jobs_not_run: what was left then); that the parts together
        # hold every job of the config is the redraw's test below
        assert m["n_jobs_not_run"] >= 0 and not m["left_out_but_drawn_from"]
        timed = [j for j in m["jobs"] if j["times"]]
        assert len(timed) >= 0.9 * len(m["jobs"])
        assert all(j["times"]["s"] > 0 for j in timed)
        for rel in m["files"]:
            assert (ARCHIVE / "files" / rel).is_file(), rel


def test_the_archived_times_are_those_of_its_manifests():
    text = (ARCHIVE / TIMES).read_text()
    assert text.endswith(times(ARCHIVE) + "\n")  # collect rewrites it: no part was added by hand since
    # every timed job of every part is in the stage table, once
    timed = sum(1 for m in manifests(ARCHIVE) for j in m["jobs"] if j["times"])
    table = [line.split("|") for line in text.splitlines() if line.startswith("| ")][2:]  # rows of the tables
    assert timed and sum(int(row[2].replace(",", "")) for row in table if row[2].strip().isdigit()) == timed


def test_the_docs_show_the_archived_times():
    block = readme_blocks.block(TIMES_PAGE.read_text(), TIMES_MARKERS)
    assert block == doc_times(ARCHIVE), "docs/reproduction.md is stale: python -m tools.run_archive times --doc"


def _manifest(part, jobs):
    return {"part": part, "jobs": [{"rule": "r", "outputs": [f"results/{part}/{i}.json"],
                                    "benchmark": f"benchmarks/{part}/{i}.tsv", "log": None,
                                    "times": {"s": s, "job_cpu_s": c, "max_rss_mb": 1.0}}
                                   for i, (s, c) in enumerate(jobs)]}


@pytest.mark.parametrize("second_cpu", [1800.0, None])
def test_doc_times_sums_cpu_and_bounds_the_unmeasured_by_their_wall(tmp_path, second_cpu):
    import json

    (tmp_path / "parts").mkdir()
    parts = {"a": [(3600.0, 3600.0), (7200.0, 5400.0)], "b": [(3600.0, second_cpu)]}
    for part, jobs in parts.items():
        (tmp_path / "parts" / f"{part}.json").write_text(json.dumps(_manifest(part, jobs)))
    text = doc_times(tmp_path, cores=2)
    assert "| a | 2 | 3.00 | 2 | 2.50 |" in text
    if second_cpu is None:  # 2.5 CPU-hours measured + 1 wall hour of the unmeasured job
        assert "| b | 1 | 1.00 | 0 | - |" in text
        assert "2.50 CPU-hours measured over 2 of its 3 timed jobs" in text and "at most 3.5 CPU-hours" in text
        assert "at least 1.8 hours on 2 cores" in text
    else:
        assert "| b | 1 | 1.00 | 1 | 0.50 |" in text
        assert "**3.00 CPU-hours** measured over its 3 timed jobs, so at least 1.5 hours on 2 cores" in text


def test_the_archive_redraws_its_report_byte_for_byte(tmp_path):
    assert redraw(ARCHIVE, tmp_path / "redraw", cores=2) == []
    provenance = (tmp_path / "redraw" / "figures" / "PROVENANCE.md").read_text()
    assert "computed by commit" in provenance
    held = re.search(r"holds the results of (\d+) of the (\d+) jobs", provenance)
    n_archived = sum(len(m["jobs"]) for m in manifests(ARCHIVE))  # drawing jobs aside: they archive report files
    assert held and n_archived <= int(held.group(1)) <= int(held.group(2))
    # the archive is the whole thesis config: every job of its default target, no rule left to run
    assert held.group(1) == held.group(2), held.group(0)
    assert "not yet archived" not in provenance


def test_an_archive_edited_by_hand_is_refused(tmp_path):
    archive = tmp_path / "archive"
    shutil.copytree(ARCHIVE / "parts", archive / "parts")
    config = (ARCHIVE / "config.yaml").read_text()
    (archive / "config.yaml").write_text(config.replace("outer_folds: 10", "outer_folds: 9", 1))
    with pytest.raises(ValueError, match="is not the config part"):
        redraw(archive, tmp_path / "redraw")


def test_a_part_of_another_config_is_refused(tmp_path):
    shutil.copyfile(ARCHIVE / "config.yaml", tmp_path / "config.yaml")
    other = archive_config(ARCHIVE)
    other["chapter4"]["outer_folds"] = 5
    with pytest.raises(ValueError, match="chapter4.outer_folds differ"):
        _keep_archive_config(tmp_path, other, "chapter4")
    _keep_archive_config(tmp_path, archive_config(ARCHIVE), "chapter4")  # the same config: accepted


def _job(rule, *outputs):
    return {"rule": rule, "output": list(outputs), "input": [], "log": [], "benchmark": None, "reason": ""}


def test_coverage_counts_the_jobs_some_part_archived():
    jobs = [_job("dataset", "results/datasets/xor.npz"),  # data preparation: recomputed, not counted
            _job("all"),  # the target rule: no output
            _job("ch3_fold", "results/chapter3/folds/xor/random/folds0-0.json", "results/chapter3/folds/xor/random/folds0-0.timing.json"),
            _job("ch3_fold", "results/chapter3/folds/xor/random/folds1-1.json"),
            _job("ch3_fig3_8", "figures/fig3_8.png"),
            _job("ch4_fig4_8", "figures/fig4_8.png")]
    parts = [{"report": ["figures/fig4_8.png"],
              "jobs": [{"rule": "ch3_fold", "outputs": ["results/chapter3/folds/xor/random/folds0-0.timing.json"]}]}]
    n, missing = coverage(jobs, parts)
    assert n == 4
    assert missing == [("ch3_fold", "results/chapter3/folds/xor/random/folds1-1.json"), ("ch3_fig3_8", "figures/fig3_8.png")]
    assert coverage_text(n, missing).endswith("2 of the 4 jobs of its config's default target (data preparation, "
                                              "recomputed by the redraw, not counted); not yet archived: "
                                              "ch3_fig3_8 x 1, ch3_fold x 1.")
    assert coverage_text(4, []).endswith("not counted).")


def test_a_job_another_part_archived_stays_that_parts_unless_its_file_changed(tmp_path):
    run, archive = tmp_path / "run", tmp_path / "archive"
    rel = "results/representation/sparse_filtering.json"
    for root in (run, archive / "files"):
        (root / rel).parent.mkdir(parents=True)
        (root / rel).write_text('{"n_features": 1500}')
    elsewhere = {rel: "chapter5"}
    assert _archived_elsewhere(_job("ch5_sparse_filtering", rel), elsewhere, run, archive)
    assert not _archived_elsewhere(_job("ch5_sparse_filtering", rel), {}, run, archive)
    (run / rel).write_text('{"n_features": 200}')  # the job ran again, with another result
    with pytest.raises(ValueError, match="differs from .*archived by part 'chapter5'"):
        _archived_elsewhere(_job("ch5_sparse_filtering", rel), elsewhere, run, archive)


def test_a_job_timed_by_a_file_directly_under_logs_is_its_own_stage(tmp_path):
    import json

    from tools.run_archive import _stage_times

    (tmp_path / "parts").mkdir()
    manifest = _manifest("sitting_1", [(10.0, 5.0)])
    manifest["jobs"].append({"rule": "environment", "outputs": ["figures/environment.md"], "benchmark": None,
                             "log": "logs/environment.log", "times": {"s": 2.0, "job_cpu_s": 1.0, "max_rss_mb": 1.0}})
    (tmp_path / "parts" / "sitting_1.json").write_text(json.dumps(manifest))
    stages, _ = _stage_times(tmp_path)
    assert set(stages) == {"sitting_1", "environment"}  # benchmarks/sitting_1/0.tsv, logs/environment.log
    assert stages["environment"][:4] == [1, 2.0, 1, 1.0]


def test_supersede_hands_the_jobs_that_ran_again_to_the_new_part_and_times_compares_both_runs(tmp_path):
    import json

    from tools.run_archive import _part_table, supersede

    archive, run = tmp_path / "archive", tmp_path / "run"
    (archive / "parts").mkdir(parents=True)
    first = _manifest("first", [(100.0, 900.0), (50.0, 40.0)])
    first["commit"], first["files"] = "a" * 40, [j["outputs"][0] for j in first["jobs"]]
    for rel in first["files"]:
        for root in (archive / "files", run):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text("{}")
    (run / first["files"][0]).write_text('{"seconds": 1}')  # ran again: another timing file
    (archive / "parts" / "first.json").write_text(json.dumps(first))

    assert [j["outputs"] for j in supersede(archive, "first", "again", run, "timed on an idle machine")] == \
        [[first["files"][0]]]
    assert json.loads((archive / "parts" / "first.json").read_text()) == first  # without write: nothing changes
    supersede(archive, "first", "again", run, "timed on an idle machine", write=True)
    kept = json.loads((archive / "parts" / "first.json").read_text())
    assert [j["outputs"][0] for j in kept["jobs"]] == kept["files"] == [first["files"][1]]
    assert kept["superseded"] == [{**first["jobs"][0], "by": "again"}]
    assert kept["note"].endswith("archived by part again (1 r): timed on an idle machine")

    again = {"part": "again", "commit": "b" * 40,
             "jobs": [{**first["jobs"][0], "times": {"s": 310.0, "job_cpu_s": 300.0, "max_rss_mb": 1.0}}]}
    (archive / "parts" / "again.json").write_text(json.dumps(again))
    table = _part_table(archive)
    assert "| again | `bbbbbbb` | 1 | 0.08 |" in table and "| first | `aaaaaaa` | 1 | 0.01 |" in table
    assert table[-1] == "| 1 | first | 0.25 | again | 0.08 | 3.00 |"  # 900 CPU-s then, 300 now
