"""The log of one workflow job, ending with the job's own measured resources.

Every script of the workflow starts with :func:`start_job_log`: its messages (``logging`` and anything
written to ``stderr``) go to the job's log file, and when the process exits the last line of the log is
the job's wall time, CPU time and peak memory, measured by the process itself::

    job resources: wall_s=12.34 cpu_s=23.45 max_rss_mb=210.5

Why not Snakemake's ``benchmark:`` files alone: their wall time is exact, but their CPU time is sampled
(every 0.5 s for the first 15 s, then every 30 s), so a job's CPU time after its last sample is lost; a
job burning 45 CPU s is recorded with 15. :func:`read_job_resources` reads the line back
(``tools/run_archive.py`` puts it in the archive of a run).
"""

from __future__ import annotations

import atexit
import logging
import re
import resource
import sys
import time

__all__ = ["start_job_log", "job_resources", "read_job_resources"]

_PREFIX = "job resources:"
_NUM = r"([0-9]+(?:\.[0-9]*)?)"
_LINE = re.compile(rf"^{_PREFIX} wall_s={_NUM} cpu_s={_NUM} max_rss_mb={_NUM}\s*$")


def job_resources(started):
    """``{"wall_s", "cpu_s", "max_rss_mb"}`` of this process since ``started`` (a ``time.perf_counter``).

    CPU time is user + system of this process and of the child processes it has waited for
    (``getrusage``); peak memory is the largest resident set of either.
    """
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    rss_kb = max(own.ru_maxrss, children.ru_maxrss)  # kilobytes on Linux
    if sys.platform == "darwin":  # bytes on macOS
        rss_kb /= 1024
    return {"wall_s": time.perf_counter() - started, "cpu_s": cpu, "max_rss_mb": rss_kb / 1024}


def start_job_log(path, fmt=None):
    """Send ``stderr`` and ``logging`` (level INFO, format ``fmt``) to the log file ``path``.

    At exit (normal or by an exception) the log's last line is the job's resources
    (:func:`job_resources`). Returns the open log file.
    """
    started = time.perf_counter()
    log = open(path, "w")
    sys.stderr = log
    kwargs = {"format": fmt} if fmt else {}
    logging.basicConfig(stream=log, level=logging.INFO, **kwargs)

    def _write_resources():
        r = job_resources(started)
        try:
            log.write(f"{_PREFIX} wall_s={r['wall_s']:.2f} cpu_s={r['cpu_s']:.2f} "
                      f"max_rss_mb={r['max_rss_mb']:.1f}\n")
            log.flush()
        except ValueError:  # the log was closed by the script
            pass

    atexit.register(_write_resources)
    return log


def read_job_resources(path):
    """The resources a job wrote as its log's last line, or None (no such line, no such file)."""
    try:
        with open(path, errors="replace") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        m = _LINE.match(line)
        if m:
            return {"wall_s": float(m.group(1)), "cpu_s": float(m.group(2)), "max_rss_mb": float(m.group(3))}
    return None
