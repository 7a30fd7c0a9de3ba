"""Archive a run of the workflow, and redraw its figures and tables from the archive without refitting.

    python -m tools.run_archive collect RUN_DIR [TARGET ...] [--configfile config/thesis.yaml ...]
                                        [--archive archive/thesis] [--part NAME]
    python -m tools.run_archive redraw [--archive archive/thesis] [--workdir thesis_figures] [--cores 2] [--check]
    python -m tools.run_archive times [--archive archive/thesis] [--write] [--doc]
    python -m tools.run_archive supersede PART RUN_DIR --by NEWPART --reason TEXT [--write]

``collect`` takes a finished (or partly finished) run in ``RUN_DIR`` and copies into the archive:

- ``files/``: every small result of the run's jobs (JSON, CSV, Markdown, TSV, text, and whatever a drawing
  rule reads; at most :data:`MAX_BYTES` each) and the jobs' benchmark files (wall and CPU time, memory).
  Large matrices (data sets, peptide windows, sparse-filtering features, per-window scores, fitted models)
  are left out: they are recomputed cheaply or not needed to draw.
- ``report/``: the figures and tables the run drew (``figures/``), the reference that ``redraw`` must
  reproduce byte for byte.
- ``config.yaml``: the config the results came from (the run's config files merged as Snakemake merges
  them). ``redraw`` draws with it, not with the repository's current config, and says in the provenance
  which keys have changed since; ``collect`` refuses a part run with another config.
- ``parts/<part>.json``: the part's manifest: the run's commit (and whether its tree had changes), the
  config file(s) and the SHA-256 of the config they make together, the environment
  (:func:`fscompbio.environment.environment_record`), and every archived job with its rule, archived outputs
  and measured times.

A run may be collected in parts (a stage at a time): each part adds its files and its manifest. A job that
another part archived stays that part's (its files must agree byte for byte), so no job is timed twice.

``redraw`` copies ``files/`` into a fresh working directory and runs Snakemake there on the report's
targets with ``--allowed-rules`` set to every rule that made no archived file. Snakemake builds its DAG
from the allowed rules only, so the archived results are source files to it: they are up to date whatever
their dates, and the rules that made them (the fits) are not in the DAG and cannot run. What the drawing
rules need and the archive does not hold (the data sets, the peptide windows) is recomputed by the allowed
rules (:data:`RECOMPUTED_RULES`: seconds each; they are never archived), with the archive's config. The
drawn files are then compared with ``report/``; ``--check`` exits 1 when one differs. Code changed after
the archive was made may draw differently: the archive's commit is in every manifest, and ``redraw`` writes
``figures/PROVENANCE.md`` naming it beside the commit that drew.

``times`` prints the measured wall and CPU time per stage (the first directory under ``benchmarks/``, or
``logs/``) and the slowest jobs. Wall time is the benchmark file's (the job's own where its rule has none);
CPU time is the one each job measures itself and writes as its log's last line (:mod:`fscompbio.joblog`):
Snakemake's benchmark samples CPU time and loses what a job burns after its last sample, so its figure is
kept in the manifest but not summed. Parts run before the jobs measured themselves have wall times only.
A table per part gives its commit and CPU time. Jobs that ran again (to measure them on another machine,
or after a fix) are first handed over by ``supersede``: their records move to the old part's ``superseded``
list, the new part archives them, and ``times`` compares the CPU time of the two runs of the same jobs.
``collect`` (and ``times --write``) keeps the same tables in the archive's ``TIMES.md``; ``times --doc`` (or
``--readme``) writes the stage table and the whole config's CPU-hours into docs/reproduction.md's block (between
its ``thesis-times`` markers).
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from tools import readme_blocks

REPO = Path(__file__).resolve().parents[1]
#: outputs archived (small, text): what the drawing rules read
ARCHIVED_SUFFIXES = (".json", ".csv", ".md", ".tsv", ".txt")
#: larger files are left out (and listed in the manifest)
MAX_BYTES = 2 * 2**20
#: the report: what the drawing rules write
REPORT_DIR = "figures"
#: the merged config of the archived run, in the archive
ARCHIVE_CONFIG = "config.yaml"
#: data preparation, seconds per job: recomputed by ``redraw`` when a drawing rule needs it, never archived
RECOMPUTED_RULES = frozenset({"dataset", "ch5_windows", "ch5_encode", "ch5_encode_raw", "ch5_homology"})
#: rules that record the run itself (the software it used): archived whole, their report files included, so
#: that the redrawn report shows the run's environment, not the one that redraws it
RUN_RECORD_RULES = frozenset({"environment"})
#: rules whose jobs exist only to read a claim the study leaves open in another way (their cost is given apart)
READING_RULES = {"ch5_predict_raw": "chapter 5's SVMs on the published, unscaled values, the reading scales=raw"}


# --------------------------------------------------------------------------
# the jobs of a run, from a dry run
# --------------------------------------------------------------------------
#: what makes a result on disk stale for ``collect``: a config value its rule reads (``params``) or the set of
#: its inputs changed since it was made (and whatever depends on such a result). Not the code (the manifest
#: records its commit) and not dates: the workflow's results are byte-identical from run to run, so an input
#: made again by the same config leaves the results made from it valid. The gap: a result made before an
#: input was re-made with *another* config, the input's job then being up to date, is not detected.
STALE_TRIGGERS = ("params", "input")


def dry_run(configfiles, workdir, targets=(), forceall=True):
    """The text of ``snakemake --dry-run [--forceall]`` of ``configfiles`` in ``workdir``.

    Without ``forceall``: the jobs Snakemake would run, with :data:`STALE_TRIGGERS` as rerun triggers. The
    workflow is ``workdir``'s own ``Snakefile`` when it has one (a clone of the repository that ran there: its
    jobs' input paths are under it), else this repository's."""
    snakefile = Path(workdir) / "Snakefile"
    snakefile = snakefile if snakefile.is_file() else REPO / "Snakefile"
    cmd = [sys.executable, "-m", "snakemake", "-s", str(snakefile), "--directory", str(workdir),
           "--configfile", *map(str, configfiles), "--cores", "1",
           *(["--forceall"] if forceall else ["--rerun-triggers", *STALE_TRIGGERS]), "--dry-run", "--", *targets]
    run = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=1800)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{run.stderr[-3000:]}")
    return run.stdout


def parse_jobs(text):
    """[{"rule", "input", "output", "log", "benchmark", "reason"}] of every job printed by a dry run."""
    jobs, job = [], None
    for line in text.splitlines():
        m = re.match(r"^(?:local)?rule (\w+):$", line)
        if m:
            job = {"rule": m.group(1), "input": [], "output": [], "log": [], "benchmark": None, "reason": ""}
            jobs.append(job)
            continue
        if job is None:
            continue
        m = re.match(r"^    (input|output|log|benchmark|reason): (.*)$", line)
        if m and m.group(1) in ("input", "output", "log"):
            job[m.group(1)] = m.group(2).split(", ")
        elif m:
            job[m.group(1)] = m.group(2)
        elif not line.startswith("    "):
            job = None
    return jobs


def read_benchmark(path):
    """``{"s", "cpu_time", "max_rss_mb"}`` of a Snakemake benchmark file (its last repeat)."""
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    if not rows:
        return None
    row = rows[-1]

    def num(key):
        try:
            return float(row[key])
        except (KeyError, TypeError, ValueError):
            return None

    return {"s": num("s"), "cpu_time": num("cpu_time"), "max_rss_mb": num("max_rss")}


def _git(workdir, *args):
    run = subprocess.run(["git", "-C", str(workdir), *args], capture_output=True, text=True)
    return run.stdout.strip() if run.returncode == 0 else None


def _copy(src, dst):
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)


# --------------------------------------------------------------------------
# collect
# --------------------------------------------------------------------------
def _config_paths(configfiles):
    return [Path(c) if Path(c).is_absolute() else (REPO / c).resolve() for c in configfiles]


def _merged_config(configfiles):
    """The config the files make together (later files update earlier ones, recursively, as Snakemake does)."""
    import yaml

    def update(base, new):
        for key, value in new.items():
            if isinstance(value, dict) and isinstance(base.get(key), dict):
                update(base[key], value)
            else:
                base[key] = value
        return base

    merged = {}
    for path in configfiles:
        update(merged, yaml.safe_load(Path(path).read_text()) or {})
    return merged


def config_digest(config):
    """SHA-256 of a (merged) config: an edit to a key the run's config overrides does not change it."""
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()


