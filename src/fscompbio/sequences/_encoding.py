"""Physicochemical encoding of windows by the 54 amino-acid scales (thesis 5.4.1)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from ._fasta import STANDARD_RESIDUES
from ._windows import window_positions

__all__ = ["SCALINGS", "load_aa_scales", "encode_windows", "encoding_feature_names", "residue_codes", "one_hot_windows"]

_META_COLUMNS = ("scale_id", "name", "reference", "source")

#: how :func:`encode_windows` scales the values of each scale: standardised over the 20 residues (mean 0,
#: population sd 1) or raw, as published
SCALINGS = ("standardised", "raw")


def load_aa_scales(path=None):
    """Load the amino-acid scale table (one row per scale).

    Parameters
    ----------
    path : str or path-like, default=None
        A CSV with columns ``scale_id``, ``name``, ``reference``, ``source``
        and the 20 residues ``A R N D C Q E G H I L K M F P S T W Y V``. With
        ``None``, the copy of the repository's ``data/aa_scales/aa_scales.csv``
        shipped inside the package (``fscompbio/sequences/data/``) is read, so
        the package works when installed without the repository; the workflow
        passes the repository's file explicitly.

    Returns
    -------
    scales : pandas.DataFrame
        Indexed by ``scale_id``; columns ``name``, ``reference``, ``source``
        and the 20 residues (float64). 54 rows for the shipped table.

    Raises
    ------
    ValueError
        If a column is missing, a scale id is duplicated, or a value is not a
        finite number (the file, scale and residue are named).
    """
    if path is None:
        ref = resources.files("fscompbio.sequences").joinpath("data", "aa_scales.csv")
        with resources.as_file(ref) as p:
            return load_aa_scales(p)
    path = Path(path)
    table = pd.read_csv(path, keep_default_na=False)  # keep 'NA'/'n/a' text for the error
    missing = [c for c in ("scale_id", *STANDARD_RESIDUES) if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: missing column(s) {missing}")
    dup = table["scale_id"][table["scale_id"].duplicated()]
    if len(dup):
        raise ValueError(f"{path}: duplicate scale_id {dup.iloc[0]!r}")
    table = table.set_index("scale_id")
    values = table[list(STANDARD_RESIDUES)].apply(pd.to_numeric, errors="coerce").astype(np.float64)
    bad = ~np.isfinite(values.to_numpy())
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(
            f"{path}: scale {values.index[i]!r} has a non-numeric value for residue "
            f"{STANDARD_RESIDUES[j]!r}: {table[STANDARD_RESIDUES[j]].iloc[i]!r}"
        )
    meta = [c for c in _META_COLUMNS[1:] if c in table.columns]
    return pd.concat([table[meta], values], axis=1)


def _check_scaling(scaling):
    if not isinstance(scaling, str) or scaling not in SCALINGS:
        raise ValueError(f"scaling must be one of {', '.join(map(repr, SCALINGS))}; got {scaling!r}")


def _scale_lookup(scales, scaling="standardised"):
    """A (256, n_scales) table: byte code of a residue -> its value on every scale.

    Rows of non-residue bytes are NaN. With ``scaling="standardised"`` each
    scale is standardised over the 20 residues to mean 0 and population
    standard deviation 1; with ``"raw"`` the values are the table's own.
    """
    _check_scaling(scaling)
    values = scales[list(STANDARD_RESIDUES)].to_numpy(np.float64)  # (n_scales, 20)
    if scaling == "standardised":
        sd = values.std(axis=1, keepdims=True)
        flat = np.flatnonzero(sd[:, 0] == 0)
        if flat.size:
            raise ValueError(f"scale(s) {list(scales.index[flat])} are constant over the 20 residues")
        values = (values - values.mean(axis=1, keepdims=True)) / sd
    lookup = np.full((256, values.shape[0]), np.nan)
    lookup[np.frombuffer(STANDARD_RESIDUES.encode("ascii"), dtype=np.uint8)] = values.T
    return lookup


def _as_window_array(windows):
    if isinstance(windows, pd.DataFrame):
        if "window" not in windows.columns:
            raise ValueError(f"windows has no 'window' column; found {list(windows.columns)}")
        windows = windows["window"]
    if isinstance(windows, str):
        raise ValueError("windows must be a sequence of strings, not a single string")
    return np.asarray(list(windows), dtype=str)


def encode_windows(windows, scales=None, *, scaling="standardised"):
    """Encode each residue of each window by the amino-acid scales, standardised or raw.

    Parameters
    ----------
    windows : pandas.DataFrame or sequence of str
        Equal-length windows of standard residues; a DataFrame from
        :func:`cleavage_windows` (its ``window`` column) or a list of strings.
    scales : pandas.DataFrame, str, path-like or None, default=None
        The scale table (:func:`load_aa_scales` output) or a path to one;
        ``None`` loads the shipped 54-scale table.
    scaling : {"standardised", "raw"}, default="standardised"
        ``"standardised"``: each scale standardised over the 20 standard
        residues; ``"raw"``: each scale's values as published (the table's
        own numbers), the reading of "the raw physicochemical properties" of
        Athanasakis, Shawe-Taylor & Fernandez-Reyes (2013), section 6.3.

    Returns
    -------
    X : ndarray of shape (n_windows, window_length * n_scales), dtype float64
        Position-major: column ``p * n_scales + s`` is scale ``s`` of residue
        ``p`` of the window (see :func:`encoding_feature_names`). For 12-residue
        windows and 54 scales, 648 columns (thesis 5.4.1).

    Raises
    ------
    ValueError
        If ``scaling`` is not one of :data:`SCALINGS`, windows differ in
        length or hold a non-standard residue, or (standardised) a scale is
        constant over the 20 residues.

    Notes
    -----
    Standardised (the default), each scale has mean 0 and population standard
    deviation 1 over the 20 standard residues, so that scales of very
    different units (molecular weight, propensities) weigh equally in
    distances. The thesis (Athanasakis 2014, section 5.4.1) lists the 54
    scales without saying how they are scaled; raw, the scales of large
    units dominate a Gaussian kernel's distances.

    Examples
    --------
    >>> X = encode_windows(["MKLLAVLALAGA", "AAAAAAAAAAAA"])
    >>> X.shape
    (2, 648)
    """
    _check_scaling(scaling)
    if scales is None or isinstance(scales, (str, Path)):
        scales = load_aa_scales(scales)
    lookup = _scale_lookup(scales, scaling)
    arr = _as_window_array(windows)
    n_scales = lookup.shape[1]
    if arr.size == 0:
        return np.empty((0, 0), dtype=np.float64)
    lengths = np.char.str_len(arr)
    if np.any(lengths != lengths[0]):
        i = int(np.flatnonzero(lengths != lengths[0])[0])
        raise ValueError(
            f"window {i} ({str(arr[i])!r}) has length {int(lengths[i])}; expected {int(lengths[0])} like window 0"
        )
    width = int(lengths[0])
    codes = np.frombuffer(np.char.encode(arr, "ascii").astype(f"S{width}").tobytes(), dtype=np.uint8)
    codes = codes.reshape(len(arr), width)
    X = lookup[codes]  # (n, width, n_scales)
    bad = np.isnan(X[:, :, 0])
    if bad.any():
        i, p = np.argwhere(bad)[0]
        raise ValueError(f"window {i} ({str(arr[i])!r}) has non-standard residue {str(arr[i][p])!r} at position {p}")
    return X.reshape(len(arr), width * n_scales)


def encoding_feature_names(scales=None, *, before=9, after=2):
    """Column names of :func:`encode_windows`: ``"<position>:<scale_id>"``.

    Positions are relative to the cleavage site (``-9 .. -1, +1 .. +3`` for
    the defaults; the target is ``+1``).

    Examples
    --------
    >>> names = encoding_feature_names()
    >>> len(names), names[0], names[-1]
    (648, '-9:pct_accessible_residues_janin', '+3:total_beta_strand_lifson_sander')
    """
    if scales is None or isinstance(scales, (str, Path)):
        scales = load_aa_scales(scales)
    return [f"{p}:{s}" for p in window_positions(before=before, after=after) for s in scales.index]


def residue_codes(windows):
    """Index of every residue of every window in :data:`STANDARD_RESIDUES` (0..19).

    Parameters
    ----------
    windows : pandas.DataFrame or sequence of str
        Equal-length windows of standard residues (as for :func:`encode_windows`).

    Returns
    -------
    codes : ndarray of shape (n_windows, window_length), dtype int8

    Raises
    ------
    ValueError
        If windows differ in length or hold a non-standard residue (the window
        and position are named).

    Examples
    --------
    >>> residue_codes(["ARN", "VVA"]).tolist()
    [[0, 1, 2], [19, 19, 0]]
    """
    arr = _as_window_array(windows)
    if arr.size == 0:
        return np.empty((0, 0), dtype=np.int8)
    lengths = np.char.str_len(arr)
    if np.any(lengths != lengths[0]):
        i = int(np.flatnonzero(lengths != lengths[0])[0])
        raise ValueError(
            f"window {i} ({str(arr[i])!r}) has length {int(lengths[i])}; expected {int(lengths[0])} like window 0"
        )
    width = int(lengths[0])
    lookup = np.full(256, -1, dtype=np.int8)
    lookup[np.frombuffer(STANDARD_RESIDUES.encode("ascii"), dtype=np.uint8)] = np.arange(20, dtype=np.int8)
    raw = np.frombuffer(np.char.encode(arr, "ascii").astype(f"S{width}").tobytes(), dtype=np.uint8)
    codes = lookup[raw].reshape(len(arr), width)
    bad = codes < 0
    if bad.any():
        i, p = np.argwhere(bad)[0]
        raise ValueError(f"window {i} ({str(arr[i])!r}) has non-standard residue {str(arr[i][p])!r} at position {p}")
    return codes


def one_hot_windows(codes, n_levels=20):
    """One-hot (indicator) encoding of residue codes: ``n_levels`` columns per position.

    Parameters
    ----------
    codes : array-like of int, shape (n_windows, window_length)
        E.g. :func:`residue_codes`.
    n_levels : int, default=20

    Returns
    -------
    X : ndarray of shape (n_windows, window_length * n_levels), dtype float32
        Column ``p * n_levels + a`` is 1 when residue ``p`` is ``a`` (position-major,
        like :func:`encode_windows`). For 12-residue windows, 240 columns. The
        54-scale encoding is a linear map of this one (each scale value is a
        function of the residue), so its rank is at most 240.

    Examples
    --------
    >>> one_hot_windows([[0, 2]], n_levels=3).tolist()
    [[1.0, 0.0, 0.0, 0.0, 0.0, 1.0]]
    """
    codes = np.asarray(codes)
    if codes.ndim != 2:
        raise ValueError(f"codes must be 2-D (n_windows, window_length); got shape {codes.shape}")
    if codes.size and (codes.min() < 0 or codes.max() >= n_levels):
        raise ValueError(f"codes must lie in [0, {n_levels}); got values in [{codes.min()}, {codes.max()}]")
    n, width = codes.shape
    X = np.zeros((n, width * n_levels), dtype=np.float32)
    X[np.repeat(np.arange(n), width), (np.arange(width) * n_levels + codes).ravel()] = 1.0
    return X
