"""What a run of the workflow costs, measured and shown in the README (block ``run-cost``).

    python -m tools.quick_run run RUN_DIR [--cores 2]   run the quick workflow (config.yaml) whole in RUN_DIR, a
                                                        clean checkout of the commit to record (e.g. a git
                                                        worktree), with this interpreter's environment; keep its
                                                        claims and its cost in archive/quick/; rewrite the block
    python -m tools.quick_run readme [--check]          rewrite (or check) the README's block from the records

The quick run's cost is measured around the one Snakemake command: its wall time, and the CPU time of the
Snakemake process with every job it ran (``getrusage(RUSAGE_CHILDREN)``: every descendant waited for, so the
jobs' imports and the scheduler's own work are in it). It is kept in ``archive/quick/cost.json`` with the
commit, the number of jobs, the cores and the load of the machine when the run started (a run beside other
work is slower, and says so). The thesis config's cost is that of the archived run (``archive/thesis``'s
manifests, :func:`tools.run_archive.doc_times`'s figures): the CPU time its jobs measured themselves.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

from tools import readme_blocks
from tools.claims_by_scale import QUICK, keep_quick_run
from tools.run_archive import _stage_times

REPO = Path(__file__).resolve().parents[1]
COST = REPO / "archive" / "quick" / "cost.json"
THESIS = REPO / "archive" / "thesis"
README = REPO / "README.md"
MARKERS = ("<!-- run-cost:start -->", "<!-- run-cost:end -->")


def _git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def run(run_dir, cores=2):
    """Run the quick workflow whole in ``run_dir`` (a clean checkout), measure it and keep its claims and cost."""
    run_dir = Path(run_dir).resolve()
    if _git(run_dir, "status", "--porcelain", "--untracked-files=no"):
        raise ValueError(f"{run_dir}: uncommitted changes; the record names a commit, so run a clean checkout")
    commit = _git(run_dir, "rev-parse", "HEAD")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(run_dir / "src"), os.environ.get("PYTHONPATH", "")])}
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(cores), "--configfile", "config.yaml"]
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=run_dir, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    (run_dir / "quick_run.log").write_text(proc.stderr)
    if proc.returncode != 0:
        raise RuntimeError(f"the quick workflow failed in {run_dir} (exit {proc.returncode}): see "
                           f"{run_dir / 'quick_run.log'}\n{proc.stderr[-2000:]}")
    done = re.findall(r"(\d+) of (\d+) steps \(100%\) done", proc.stderr)
    if not done:
        raise RuntimeError(f"{run_dir / 'quick_run.log'}: no '... steps (100%) done' line: not a whole run")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    cost = {"commit": commit, "config": "config.yaml", "cores": cores, "jobs": int(done[-1][1]),
            "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1), "load_at_start": round(load, 2),
            "date": datetime.date.today().isoformat()}
    keep_quick_run(run_dir / "figures" / "claims.csv", commit)
    from fscompbio.io import write_text

    write_text(json.dumps(cost, indent=1, sort_keys=True) + "\n", COST)
    write_readme()
    return cost


def thesis_cost(archive=THESIS):
    """(timed jobs, CPU-hours its jobs measured, jobs without a CPU measure) of the archived thesis-config run."""
    stages, _ = _stage_times(archive)
    return (sum(st[0] for st in stages.values()), sum(st[3] for st in stages.values()) / 3600,
            sum(st[0] - st[2] for st in stages.values()))


def run_cost_block(cost=None, archive=THESIS):
    """The README's block: what the quick and the thesis config cost, from their records."""
    cost = cost or json.loads(COST.read_text())
    n, cpu_h, unmeasured = thesis_cost(archive)
    cores = cost["cores"]
    loaded = (f", the machine's load {cost['load_at_start']:g} at its start"
              if cost["load_at_start"] >= 0.5 else " on idle cores")
    lines = [
        "| config | jobs | CPU time | wall time |",
        "| --- | ---: | ---: | ---: |",
        f"| quick (`make workflow`) | {cost['jobs']:,} | {cost['cpu_seconds'] / 60:.1f} CPU-minutes | "
        f"{cost['wall_seconds'] / 60:.1f} minutes on {cores} cores |",
        f"| thesis (`make thesis`) | {n:,} timed | {cpu_h:.2f} CPU-hours | at least {cpu_h / cores:.1f} hours on "
        f"{cores} cores |",
        "",
        f"Measured, not estimated: the quick config's whole run at commit `{cost['commit'][:12]}` "
        f"({cost['date']}{loaded}; Snakemake and every job it ran, imports included), the thesis config's "
        "archived run (the CPU time its jobs measured themselves"
        + (f"; {unmeasured} jobs with wall time only" if unmeasured else "")
        + ", Snakemake's own scheduling not included; details in [docs/reproduction.md](docs/reproduction.md)).",
    ]
    return "\n".join(lines)


def write_readme(readme=README, check=False):
    """Write (or, with ``check``, compare) the README's ``run-cost`` block; True when it was already current."""
    text = Path(readme).read_text()
    new = readme_blocks.with_block(text, MARKERS, run_cost_block(), where=readme)
    if check:
        return new == text
    if new != text:
        from fscompbio.io import write_text

        write_text(new, Path(readme))
    return new == text


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m tools.quick_run", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run the quick workflow whole in RUN_DIR and keep its claims and cost")
    r.add_argument("run_dir")
    r.add_argument("--cores", type=int, default=2)
    d = sub.add_parser("readme", help="rewrite the README's run-cost block from the records")
    d.add_argument("--check", action="store_true", help="exit 1 when the block is not current")
    args = ap.parse_args(argv)
    if args.command == "run":
        cost = run(args.run_dir, args.cores)
        print(f"{cost['jobs']} jobs, {cost['cpu_seconds'] / 60:.1f} CPU-minutes, {cost['wall_seconds'] / 60:.1f} "
              f"minutes on {cost['cores']} cores; kept {QUICK.relative_to(REPO)} and {COST.relative_to(REPO)}")
        return 0
    if write_readme(check=args.check):
        return 0
    if args.check:
        print("README.md's run-cost block is not current: run `python -m tools.quick_run readme`", file=sys.stderr)
        return 1
    print("rewrote README.md's run-cost block")
    return 0


if __name__ == "__main__":
    sys.exit(main())
