"""Project the CPU time of a whole config (by default the thesis') from a timed, stratified sample of its jobs.

    .venv/bin/python bench/estimate_thesis_cost.py [--configfile config/thesis.yaml] [--per-stratum 1] [--threads 1]
    make estimate                       (the same, with the defaults)

1. The job list: ``snakemake --forceall --dry-run`` of the config (rule, wildcards, inputs, outputs).
2. Strata: the jobs of one rule with the same wildcards except the fold and the data set, among data
   sets of the same shape (``ch3_fold`` -> one stratum per method x model selection on the 300 x 200
   sets; ``mc_fold`` -> one per method x model selection x data set; one stratum per single job).
   The data sets are built first (untimed) to read their shapes.
3. ``--per-stratum`` jobs of every stratum are drawn (seeded) and run one at a time, each as
   ``snakemake OUTPUT --cores THREADS`` in a scratch working directory, after its inputs have been
   built (untimed; jobs are run upstream first, so a sampled upstream job is timed before its
   outputs are used). Wall time and CPU time (user + system of snakemake and the job's script) are
   measured, with the peak resident memory of the job's processes; snakemake's own start-up (a run
   with nothing to do, measured once) is subtracted from the times.
   Aggregates (summaries, tables and figures over many per-fold results) would need their whole
   upstream built and are not timed: they are local rules that take seconds.
   ``--reduce 'RULE[wildcard=value,...]:config.key=V1,V2'`` times the sampled jobs of a rule (those with
   these wildcard values) with a config key set to smaller values and extrapolates to the config's value
   along the line through the two measurements (one value: in proportion). For keys the job's cost is
   linear in (repetitions, reshuffles, subsets): a one-hour job is then projected from two short runs.
4. Projection: a stratum's CPU (wall) time = mean over its sampled jobs x its number of jobs; a
   stage (spine, chapter 3, 4, 5, ...) sums its strata. "Wall on N cores" = CPU-hours / N (jobs are
   CPU-bound and a run keeps the cores busy) or the longest single job, whichever is larger.

Timings are noisy on a shared machine: CPU time is the robust figure (wall time includes waiting for
other processes). ``--json FILE`` writes every measurement. ``--rules`` restricts the sample to some
rules, or to some strata of a rule (``'ch3_fold[ch3_method=stabsel_lasso,shape=72x7129]'``); the projection
then covers those only. ``--timeout S`` stops a timed job after S seconds and keeps its time as a lower
bound (flagged in the projection). ``--merge FILE ...`` prints the projection of earlier ``--json`` files
together (a later file's stratum replaces an earlier one's) without timing anything: several streams
(e.g. one per stage, each on one core) are measured apart and projected together.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import yaml

REPO = Path(__file__).resolve().parents[1]
SAMPLED_WILDCARDS = re.compile(r"(dataset$|fold|_first$|_last$)")  # drawn within a stratum, not part of its key


def snakemake_cmd(workdir, configfiles, *args):
    return [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
            *args, "--configfile", *map(str, configfiles)]


def list_jobs(workdir, configfiles):
    """Every job of the config: dicts with rule, wildcards, input, output."""
    run = subprocess.run(snakemake_cmd(workdir, configfiles, "--forceall", "--dry-run"), capture_output=True,
                         text=True, cwd=REPO)
    if run.returncode != 0:
        raise SystemExit(f"dry run failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
    jobs, job = [], None
    for line in run.stdout.splitlines():
        m = re.match(r"^(local)?rule (\S+):$", line)
        if m:
            job = {"rule": m.group(2), "local": bool(m.group(1)), "wildcards": {}, "input": [], "output": []}
            jobs.append(job)
            continue
        if job is None or not line.startswith("    "):
            job = None if not line.startswith("    ") else job
            continue
        key, _, value = line.strip().partition(": ")
        if key in ("input", "output"):
            job[key] = [v.strip() for v in value.split(", ") if v.strip()]
        elif key == "wildcards":
            job["wildcards"] = dict(kv.split("=", 1) for kv in value.split(", "))
    return [j for j in jobs if j["rule"] != "all"]


STAGE_PREFIXES = {"reg_": "regression (figure R.2)", "mc_": "multi-class (figure M.1)",
                  "paper_": "randSel paper (table P.2, figure P.2)"}


def stage_of(rule):
    m = re.match(r"ch(\d+)_", rule)
    if m:
        return f"chapter {m.group(1)}"
    for prefix, name in STAGE_PREFIXES.items():
        if rule.startswith(prefix):
            return name
    return "spine (data sets, chapter 2-4 figures)"


def dataset_input(job):
    """The data set (results/datasets/NAME.npz) a job reads, or None."""
    for f in job["input"]:
        m = re.fullmatch(r"results/datasets/([^/]+)\.npz", f)
        if m:
            return m.group(1)
    return None


def stratum_of(job, shapes=None):
    """(rule, wildcards that are not drawn, shape of the job's data set): jobs that cost the same."""
    key = (job["rule"],) + tuple(sorted((k, v) for k, v in job["wildcards"].items()
                                        if not SAMPLED_WILDCARDS.search(k)))
    name = dataset_input(job)
    if shapes and name in shapes:
        key += (("shape", "x".join(map(str, shapes[name]))),)
    return key


def parse_rule_filter(spec):
    """'RULE' or 'RULE[wc=v,...]' (a stratum's own wildcards, or shape=MxN) -> (rule, {wc: v})."""
    m = re.fullmatch(r"(\w+)(?:\[([^\]]*)\])?", spec.strip())
    if not m:
        raise SystemExit(f"--rules {spec!r}: expected RULE or RULE[wildcard=value,...]")
    return m.group(1), dict(kv.split("=", 1) for kv in m.group(2).split(",")) if m.group(2) else {}


def parse_reduce(spec):
    """'RULE[wc=v,...]:a.b.c=V1,V2' -> (rule, {wc: v}, ["a", "b", "c"], [V1, V2])."""
    m = re.fullmatch(r"([\w]+)(?:\[([^\]]*)\])?:([\w.]+)=([\d.,]+)", spec.strip())
    if not m:
        raise SystemExit(f"--reduce {spec!r}: expected RULE[wildcard=value,...]:config.key=V1[,V2]")
    wcs = dict(kv.split("=", 1) for kv in m.group(2).split(",")) if m.group(2) else {}
    values = [float(v) if "." in v else int(v) for v in m.group(4).split(",") if v]
    if not 1 <= len(values) <= 2 or len(set(values)) != len(values) or min(values) <= 0:
        raise SystemExit(f"--reduce {spec!r}: one or two different positive values")
    return m.group(1), wcs, m.group(3).split("."), values


def extrapolate(points, full):
    """A time at the config value ``full`` from (value, time) measurements at smaller values.

    Two points: the line through both (a fixed part plus a part linear in the value), at least the larger
    measurement (noise can tilt a short line downwards). One point: in proportion.
    """
    if len(points) == 2:
        (v1, t1), (v2, t2) = points
        return max(t1 + (t2 - t1) / (v2 - v1) * (full - v1), t1, t2)
    ((v1, t1),) = points
    return t1 * full / v1


def config_value(configfiles, path):
    """The value of a dotted config key after merging config.yaml and the config files (later wins)."""
    value = None
    for f in [REPO / "config.yaml", *configfiles]:
        node = yaml.safe_load(Path(f).read_text()) or {}
        for k in path:
            node = node.get(k) if isinstance(node, dict) else None
        if node is not None:
            value = node
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise SystemExit(f"--reduce: config key {'.'.join(path)} is {value!r}, not a number")
    return value


def nested(path, value):
    out = value
    for k in reversed(path):
        out = {k: out}
    return out


def timed(cmd, timeout=None):
    """(returncode, wall s, CPU s, peak RSS MB, output tail) of a command and the processes it waited for.

    ``os.wait4`` gives the rusage of this child alone: its CPU time includes its finished children
    (snakemake's job script) and its peak RSS is the largest of them.
    """
    t0 = time.perf_counter()
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True, cwd=REPO)
        deadline = None if timeout is None else t0 + timeout
        while True:
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if deadline is not None and time.perf_counter() > deadline:
                proc.send_signal(2)  # SIGINT: snakemake stops its job and cleans up
                pid, status, ru = os.wait4(proc.pid, 0)
                status = "timeout"
                break
            time.sleep(0.2)
        proc.returncode = 0  # reaped above; keep Popen from waiting again
        log.seek(0)
        out = log.read()[-3000:]
    wall = time.perf_counter() - t0
    rc = status if status == "timeout" else os.waitstatus_to_exitcode(status)
    return rc, wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--configfile", nargs="+", default=[str(REPO / "config" / "thesis.yaml")])
    ap.add_argument("--per-stratum", type=int, default=1, help="jobs timed per stratum (default 1)")
    ap.add_argument("--threads", type=int, default=1, help="--cores of each timed job (default 1)")
    ap.add_argument("--cores", type=int, default=2, help="cores of the projected run (default 2)")
    ap.add_argument("--rules", nargs="*", metavar="RULE[wc=v,...]",
                    help="time only these rules (optionally only their strata with these wildcard values or shape=MxN)")
    ap.add_argument("--max-aggregate-inputs", type=int, default=3,
                    help="a job whose inputs need more than this many unbuilt jobs is an aggregate: not timed")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per timed job")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workdir", help="scratch working directory (default: a temporary one, removed)")
    ap.add_argument("--json", help="write every measurement here")
    ap.add_argument("--reduce", action="append", default=[], metavar="'RULE[wc=v,...]:config.key=V1,V2'",
                    help="time these jobs with a smaller config value and extrapolate (repeatable)")
    ap.add_argument("--merge", nargs="+", metavar="JSON", help="only print the projection of earlier --json files")
    args = ap.parse_args(argv)
    if args.merge:
        runs = [json.loads(Path(f).read_text()) for f in args.merge]
        by_stratum = {}
        for run in runs:  # a later file's stratum replaces an earlier one's
            per = defaultdict(list)
            for r in run["results"]:
                per[hashable(r["stratum"])].append(r)
            by_stratum.update(per)
        notes = "; ".join(sorted({run["machine"] for run in runs}))
        report([r for rs in by_stratum.values() for r in rs], args.cores, notes, runs[-1]["threads"])
        return
    reductions = [parse_reduce(spec) for spec in args.reduce]
    rule_filters = [parse_rule_filter(r) for r in args.rules or []]
    configfiles = [Path(c).resolve() for c in args.configfile]
    workdir = Path(args.workdir).resolve() if args.workdir else Path(tempfile.mkdtemp(prefix="fscompbio-estimate-"))
    workdir.mkdir(parents=True, exist_ok=True)
    env_note = f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start"
    try:
        jobs = list_jobs(workdir, configfiles)
        producer = {out: i for i, j in enumerate(jobs) for out in j["output"]}

        def upstream(i, seen=None):
            seen = set() if seen is None else seen
            for f in jobs[i]["input"]:
                p = producer.get(f)
                if p is not None and p not in seen:
                    seen.add(p)
                    upstream(p, seen)
            return seen

        depth = {}

        def job_depth(i):
            if i not in depth:
                ps = [producer[f] for f in jobs[i]["input"] if f in producer]
                depth[i] = 1 + max((job_depth(p) for p in ps), default=0)
            return depth[i]

        # the data sets first (untimed; seconds each): their shapes split the strata
        ds_files = sorted({f"results/datasets/{n}.npz" for j in jobs if (n := dataset_input(j))} & set(producer))
        missing = [f for f in ds_files if not (workdir / f).exists()]
        if missing:
            rc, *_, out = timed(snakemake_cmd(workdir, configfiles, *missing, "--cores", str(args.cores)))
            if rc != 0:
                raise SystemExit(f"building the data sets failed:\n{out}")
        shapes = {}
        for f in ds_files:
            with np.load(workdir / f, allow_pickle=False) as z:
                shapes[Path(f).stem] = z["X"].shape

        strata = defaultdict(list)
        for i, j in enumerate(jobs):
            strata[stratum_of(j, shapes)].append(i)
        rng = np.random.default_rng(args.seed)
        sample = []
        for key, members in strata.items():
            if args.rules and not any(r == key[0] and all(kv in key[1:] for kv in w.items()) for r, w in rule_filters):
                continue
            k = min(args.per_stratum, len(members))
            sample.extend((key, int(i)) for i in rng.choice(members, size=k, replace=False))
        sample.sort(key=lambda s: (job_depth(s[1]), s[0]))
        print(f"{len(jobs)} jobs in {len(strata)} strata; timing {len(sample)} ({env_note}); "
              f"each with --cores {args.threads}; scratch {workdir}", flush=True)

        # snakemake's own start-up, subtracted from every timed job
        # (the probe: a job without inputs, a data set's if any, built once untimed and then run with nothing to do)
        probe = min((j for j in jobs if not j["input"]), key=lambda j: j["rule"] != "dataset")["output"][0]
        subprocess.run(snakemake_cmd(workdir, configfiles, probe, "--cores", "1"), capture_output=True, cwd=REPO)
        overhead = [timed(snakemake_cmd(workdir, configfiles, probe, "--cores", "1"))[1:4] for _ in range(2)]
        o_wall, o_cpu = min(o[0] for o in overhead), min(o[1] for o in overhead)
        print(f"snakemake start-up (subtracted): wall {o_wall:.1f} s, CPU {o_cpu:.1f} s, "
              f"peak RSS {max(o[2] for o in overhead):.0f} MB", flush=True)

        timeouts = []  # labels of jobs stopped by --timeout (their time is a lower bound)

        def run_timed(job, label, extra_config=None):
            for f in job["output"]:  # a sampled job that an earlier one needed: run it again, timed
                if (workdir / f).exists():
                    (workdir / f).unlink()
            files = configfiles + ([extra_config] if extra_config else [])
            # mtime only: a reduced config must not make Snakemake rerun the (full-config) inputs
            rc, wall, cpu, rss, out = timed(snakemake_cmd(workdir, files, *job["output"], "--cores", str(args.threads),
                                                          "--rerun-triggers", "mtime"), timeout=args.timeout)
            if rc == "timeout":  # a lower bound: the job ran at least this long
                print(f"  timed out after {wall:.0f} s (a lower bound): {label}", flush=True)
                timeouts.append(label)
            elif rc != 0:
                raise SystemExit(f"timed job {label} failed ({rc}):\n{out}")
            return max(wall - o_wall, 0.0), max(cpu - o_cpu, 0.0), rss

        results = []
        for key, i in sample:
            job = jobs[i]
            up = upstream(i)
            todo = [p for p in up if not all((workdir / f).exists() for f in jobs[p]["output"])]
            label = f"{job['rule']} " + " ".join(f"{k}={v}" for k, v in job["wildcards"].items())
            if len(todo) > args.max_aggregate_inputs:
                print(f"  skip (aggregate of {len(up)} jobs): {label}", flush=True)
                results.append({"stratum": list(key), "job": label, "n_jobs": len(strata[key]), "skipped": True})
                continue
            if todo:
                targets = [f for p in todo for f in jobs[p]["output"]]
                # mtime only: an input timed with a reduced config (--reduce) is not rebuilt at full size
                rc, *_, out = timed(snakemake_cmd(workdir, configfiles, *targets, "--cores", str(args.cores),
                                                  "--rerun-triggers", "mtime"))
                if rc != 0:
                    raise SystemExit(f"building the inputs of {label} failed:\n{out}")
            red = [r for r in reductions if r[0] == job["rule"]
                   and all(job["wildcards"].get(k) == v for k, v in r[1].items())]
            entry = {"stratum": list(key), "job": label, "n_jobs": len(strata[key]), "stage": stage_of(job["rule"]),
                     "local": job["local"]}
            if red:
                _, _, path, values = red[0]
                full = config_value(configfiles, path)
                points = []
                for v in values:
                    extra = workdir / f"reduce-{'.'.join(path)}-{v}.yaml"
                    extra.write_text(yaml.safe_dump(nested(path, v)))
                    wall, cpu, rss = run_timed(job, label, extra)
                    points.append((v, wall, cpu, rss))
                    print(f"  {wall:8.1f} s wall {cpu:8.1f} s CPU {rss:6.0f} MB  with {'.'.join(path)}={v}: {label}",
                          flush=True)
                wall = extrapolate([(p[0], p[1]) for p in points], full)
                cpu = extrapolate([(p[0], p[2]) for p in points], full)
                rss = max(p[3] for p in points)
                entry["reduced"] = {"key": ".".join(path), "value": full, "points": points}
                tag = f"extrapolated to {'.'.join(path)}={full}"
            else:
                wall, cpu, rss = run_timed(job, label)
                tag = ""
            entry.update(wall=wall, cpu=cpu, rss_mb=rss)
            if label in timeouts:
                entry["lower_bound"] = True
            results.append(entry)
            print(f"  {wall:8.1f} s wall {cpu:8.1f} s CPU {rss:6.0f} MB  x{len(strata[key]):4d}  {label}"
                  + (f" ({tag})" if tag else ""), flush=True)
            if args.json:  # after every job: a long run that stops keeps what it measured
                Path(args.json).write_text(json.dumps({"cores": args.cores, "threads": args.threads,
                                                       "machine": env_note, "overhead": [o_wall, o_cpu],
                                                       "results": results}, indent=1))

        report(results, args.cores, env_note, args.threads)
    finally:
        if not args.workdir:
            shutil.rmtree(workdir, ignore_errors=True)


