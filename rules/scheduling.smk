# The scheduler's idle work: at most one pending re-evaluation.
#
# Snakemake's job scheduler (9.x) re-runs its scheduling loop a second after every pass (the job rate limiter,
# --max-jobs-per-timespan, 100/1s by default), and every pass, including the one a finished job triggers,
# starts another one-second timer. The timers are never merged, so after k finished jobs k + 1 timers wake
# the loop every second, and each pass recomputes the parameters of every ready job and the size of every
# input of them. A long run's Snakemake process then burns a growing share of a core while its jobs work (the
# thesis config: 13-16% of a core with 25 jobs finished in one sitting). Upstream: snakemake/snakemake pull
# request 3744, "Do not release lock when job finished" (open). Measured by bench/bench_scheduler.py.
#
# Here a pass schedules a re-evaluation only when none is pending: the loop still wakes within the rate
# limiter's timespan after any pass, as before, but once, and the timer is a daemon thread, so Snakemake exits
# as soon as its last job is done instead of waiting for the last timer. Scheduling only: no job, parameter or
# result changes. Where a Snakemake release has no such method, nothing is changed.
import threading as _threading

from snakemake.scheduling import job_scheduler as _job_scheduler


def _reevaluate_once(self, delay):
    """Release the scheduling loop after ``delay`` seconds, unless a release is already pending."""
    if getattr(self, "_fscompbio_reevaluation_pending", False):
        return
    self._fscompbio_reevaluation_pending = True

    def release():
        self._fscompbio_reevaluation_pending = False
        self._open_jobs.release()

    timer = _threading.Timer(delay, release)
    timer.daemon = True
    timer.start()


if hasattr(_job_scheduler.JobScheduler, "_schedule_reevalutation"):
    _job_scheduler.JobScheduler._schedule_reevalutation = _reevaluate_once
