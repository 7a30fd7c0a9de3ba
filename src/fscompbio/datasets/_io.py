"""One on-disk format for every data set, and a loader for users' CSV matrices.

The ``.npz`` format holds ``X`` (float64, samples x features), ``y``,
``feature_names`` (str), ``relevant`` (int64 indices, possibly empty), ``task``
(``"binary"``, ``"multiclass"`` or ``"regression"``) and ``name``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..io import write_npz
from ._registry import Dataset

__all__ = ["save_dataset", "load_dataset", "load_csv_dataset", "TASKS"]

TASKS = ("binary", "multiclass", "regression")
_KEYS = ("X", "y", "feature_names", "relevant", "task")


def save_dataset(ds, path):
    """Write a :class:`Dataset` to ``path`` (``.npz``) atomically."""
    write_npz(
        path,
        X=ds.X,
        y=ds.y,
        feature_names=np.asarray(ds.feature_names, dtype=str),
        relevant=np.asarray(ds.relevant, dtype=np.int64),
        task=np.array(ds.task),
        name=np.array(ds.name),
    )


def load_dataset(path):
    """Read and validate a data set written by :func:`save_dataset`.

    Raises
    ------
    ValueError
        Naming the file and what is wrong: a missing key, inconsistent shapes,
        non-finite values, relevant indices out of range, an unknown task, or
        labels that do not fit the task.
    """
    path = Path(path)
    try:
        z = np.load(path, allow_pickle=False)
        if not isinstance(z, np.lib.npyio.NpzFile):
            raise ValueError("a single array, not an .npz archive")
    except (OSError, EOFError, ValueError) as exc:  # not a zip/npz file
        raise ValueError(f"{path}: not a readable .npz data set ({exc})") from exc
    with z:
        missing = [k for k in _KEYS if k not in z.files]
        if missing:
            raise ValueError(f"{path}: missing arrays {missing}; expected {list(_KEYS)}")
        X, y = z["X"], z["y"]
        names, relevant = z["feature_names"], z["relevant"]
        task = str(z["task"])
        name = str(z["name"]) if "name" in z.files else path.stem
    if X.ndim != 2:
        raise ValueError(f"{path}: X must be 2-D (samples x features); got shape {X.shape}")
    n, d = X.shape
    if y.shape != (n,):
        raise ValueError(f"{path}: y has shape {y.shape}; expected ({n},) for X of shape {X.shape}")
    if names.shape != (d,):
        raise ValueError(f"{path}: feature_names has shape {names.shape}; expected ({d},)")
    if not np.issubdtype(X.dtype, np.number):
        raise ValueError(f"{path}: X must be numeric; got dtype {X.dtype}")
    bad = np.argwhere(~np.isfinite(X))
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"{path}: X has {len(bad)} non-finite values, first at sample {i}, feature {str(names[j])!r}")
    if task not in TASKS:
        raise ValueError(f"{path}: task must be one of {TASKS}; got {task!r}")
    if relevant.ndim != 1 or (relevant.size and (relevant.min() < 0 or relevant.max() >= d)):
        raise ValueError(f"{path}: relevant indices must lie in [0, {d}); got {relevant.tolist()}")
    if task == "binary" and not set(np.unique(y).tolist()) <= {-1, 1}:
        raise ValueError(f"{path}: a binary task needs labels in {{-1, +1}}; got {np.unique(y).tolist()}")
    return Dataset(X=X.astype(np.float64, copy=False), y=y, relevant=relevant.astype(np.int64),
                   task=task, feature_names=names, name=name)


def load_csv_dataset(path, *, label_column="label", id_column="sample_id", positive_label=None, task=None,
                     name=None):
    """Load a user's matrix: one row per sample, a label column, one column per feature.

    This is the format of ``shared/data/expression/*.csv(.gz)``: columns
    ``sample_id``, ``label``, then the features.

    Parameters
    ----------
    path : str or Path
    label_column : str, default="label"
    id_column : str or None, default="sample_id"
        Dropped if present.
    positive_label : str, default=None
        For two classes: the label mapped to +1 (the other is -1). By default the
        larger of the two labels in sorted order is +1 (never column order).
    task : {"binary", "multiclass", "regression"}, default=None
        Inferred: two distinct labels -> binary; non-numeric or integer labels
        with more classes -> multiclass (class indices in sorted label order);
        otherwise regression.
    name : str, default=None
        The data set's name; by default the file name without its suffixes.

    Returns
    -------
    Dataset
        With an empty ``relevant``.
    """
    path = Path(path)
    df = pd.read_csv(path)
    if label_column not in df.columns:
        raise ValueError(f"{path}: no label column {label_column!r}; columns start {list(df.columns[:5])}")
    labels = df.pop(label_column)
    if id_column is not None and id_column in df.columns:
        df.pop(id_column)
    if labels.isna().any():
        raise ValueError(f"{path}: missing label in row {int(np.flatnonzero(labels.isna())[0]) + 2} (1-based, with header)")
    non_numeric = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
    if non_numeric:
        raise ValueError(f"{path}: non-numeric feature columns {non_numeric[:5]}")
    X = df.to_numpy(dtype=np.float64)
    bad = np.argwhere(~np.isfinite(X))
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"{path}: missing or non-finite value at row {i + 2}, column {df.columns[j]!r}")
    classes = np.unique(labels.astype(str)) if not pd.api.types.is_float_dtype(labels) else None
    if task is None:
        if classes is not None and classes.size == 2:
            task = "binary"
        elif classes is not None and classes.size > 2 and not pd.api.types.is_float_dtype(labels):
            task = "multiclass"
        else:
            task = "regression"
    if task == "binary":
        str_labels = labels.astype(str).to_numpy()
        classes = np.unique(str_labels)
        if classes.size != 2:
            raise ValueError(f"{path}: task='binary' needs two labels; got {classes.tolist()}")
        pos = classes[1] if positive_label is None else str(positive_label)
        if pos not in classes:
            raise ValueError(f"{path}: positive_label {positive_label!r} is not a label; labels are {classes.tolist()}")
        y = np.where(str_labels == pos, 1, -1).astype(np.int64)
    elif task == "multiclass":
        _, y = np.unique(labels.astype(str).to_numpy(), return_inverse=True)
        y = y.astype(np.int64)
    elif task == "regression":
        y = labels.to_numpy(dtype=np.float64)
    else:
        raise ValueError(f"task must be one of {TASKS} or None; got {task!r}")
    return Dataset(X=X, y=y, relevant=np.empty(0, dtype=np.int64), task=task,
                   feature_names=np.asarray(df.columns, dtype=str),
                   name=name or path.name.split(".")[0])