def hashable(stratum):
    """A stratum key read back from JSON (lists) as nested tuples."""
    return tuple(tuple(k) if isinstance(k, list) else k for k in stratum)


def report(results, cores, env_note, threads):
    per = defaultdict(list)
    for r in results:
        if not r.get("skipped"):
            per[hashable(r["stratum"])].append(r)
    stages = defaultdict(lambda: {"cpu": 0.0, "wall": 0.0, "jobs": 0, "longest": 0.0})
    rows = []
    for key, rs in per.items():
        n = rs[0]["n_jobs"]
        cpu, wall = np.mean([r["cpu"] for r in rs]) * n, np.mean([r["wall"] for r in rs]) * n
        st = stages[rs[0]["stage"]]
        st["cpu"] += cpu
        st["wall"] += wall
        st["jobs"] += n
        st["longest"] = max(st["longest"], max(r["wall"] for r in rs))
        rows.append((cpu, key, n, np.mean([r["cpu"] for r in rs])))
    print("\nLargest strata (projected CPU-hours = mean CPU per job x jobs):")
    for cpu, key, n, mean in sorted(rows, reverse=True)[:12]:
        print(f"  {cpu / 3600:7.2f} h  {n:4d} x {mean:7.1f} s  {' '.join(map(str, key))}")
    skipped = [r for r in results if r.get("skipped")]
    print(f"\nProjection per stage ({env_note}; timed with --cores {threads}):")
    print(f"  {'stage':42s} {'jobs':>5s} {'CPU-h':>7s} {'wall-h (sum)':>12s} {'longest job':>12s}")
    tot_cpu = tot_wall = longest = 0.0
    for name in sorted(stages):
        st = stages[name]
        print(f"  {name:42s} {st['jobs']:5d} {st['cpu'] / 3600:7.2f} {st['wall'] / 3600:12.2f} "
              f"{st['longest'] / 60:9.1f} min")
        tot_cpu += st["cpu"]
        tot_wall += st["wall"]
        longest = max(longest, st["longest"])
    print(f"  {'total':42s} {sum(s['jobs'] for s in stages.values()):5d} {tot_cpu / 3600:7.2f} {tot_wall / 3600:12.2f}")
    bounds = sorted({" ".join(map(str, r["stratum"])) for r in results if r.get("lower_bound")})
    if bounds:
        print(f"  lower bounds only (stopped by --timeout), so the totals are too: {'; '.join(bounds)}")
    if skipped:
        print(f"  not timed: {sum(r['n_jobs'] for r in skipped)} aggregate job(s) (summaries, tables, figures): "
              + ", ".join(sorted({r['stratum'][0] for r in skipped})))
    proj = max(tot_cpu / cores, longest)
    print(f"\nProjected wall time on {cores} cores: {proj / 3600:.2f} h (CPU-hours / {cores}, at least the longest job); "
          f"from the summed wall times: {max(tot_wall / cores, longest) / 3600:.2f} h")


if __name__ == "__main__":
    main()
