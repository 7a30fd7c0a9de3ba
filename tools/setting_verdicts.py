"""The thesis config under a changed setting: what its jobs cost, and which claims' verdicts move.

    python -m tools.setting_verdicts record NAME RUN_DIR --rules RULE [RULE ...] [--archive archive/thesis]
    python -m tools.setting_verdicts doc [--archive archive/thesis] [--check]

A *setting* is a config overlay, ``config/settings/NAME.yaml``, laid over the archive's config files: a
choice that changes results to save time (fewer subsamples in the refits of nested cross-validation's inner
folds, say), which the archive does not make. Whether to make it is a question of cost against verdicts, and
both are measured, not estimated:

``record`` reads a run of the archive's config files plus the overlay in ``RUN_DIR`` (a copy of the archived
run in which Snakemake re-ran what the overlay changes). It refuses a run in which Snakemake has jobs left,
then keeps in ``ARCHIVE/settings/NAME/``: the overlay's text, the run's commit, every job of ``RULES`` that ran
again there (its benchmark file differs from the archived one) with the CPU time it measured and the one the
same job measured in the archive, the run's claims table (``claims.csv``) and the archive's at that time
(``archive_claims.csv``: the setting's verdicts are compared with it, so that a later part of the archive that
re-runs other jobs does not count as the setting's doing).

``doc`` writes docs/reproduction.md's block between its ``thesis-settings`` markers: per setting, the CPU time
of its jobs against the archive's same jobs, the whole config's CPU-hours under it (the archive's jobs, with
those jobs replaced), and every claim whose verdict, replication, verdict by reading or robustness differs
from the archive's. ``--check`` exits 1 when the block is stale.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

from tools import readme_blocks
from tools.run_archive import REPO, REPORT_DIR, _config_paths, _git, dry_run, manifests, parse_jobs

#: the overlays, one YAML file per setting
SETTINGS_DIR = REPO / "config" / "settings"
#: where a setting's record lives in an archive
RECORDS = "settings"
#: the archive's claims when a setting was recorded, beside its record: what the setting's claims are compared with
BASELINE = "archive_claims.csv"
#: the fields of a claim that make its verdict (its numbers may move without them)
VERDICT_FIELDS = ("verdict", "replication", "verdict_by_reading", "robust")
#: the page and the markers of :func:`doc_settings`'s block
SETTINGS_PAGE = REPO / "docs" / "reproduction.md"
SETTINGS_MARKERS = ("<!-- thesis-settings:start -->", "<!-- thesis-settings:end -->")


def overlay_path(name):
    path = SETTINGS_DIR / f"{name}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in SETTINGS_DIR.glob("*.yaml")) if SETTINGS_DIR.is_dir() else []
        raise FileNotFoundError(f"no setting {name!r}: {path} does not exist (settings: {known})")
    return path


def archived_jobs(archive):
    """``{first output: job}`` of every job the archive's parts hold."""
    return {j["outputs"][0]: j for m in manifests(archive) for j in m["jobs"]}


def rerun_jobs(jobs, run_dir, archive, rules):
    """The jobs of ``rules`` among a dry run's ``jobs`` that ran again in ``run_dir``: their benchmark file differs
    from the archive's copy (a job that ran again writes new times even when its results are the same bytes)."""
    out = []
    for job in jobs:
        if job["rule"] not in rules or not job["benchmark"]:
            continue
        ran, kept = Path(run_dir) / job["benchmark"], Path(archive) / "files" / job["benchmark"]
        if not ran.is_file():
            raise FileNotFoundError(f"{ran}: the job of {job['output'][0]} has not run in {run_dir}")
        if not kept.is_file() or ran.read_bytes() != kept.read_bytes():
            out.append(job)
    return out