def _differing_keys(a, b, prefix=""):
    """The dotted keys whose values differ between two configs (a key missing on one side included)."""
    if not (isinstance(a, dict) and isinstance(b, dict)):
        return [] if a == b else [prefix or "(the whole config)"]
    out = []
    for key in sorted(set(a) | set(b), key=str):
        name = f"{prefix}.{key}" if prefix else str(key)
        if key not in a or key not in b:
            out.append(name)
        else:
            out += _differing_keys(a[key], b[key], name)
    return out


def archive_config(archive):
    """The config the archive's results came from (``config.yaml`` of the archive), or None."""
    import yaml

    path = Path(archive) / ARCHIVE_CONFIG
    return yaml.safe_load(path.read_text()) if path.is_file() else None


def _keep_archive_config(archive, merged, part):
    """Write the merged config into the archive, or check that the part's config is the archive's."""
    import yaml

    kept = archive_config(archive)
    if kept is None:
        text = ("# The config the archived results came from (the run's config files merged as Snakemake merges\n"
                "# them). `run_archive redraw` draws with this config, not with the repository's current one.\n")
        (Path(archive) / ARCHIVE_CONFIG).write_text(text + yaml.safe_dump(merged, sort_keys=True))
    elif config_digest(kept) != config_digest(merged):
        raise ValueError(f"part {part!r} was run with another config than the archive's results "
                         f"({', '.join(_differing_keys(kept, merged)[:8])} differ): collect it into a new archive, "
                         "or re-run the archive's parts with this config")


