"""Compare the outputs (results/ and figures/) of two runs of one target in two working directories.

    python .ci/compare_outputs.py REFERENCE_DIR OTHER_DIR

Every file must be in both and byte-identical, except wall-clock timings: ``*.timing.json`` files are
skipped, and a JSON or CSV file that differs is compared again without its timing fields (keys and
columns named ``seconds*`` or ``*_seconds``), which must then be equal. Logs are not compared. Exits 1
with the list of differences.
"""

import io
import json
import re
import sys
from pathlib import Path

import pandas as pd

TIMING = re.compile(r"(^|_)seconds($|_)")


def _strip_timing(obj):
    if isinstance(obj, dict):
        return {k: _strip_timing(v) for k, v in obj.items() if not TIMING.search(str(k))}
    if isinstance(obj, list):
        return [_strip_timing(v) for v in obj]
    return obj


def equal_without_timing(a: Path, b: Path) -> bool:
    if a.suffix == ".json":
        return _strip_timing(json.loads(a.read_text())) == _strip_timing(json.loads(b.read_text()))
    if a.suffix == ".csv":
        da, db = (pd.read_csv(io.StringIO(p.read_text())) for p in (a, b))
        da = da[[c for c in da.columns if not TIMING.search(c)]]
        db = db[[c for c in db.columns if not TIMING.search(c)]]
        return list(da.columns) == list(db.columns) and da.equals(db)
    return False


def outputs(root: Path):
    return sorted(
        p.relative_to(root)
        for sub in ("results", "figures")
        for p in (root / sub).rglob("*")
        if p.is_file() and not p.name.endswith(".timing.json")
    )


def main(ref, other):
    ref, other = Path(ref), Path(other)
    files_ref, files_other = outputs(ref), outputs(other)
    problems = []
    if not files_ref:
        problems.append(f"no outputs under {ref}/results or {ref}/figures")
    for rel in sorted(set(files_ref) ^ set(files_other)):
        problems.append(f"only in {'the reference' if rel in files_ref else 'the other run'}: {rel}")
    n_bytes = n_timing = 0
    for rel in sorted(set(files_ref) & set(files_other)):
        a, b = ref / rel, other / rel
        if a.read_bytes() == b.read_bytes():
            n_bytes += 1
        elif equal_without_timing(a, b):
            n_timing += 1
        else:
            problems.append(f"differs: {rel}")
    for p in problems:
        print(p)
    print(f"compare_outputs: {n_bytes} file(s) byte-identical, {n_timing} equal except timing fields, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
