"""End-to-end: the real workflow on a tiny config in a temporary directory.

The tiny config is ``config.yaml`` overridden by every ``tests/workflow/*.yaml``
(one file per stage, merged in sorted order by Snakemake's ``--configfile``).
Each stage lists the outputs it must produce in ``EXPECTED`` below.
"""

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
OVERRIDES = sorted((REPO / "tests" / "workflow").glob("*.yaml"))

EXPECTED = {
    "spine": [
        "figures/table3_1.csv",
        "figures/table3_1.md",
        "figures/fig2_1.png",
        "figures/fig3_1.png",
        "figures/fig3_2.png",
        "figures/fig4_1.png",
        "figures/fig4_2.png",
        "results/datasets/xor.npz",
        "results/datasets/tb_serum.npz",
    ],
    "chapter3": [
        "figures/fig2_2.png",
        "figures/fig2_3.png",
        "figures/fig2_4.png",
        "figures/fig3_4.png",
        "figures/table3_2.csv",
        "figures/table3_2.md",
    ],
    "chapter4": [
        "figures/fig4_3.png",
        "figures/fig4_9.png",
        "figures/figP_1.png",
    ],
    "chapter5": [
        "figures/table_P1.csv",
        "figures/table_P1.md",
        "figures/fig5_1.png",
        "figures/fig5_2.png",
        "figures/fig5_3.png",
        "figures/fig5_4.png",
        "figures/fig5_5.png",
        "figures/fig5_5.csv",
        "figures/workflow_rulegraph.png",
        "results/chapter5/model/cleavage_model.pkl",
    ],
    "chapter5_data": [
        "results/peptides/windows.csv",
        "results/peptides/windows.json",
        "results/peptides/encoded.npz",
        "results/representation/sparse_filtering.npz",
        "results/representation/sparse_filtering.json",
        "results/peptides/homology.json",
    ],
}


def snakemake(*args, cwd):
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(cwd),
           "--configfile", str(REPO / "config.yaml"), *map(str, OVERRIDES), "--cores", "2", *args]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=1500)


@pytest.fixture(scope="module")
def workflow_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("workflow")
    run = snakemake(cwd=workdir)
    assert run.returncode == 0, f"snakemake failed:\n{run.stdout[-3000:]}\n{run.stderr[-6000:]}"
    return workdir


@pytest.mark.parametrize("stage", sorted(EXPECTED))
def test_workflow_produces_every_expected_output(workflow_run, stage):
    for rel in EXPECTED[stage]:
        path = workflow_run / rel
        assert path.is_file() and path.stat().st_size > 0, f"{stage}: missing {rel}"
        if path.suffix == ".png":
            assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{rel} is not a PNG"


def test_table3_1_has_the_six_sets(workflow_run):
    md = (workflow_run / "figures" / "table3_1.md").read_text()
    for label in ("Fake Class", "Linear Zhang - Feature Noise", "Non-Linear Weston", "Xor"):
        assert label in md


def test_second_run_has_nothing_to_do(workflow_run):
    run = snakemake("--dry-run", cwd=workflow_run)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Nothing to be done" in run.stdout + run.stderr


def test_rerun_gives_byte_identical_outputs(workflow_run):
    """Same config, same bytes: rerun the random spine jobs and compare."""
    import hashlib

    targets = ["results/datasets/xor.npz", "figures/fig4_2.png", "figures/fig4_1.png", "figures/table3_1.csv"]
    before = {t: hashlib.sha256((workflow_run / t).read_bytes()).hexdigest() for t in targets}
    run = snakemake("--forcerun", "dataset", "fig4_1", "fig4_2", "table3_1", "--", *targets, cwd=workflow_run)
    assert run.returncode == 0, run.stderr[-3000:]
    after = {t: hashlib.sha256((workflow_run / t).read_bytes()).hexdigest() for t in targets}
    assert after == before


def test_lint_reports_nothing():
    run = subprocess.run([sys.executable, "-m", "snakemake", "--lint", "-s", str(REPO / "Snakefile")],
                         cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Lints for" not in run.stdout + run.stderr, run.stdout + run.stderr


def test_bad_config_is_rejected_with_the_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: -3\n")
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(tmp_path),
           "--configfile", str(bad), "--dry-run"]
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode != 0
    assert "seed" in run.stdout + run.stderr
