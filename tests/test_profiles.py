"""Every Snakemake profile under profiles/ dry-runs the workflow, and the SLURM profiles say what they must.

The dry runs plan a chapter-3 target with the profile's settings (executor, default resources,
executor options such as ``slurm-status-command``): a key the executor plugin does not know, or a
malformed value, fails here. The run on a real SLURM is in ``.ci/slurm_e2e.sh``.
"""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
PROFILES = sorted(p.parent.name for p in (REPO / "profiles").glob("*/config.yaml"))
SLURM_PROFILES = [p for p in PROFILES if p.startswith("slurm")]


def _has_slurm_plugin():
    try:
        import snakemake_executor_plugin_slurm  # noqa: F401
    except ImportError:
        return False
    return True


def _profile(name):
    return yaml.safe_load((REPO / "profiles" / name / "config.yaml").read_text())


def _dry_run(profile, tmp_path, *extra):
    cmd = [sys.executable, "-m", "snakemake", "figures/fig3_4.png", "-s", str(REPO / "Snakefile"),
           "--profile", str(REPO / "profiles" / profile), "--configfile", str(REPO / "config.yaml"),
           "--dry-run", *extra]
    return subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=300)


def test_every_profile_is_listed():
    assert {"default", "local", "slurm", "slurm-conda"} <= set(PROFILES)


@pytest.mark.parametrize("profile", PROFILES)
def test_profile_dry_run(profile, tmp_path):
    if profile.startswith("slurm") and not _has_slurm_plugin():
        pytest.skip("snakemake-executor-plugin-slurm not installed (make install; CI installs it)")
    extra = []
    if _profile(profile).get("software-deployment-method") == "conda" and shutil.which("conda") is None:
        # conda is not on this machine: plan with the profile's other settings (the conda side is
        # checked by test_slurm_conda_profile_is_slurm_plus_conda and test_conda_envs_exist)
        extra = ["--software-deployment-method", "env-modules"]
    run = _dry_run(profile, tmp_path, *extra)
    assert run.returncode == 0, f"dry run with profiles/{profile} failed:\n{run.stdout[-2000:]}\n{run.stderr[-4000:]}"
    out = run.stdout + run.stderr
    assert "ch3_fold" in out and "This was a dry-run" in out
    if profile.startswith("slurm"):
        assert f"profiles/{profile}" in out  # the profile was read


@pytest.mark.parametrize("profile", SLURM_PROFILES)
def test_slurm_profile_works_without_accounting_and_keeps_threads(profile):
    cfg = _profile(profile)
    assert cfg["executor"] == "slurm"
    # sacct prints "Slurm accounting storage is disabled" without slurmdbd and the plugin waits for ever
    assert cfg["slurm-status-command"] == "squeue"
    resources = cfg.get("default-resources", {})
    # a cpus_per_task default would override every rule's threads (the plugin asks --cpus-per-task=threads)
    assert "cpus_per_task" not in resources
    assert "mem_mb" in resources and "runtime" in resources
    text = (REPO / "profiles" / profile / "config.yaml").read_text()
    assert "EDIT FOR YOUR SITE" in text and "slurm_partition" in text and "slurm_account" in text


def test_slurm_profile_has_no_conda():
    assert "software-deployment-method" not in _profile("slurm")


def test_slurm_conda_profile_is_slurm_plus_conda():
    plain, conda = _profile("slurm"), _profile("slurm-conda")
    assert conda.pop("software-deployment-method") == "conda"
    conda.pop("conda-prefix", None)
    assert conda == plain


def test_conda_envs_exist():
    """Every rule's ``conda:`` file exists and lists its dependencies (for profiles/slurm-conda)."""
    referenced = set()
    for smk in (REPO / "rules").glob("*.smk"):
        for line in smk.read_text().splitlines():
            line = line.strip()
            if line.startswith('"../envs/') and line.endswith('.yaml"'):
                referenced.add(line.strip('"').removeprefix("../"))
    assert referenced, "no rule declares a conda environment"
    for rel in sorted(referenced):
        env = yaml.safe_load((REPO / rel).read_text())
        assert env.get("dependencies"), f"{rel} lists no dependencies"
