"""The workflow's fix of Snakemake's scheduling loop (rules/scheduling.smk): one pending re-evaluation at a time.

As released, every pass of Snakemake's scheduling loop starts one more re-evaluation timer, so the idle passes
per second grow with the finished jobs. The fix must keep the loop's liveness (a release within the delay after
any call) while merging the timers, and must not keep Snakemake alive after its last job (daemon timer)."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

job_scheduler = pytest.importorskip("snakemake.scheduling.job_scheduler")

RULES = Path(__file__).resolve().parents[1] / "rules" / "scheduling.smk"


@pytest.fixture(scope="module")
def reevaluate():
    """The patched ``JobScheduler._schedule_reevalutation`` (the rules file is plain Python, as the workflow
    includes it)."""
    exec(compile(RULES.read_text(), str(RULES), "exec"), {})
    return job_scheduler.JobScheduler._schedule_reevalutation


def _releases(sem):
    n = 0
    while sem.acquire(blocking=False):
        n += 1
    return n


def test_the_rules_file_patches_the_scheduler(reevaluate):
    assert reevaluate.__name__ == "_reevaluate_once"


def test_calls_while_one_is_pending_release_the_loop_once(reevaluate):
    scheduler = SimpleNamespace(_open_jobs=threading.Semaphore(0))
    for _ in range(5):  # five passes of the loop within the delay: five timers as released
        reevaluate(scheduler, 0.05)
    time.sleep(0.4)
    assert _releases(scheduler._open_jobs) == 1


def test_the_loop_is_released_again_after_the_timer_fired(reevaluate):
    scheduler = SimpleNamespace(_open_jobs=threading.Semaphore(0))
    reevaluate(scheduler, 0.02)
    time.sleep(0.3)
    reevaluate(scheduler, 0.02)  # the pass the release triggered schedules the next re-evaluation
    time.sleep(0.3)
    assert _releases(scheduler._open_jobs) == 2


def test_the_timer_does_not_keep_snakemake_alive(reevaluate):
    scheduler = SimpleNamespace(_open_jobs=threading.Semaphore(0))
    before = set(threading.enumerate())
    reevaluate(scheduler, 30.0)
    timers = [t for t in threading.enumerate() if t not in before and isinstance(t, threading.Timer)]
    assert len(timers) == 1 and timers[0].daemon
    timers[0].cancel()
