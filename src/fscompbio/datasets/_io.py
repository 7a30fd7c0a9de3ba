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
        # only when set, so that a data set of raw values is written as before the key existed
        **({"standardized": np.array(True)} if ds.standardized else {}),
    )


def load_dataset(path):
    """Read and validate a data set written by :func:`save_dataset`.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        Naming the file and what is wrong: not a zip archive, a missing key, inconsistent shapes,
        non-finite values, relevant indices out of range, an unknown task, or
        labels that do not fit the task.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    with open(path, "rb") as fh:
        if fh.read(4) != b"PK\x03\x04":
            raise ValueError(f"{path}: not a readable .npz data set (not a zip archive of arrays, as written by "
                             "save_dataset or `fscompbio make-dataset`)")
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
        scaled = bool(z["standardized"]) if "standardized" in z.files else False
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
                   task=task, feature_names=names, name=name, standardized=scaled)


def _read_csv_table(path):
    """The table and its raw header (pandas renames duplicate names), or an error naming the file."""
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    try:
        header = pd.read_csv(path, header=None, nrows=1, dtype=str, keep_default_na=False)
        df = pd.read_csv(path)
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path}: empty file; expected a header line (sample_id, label, features) and one "
                         "line per sample") from None
    except (pd.errors.ParserError, UnicodeDecodeError, OSError, EOFError) as exc:  # OSError: bad gzip
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"{path}: not a readable CSV file ({first})") from exc
    return df, [str(c) for c in header.iloc[0]]


def _row(df, i, id_column, column=None):
    """'row N[, column 'C'] (sample 'ID')' for table row i; rows count the header, so row N is line N."""
    where = f"row {int(i) + 2}" + (f", column {column!r}" if column is not None else "")
    if id_column is not None and id_column in df.columns:
        where += f" (sample {str(df[id_column].iloc[int(i)])!r})"
    return where


def load_csv_dataset(path, *, label_column="label", id_column="sample_id", positive_label=None, task=None,
                     name=None, min_class_size=1):
    """Load a user's matrix: one row per sample, a label column, one column per feature.

    This is the format of ``shared/data/expression/*.csv(.gz)``: columns
    ``sample_id``, ``label``, then the features.

    Parameters
    ----------
    path : str or Path
    label_column : str, default="label"
    id_column : str or None, default="sample_id"
        Dropped if present; its values must be unique.
    positive_label : str, default=None
        For two classes: the label mapped to +1 (the other is -1). By default the
        larger of the two labels in sorted order is +1 (never column order).
    task : {"binary", "multiclass", "regression"}, default=None
        Inferred: two distinct labels -> binary; non-numeric or integer labels
        with more classes -> multiclass (class indices in sorted label order);
        otherwise regression.
    name : str, default=None
        The data set's name; by default the file name without its suffixes.
    min_class_size : int, default=1
        For a binary or multiclass task, refuse a class with fewer samples
        (the command line asks for 2, or for the number of stratified folds).

    Returns
    -------
    Dataset
        With an empty ``relevant``.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        Naming the file, the line (and sample id) or column, and the problem: an
        empty or unreadable file, a duplicated column name, no label column, no
        feature column, no samples, a duplicated sample id, a missing label, a
        non-numeric, missing or infinite feature value, a single label for all
        samples, a class with a single sample (classification), or a
        ``positive_label`` that is not a label. Rows are numbered as lines of the
        file (the header is row 1).
    """
    path = Path(path)
    if task not in (None, *TASKS):
        raise ValueError(f"task must be one of {TASKS} or None; got {task!r}")
    df, header = _read_csv_table(path)
    seen = {}
    for j, col in enumerate(header):
        if col in seen:
            raise ValueError(f"{path}: duplicate column name {col!r} (columns {seen[col] + 1} and {j + 1})")
        seen[col] = j
    if label_column not in df.columns:
        raise ValueError(f"{path}: no label column {label_column!r}; columns start {list(df.columns[:5])}")
    if len(df) == 0:
        raise ValueError(f"{path}: no samples (only a header line)")
    if id_column is not None and id_column in df.columns:
        ids = df[id_column].astype(str)
        dup = ids.duplicated(keep="first").to_numpy() & df[id_column].notna().to_numpy()
        if dup.any():
            j = int(np.flatnonzero(dup)[0])
            i = int(np.flatnonzero(ids.to_numpy() == ids.iloc[j])[0])
            raise ValueError(f"{path}: duplicate {id_column} {ids.iloc[j]!r} (rows {i + 2} and {j + 2})")
    features = [c for c in df.columns if c not in (label_column, id_column)]
    if not features:
        raise ValueError(f"{path}: no feature columns; found only {list(df.columns)} (expected {id_column}, "
                         f"{label_column}, then one column per feature)")
    labels = df[label_column]
    if labels.isna().any():
        i = int(np.flatnonzero(labels.isna().to_numpy())[0])
        raise ValueError(f"{path}: missing label at {_row(df, i, id_column, label_column)}")
    for c in features:
        if not pd.api.types.is_numeric_dtype(df[c]):
            bad = pd.to_numeric(df[c], errors="coerce").isna().to_numpy() & df[c].notna().to_numpy()
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{path}: non-numeric value {str(df[c].iloc[i])!r} at {_row(df, i, id_column, c)}")
    X = df[features].to_numpy(dtype=np.float64)
    bad = np.argwhere(~np.isfinite(X))
    if bad.size:
        i, j = bad[0]
        what = "missing value" if np.isnan(X[i, j]) else f"infinite value ({X[i, j]})"
        raise ValueError(f"{path}: {what} at {_row(df, i, id_column, features[j])}"
                         + (f"; {len(bad)} such values in all" if len(bad) > 1 else ""))
    str_labels = labels.astype(str).to_numpy()
    classes, first_row, counts = np.unique(str_labels, return_index=True, return_counts=True)
    if classes.size == 1:
        raise ValueError(f"{path}: column {label_column!r} has one value ({classes[0]!r}) for all {len(df)} "
                         "samples; two or more classes (or a real-valued target) are needed")
    float_labels = pd.api.types.is_float_dtype(labels)
    if task is None:
        if classes.size == 2:
            task = "binary"
        elif not float_labels:
            task = "multiclass"
        else:
            task = "regression"
    if task == "binary" and classes.size != 2:
        shown = classes[:6].tolist() + (["..."] if classes.size > 6 else [])
        raise ValueError(f"{path}: column {label_column!r} has {classes.size} labels {shown}; a binary task needs two")
    if task in ("binary", "multiclass"):
        small = np.flatnonzero(counts < min_class_size)
        if small.size:
            k = small[0]
            only = f"a single sample, at {_row(df, first_row[k], id_column)}" if counts[k] == 1 else \
                f"only {counts[k]} samples"
            raise ValueError(
                f"{path}: label {classes[k]!r} in column {label_column!r} has {only}; each class needs at least "
                f"{min_class_size}"
                + (" (for a real-valued target, use task='regression')"
                   if pd.api.types.is_integer_dtype(labels) else "")
            )
    if task == "binary":
        pos = classes[1] if positive_label is None else str(positive_label)
        if pos not in classes:
            raise ValueError(f"{path}: positive_label {positive_label!r} is not a label; labels are {classes.tolist()}")
        y = np.where(str_labels == pos, 1, -1).astype(np.int64)
    elif task == "multiclass":
        _, y = np.unique(str_labels, return_inverse=True)
        y = y.astype(np.int64)
    else:
        y = pd.to_numeric(labels, errors="coerce").to_numpy(dtype=np.float64)
        if np.isnan(y).any():
            i = int(np.flatnonzero(np.isnan(y))[0])
            raise ValueError(f"{path}: task='regression' needs numeric labels; got {str(labels.iloc[i])!r} at "
                             f"{_row(df, i, id_column, label_column)}")
    return Dataset(X=X, y=y, relevant=np.empty(0, dtype=np.int64), task=task,
                   feature_names=np.asarray(features, dtype=str),
                   name=name or path.name.split(".")[0])