def record(name, run_dir, rules, archive=REPO / "archive" / "thesis"):
    """Keep the cost and the claims of the run of setting ``name`` in ``run_dir`` (see the module's docs)."""
    from fscompbio.io import write_text
    from fscompbio.joblog import read_job_resources

    run_dir, archive = Path(run_dir).resolve(), Path(archive)
    overlay = overlay_path(name)
    base = manifests(archive)[0]["configfiles"]
    configfiles = _config_paths(base) + [overlay]
    left = parse_jobs(dry_run(configfiles, run_dir, forceall=False))
    if left:
        raise ValueError(f"{run_dir}: Snakemake would still run {len(left)} jobs under setting {name!r} "
                         f"(e.g. {left[0]['rule']}: {', '.join(left[0]['output'][:1])}): finish the run first")
    before = archived_jobs(archive)
    jobs = []
    for job in rerun_jobs(parse_jobs(dry_run(configfiles, run_dir)), run_dir, archive, set(rules)):
        own = next((r for r in (read_job_resources(run_dir / p) for p in job["log"]) if r), None)
        if own is None:
            raise ValueError(f"{run_dir / job['log'][0]}: no CPU time in the log of a job that ran again")
        first = before.get(job["output"][0])
        jobs.append({"rule": job["rule"], "output": job["output"][0], "cpu_s": own["cpu_s"],
                     "archived_cpu_s": ((first or {}).get("times") or {}).get("job_cpu_s")})
    jobs.sort(key=lambda j: j["output"])  # a dry run lists jobs in no fixed order
    if not jobs:
        raise ValueError(f"{run_dir}: no job of {', '.join(rules)} ran again under setting {name!r}")
    out = archive / RECORDS / name
    out.mkdir(parents=True, exist_ok=True)
    claims = (run_dir / REPORT_DIR / "claims.csv").read_text()
    write_text(claims, out / "claims.csv")
    # the archive's claims the setting is compared with: a later part of the archive that re-runs other jobs
    # changes the archive's claims, not what this setting moves
    write_text((archive / "report" / "claims.csv").read_text(), out / BASELINE)
    manifest = {"setting": name, "overlay": overlay.relative_to(REPO).as_posix(), "overlay_text": overlay.read_text(),
                "configfiles": base, "commit": _git(run_dir, "rev-parse", "HEAD"),
                "tree_changed": bool(_git(run_dir, "status", "--porcelain", "--untracked-files=no")),
                "rules": sorted(rules), "jobs": jobs}
    write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", out / "manifest.json")
    print(f"setting {name}: {len(jobs)} jobs ran again, claims kept in {out}")
    return manifest


def _claims(path):
    with open(path, newline="") as fh:
        return {row["id"]: row for row in csv.DictReader(fh)}


def moved_verdicts(before, after):
    """``[(claim id, field, before, after)]`` for every verdict field that differs; claims on one side only
    count as moved (field ``present``)."""
    moved = []
    for cid in sorted(set(before) | set(after)):
        if cid not in before or cid not in after:
            moved.append((cid, "present", str(cid in before), str(cid in after)))
            continue
        moved += [(cid, f, before[cid][f], after[cid][f]) for f in VERDICT_FIELDS if before[cid][f] != after[cid][f]]
    return moved


def baseline_claims(archive, setting):
    """The archive's claims when ``setting`` was recorded (kept beside its record), else the archive's own."""
    kept = Path(archive) / RECORDS / setting / BASELINE
    return _claims(kept if kept.is_file() else Path(archive) / "report" / "claims.csv")


def records(archive):
    root = Path(archive) / RECORDS
    return [json.loads(p.read_text()) for p in sorted(root.glob("*/manifest.json"))] if root.is_dir() else []


def summaries(archive=REPO / "archive" / "thesis"):
    """Per recorded setting: its record, the CPU seconds of its jobs (``now``) and of the same jobs in the archive
    (``then``), the whole config's under it and in the archive, its moved verdict fields, and how many claims'
    numbers moved."""
    archive = Path(archive)
    recs = records(archive)
    if not recs:
        return []
    total = sum((j.get("times") or {}).get("job_cpu_s") or 0.0 for m in manifests(archive) for j in m["jobs"])
    current = _claims(archive / "report" / "claims.csv")
    out = []
    for rec in recs:
        base = baseline_claims(archive, rec["setting"])
        now = sum(j["cpu_s"] for j in rec["jobs"])
        then = sum(j["archived_cpu_s"] or 0.0 for j in rec["jobs"])
        after = _claims(archive / RECORDS / rec["setting"] / "claims.csv")
        out.append({"record": rec, "now": now, "then": then, "total": total, "total_under": total - then + now,
                    "unpaired": sum(j["archived_cpu_s"] is None for j in rec["jobs"]),
                    "moved": moved_verdicts(base, after), "n_claims": len(base), "later_parts": base != current,
                    "numbers_moved": sum(base[c]["numbers"] != after[c]["numbers"] for c in set(base) & set(after))})
    return out


