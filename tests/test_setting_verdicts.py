"""Settings that trade results for time (config/settings/): their overlays are valid configs, and their record in
the archive (tools.setting_verdicts) counts the jobs that ran again and the claims whose verdict moved."""

import csv
import json
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tools import readme_blocks  # noqa: E402
from tools.run_archive import _merged_config  # noqa: E402
from tools.setting_verdicts import (  # noqa: E402
    SETTINGS_DIR,
    SETTINGS_MARKERS,
    SETTINGS_PAGE,
    VERDICT_FIELDS,
    doc_settings,
    moved_verdicts,
    overlay_path,
    rerun_jobs,
)

ARCHIVE = REPO / "archive" / "thesis"
OVERLAYS = sorted(SETTINGS_DIR.glob("*.yaml"))


@pytest.mark.parametrize("overlay", OVERLAYS, ids=[p.stem for p in OVERLAYS])
def test_every_overlay_is_a_valid_config_whose_inner_selectors_fit_their_methods(overlay):
    from snakemake.utils import validate

    from fscompbio.evaluation import make_selector

    merged = _merged_config([REPO / "config.yaml", REPO / "config" / "thesis.yaml", overlay])
    for section in ("chapter3", "chapter4"):
        validate(merged[section], schema=str(REPO / "schemas" / f"{section}.schema.yaml"))
        inner = merged[section]["cv"].get("inner_selectors") or {}
        assert set(inner) <= set(merged[section]["methods"])
        for method, params in inner.items():
            make_selector(method, merged[section]["selectors"].get(method), random_state=0).set_params(**params)
    assert overlay.read_text().startswith("# A setting of ours")  # says what it is, and that the thesis did not


def test_an_unknown_setting_is_named_with_the_known_ones():
    with pytest.raises(FileNotFoundError, match=r"no setting 'nope': .*nope\.yaml does not exist \(settings: \["):
        overlay_path("nope")


def _claims_csv(path, rows):
    fields = ["id", *VERDICT_FIELDS, "numbers"]
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        for row in rows:
            w.writerow(dict(zip(fields, row)))


def test_moved_verdicts_name_the_claim_the_field_and_both_values():
    a = {"c1": {"verdict": "holds", "replication": "", "verdict_by_reading": "x=1: holds", "robust": "yes"},
         "c2": {"verdict": "fails", "replication": "", "verdict_by_reading": "", "robust": "yes"}}
    b = {"c1": {**a["c1"], "verdict": "partly", "robust": "no"}, "c2": dict(a["c2"]),
         "c3": dict(a["c2"])}
    assert moved_verdicts(a, b) == [("c1", "verdict", "holds", "partly"), ("c1", "robust", "yes", "no"),
                                    ("c3", "present", "False", "True")]
    assert moved_verdicts(a, a) == []


def test_a_job_ran_again_when_its_benchmark_differs_from_the_archived_one(tmp_path):
    run, archive = tmp_path / "run", tmp_path / "archive"
    jobs = []
    for name, ran, kept in [("same", "s\t1.0\n", "s\t1.0\n"), ("again", "s\t2.0\n", "s\t1.0\n"),
                            ("new", "s\t3.0\n", None)]:
        bench = f"benchmarks/{name}.tsv"
        (run / "benchmarks").mkdir(parents=True, exist_ok=True)
        (run / bench).write_text(ran)
        if kept is not None:
            (archive / "files" / "benchmarks").mkdir(parents=True, exist_ok=True)
            (archive / "files" / bench).write_text(kept)
        jobs.append({"rule": "ch3_fold", "benchmark": bench, "output": [f"results/{name}.json"], "log": []})
    jobs.append({"rule": "ch3_summary", "benchmark": None, "output": ["results/s.csv"], "log": []})
    assert [j["output"][0] for j in rerun_jobs(jobs, run, archive, {"ch3_fold", "ch3_summary"})] == [
        "results/again.json", "results/new.json"]
    (run / "benchmarks" / "again.tsv").unlink()
    with pytest.raises(FileNotFoundError, match="again.tsv: the job of results/again.json has not run in"):
        rerun_jobs(jobs, run, archive, {"ch3_fold"})


