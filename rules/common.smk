# Config validation, shared helpers and the list of final outputs.
# Every stage's .smk appends its final figures/tables to FINAL_OUTPUTS.
import os

from snakemake.utils import validate

from fscompbio.seeding import derive_seed


validate(config, schema="../schemas/config.schema.yaml")

FINAL_OUTPUTS = []


def final_outputs():
    """The default targets: every figure and table of the enabled stages."""
    return FINAL_OUTPUTS


def repo_path(path):
    """Resolve a data path from the config: relative paths are relative to the repository."""
    return path if os.path.isabs(path) else os.path.join(workflow.basedir, path)


def figure(name):
    """The output path of figure `name` (PNG)."""
    return f"figures/{name}.png"


def caption(name):
    """The report caption of figure or table `name`."""
    return os.path.join(workflow.basedir, "report", f"{name}.rst")


def dataset_source(wildcards):
    """The CSV behind a configured real data set (none for a synthetic one)."""
    entry = config["datasets"]["csv"].get(wildcards.dataset)
    return [repo_path(entry["path"])] if entry else []


SYNTHETIC = config["datasets"]["synthetic"]