def doc_settings(archive=REPO / "archive" / "thesis"):
    """The block of docs/reproduction.md: per recorded setting, its jobs' cost against the archive's and the
    claims whose verdict moved (from the archive's manifests and the settings' records)."""
    sums = summaries(archive)
    if not sums:
        return "No setting is recorded in the archive."
    lines = []
    for s in sums:
        rec, now, then, moved = s["record"], s["now"], s["then"], s["moved"]
        lines += [f"**{rec['setting']}** (`{rec['overlay']}`, run at `{(rec['commit'] or '-')[:7]}`"
                  + (", with uncommitted changes" if rec["tree_changed"] else "") + "):", "",
                  "```yaml", rec["overlay_text"].strip("\n"), "```", ""]
        lines.append(f"- {len(rec['jobs'])} jobs ({', '.join(f'`{r}`' for r in rec['rules'])}) ran under it: "
                     f"{now / 3600:.2f} CPU-hours, against {then / 3600:.2f} for the same jobs in the archive"
                     + (f" ({then / now:.1f} times as much)" if now > 0 else "")
                     + (f"; {s['unpaired']} of them have no archived time" if s["unpaired"] else "") + ".")
        lines.append(f"- The whole config's jobs under it: **{s['total_under'] / 3600:.2f} CPU-hours**, against "
                     f"{s['total'] / 3600:.2f} in the archive (the jobs' own CPU time; Snakemake's not included).")
        if s["later_parts"]:
            lines.append("- Its claims are compared with the archive's when it was recorded (kept beside its record): "
                         "parts archived since re-ran jobs it does not touch.")
        if moved:
            lines += [f"- Claims whose verdict moves ({len({m[0] for m in moved})} of {s['n_claims']}; the numbers "
                      f"of {s['numbers_moved']} moved):", "", "  | claim | field | archive | under the setting |",
                      "  | --- | --- | --- | --- |"]
            lines += [f"  | `{c}` | {f} | {a} | {b} |" for c, f, a, b in moved]
        else:
            lines.append(f"- No claim's verdict moves: verdict, replication, verdict by reading and robustness are "
                         f"the archive's for all {s['n_claims']} claims (the numbers of {s['numbers_moved']} moved).")
        lines.append("")
    return "\n".join(lines).strip("\n")


def write_doc(archive=REPO / "archive" / "thesis", page=SETTINGS_PAGE):
    from fscompbio.io import write_text

    text = readme_blocks.with_block(Path(page).read_text(), SETTINGS_MARKERS, doc_settings(archive), where=page)
    write_text(text, Path(page))
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record", help="keep the cost and the claims of a run under a setting")
    r.add_argument("name", help="the setting: config/settings/NAME.yaml")
    r.add_argument("run_dir")
    r.add_argument("--rules", nargs="+", required=True, help="the rules whose jobs the setting changes")
    r.add_argument("--archive", default=str(REPO / "archive" / "thesis"))
    d = sub.add_parser("doc", help="write docs/reproduction.md's block of the recorded settings")
    d.add_argument("--archive", default=str(REPO / "archive" / "thesis"))
    d.add_argument("--check", action="store_true", help="exit 1 when the block is stale")
    args = ap.parse_args(argv)
    if args.command == "record":
        record(args.name, args.run_dir, args.rules, args.archive)
        return 0
    if args.check:
        stale = readme_blocks.block(SETTINGS_PAGE.read_text(), SETTINGS_MARKERS) != doc_settings(args.archive)
        print(f"{SETTINGS_PAGE}: the settings block is " + ("stale: python -m tools.setting_verdicts doc" if stale
                                                              else "up to date"))
        return int(stale)
    write_doc(args.archive)
    print(doc_settings(args.archive))
    return 0


if __name__ == "__main__":
    sys.exit(main())
