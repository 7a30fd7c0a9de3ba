"""Snakemake's own CPU time while its jobs run: the scheduler as released, and with the workflow's fix.

Snakemake 9's scheduling loop starts a one-second re-evaluation timer after every pass and never merges them,
so the number of timers, and of idle passes per second, grows with every finished job
(``rules/scheduling.smk`` explains it and keeps one pending timer instead). This bench runs a synthetic
workflow of ``--jobs`` jobs that each sleep ``--seconds`` (no CPU of their own) on 2 cores, twice in the same
run: with the scheduler as released and with ``rules/scheduling.smk`` included, and prints each run's wall
time and the CPU time of Snakemake and its children (the sleeps cost none), and the ratio.

Run: ``.venv/bin/python bench/bench_scheduler.py [--jobs 200] [--seconds 1] [--scheduler ilp|greedy]``
(about 2 x jobs x seconds / 2 of wall time). Nothing is written outside a temporary directory.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import snakemake

ROOT = Path(__file__).resolve().parents[1]
SNAKEFILE = """\
import os
N = int(os.environ["BENCH_JOBS"])
S = float(os.environ["BENCH_SECONDS"])

rule all:
    input: expand("out/{i}.txt", i=range(N))

rule job:
    output: "out/{i}.txt"
    shell: "sleep {S} && echo {wildcards.i} > {output}"
"""


def run(workdir, jobs, seconds, scheduler, fixed):
    workdir = Path(workdir)
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    head = f'include: "{ROOT / "rules" / "scheduling.smk"}"\n\n' if fixed else ""
    (workdir / "Snakefile").write_text(head + SNAKEFILE)
    env = {**os.environ, "BENCH_JOBS": str(jobs), "BENCH_SECONDS": str(seconds)}
    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--scheduler", scheduler, "--quiet", "all"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run(cmd, cwd=workdir, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if len(list((workdir / "out").iterdir())) != jobs:
        raise RuntimeError(f"{workdir}: not every job wrote its output")
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--scheduler", choices=["ilp", "greedy"], default="ilp")
    args = ap.parse_args()
    print(f"snakemake {snakemake.__version__}, Python {sys.version.split()[0]}; {args.jobs} jobs of "
          f"sleep {args.seconds} s on 2 cores, --scheduler {args.scheduler}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        rows = {}
        for label, fixed in (("as released", False), ("one pending re-evaluation (rules/scheduling.smk)", True)):
            rows[label] = run(Path(tmp) / ("fixed" if fixed else "released"), args.jobs, args.seconds,
                              args.scheduler, fixed)
    print("| scheduler | wall s | Snakemake CPU s |")
    print("| --- | --- | --- |")
    for label, (wall, cpu) in rows.items():
        print(f"| {label} | {wall:.1f} | {cpu:.2f} |")
    (_, released), (_, fixed) = rows.values()
    print(f"CPU ratio, fixed / released: {fixed / released:.2f}")


if __name__ == "__main__":
    main()