def _config_name(path):
    path = Path(path)
    return path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else str(path)


def _ran_again(rel, run_dir, archive):
    """Whether the run's ``rel`` differs from the archived copy (both present): its job ran again since."""
    src, kept = Path(run_dir) / rel, Path(archive) / "files" / rel
    return src.is_file() and kept.is_file() and src.read_bytes() != kept.read_bytes()


def _archived_elsewhere(job, elsewhere, run_dir, archive):
    """Whether another part archived ``job`` (``elsewhere``: output -> part); refuses when a file differs."""
    shared = [o for o in job["output"] if o in elsewhere]
    for o in shared:
        if _ran_again(o, run_dir, archive):
            raise ValueError(f"{Path(run_dir) / o} differs from {Path(archive) / 'files' / o}, archived by part {elsewhere[o]!r}: the job ran again "
                             "since; collect it into that part again, or into a new archive")
    return bool(shared)


def collect(run_dir, configfiles, archive, part, targets=(), note=None, vouch_for=()):
    """Copy the small results, benchmarks and figures of the run in ``run_dir`` into ``archive``.

    ``configfiles``: the config file(s) the run used, in order (paths relative to the repository or
    absolute); ``targets``: the run's targets (default: the config's default target); ``note``: what a reader
    should know about how the part was computed (kept in the manifest and in the redrawn provenance);
    ``vouch_for``: rules whose results Snakemake would run again but which the caller vouches are this
    config's (e.g. a parameter added to a rule after its jobs ran, with the value they used; say why in
    ``note``): archived, and counted in the manifest's ``vouched_stale``."""
    from fscompbio.joblog import read_job_resources

    run_dir, archive = Path(run_dir).resolve(), Path(archive)
    configfiles = _config_paths([configfiles] if isinstance(configfiles, (str, Path)) else configfiles)
    jobs = parse_jobs(dry_run(configfiles, run_dir, targets))
    if not jobs:
        raise RuntimeError(f"the dry run of {configfiles} in {run_dir} lists no jobs")
    # results on disk that this config would compute again (a config value its rule reads, or an input,
    # changed since they were made) are not this config's: refuse them
    stale = [j for j in parse_jobs(dry_run(configfiles, run_dir, targets, forceall=False))
             if j["output"] and all((run_dir / o).is_file() for o in j["output"])]
    vouched = defaultdict(int)
    for j in stale:
        if j["rule"] in vouch_for:
            vouched[j["rule"]] += 1

    # a job stale only because an upstream job would run again is judged by that job (vouched or refused)
    def propagated_only(job):
        return all(r.strip().startswith("Input files updated by another job") for r in job["reason"].split("; "))

    stale = [j for j in stale if j["rule"] not in vouch_for and not propagated_only(j)]
    if stale:
        raise ValueError(f"{len(stale)} results in {run_dir} are not up to date for "
                         f"{' + '.join(map(_config_name, configfiles))} (Snakemake would run them again: a config "
                         f"value or an input changed since), e.g. {', '.join(j['output'][0] for j in stale[:5])}")

    def is_drawing(job):  # a drawing job writes into figures/: redrawn, its other outputs recomputed with it
        return any(p.startswith(REPORT_DIR + "/") for p in job["output"]) and job["rule"] not in RUN_RECORD_RULES

    # what the drawing jobs read: archived whatever its format (if small), since redraw does not recompute it
    drawing_inputs = {p for job in jobs if is_drawing(job) for p in job["input"]}
    # a job another part archived stays that part's (its times are counted once); only its files must agree
    other_parts = [m for m in (manifests(archive) if (archive / "parts").is_dir() else []) if m["part"] != part]
    elsewhere = {o: m["part"] for m in other_parts for j in m["jobs"] for o in j["outputs"]}
    files, report, skipped, archived_jobs, missing, in_other_parts = [], [], [], [], 0, 0
    for job in jobs:
        drawn = is_drawing(job)
        if job["rule"] in RECOMPUTED_RULES:
            continue
        if not drawn and _archived_elsewhere(job, elsewhere, run_dir, archive):
            in_other_parts += 1
            continue
        kept = []
        for rel in job["output"]:
            src = run_dir / rel
            if not src.is_file():
                continue
            if drawn:
                if rel.startswith(REPORT_DIR + "/"):
                    _copy(src, archive / "report" / Path(rel).relative_to(REPORT_DIR))
                    report.append(rel)
            elif rel.endswith(ARCHIVED_SUFFIXES) or rel in drawing_inputs:
                if rel.startswith(REPORT_DIR + "/"):  # a record of the run: a source file of the redraw
                    _copy(src, archive / "report" / Path(rel).relative_to(REPORT_DIR))
                    report.append(rel)
                if src.stat().st_size > MAX_BYTES:
                    skipped.append(rel)
                    continue
                _copy(src, archive / "files" / rel)
                files.append(rel)
                kept.append(rel)
        bench = None
        if job["benchmark"] and (run_dir / job["benchmark"]).is_file():
            _copy(run_dir / job["benchmark"], archive / "files" / job["benchmark"])
            bench = read_benchmark(run_dir / job["benchmark"])
        # the job's own CPU time (the benchmark's is sampled and undercounts); a rule without a benchmark
        # file is timed by its log alone
        own = next((r for r in (read_job_resources(run_dir / p) for p in job["log"]) if r), None)
        if bench is not None:
            bench["job_cpu_s"] = own["cpu_s"] if own else None
        elif own is not None:
            bench = {"s": own["wall_s"], "cpu_time": None, "max_rss_mb": own["max_rss_mb"], "job_cpu_s": own["cpu_s"]}
        if not drawn and not all((run_dir / p).is_file() for p in job["output"]):
            missing += 1  # not run (yet): not archived
            continue
        if kept:
            archived_jobs.append({"rule": job["rule"], "outputs": kept, "benchmark": job["benchmark"],
                                  "log": job["log"][0] if job["log"] else None, "times": bench})
    from fscompbio.environment import environment_record

    lock = REPO / "requirements" / "lock.txt"
    merged = _merged_config(configfiles)
    _keep_archive_config(archive, merged, part)
    manifest = {
        "part": part,
        "commit": _git(run_dir, "rev-parse", "HEAD"),
        "tree_changed": bool(_git(run_dir, "status", "--porcelain", "--untracked-files=no")),
        "note": note,
        "configfiles": [_config_name(c) for c in configfiles],
        "config_sha256": config_digest(merged),
        "targets": list(targets),
        "environment": environment_record(lock if lock.exists() else None),
        "n_jobs_in_dag": len(jobs),
        "n_jobs_not_run": missing,
        "n_jobs_in_other_parts": in_other_parts,
        "vouched_stale": dict(sorted(vouched.items())),
        "files": sorted(files),
        "report": sorted(report),
        "left_out_larger_than_max": sorted(skipped),
        "left_out_but_drawn_from": sorted(set(skipped) & drawing_inputs),
        "jobs": archived_jobs,
    }
    if manifest["left_out_but_drawn_from"]:
        print(f"warning: {part}: drawing rules read {', '.join(manifest['left_out_but_drawn_from'])}, larger than "
              f"{MAX_BYTES // 2**20} MiB and not archived: redraw will fail on them", file=sys.stderr)
    out = archive / "parts" / f"{part}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    write_times(archive)
    size = sum(p.stat().st_size for p in archive.rglob("*") if p.is_file())
    print(f"{part}: {len(archived_jobs)} jobs archived ({missing} of {len(jobs)} not run, {in_other_parts} archived "
          f"by other parts), {len(files)} result "
          f"files, {len(report)} report files, {len(skipped)} left out (> {MAX_BYTES // 2**20} MiB); "
          f"archive now {size / 2**20:.1f} MiB")
    return manifest


