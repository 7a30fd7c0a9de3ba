"""What a run costs (tools/quick_run.py): the README's block is the one generated from the records, the quick
run's cost and claims come from one run (one commit), and a run of a checkout with uncommitted changes is refused
before it starts."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # tools/ is not part of the installed package
    sys.path.insert(0, str(REPO))

from tools import quick_run as Q  # noqa: E402


def test_the_readme_block_is_the_generated_one():
    assert Q.main(["readme", "--check"]) == 0, "run `python -m tools.quick_run readme`"


def test_cost_and_claims_are_of_one_run():
    cost = json.loads(Q.COST.read_text())
    provenance = json.loads((Q.COST.parent / "provenance.json").read_text())
    assert cost["commit"] == provenance["commit"]
    assert cost["jobs"] > 0 and 0 < cost["cpu_seconds"] and 0 < cost["wall_seconds"]


def test_the_block_shows_the_record():
    cost = {"commit": "0123456789abcdef", "config": "config.yaml", "cores": 2, "jobs": 1234, "cpu_seconds": 600.0,
            "wall_seconds": 330.0, "load_at_start": 0.1, "date": "2026-01-01"}
    text = Q.run_cost_block(cost)
    assert "| quick (`make workflow`) | 1,234 | 10.0 CPU-minutes | 5.5 minutes on 2 cores |" in text
    assert "`0123456789ab`" in text and "on idle cores" in text
    n, cpu_h, _ = Q.thesis_cost()
    assert n > 1000 and cpu_h > 1 and f"{cpu_h:.2f} CPU-hours" in text
    assert "load 3" in Q.run_cost_block({**cost, "load_at_start": 3.0})


def test_a_dirty_checkout_is_refused(tmp_path):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "a.txt").write_text("a\n")
    subprocess.run(["git", "-C", str(tmp_path), "add", "a.txt"], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a"],
                   check=True)
    (tmp_path / "a.txt").write_text("b\n")
    with pytest.raises(ValueError, match="uncommitted changes"):
        Q.run(tmp_path)
