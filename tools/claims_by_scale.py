"""The study's claims at the quick config's scale beside the thesis config's (docs/reproduction.md, section "The
claims at the thesis' scale", and docs/claims_by_scale.md).

    python -m tools.claims_by_scale                      rewrite docs/claims_by_scale.md and the table of
                                                         docs/reproduction.md
    python -m tools.claims_by_scale --check              exit 1 when either is not the generated one
    python -m tools.claims_by_scale --quick figures/claims.csv
                                                         first keep a quick run's verdicts (after `make workflow`)

What it reads, all in the repository:

1. ``archive/quick/claims.csv``: the verdicts of a whole run of the quick config (``config.yaml``), kept with
   ``archive/quick/provenance.json`` (the commit the run was made at, the SHA-256 of its merged config and of
   the claims file, and the BLAS kernels of the machine it ran on, from the run's ``results/environment.json``:
   another kernel can move a verdict, docs/environment.md). ``--quick`` copies a run's ``figures/claims.csv``
   there and records them.
2. ``archive/thesis/report/claims.csv``: the verdicts of the archived run of the thesis config
   (``make thesis-figures`` redraws it from the archived summary tables).
3. ``docs/claims_by_scale.yaml``: for every claim whose verdict changes with the scale, why (the diagnosis,
   in words: the numbers are the runs' own, in the generated tables). A claim that changes without a
   diagnosis, or a diagnosis of a claim that does not change, is an error: when a new run changes the
   verdicts, the diagnoses must be revisited.

The verdicts and numbers are computed by ``fscompbio.claims.compare_claims``; nothing in the tables is typed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from fscompbio.claims import compare_claims, comparison_markdown, read_claims
from fscompbio.io import write_text
from tools import readme_blocks
from tools.run_archive import _config_paths, _merged_config, config_digest, manifests

REPO = Path(__file__).resolve().parents[1]
#: the page that shows the compact table (section "The claims at the thesis' scale")
PAGE = REPO / "docs" / "reproduction.md"
MARKERS = ("<!-- claims-by-scale:start -->", "<!-- claims-by-scale:end -->")
QUICK = REPO / "archive" / "quick" / "claims.csv"
QUICK_PROVENANCE = REPO / "archive" / "quick" / "provenance.json"
THESIS = REPO / "archive" / "thesis" / "report" / "claims.csv"
DIAGNOSES = REPO / "docs" / "claims_by_scale.yaml"
DOC = REPO / "docs" / "claims_by_scale.md"
NAMES = ("quick config", "thesis config")


def _sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def blas_kernels(environment_json):
    """``"openblas 0.3.30 (Haswell), numpy's loops (X86_V3)"``: the BLAS libraries a run's
    ``results/environment.json`` records, with the CPU kernel each chose, one per distinct library, and NumPy's
    dispatched SIMD loops where recorded; ``None`` when the file is missing."""
    path = Path(environment_json)
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text())
        libs = record["blas"]
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path}: not a run's environment record (no 'blas' list): {e}") from e
    names = [f"{lib.get('internal_api')} {lib.get('version')} ({lib.get('architecture')})" for lib in libs]
    simd = record.get("numpy_simd")  # recorded since the workflow pins NumPy's loops too
    if simd:
        names.append(f"numpy's loops ({' '.join(simd.get('found') or simd.get('baseline') or [])})")
    return ", ".join(dict.fromkeys(names)) or None


def keep_quick_run(claims_csv, commit=None):
    """Copy a quick run's ``figures/claims.csv`` to ``archive/quick/`` with its provenance (the BLAS kernels from
    the same run's ``results/environment.json``, beside its ``figures/``, when it is there)."""
    read_claims(claims_csv)  # refuses a file that is not a claims table, naming it
    blas = blas_kernels(Path(claims_csv).resolve().parents[1] / "results" / "environment.json")
    if commit is None:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
                                check=True).stdout.strip()
    QUICK.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(claims_csv, QUICK)
    provenance = {"commit": commit, "config": "config.yaml",
                  "config_sha256": config_digest(_merged_config(_config_paths(["config.yaml"]))),
                  "claims_sha256": _sha256(QUICK)}
    if blas is not None:
        provenance["blas"] = blas
    write_text(json.dumps(provenance, indent=1, sort_keys=True) + "\n", QUICK_PROVENANCE)
    return provenance