def supersede(archive, part, by, run_dir, reason, write=False):
    """Hand the jobs of ``part`` that ran again in ``run_dir`` (an archived output differs) over to part ``by``.

    Their records move from the manifest's ``jobs`` to its ``superseded`` list (with their first times and
    ``"by": by``) and their files leave its ``files``, so that ``collect --part BY`` archives them with their
    new outputs and times, and ``times`` compares the two runs of the same jobs. The manifest's note says which
    rules and why (``reason``). Only prints what it would do unless ``write``; returns the superseded jobs."""
    archive, run_dir = Path(archive), Path(run_dir)
    path = archive / "parts" / f"{part}.json"
    m = json.loads(path.read_text())

    again = [any(_ran_again(o, run_dir, archive) for o in j["outputs"]) for j in m["jobs"]]
    moved = [j for j, a in zip(m["jobs"], again) if a]
    counts = Counter(j["rule"] for j in moved)
    rules = ", ".join(f"{n} {r}" for r, n in sorted(counts.items()))
    print(f"{part}: {len(moved)} of {len(m['jobs'])} jobs ran again in {run_dir}" + (f" ({rules})" if moved else ""))
    if moved and write:
        gone = {o for j in moved for o in j["outputs"]}
        m["jobs"] = [j for j, a in zip(m["jobs"], again) if not a]
        m["files"] = [f for f in m["files"] if f not in gone]
        m["superseded"] = m.get("superseded", []) + [{**j, "by": by} for j in moved]
        m["note"] = (m.get("note") or "") + f" Jobs run again, archived by part {by} ({rules}): {reason}"
        path.write_text(json.dumps(m, indent=1, sort_keys=True) + "\n")
    return moved


