"""An interrupted workflow resumes to the results of an uninterrupted one.

The workflow is killed (SIGKILL to Snakemake's whole process group: Snakemake
and the job it runs, as a power loss or a cluster's time limit would) while a
job is running, after another job has finished. A user then runs
``snakemake --unlock`` (a killed Snakemake leaves its lock) and the same
command again. Snakemake marks the killed job's output incomplete, and our
scripts write atomically (fscompbio.io), so no half-written file can pass for a
result: the rerun makes exactly the missing outputs, and every output is
byte-identical to an uninterrupted run's. Had a job left a half-written file,
Snakemake would refuse it until ``--rerun-incomplete`` (second test).
"""

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
OVERRIDES = sorted((REPO / "tests" / "workflow").glob("*.yaml"))
# three independent jobs of ~1-2 s each (data sets of the study, no timing fields): one runs at a time
NAMES = ["xor", "linear_weston", "nonlinear_weston"]
TARGETS = [f"results/datasets/{n}.npz" for n in NAMES]


def _command(workdir, *extra):
    # a job per data set (the quick config writes every synthetic set in one job)
    workdir.mkdir(parents=True, exist_ok=True)
    one_per_set = workdir / "one_job_per_set.yaml"
    one_per_set.write_text("datasets:\n  synthetic_one_job: false\n")
    return [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
            "--configfile", str(REPO / "config.yaml"), *map(str, OVERRIDES), str(one_per_set), "--cores", "1", *extra,
            *TARGETS]


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


@pytest.fixture(scope="module")
def expected(tmp_path_factory):
    """Checksums of an uninterrupted run's outputs."""
    reference = tmp_path_factory.mktemp("uninterrupted")
    run = subprocess.run(_command(reference), cwd=REPO, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    return {t: _sha(reference / t) for t in TARGETS}


def test_killed_workflow_resumes_to_identical_results(tmp_path, expected):
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


def test_half_written_output_of_a_killed_job_is_not_taken_as_a_result(tmp_path, expected):
    """Snakemake's side: had the killed job left a half-written file (a writer that is not atomic), the
    rerun refuses it, naming the file, and --rerun-incomplete makes it again."""
    work = tmp_path / "interrupted"
    work.mkdir()
    done, running = _kill_mid_run(work)
    half = work / f"results/datasets/{running[0]}.npz"
    half.write_bytes(b"PK\x03\x04 half of a zip archive")
    assert subprocess.run(_command(work, "--unlock"), cwd=REPO, capture_output=True, timeout=300).returncode == 0

    refused = subprocess.run(_command(work), cwd=REPO, capture_output=True, text=True, timeout=300)
    assert refused.returncode != 0
    assert "IncompleteFilesException" in refused.stdout + refused.stderr
    assert f"results/datasets/{running[0]}.npz" in refused.stdout + refused.stderr
    assert half.read_bytes() == b"PK\x03\x04 half of a zip archive"  # nothing ran

    rerun = subprocess.run(_command(work, "--rerun-incomplete"), cwd=REPO, capture_output=True, text=True,
                           timeout=900)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    assert {t: _sha(work / t) for t in TARGETS} == expected
