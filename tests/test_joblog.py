"""A workflow job's log ends with the job's own wall and CPU time, whatever way the job ends."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from fscompbio.joblog import read_job_resources

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"

JOB = """
import sys, time
from fscompbio.joblog import start_job_log
start_job_log(sys.argv[1])
import logging
logging.info("working")
t = time.process_time()
while time.process_time() - t < {burn}:
    pass
time.sleep({sleep})
if {fail}:
    raise RuntimeError("bad input")
"""


def run_job(tmp_path, burn=0.6, sleep=0.0, fail=False):
    log = tmp_path / "job.log"
    code = JOB.format(burn=burn, sleep=sleep, fail=fail)
    proc = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True, text=True)
    return proc, log


def test_the_log_ends_with_the_cpu_time_the_job_burned(tmp_path):
    proc, log = run_job(tmp_path, burn=0.6, sleep=0.4)
    assert proc.returncode == 0
    text = log.read_text()
    assert "working" in text
    assert text.splitlines()[-1].startswith("job resources: ")
    r = read_job_resources(log)
    assert 0.6 <= r["cpu_s"] < 3.0  # the burned CPU and the imports, not the sleep
    assert r["wall_s"] >= 0.6 + 0.4 - 0.05  # the burn and the sleep: the sleep is wall time, not CPU time
    assert 5 < r["max_rss_mb"] < 2000


def test_a_failing_job_still_records_its_resources_after_the_traceback(tmp_path):
    proc, log = run_job(tmp_path, burn=0.1, fail=True)
    assert proc.returncode == 1
    text = log.read_text()
    assert "RuntimeError: bad input" in text
    assert read_job_resources(log)["cpu_s"] >= 0.1


@pytest.mark.parametrize("content", ["", "a log without resources\n", "job resources: wall_s=x cpu_s=1 max_rss_mb=2\n"])
def test_no_or_malformed_resource_line_reads_as_none(tmp_path, content):
    (tmp_path / "job.log").write_text(content)
    assert read_job_resources(tmp_path / "job.log") is None
    assert read_job_resources(tmp_path / "missing.log") is None


@pytest.mark.parametrize("script", sorted(SCRIPTS.glob("*.py")), ids=lambda p: p.name)
def test_every_workflow_script_starts_its_job_log(script):
    text = script.read_text()
    assert re.search(r"^start_job_log\(snakemake\.log\[0\]", text, re.M), script.name
    assert "open(snakemake.log" not in text
