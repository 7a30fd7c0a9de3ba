# Config validation, shared helpers and the list of final outputs.
# Every stage's .smk appends its final figures/tables to FINAL_OUTPUTS.
import os

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate as snakemake_validate

from fscompbio.seeding import derive_seed


def validate(data, schema, set_default=True):
    """snakemake.utils.validate (defaults filled in), with a one-line error naming the config file(s), the
    key and the problem. Every rules file's validate(config[section], ...) call uses this one."""
    try:
        snakemake_validate(data, schema=schema, set_default=set_default)
    except WorkflowError as exc:
        err = exc.__context__
        if not hasattr(err, "absolute_path"):  # not a schema violation
            raise
        section = next((k for k, v in config.items() if v is data), "")
        key = ".".join(str(k) for k in [section, *err.absolute_path] if k != "") or "(top level)"
        files = ", ".join(map(str, workflow.configfiles)) or "the config"
        raise ValueError(f"{files}: config key {key}: {err.message}") from None


validate(config, schema="../schemas/config.schema.yaml")
for _name, _entry in config["datasets"]["csv"].items():  # a missing CSV fails now, not at its first job
    _csv = _entry["path"] if os.path.isabs(_entry["path"]) else os.path.join(workflow.basedir, _entry["path"])
    if not os.path.isfile(_csv):
        raise ValueError(
            f"{', '.join(map(str, workflow.configfiles))}: config key datasets.csv.{_name}.path: no such file "
            f"{_entry['path']!r}" + ("" if os.path.isabs(_entry["path"]) else f" (relative to {workflow.basedir})")
        )

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