def manifests(archive):
    paths = sorted((Path(archive) / "parts").glob("*.json"))
    if not paths:
        raise FileNotFoundError(f"no manifest in {Path(archive) / 'parts'}: collect a run first")
    return [json.loads(p.read_text()) for p in paths]


# --------------------------------------------------------------------------
# redraw
# --------------------------------------------------------------------------
def all_jobs(configfiles):
    """Every job of the config's default target (a forced dry run in a scratch directory)."""
    with tempfile.TemporaryDirectory() as scratch:
        return parse_jobs(dry_run(configfiles, scratch))


def coverage(jobs, parts):
    """Which of ``jobs`` (a dry run's) the archive's ``parts`` hold: ``(n_counted, missing)``.

    A job counts unless it is data preparation (:data:`RECOMPUTED_RULES`) or has no output (the target
    rule). A drawing job is covered when a part archived the report file it draws, any other job when a part
    archived one of its outputs. ``missing``: the jobs covered by no part, as ``(rule, first output)``."""
    archived = {o for m in parts for j in m["jobs"] for o in j["outputs"]} | {t for m in parts for t in m["report"]}
    counted = [j for j in jobs if j["output"] and j["rule"] not in RECOMPUTED_RULES]
    missing = [(j["rule"], j["output"][0]) for j in counted if not archived.intersection(j["output"])]
    return len(counted), missing


def coverage_text(n_counted, missing):
    """One sentence: how many of the default target's jobs the archive holds, and which rules it lacks."""
    text = (f"The archive holds the results of {n_counted - len(missing)} of the {n_counted} jobs of its config's "
            "default target (data preparation, recomputed by the redraw, not counted)")
    if not missing:
        return text + "."
    by_rule = defaultdict(int)
    for rule, _ in missing:
        by_rule[rule] += 1
    return text + "; not yet archived: " + ", ".join(f"{r} x {n}" for r, n in sorted(by_rule.items())) + "."


