"""Atomic writers for results: a file appears whole or not at all.

Each writer writes to a temporary file in the target's directory and renames
it over the target (``os.replace`` is atomic on POSIX).
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import numpy as np

__all__ = ["atomic_path", "check_writable", "to_jsonable", "write_json", "read_json", "write_npz", "write_text"]


def _umask():
    """The process's umask: from /proc on Linux, else by setting it and setting it straight back."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_path(path, suffix=None):
    """Yield a temporary path beside ``path``; rename it to ``path`` on success.

    On an exception the temporary file is removed and ``path`` is untouched.
    The file gets the usual permissions of a new file (``0666`` less the umask).
    ``suffix`` defaults to the target's suffix (so matplotlib and numpy pick the
    right format from it).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=suffix or path.suffix)
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the mode of a file made by open()
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def check_writable(path):
    """Raise ``OSError`` naming ``path`` when a file cannot be written there.

    Meant for the start of a long job, so that a bad output path fails before
    the work, not after it. Nothing is left behind: a temporary file is made
    and removed in the folder, or, when the folder does not exist yet, a
    temporary folder in its nearest existing ancestor (:func:`atomic_path`
    creates the missing folders when it writes).

    Raises
    ------
    IsADirectoryError
        If ``path`` is an existing folder.
    NotADirectoryError
        If an ancestor of ``path`` is a file.
    OSError
        If the folder is not writable (permissions, a read-only mount, ...).
    """
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, f"cannot create it: {ancestor} is a file, not a folder", str(path))
    try:
        if ancestor != path.parent:  # a missing folder: try to make (and remove) one in its nearest ancestor
            os.rmdir(tempfile.mkdtemp(dir=ancestor, prefix=f".{path.name}."))
        else:
            fd, tmp = tempfile.mkstemp(dir=ancestor, prefix=f".{path.name}.")
            os.close(fd)
            os.unlink(tmp)
    except OSError as exc:
        raise type(exc)(exc.errno, f"cannot write in folder {ancestor} ({exc.strerror})", str(path)) from exc


def to_jsonable(obj):
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
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
        tmp.write_text(json.dumps(to_jsonable(obj), indent=1, sort_keys=True) + "\n")


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
