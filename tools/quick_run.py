"""What a run of the workflow costs, measured and shown in the README (block ``run-cost``).

    python -m tools.quick_run run RUN_DIR [--cores 2]   run the quick workflow (config.yaml) whole in RUN_DIR, a
                                                        clean checkout of the commit to record (e.g. a git
                                                        worktree), with this interpreter's environment; keep its
                                                        claims and its cost in archive/quick/; rewrite the block
    python -m tools.quick_run readme [--check]          rewrite (or check) the README's block from the records

The quick run's cost is measured around the one Snakemake command: its wall time, and the CPU time of the
Snakemake process with every job it ran (``getrusage(RUSAGE_CHILDREN)``: every descendant waited for, so the
jobs' imports and the scheduler's own work are in it). That total is split in two: the CPU time the jobs measured
themselves (the last line of each job's log, :mod:`fscompbio.joblog`), per stage (the first directory under
``logs/``), and that of the Snakemake process alone (its own ``/proc/<pid>/stat``, sampled until it exits):
scheduling, job launches and benchmark sampling. It is kept in ``archive/quick/cost.json`` with the commit, the
number of jobs, the cores and the load of the machine when the run started (a run beside other work is slower,
and says so). The thesis config's cost is that of the archived run (``archive/thesis``'s
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
from tools.run_archive import _stage_times, rerun_pairs

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
    started = time.time()
    start = time.monotonic()
    with open(run_dir / "quick_run.log", "w+") as log:
        proc = subprocess.Popen(cmd, cwd=run_dir, env=env, stdout=subprocess.DEVNULL, stderr=log, text=True)
        own = None
        while proc.poll() is None:  # the Snakemake process's own CPU time: its last sample before it exits
            own = process_cpu_seconds(proc.pid) or own
            time.sleep(0.2)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        log.seek(0)
        stderr = log.read()
    if proc.returncode != 0:
        raise RuntimeError(f"the quick workflow failed in {run_dir} (exit {proc.returncode}): see "
                           f"{run_dir / 'quick_run.log'}\n{stderr[-2000:]}")
    done = re.findall(r"(\d+) of (\d+) steps \(100%\) done", stderr)
    if not done:
        raise RuntimeError(f"{run_dir / 'quick_run.log'}: no '... steps (100%) done' line: not a whole run")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    stages = jobs_cpu_by_stage(run_dir, since=started)
    cost = {"commit": commit, "config": "config.yaml", "cores": cores, "jobs": int(done[-1][1]),
            "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1), "load_at_start": round(load, 2),
            "date": datetime.date.today().isoformat(),
            "snakemake_cpu_seconds": None if own is None else round(own, 1),
            "jobs_cpu_seconds": round(sum(st["cpu_seconds"] for st in stages.values()), 1),
            "stages": stages}
    keep_quick_run(run_dir / "figures" / "claims.csv", commit)
    from fscompbio.io import write_text

    write_text(json.dumps(cost, indent=1, sort_keys=True) + "\n", COST)
    write_readme()
    return cost


def process_cpu_seconds(pid):
    """User + system CPU seconds of process ``pid`` alone (not its children), from ``/proc``; None off Linux."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def jobs_cpu_by_stage(run_dir, since=0.0):
    """``{stage: {"jobs", "cpu_seconds"}}`` from the jobs' logs under ``run_dir/logs`` written after ``since``.

    A job's CPU time is the one it measured itself (its log's last line); the stage is the log's first directory
    under ``logs/`` (``logs/environment.log``: ``environment``)."""
    from fscompbio.joblog import read_job_resources

    stages = {}
    logs = Path(run_dir) / "logs"
    for path in sorted(logs.rglob("*.log")):
        if path.stat().st_mtime < since:
            continue
        r = read_job_resources(path)
        if r is None:
            continue
        parts = path.relative_to(logs).parts
        stage = parts[0] if len(parts) > 1 else path.stem
        st = stages.setdefault(stage, {"jobs": 0, "cpu_seconds": 0.0})
        st["jobs"] += 1
        st["cpu_seconds"] += r["cpu_s"]
    for st in stages.values():
        st["cpu_seconds"] = round(st["cpu_seconds"], 1)
    return dict(sorted(stages.items()))


def _split_sentence(cost, n_stages=4):
    """Where the quick run's CPU time went (jobs by stage, Snakemake's own process), or "" for an older record."""
    if cost.get("snakemake_cpu_seconds") is None or not cost.get("stages"):
        return ""
    top = sorted(cost["stages"].items(), key=lambda kv: (-kv[1]["cpu_seconds"], kv[0]))[:n_stages]
    largest = ", ".join(f"{stage} {st['cpu_seconds'] / 60:.1f}" for stage, st in top)
    return (f" Of the quick run's CPU time, its jobs measured {cost['jobs_cpu_seconds'] / 60:.1f} CPU-minutes "
            f"themselves (largest stages, CPU-minutes: {largest}) and the Snakemake process "
            f"{cost['snakemake_cpu_seconds'] / 60:.1f} (scheduling, job launches, benchmark sampling).")


def thesis_cost(archive=THESIS):
    """(timed jobs, CPU-hours its jobs measured, jobs without a CPU measure) of the archived thesis-config run."""
    stages, _ = _stage_times(archive)
    return (sum(st[0] for st in stages.values()), sum(st[3] for st in stages.values()) / 3600,
            sum(st[0] - st[2] for st in stages.values()))


def _rerun_sentence(archive):
    """How much CPU time the archive's jobs run again on a later part's machine took against their first run."""
    pairs = rerun_pairs(archive)
    if not pairs:
        return ""
    n = sum(p[0] for p in pairs.values())
    then, again = sum(p[1] for p in pairs.values()), sum(p[2] for p in pairs.values())
    return (f" The thesis run's parts ran on more than one machine: {n} runs of its jobs were repeated on the "
            f"machine of a later part (to compare the machines, or because a change of code moved their results; "
            f"the parts' notes say which), and took {again / 3600:.2f} CPU-hours there against "
            f"{then / 3600:.2f} in their earlier run ({then / again:.1f} times as much); the figure above counts "
            "each job's last run, and every other job's only run.")


def _settings_sentence(archive):
    """What the thesis config's jobs cost under each recorded setting of ours, and how many verdicts move."""
    from tools.setting_verdicts import summaries

    parts = []
    for s in summaries(archive):
        n_moved = len({m[0] for m in s["moved"]})
        parts.append(f"under `{s['record']['overlay']}` (a setting of ours, not the thesis') the thesis config's "
                     f"jobs take {s['total_under'] / 3600:.2f} CPU-hours, and {n_moved} of {s['n_claims']} claims' "
                     "verdicts move")
    return (" Measured the same way, " + "; ".join(parts) + " (docs/reproduction.md).") if parts else ""


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
        + ", Snakemake's own scheduling not included; details in [docs/reproduction.md](docs/reproduction.md))."
        + _rerun_sentence(archive)
        + _settings_sentence(archive)
        + _split_sentence(cost),
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