def redraw(archive, workdir, cores=2, check=False, keep=False):
    """Draw the report's figures and tables from the archive in ``workdir``; compare them with the report.

    Returns the list of report files that differ (or are missing)."""
    archive, workdir = Path(archive).resolve(), Path(workdir).resolve()
    parts = manifests(archive)
    kept = archive_config(archive)
    if kept is None:
        raise ValueError(f"{archive / ARCHIVE_CONFIG} is missing: the archive does not say which config its "
                         "results came from")
    for m in parts:  # every part's results came from the archive's config
        if config_digest(kept) != m["config_sha256"]:
            raise ValueError(f"{archive / ARCHIVE_CONFIG} is not the config part {m['part']!r} was run with "
                             f"(SHA-256 {m['config_sha256']}): the archive was edited by hand")
    configfiles = [archive / ARCHIVE_CONFIG]  # draw with the run's config, whatever the repository's is now
    repo_configs = {tuple(m["configfiles"]) for m in parts}
    try:  # the keys of the run's config files (as they are now) that differ from the archive's config
        changed_since = sorted({k for c in repo_configs
                                for k in _differing_keys(kept, _merged_config(_config_paths(c)))})
    except FileNotFoundError:  # config files of another machine
        changed_since = []
    archived_rules = {j["rule"] for m in parts for j in m["jobs"]}
    jobs = all_jobs(configfiles)
    allowed = sorted({j["rule"] for j in jobs} - archived_rules)
    covered = coverage_text(*coverage(jobs, parts))
    targets = sorted({t for m in parts for t in m["report"]})
    if workdir.exists() and not keep:
        shutil.rmtree(workdir)
    shutil.copytree(archive / "files", workdir, dirs_exist_ok=True)
    # the report files archived as records of the run (the environment) are source files, not targets
    drawn = [t for t in targets if not (workdir / t).exists()]
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
           "--configfile", *map(str, configfiles), "--cores", str(cores), "--allowed-rules", *allowed, "--",
           *drawn]
    print(f"redraw: {len(targets)} report files from {len(parts)} archived part(s), "
          f"{len(archived_rules)} archived rules left out of the DAG", flush=True)
    run = subprocess.run(cmd, cwd=workdir)
    if run.returncode != 0:
        raise RuntimeError(f"snakemake failed ({run.returncode}): {' '.join(cmd)}")
    commits = sorted({m["commit"] for m in parts if m["commit"]})
    here = _git(REPO, "rev-parse", "HEAD")
    provenance = [
        "# Provenance of these figures and tables",
        "",
        f"Drawn by commit {here} from the archive `{os.path.relpath(archive, REPO)}`, whose results were "
        f"computed by commit(s) {', '.join(commits)}.",
    ]
    if any(c != here for c in commits):
        provenance.append("The drawing code may have changed since: compare with the archive's report.")
    provenance.append(f"Drawn with the config the results came from (`{ARCHIVE_CONFIG}` of the archive).")
    provenance.append(covered)
    if changed_since:
        provenance.append(f"The repository's {' + '.join(sorted({n for c in repo_configs for n in c}))} has "
                          f"changed since the run in: {', '.join(changed_since)}. These results are not those "
                          "of the current config for what those keys touch.")
    provenance += [f"Part {m['part']!r}: {m['note']}" for m in parts if m.get("note")]
    (workdir / REPORT_DIR / "PROVENANCE.md").write_text("\n".join(provenance) + "\n")
    differ = []
    for rel in targets:
        mine, ref = workdir / rel, archive / "report" / Path(rel).relative_to(REPORT_DIR)
        if not mine.is_file() or mine.read_bytes() != ref.read_bytes():
            differ.append(rel)
    print(f"redraw: {len(targets) - len(differ)} of {len(targets)} report files byte-identical to the archive's"
          + (f"; differ: {', '.join(differ)}" if differ else ""))
    print(f"redraw: {covered}")
    if differ and any(rel.endswith((".png", ".pdf", ".svg")) for rel in differ):
        from fscompbio.plots._style import bundled_fonts_problem

        problem = bundled_fonts_problem()  # the figures' bytes depend on matplotlib's own fonts being found
        if problem:
            print(f"redraw: {problem}")
    if check and differ:
        sys.exit(1)
    return differ


# --------------------------------------------------------------------------
# times
# --------------------------------------------------------------------------
def _stage_times(archive):
    """Per stage ``[jobs timed, wall s, jobs with CPU measured, their CPU s, wall s of the others]``; the timed jobs.

    The stage is the first directory under ``benchmarks/`` or ``logs/`` of the job's timing, or the name of a file
    directly under them (``logs/environment.log``: ``environment``); else the job's part."""
    rows = [(j, m["part"]) for m in manifests(archive) for j in m["jobs"] if j.get("times")]
    stages = defaultdict(lambda: [0, 0.0, 0, 0.0, 0.0])
    for j, part in rows:
        timed_by = j["benchmark"] or j.get("log")  # benchmarks/<stage>/..., logs/<stage>/... (else: the part's)
        path = Path(timed_by or "")
        stage = path.parts[1] if len(path.parts) > 2 else path.stem if len(path.parts) == 2 else part
        st = stages[stage]
        st[0] += 1
        st[1] += j["times"]["s"] or 0.0
        if j["times"].get("job_cpu_s") is not None:
            st[2] += 1
            st[3] += j["times"]["job_cpu_s"]
        else:
            st[4] += j["times"]["s"] or 0.0
    return dict(sorted(stages.items())), rows


