"""Where the examples find the repository's shipped data (not an example itself)."""

from pathlib import Path


def repo_file(*parts):
    """A file of the repository, found from the current directory upwards (the gallery runs in examples/)."""
    here = Path.cwd().resolve()
    for folder in [here, *here.parents]:
        candidate = folder.joinpath(*parts)
        if candidate.exists():
            return candidate
    raise FileNotFoundError(f"{Path(*parts)} not found above {here}: run the example from the repository")
