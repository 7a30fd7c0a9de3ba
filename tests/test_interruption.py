"""An interrupted workflow resumes to the results of an uninterrupted one.

The workflow is killed (SIGKILL to Snakemake's whole process group: Snakemake
and the job it runs, as a power loss or a cluster's time limit would) while a
job is running, after another job has finished. A user then runs
``snakemake --unlock`` (a killed Snakemake leaves its lock) and the same
command again. Snakemake marks the killed job's output incomplete, and our
scripts write atomically (fscompbio.io), so no half-written file can pass for a
result: the rerun makes exactly the missing outputs, and every output is
byte-identical to an uninterrupted run's.
"""

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OVERRIDES = sorted((REPO / "tests" / "workflow").glob("*.yaml"))
# four independent jobs of ~1-2 s each (data sets of the study, no timing fields): one runs at a time
NAMES = ["xor", "linear_weston", "nonlinear_weston", "fake_class"]
TARGETS = [f"results/datasets/{n}.npz" for n in NAMES]


def _command(workdir, *extra):
    return [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
            "--configfile", str(REPO / "config.yaml"), *map(str, OVERRIDES), "--cores", "1", *extra, *TARGETS]


def _sha(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _kill_mid_run(workdir, timeout=600):
    """Start the workflow; SIGKILL its process group once one job is done and the next is running."""
    with open(workdir / "killed_run.log", "w") as log:
        proc = subprocess.Popen(_command(workdir), cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        start = time.monotonic()
        try:
            while True:
                done = [n for n in NAMES if (workdir / f"results/datasets/{n}.npz").exists()]
                running = [n for n in NAMES if (workdir / f"logs/datasets/{n}.log").exists() and n not in done]
                if done and running:
                    os.killpg(proc.pid, signal.SIGKILL)
                    break
                assert proc.poll() is None, "the workflow ended before it could be interrupted"
                assert time.monotonic() - start < timeout, "no job finished in time"
                time.sleep(0.01)
        finally:
            if proc.poll() is None and not (done and running):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return done, running


def test_killed_workflow_resumes_to_identical_results(tmp_path):
    reference = tmp_path / "uninterrupted"
    reference.mkdir()
    run = subprocess.run(_command(reference), cwd=REPO, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    expected = {t: _sha(reference / t) for t in TARGETS}

    work = tmp_path / "interrupted"
    work.mkdir()
    done, running = _kill_mid_run(work)
    # the kill landed mid-job: the running job's output is absent, never half-written; finished ones are whole
    assert running and not (work / f"results/datasets/{running[0]}.npz").exists()
    assert all(_sha(work / f"results/datasets/{n}.npz") == expected[f"results/datasets/{n}.npz"] for n in done)
    assert len(done) < len(NAMES)
    kept = {n: (work / f"results/datasets/{n}.npz").stat().st_mtime_ns for n in done}

    # what a user does: unlock the directory the killed Snakemake left locked, run the same command again
    unlock = subprocess.run(_command(work, "--unlock"), cwd=REPO, capture_output=True, text=True, timeout=300)
    assert unlock.returncode == 0, unlock.stderr[-3000:]
    rerun = subprocess.run(_command(work), cwd=REPO, capture_output=True, text=True, timeout=900)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    log = rerun.stdout + rerun.stderr
    assert f"{len(NAMES) - len(done)} of {len(NAMES) - len(done)} steps (100%) done" in log  # only the missing jobs

    assert {t: _sha(work / t) for t in TARGETS} == expected
    assert {n: (work / f"results/datasets/{n}.npz").stat().st_mtime_ns for n in done} == kept  # not redone