def read_diagnoses(path=DIAGNOSES):
    """``{claim id: why its verdict changes with the scale}`` from ``path``; a ``ValueError`` names bad entries."""
    data = yaml.safe_load(Path(path).read_text()) or {}
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) and v.strip()
                                             for k, v in data.items()):
        raise ValueError(f"{path}: must map each claim id to a non-empty text (why its verdict changes)")
    return {k: " ".join(v.split()) for k, v in data.items()}


def check_diagnoses(table, diagnoses, path=DIAGNOSES):
    """A ``ValueError`` when a changed claim has no diagnosis or a diagnosis names a claim that does not change."""
    changed = set(table["id"][table["changed"]])
    missing = sorted(changed - set(diagnoses))
    extra = sorted(set(diagnoses) - changed)
    problems = []
    if missing:
        problems.append(f"claims whose verdict changes with the scale but have no diagnosis: {', '.join(missing)}")
    if extra:
        problems.append(f"diagnoses of claims whose verdict does not change: {', '.join(extra)}")
    if problems:
        raise ValueError(f"{path}: " + "; ".join(problems))


def _verdict(r, k):
    v = r[f"verdict_{k}"]
    draws = r[f"draws_{k}"]
    text = v + (f" ({draws.replace('holds in ', '')})" if isinstance(draws, str) and draws else "")
    robust = r.get(f"robust_{k}", "")
    return text + (f", robust: {robust}" if isinstance(robust, str) and robust else "")


def first_sentence(text):
    """The first sentence of a diagnosis (up to the first '. ' or ': ' that ends a clause), for the compact table."""
    text = " ".join(str(text).split())
    m = re.search(r"(?<=[A-Za-z)])[.](?= [A-Z])", text)
    return text[:m.start() + 1] if m else text


def page_table(table, diagnoses):
    """docs/reproduction.md's compact table: every claim's headline verdict and robustness to the study's unstated
    choices under both configs, why it does not hold (the first sentence of its diagnosis; the thesis
    config's when it has one), and the changes with the scale marked and explained."""
    lines = ["| claim | figures | quick config | thesis config | why it does not hold | changes with the scale |",
             "| --- | --- | --- | --- | --- | --- |"]
    for _, r in table.iterrows():
        why = f"**yes**: {diagnoses[r['id']]}" if r["changed"] else ""
        diagnosis = next((d for d in (r.get("diagnosis_2", ""), r.get("diagnosis_1", "")) if isinstance(d, str) and d),
                         "")
        lines.append(f"| `{r['id']}` | {r['figures'].replace(' ', ', ')} | {_verdict(r, '1')} | "
                     f"{_verdict(r, '2')} | {first_sentence(diagnosis)} | {why} |")
    lines += ["", f"Evaluated in both runs: {int(table['evaluated'].sum())} of {len(table)} claims; verdict changed: "
              f"{int(table['changed'].sum())}. The verdict is the headline (the thesis' own protocol: draw 0 of "
              "each synthetic set with the config's outer folds; draws with the same folds pooled, \"k of n\": "
              "the claim holds in k of them); *robust*: no reading of the study's unstated choices changes it "
              "(*untested*: a reading's option was not run). The full diagnoses and the verdict under each reading "
              "are in `figures/claims.md` and docs/claims_by_scale.md."]
    return "\n".join(lines) + "\n"


def thesis_commits(archive=THESIS.parents[1]):
    """The commits the thesis-config archive's parts were computed by, in the order of their parts."""
    commits = []
    for m in manifests(archive):
        if m["commit"] and m["commit"] not in commits:
            commits.append(m["commit"])
    return commits


