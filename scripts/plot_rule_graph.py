"""The workflow's own rule graph (snakemake --rulegraph, rendered by graphviz at page width)."""

import logging
import subprocess
import sys
import tempfile
from pathlib import Path

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import yaml  # noqa: E402

from fscompbio.io import atomic_path  # noqa: E402
from fscompbio.plots.rule_graph import readable_dot, render_dot  # noqa: E402

with tempfile.TemporaryDirectory() as tmp:
    # an empty working directory: every rule of the workflow appears, and no lock or result is touched
    config = Path(tmp) / "config.yaml"
    config.write_text(yaml.safe_dump(dict(snakemake.config)))
    cmd = [sys.executable, "-m", "snakemake", "-s", snakemake.params.snakefile, "--directory", tmp,
           "--configfile", str(config), "--rulegraph", "--nolock", "--quiet", "all"]
    logging.info("running %s", " ".join(cmd))
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
    logging.info("snakemake stderr:\n%s", done.stderr)
    done.check_returncode()
png = render_dot(readable_dot(done.stdout))
with atomic_path(snakemake.output[0]) as path:
    path.write_bytes(png)