def test_the_block_counts_cost_and_moved_verdicts_from_the_records(tmp_path):
    archive = tmp_path / "archive"
    (archive / "parts").mkdir(parents=True)
    (archive / "report").mkdir()
    jobs = [{"rule": "ch3_fold", "outputs": ["results/a.json"], "times": {"job_cpu_s": 3600.0}},
            {"rule": "ch3_fold", "outputs": ["results/b.json"], "times": {"job_cpu_s": 1800.0}},
            {"rule": "ch4_fold", "outputs": ["results/c.json"], "times": {"job_cpu_s": 7200.0}}]
    (archive / "parts" / "p.json").write_text(json.dumps({"part": "p", "jobs": jobs, "configfiles": []}))
    _claims_csv(archive / "report" / "claims.csv", [("c1", "holds", "", "", "yes", "1"),
                                                    ("c2", "fails", "", "", "yes", "2")])
    assert doc_settings(archive) == "No setting is recorded in the archive."
    rec = archive / "settings" / "cheap"
    rec.mkdir(parents=True)
    (rec / "manifest.json").write_text(json.dumps({
        "setting": "cheap", "overlay": "config/settings/cheap.yaml", "overlay_text": "chapter3: {}\n",
        "commit": "abcdef0123", "tree_changed": False, "rules": ["ch3_fold"],
        "jobs": [{"rule": "ch3_fold", "output": "results/a.json", "cpu_s": 720.0, "archived_cpu_s": 3600.0},
                 {"rule": "ch3_fold", "output": "results/b.json", "cpu_s": 360.0, "archived_cpu_s": 1800.0}]}))
    _claims_csv(rec / "claims.csv", [("c1", "holds", "", "", "yes", "1.5"), ("c2", "fails", "", "", "yes", "2")])
    text = doc_settings(archive)
    assert "2 jobs (`ch3_fold`) ran under it: 0.30 CPU-hours, against 1.50 for the same jobs in the archive (5.0 times" \
        in text
    assert "The whole config's jobs under it: **2.30 CPU-hours**, against 3.50 in the archive" in text
    assert "No claim's verdict moves" in text and "all 2 claims (the numbers of 1 moved)" in text
    _claims_csv(rec / "claims.csv", [("c1", "partly", "", "", "yes", "1"), ("c2", "fails", "", "", "yes", "2")])
    text = doc_settings(archive)
    assert "Claims whose verdict moves (1 of 2; the numbers of 0 moved)" in text
    assert "  | `c1` | verdict | holds | partly |" in text
    from tools.quick_run import _settings_sentence

    assert _settings_sentence(archive) == (" Measured the same way, under `config/settings/cheap.yaml` (a setting of "
                                           "ours, not the thesis') the thesis config's jobs take 2.30 CPU-hours, and 1 "
                                           "of 2 claims' verdicts move (docs/reproduction.md).")


@pytest.mark.skipif(not (ARCHIVE / "parts").is_dir(), reason="no archived run")
def test_the_docs_show_the_recorded_settings():
    block = readme_blocks.block(SETTINGS_PAGE.read_text(), SETTINGS_MARKERS)
    assert block == doc_settings(ARCHIVE), "docs/reproduction.md is stale: python -m tools.setting_verdicts doc"
    for rec in (ARCHIVE / "settings").glob("*/manifest.json") if (ARCHIVE / "settings").is_dir() else []:
        m = json.loads(rec.read_text())
        assert (REPO / m["overlay"]).read_text() == m["overlay_text"], f"{m['overlay']} changed since it was recorded"
        assert yaml.safe_load(m["overlay_text"])


def test_a_setting_is_compared_with_the_archive_s_claims_when_it_was_recorded(tmp_path):
    """A later part of the archive that changes the archive's claims does not count as the setting's doing: its
    verdicts are compared with the claims kept beside its record; without them, with the archive's own."""
    from tools.setting_verdicts import BASELINE, baseline_claims

    header = "id,verdict,numbers\n"
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "claims.csv").write_text(header + "a,partly,1\n")
    (tmp_path / "settings" / "s").mkdir(parents=True)
    assert baseline_claims(tmp_path, "s")["a"]["verdict"] == "partly"
    (tmp_path / "settings" / "s" / BASELINE).write_text(header + "a,holds,1\n")
    assert baseline_claims(tmp_path, "s")["a"]["verdict"] == "holds"
