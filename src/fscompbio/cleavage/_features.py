"""The input matrix of each representation of a cleavage window (scales, sparse filtering, one-hot, codes)."""

from __future__ import annotations

import numpy as np

from ..sequences import one_hot_windows

__all__ = ["encoded_matrix", "representation_matrix"]


def representation_matrix(kind, *, scales=None, codes=None, target=None, sf=None, first_target=None):
    """The input matrix of one representation (:data:`APPROACH_REPRESENTATION`).

    Parameters
    ----------
    kind : {"scales", "sf", "onehot", "codes", "codes_position", "scales_codes_position"}
    scales : ndarray (n, 648), the scale encoding; sf : ndarray (n, k), the learned features;
    codes : ndarray (n, 12) of residue codes; target : ndarray (n,), the 1-based target position;
    first_target : int, default=None
        The smallest target position (``before + 1``); positions are coded from 0.
        ``None`` = the smallest ``target`` given.

    Returns
    -------
    ndarray of shape (n, n_columns)
    """
    def need(name, value):
        if value is None:
            raise ValueError(f"representation {kind!r} needs {name}")
        return np.asarray(value)

    if kind == "scales":
        return need("scales", scales)
    if kind == "sf":
        return need("sf (the sparse-filtering features)", sf)
    if kind == "onehot":
        return one_hot_windows(need("codes", codes))
    if kind == "codes":
        return need("codes", codes).astype(np.int64)
    if kind == "codes_position":
        t = need("target", target).astype(np.int64)
        t0 = int(t.min()) if first_target is None else int(first_target)
        return np.column_stack([need("codes", codes).astype(np.int64), t - t0])
    if kind == "scales_codes_position":
        t = need("target", target).astype(np.int64)
        t0 = int(t.min()) if first_target is None else int(first_target)
        return np.column_stack([need("scales", scales), need("codes", codes), t - t0]).astype(np.float64)
    raise ValueError("representation must be one of scales, sf, onehot, codes, codes_position, scales_codes_position; "
                     f"got {kind!r}")


def encoded_matrix(kind, encoded, sf=None, rows=None):
    """:func:`representation_matrix` of the windows of an encoded file (``fscompbio encode`` or the workflow).

    ``encoded``: the loaded ``.npz`` (``X``, ``codes``, ``target`` and the window geometry ``before``, from
    which positions are coded); ``sf``: the sparse-filtering features of the same windows, for ``"sf"``;
    ``rows``: only these windows (default all; the matrix of a subset without the copy of every window).
    """
    def take(a):
        return None if a is None else (a if rows is None else np.asarray(a)[rows])

    return representation_matrix(kind, scales=take(encoded["X"]), codes=take(encoded["codes"]),
                                 target=take(encoded["target"]), sf=take(sf), first_target=int(encoded["before"]) + 1)
