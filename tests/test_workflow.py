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
    "regression": [
        "figures/figR_2.png",
        "figures/figR_2.csv",
        "figures/figR_2.md",
    ],
    "multiclass": [
        "figures/figM_1.png",
        "figures/figM_1.csv",
        "figures/figM_1.md",
        "results/datasets/glioma.npz",
    ],
    "paper": [
        "figures/tableP_2.csv",
        "figures/tableP_2.md",
        "figures/figP_2.png",
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


def test_figR_2_recovery_is_a_probability_that_rises_with_n(workflow_run):
    import pandas as pd

    t = pd.read_csv(workflow_run / "figures" / "figR_2.csv")
    assert set(t["method"]) == {"local_learning", "hsic_lasso"}
    assert t["probability"].between(0, 1).all()
    for method, g in t.groupby("method"):
        p = g.sort_values("n_samples")["probability"].to_numpy()
        assert p[-1] >= p[0], method
    # the local-learning selector finds all 4 relevant features of 204 with 200 samples
    ll = t[(t["method"] == "local_learning") & (t["n_samples"] == 200)]
    assert ll["probability"].iloc[0] == 1.0


def test_figM_1_accuracies_beat_the_largest_class(workflow_run):
    import pandas as pd

    t = pd.read_csv(workflow_run / "figures" / "figM_1.csv")
    assert set(t["method"]) == {"bahsic", "ovr_l1_logistic"}
    assert (t["dataset"] == "glioma").all() and (t["n_features"] == 4434).all()
    # four classes, the largest 15 of 50 samples: chance is at most 0.3
    assert (t["accuracy_mean"] > 0.35).all() and (t["accuracy_mean"] <= 1).all()
    assert (t["n_selected_mean"] >= 1).all() and (t["n_selected_mean"] < 4434).all()


def test_tableP_2_values(workflow_run):
    import pandas as pd

    t = pd.read_csv(workflow_run / "figures" / "tableP_2.csv").set_index("method")
    assert (t["n_reshuffles"] == 2).all() and (t["n_folds"] == 4).all()
    for q in ("accuracy_mean", "precision_mean", "recall_mean"):
        assert t[q].between(0, 1).all(), q
    # XOR: BaHSIC finds the interacting pair, the linear correlation filter cannot
    assert t.loc["bahsic", "recall_mean"] > t.loc["correlation", "recall_mean"]
    assert t.loc["bahsic", "accuracy_mean"] > t.loc["correlation", "accuracy_mean"]
    assert "± " in (workflow_run / "figures" / "tableP_2.md").read_text()


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