def _stage_table(stages):
    lines = ["| stage | jobs timed | job wall-hours (sum) | jobs with CPU measured | their CPU-hours |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for stage, (n, s, n_cpu, c, _) in stages.items():
        lines.append(f"| {stage} | {n} | {s / 3600:.2f} | {n_cpu} | {c / 3600:.2f} |" if n_cpu else
                     f"| {stage} | {n} | {s / 3600:.2f} | 0 | - |")
    return lines


def rerun_pairs(archive):
    """``{(first part, part that ran them again): [jobs, CPU s then, CPU s again]}`` over the jobs handed over by
    :func:`supersede` whose CPU time both runs measured."""
    ms = manifests(archive)
    # each part's run of a job: in its jobs, or in its superseded list when a later part ran the job again
    runs = {(m["part"], j["outputs"][0]): j for m in ms for j in [*m["jobs"], *m.get("superseded", [])]}
    pairs = defaultdict(lambda: [0, 0.0, 0.0])
    for m in ms:
        for old in m.get("superseded", []):
            part = old["by"]
            new = runs.get((part, old["outputs"][0]))
            then_cpu = (old.get("times") or {}).get("job_cpu_s")
            now_cpu = ((new or {}).get("times") or {}).get("job_cpu_s")
            if new is not None and then_cpu and now_cpu:
                pair = pairs[(m["part"], part)]
                pair[0] += 1
                pair[1] += then_cpu
                pair[2] += now_cpu
    return dict(sorted(pairs.items()))


def _part_table(archive):
    """Per part: its commit, timed jobs and their CPU-hours; then, for jobs a later part ran again
    (:func:`supersede`), their CPU time in both runs."""
    ms = manifests(archive)
    lines = ["| part | commit | jobs timed | their CPU-hours |", "| --- | --- | ---: | ---: |"]
    for m in ms:
        timed = [j for j in m["jobs"] if j.get("times")]
        cpu = sum(j["times"].get("job_cpu_s") or 0.0 for j in timed)
        lines.append(f"| {m['part']} | `{(m.get('commit') or '-')[:7]}` | {len(timed)} | {cpu / 3600:.2f} |")
    pairs = rerun_pairs(archive)
    if pairs:
        lines += ["", "| jobs run again | first run | its CPU-hours | run again by | its CPU-hours | first / again |",
                  "| ---: | --- | ---: | --- | ---: | ---: |"]
        for (first, again), (n, a, b) in pairs.items():
            lines.append(f"| {n} | {first} | {a / 3600:.2f} | {again} | {b / 3600:.2f} | {a / b:.2f} |")
    return lines


def times(archive, n_slowest=10):
    """Measured wall and CPU time per stage, per part (with the jobs a part ran again), and the slowest jobs, as
    Markdown.

    CPU time is summed over the jobs that measured their own (``job_cpu_s``); the table says how many did.
    """
    stages, rows = _stage_times(archive)
    lines = _stage_table(stages) + [""] + _part_table(archive)
    lines += ["", "| slowest jobs | rule | wall s | CPU s | max RSS MB |", "| --- | --- | ---: | ---: | ---: |"]
    for j, _ in sorted(rows, key=lambda r: -(r[0]["times"]["s"] or 0))[:n_slowest]:
        t = j["times"]
        cpu = "-" if t.get("job_cpu_s") is None else f"{t['job_cpu_s']:.0f}"
        lines.append(f"| `{j['outputs'][0]}` | {j['rule']} | {t['s']:.0f} | {cpu} | {t['max_rss_mb'] or 0:.0f} |")
    return "\n".join(lines)


#: the page that shows the archived run's measured times (section "Running the study"), and its block's markers
#: (written by ``times --doc``)
TIMES_PAGE = REPO / "docs" / "reproduction.md"
TIMES_MARKERS = ("<!-- thesis-times:start -->", "<!-- thesis-times:end -->")


def doc_times(archive, cores=2):
    """docs/reproduction.md's block: the stage table of :func:`times` and the whole config's CPU time, from the
    manifests.

    With every job's CPU measured, ``CPU-hours / cores`` is the shortest wall clock the config can take on
    ``cores`` cores (perfect packing, no scheduler overhead); otherwise the jobs without a CPU measure count
    with their wall time (an upper bound) and the sentence says so."""
    stages, _ = _stage_times(archive)
    n = sum(st[0] for st in stages.values())
    n_cpu = sum(st[2] for st in stages.values())
    cpu_h = sum(st[3] for st in stages.values()) / 3600
    lines = _stage_table(stages) + [""]
    if n_cpu == n:
        lines.append(f"The whole config: **{cpu_h:.2f} CPU-hours** measured over its {n:,} timed jobs, so at "
                     f"least {cpu_h / cores:.1f} hours on {cores} cores, however well they are kept busy.")
    else:
        rest_h = sum(st[4] for st in stages.values()) / 3600
        lines.append(f"The whole config: {cpu_h:.2f} CPU-hours measured over {n_cpu:,} of its {n:,} timed jobs; "
                     f"with the others' wall time (about {rest_h:.1f} hours) at most {cpu_h + rest_h:.1f} "
                     f"CPU-hours, at least {(cpu_h + rest_h) / cores:.1f} hours on {cores} cores if all were CPU.")
    readings = [j for m in manifests(archive) for j in m["jobs"] if j["rule"] in READING_RULES and j.get("times")]
    if readings:
        cpu_r = sum(j["times"].get("job_cpu_s") or 0.0 for j in readings)
        what = "; ".join(f"`{r}`: {w}" for r, w in READING_RULES.items())
        lines.append(f"Of these, the jobs that only serve a reading of the claims ({what}): {len(readings)} jobs, "
                     f"{cpu_r / 60:.1f} CPU-minutes.")
    lines += ["", "Per part of the archive (each part ran at one commit, on one machine):", ""] + _part_table(archive)
    return "\n".join(lines)


def write_doc_times(archive, page=TIMES_PAGE):
    """Write :func:`doc_times` between :data:`TIMES_MARKERS` of ``page`` (docs/reproduction.md); the new text."""
    from fscompbio.io import write_text

    text = readme_blocks.with_block(Path(page).read_text(), TIMES_MARKERS, doc_times(archive), where=page)
    write_text(text, Path(page))
    return text


TIMES = "TIMES.md"


def write_times(archive, n_slowest=10):
    """``archive/TIMES.md``: :func:`times` of every part archived so far (``collect`` rewrites it)."""
    text = ("# The archived run's measured times\n\n"
            "Written by `python -m tools.run_archive times --write` (and by every `collect`) from the parts' "
            "manifests: per stage, the sum of its jobs' wall times (Snakemake's benchmark files, or the job's "
            "own log) and of the CPU time the jobs measured themselves (`fscompbio.joblog`; jobs run before "
            "they did have wall times only); then the slowest jobs.\n\n" + times(archive, n_slowest) + "\n")
    from fscompbio.io import write_text

    write_text(text, Path(archive) / TIMES)
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="archive the small results, benchmarks and figures of a run")
    c.add_argument("run_dir")
    c.add_argument("targets", nargs="*", help="the run's targets (default: the config's default target)")
    c.add_argument("--configfile", nargs="+", default=["config.yaml", "config/thesis.yaml"],
                   help="the run's config files, in order (the workflow's config.yaml first)")
    c.add_argument("--archive", default="archive/thesis")
    c.add_argument("--part", default="all")
    c.add_argument("--note", help="how the part was computed, when its commit does not say it all")
    c.add_argument("--vouch-for", nargs="+", default=[], metavar="RULE",
                   help="archive these rules' results although Snakemake would run them again (say why in --note)")
    s = sub.add_parser("supersede", help="hand a part's jobs that ran again in a run directory over to a new part")
    s.add_argument("part")
    s.add_argument("run_dir")
    s.add_argument("--by", required=True, help="the part that will archive them (collect --part BY)")
    s.add_argument("--reason", required=True, help="why they ran again (kept in the part's note)")
    s.add_argument("--archive", default="archive/thesis")
    s.add_argument("--write", action="store_true", help="edit the manifest (otherwise only print what would move)")
    r = sub.add_parser("redraw", help="draw the report from the archive, refitting nothing")
    r.add_argument("--archive", default="archive/thesis")
    r.add_argument("--workdir", default="thesis_figures")
    r.add_argument("--cores", type=int, default=2)
    r.add_argument("--check", action="store_true", help="exit 1 when a drawn file differs from the report")
    t = sub.add_parser("times", help="measured time per stage and the slowest jobs")
    t.add_argument("--archive", default="archive/thesis")
    t.add_argument("--slowest", type=int, default=10)
    t.add_argument("--write", action="store_true", help=f"write them to the archive's {TIMES} too")
    t.add_argument("--doc", "--readme", dest="doc", action="store_true",
                   help="write the stage table and the whole config's CPU time into docs/reproduction.md's block too")
    args = ap.parse_args(argv)
    if args.command == "collect":
        collect(args.run_dir, args.configfile, args.archive, args.part, args.targets, args.note, args.vouch_for)
    elif args.command == "supersede":
        supersede(args.archive, args.part, args.by, args.run_dir, args.reason, args.write)
    elif args.command == "redraw":
        redraw(args.archive, args.workdir, args.cores, args.check)
    elif args.write or args.doc:
        if args.write:
            print(write_times(args.archive, args.slowest), end="")
        if args.doc:
            write_doc_times(args.archive)
            print(doc_times(args.archive))
    else:
        print(times(args.archive, args.slowest))


if __name__ == "__main__":
    main()
