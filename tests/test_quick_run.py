"""What a run costs (tools/quick_run.py): the README's block is the one generated from the records, the quick
run's cost and claims come from one run (one commit), and a run of a checkout with uncommitted changes is refused
before it starts."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # tools/ is not part of the installed package
    sys.path.insert(0, str(REPO))

from tools import quick_run as Q  # noqa: E402
from tools.run_archive import manifests  # noqa: E402


def test_the_readme_block_is_the_generated_one():
    assert Q.main(["readme", "--check"]) == 0, "run `python -m tools.quick_run readme`"


def test_cost_and_claims_are_of_one_run():
    cost = json.loads(Q.COST.read_text())
    provenance = json.loads((Q.COST.parent / "provenance.json").read_text())
    assert cost["commit"] == provenance["commit"]
    assert cost["jobs"] > 0 and 0 < cost["cpu_seconds"] and 0 < cost["wall_seconds"]


def test_the_block_shows_the_record():
    cost = {"commit": "0123456789abcdef", "config": "config.yaml", "cores": 2, "jobs": 1234, "cpu_seconds": 600.0,
            "wall_seconds": 330.0, "load_at_start": 0.1, "date": "2026-01-01"}
    text = Q.run_cost_block(cost)
    assert "| quick (`make workflow`) | 1,234 | 10.0 CPU-minutes | 5.5 minutes on 2 cores |" in text
    assert "`0123456789ab`" in text and "on idle cores" in text
    n, cpu_h, _ = Q.thesis_cost()
    timed = sum(1 for m in manifests(Q.THESIS) for j in m["jobs"] if j["times"])  # every timed job of the archive
    assert n == timed and cpu_h > 1 and f"{cpu_h:.2f} CPU-hours" in text
    assert "load 3" in Q.run_cost_block({**cost, "load_at_start": 3.0})


def test_a_dirty_checkout_is_refused(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "a.txt").write_text("a\n")
    subprocess.run(["git", "-C", str(tmp_path), "add", "a.txt"], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a"],
                   check=True)
    (tmp_path / "a.txt").write_text("b\n")
    with pytest.raises(ValueError, match="uncommitted changes"):
        Q.run(tmp_path)


def test_the_block_splits_the_cpu_time_when_the_record_does():
    cost = {"commit": "0123456789abcdef", "config": "config.yaml", "cores": 2, "jobs": 150, "cpu_seconds": 900.0,
            "wall_seconds": 480.0, "load_at_start": 0.1, "date": "2026-01-01", "snakemake_cpu_seconds": 60.0,
            "jobs_cpu_seconds": 780.0,
            "stages": {"chapter3": {"jobs": 26, "cpu_seconds": 240.0}, "chapter4": {"jobs": 26, "cpu_seconds": 300.0},
                       "chapter5": {"jobs": 30, "cpu_seconds": 120.0}, "figures": {"jobs": 9, "cpu_seconds": 54.0},
                       "paper": {"jobs": 4, "cpu_seconds": 66.0}}}  # as kept: keys sorted by name
    text = Q.run_cost_block(cost)
    assert "its jobs measured 13.0 CPU-minutes themselves" in text
    assert "(largest stages, CPU-minutes: chapter4 5.0, chapter3 4.0, chapter5 2.0, paper 1.1)" in text
    assert "and the Snakemake process 1.0 (scheduling" in text and "figures" not in text
    older = {k: v for k, v in cost.items() if k not in ("snakemake_cpu_seconds", "jobs_cpu_seconds", "stages")}
    assert "CPU-minutes themselves" not in Q.run_cost_block(older)


def test_jobs_cpu_by_stage_reads_the_jobs_own_measures(tmp_path):
    import os
    import time

    def log(rel, cpu, mtime=None):
        path = tmp_path / "logs" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("INFO:root:work\n" + ("" if cpu is None else
                        f"job resources: wall_s=9.00 cpu_s={cpu:.2f} max_rss_mb=200.0\n"))
        if mtime is not None:
            os.utime(path, (mtime, mtime))

    now = time.time()
    log("chapter3/folds/xor/a/folds0-2.log", 12.5)
    log("chapter3/summaries.log", 2.25)
    log("chapter4/folds/xor/a/folds0-2.log", 20.0)
    log("environment.log", 0.5)
    log("chapter5/failed.log", None)                      # no resources line: not counted
    log("chapter4/old.log", 99.0, mtime=now - 3600)       # an earlier run's log: not counted
    stages = Q.jobs_cpu_by_stage(tmp_path, since=now - 60)
    assert stages == {"chapter4": {"jobs": 1, "cpu_seconds": 20.0}, "chapter3": {"jobs": 2, "cpu_seconds": 14.8},
                      "environment": {"jobs": 1, "cpu_seconds": 0.5}}


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_process_cpu_seconds_is_the_process_own():
    import os
    import resource

    sum(i * i for i in range(300_000))
    own = Q.process_cpu_seconds(os.getpid())
    r = resource.getrusage(resource.RUSAGE_SELF)
    assert 0 < own <= r.ru_utime + r.ru_stime + 0.02
    assert Q.process_cpu_seconds(2**22 + 12345) is None   # no such process


def test_the_block_says_what_jobs_run_again_on_another_machine_took(tmp_path):
    (tmp_path / "parts").mkdir()
    job = {"rule": "ch3_fold", "outputs": ["results/chapter3/folds/xor/lasso/folds0-4.json"], "benchmark": None,
           "log": "logs/chapter3/folds/xor/lasso/folds0-4.log"}
    first = {"part": "first", "jobs": [], "superseded": [{**job, "by": "again", "times": {"s": 9000.0, "job_cpu_s": 7200.0,
                                                                                           "max_rss_mb": 1.0}}]}
    again = {"part": "again", "jobs": [{**job, "times": {"s": 3700.0, "job_cpu_s": 3600.0, "max_rss_mb": 1.0}}]}
    for m in (first, again):
        (tmp_path / "parts" / f"{m['part']}.json").write_text(json.dumps(m))
    cost = {"commit": "0123456789abcdef", "config": "config.yaml", "cores": 2, "jobs": 10, "cpu_seconds": 60.0,
            "wall_seconds": 60.0, "load_at_start": 0.1, "date": "2026-01-01"}
    text = Q.run_cost_block(cost, archive=tmp_path)
    assert "| thesis (`make thesis`) | 1 timed | 1.00 CPU-hours |" in text  # the later run counts
    assert "1 runs of its jobs were repeated on the machine of a later part (to compare the machines, or because " \
           "a change of code moved their results; the parts' notes say which), and took 1.00 CPU-hours there " \
           "against 2.00 in their earlier run (2.0 times as much)" in text
