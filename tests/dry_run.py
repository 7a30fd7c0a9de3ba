"""The jobs of a forced dry run of the workflow, as the tests of its layout and resources read them."""

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: the fields of a job that Snakemake prints as lists of files
FILE_FIELDS = ("input", "output", "log", "benchmark")


def forced_dry_run(workdir, *args, timeout=600):
    """Every job of ``snakemake --forceall --dry-run *args`` run in ``workdir``: a dict per job with its ``rule``,
    its files (:data:`FILE_FIELDS`, lists) and its ``wildcards`` and ``resources`` (dicts, empty if none)."""
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
           "--forceall", "--dry-run", *map(str, args)]
    run = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, run.stderr[-3000:]
    jobs, job = [], None
    for line in run.stdout.splitlines():
        if m := re.match(r"^(?:local)?rule (\w+):$", line):
            job = {"rule": m.group(1), **{f: [] for f in FILE_FIELDS}, "wildcards": {}, "resources": {}}
            jobs.append(job)
        elif job is not None and (m := re.match(r"^    (\w+): (.*)$", line)):
            key, value = m.groups()
            if key in FILE_FIELDS:
                job[key] = value.split(", ")
            elif key in ("wildcards", "resources"):
                job[key] = dict(kv.split("=", 1) for kv in value.split(", "))
    return jobs
