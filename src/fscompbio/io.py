"""Atomic writers for results: a file appears whole or not at all.

Each writer writes to a temporary file in the target's directory and renames
it over the target (``os.replace`` is atomic on POSIX).
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np

__all__ = ["atomic_path", "write_json", "read_json", "write_npz", "write_text"]


@contextmanager
def atomic_path(path, suffix=None):
    """Yield a temporary path beside ``path``; rename it to ``path`` on success.

    On an exception the temporary file is removed and ``path`` is untouched.
    ``suffix`` defaults to the target's suffix (so matplotlib and numpy pick the
    right format from it).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix or path.suffix)
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _to_jsonable(obj):
    if isinstance(obj, dict):
        return {str(k): _to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return _to_jsonable(obj.tolist())
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.bool_):
        return bool(obj)
    return obj


def write_json(obj, path):
    """Write ``obj`` (NumPy values allowed) as sorted, indented JSON, atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(_to_jsonable(obj), indent=1, sort_keys=True) + "\n")


def read_json(path):
    """Read a JSON file; the error names the file when it is not valid JSON."""
    path = Path(path)
    try:
        return json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc})") from exc


def write_npz(path, **arrays):
    """``numpy.savez_compressed`` to ``path``, atomically."""
    with atomic_path(path, suffix=".npz") as tmp:
        np.savez_compressed(tmp, **arrays)


def write_text(text, path):
    """Write a text file atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text)