def doc_text(table, diagnoses, provenance):
    """docs/claims_by_scale.md: the full comparison (every claim's numbers in both runs) and the diagnoses."""
    head = ["<!-- Generated by `python -m tools.claims_by_scale`; do not edit. -->", ""]
    body = comparison_markdown(table, NAMES).splitlines()
    commits = ", ".join(f"`{c[:12]}`" for c in thesis_commits())
    quick_blas = provenance.get("blas") or "not recorded"
    thesis_blas = blas_kernels(THESIS.parents[1] / "files" / "results" / "environment.json") or "not recorded"
    body[2:2] = ["The quick config's verdicts are those of a whole run of `config.yaml` at commit "
                 f"`{provenance['commit'][:12]}` (`archive/quick/`; BLAS: {quick_blas}); the thesis config's are "
                 f"those of the archived run of `config/thesis.yaml` at commit(s) {commits} (`archive/thesis/`, its "
                 f"parts' manifests; redrawn by `make thesis-figures`; BLAS of the part that wrote its environment "
                 f"record: {thesis_blas}). Another BLAS kernel can move a number, and a verdict near its threshold "
                 "(docs/environment.md).", ""]
    why = ["", "## Why the verdicts that change do", ""]
    why += [f"- `{i}`: {diagnoses[i]}" for i in table["id"][table["changed"]]] or ["No verdict changes."]
    readings = ["", f"## Each claim under the readings of the study's unstated choices ({NAMES[1]})", "",
                "The headline verdict takes every reading at its default (docs/messages.md lists the readings); "
                "*robust*: no option changes it.", "", "| claim | robust | verdict under each reading |",
                "| --- | --- | --- |"]
    readings += [f"| `{r['id']}` | {r['robust_2']} | {r['verdict_by_reading_2']} |" for _, r in table.iterrows()
                 if r["verdict_by_reading_2"]]
    not_holding = ["", f"## Why the claims that do not hold do not ({NAMES[1]}, else {NAMES[0]})", ""]
    not_holding += [f"- `{r['id']}` ({r['verdict_2'] if r['diagnosis_2'] else r['verdict_1']}): "
                    f"{r['diagnosis_2'] or r['diagnosis_1']}" for _, r in table.iterrows()
                    if r["diagnosis_2"] or r["diagnosis_1"]]
    return "\n".join(head + body + why + readings + not_holding) + "\n"


def generate():
    """``(table, docs/reproduction.md's block, docs/claims_by_scale.md's text)`` from the kept runs and the
    diagnoses."""
    for path, how in ((QUICK_PROVENANCE, "keep a quick run's claims with `--quick figures/claims.csv`"),
                      (THESIS, "the archive's claims part is missing (`tools/run_archive.py collect`)")):
        if not path.exists():
            raise ValueError(f"{path} is missing: {how}")
    provenance = json.loads(QUICK_PROVENANCE.read_text())
    if _sha256(QUICK) != provenance["claims_sha256"]:
        raise ValueError(f"{QUICK} is not the file {QUICK_PROVENANCE} records (edited by hand?): keep a quick "
                         "run's claims with `python -m tools.claims_by_scale --quick figures/claims.csv`")
    table = compare_claims(read_claims(QUICK), read_claims(THESIS))
    diagnoses = read_diagnoses()
    check_diagnoses(table, diagnoses)
    return table, page_table(table, diagnoses), doc_text(table, diagnoses, provenance)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 when either page is out of date")
    ap.add_argument("--quick", metavar="CLAIMS_CSV", help="first keep this quick run's figures/claims.csv")
    ap.add_argument("--commit", help="with --quick: the commit the run was made at (default: HEAD)")
    args = ap.parse_args(argv)
    if args.quick:
        print(f"kept {args.quick} as {QUICK.relative_to(REPO)}: {keep_quick_run(args.quick, args.commit)}")
    try:
        _, block, doc = generate()
    except ValueError as e:
        print(f"claims_by_scale: {e}", file=sys.stderr)
        return 1
    new_page = readme_blocks.with_block(PAGE.read_text(), MARKERS, block, PAGE.relative_to(REPO))
    if args.check:
        stale = [str(p.relative_to(REPO)) for p, new in ((PAGE, new_page), (DOC, doc))
                 if not p.exists() or p.read_text() != new]
        if stale:
            print(f"out of date: {', '.join(stale)}: run `python -m tools.claims_by_scale`", file=sys.stderr)
            return 1
        return 0
    write_text(new_page, PAGE)  # atomic: an interrupted run leaves the old file whole
    write_text(doc, DOC)
    print(f"wrote {DOC.relative_to(REPO)} and {PAGE.relative_to(REPO)}'s table")
    return 0


if __name__ == "__main__":
    sys.exit(main())
