"""Cleavage-site windows of signal-peptide prefixes (thesis 5.4.1)."""

from __future__ import annotations

import logging
from numbers import Integral

import numpy as np
import pandas as pd

__all__ = ["cleavage_windows", "window_positions", "candidate_windows"]

logger = logging.getLogger("fscompbio.sequences")


def _check_int(name, value, low):
    if isinstance(value, bool) or not isinstance(value, Integral) or value < low:
        raise ValueError(f"{name} must be an int >= {low}; got {value!r}")
    return int(value)


def window_positions(*, before=9, after=2):
    """Names of a window's residues relative to the cleavage site.

    The target of a window is residue ``+1`` (the first residue of the mature
    protein when the window is the positive one); the residues before it are
    ``-before .. -1`` and the ones after it ``+2 .. +(after + 1)``.

    Examples
    --------
    >>> window_positions(before=2, after=1)
    ['-2', '-1', '+1', '+2']
    """
    before = _check_int("before", before, 0)
    after = _check_int("after", after, 0)
    return [f"-{i}" for i in range(before, 0, -1)] + [f"+{i}" for i in range(1, after + 2)]


def cleavage_windows(records, *, prefix=50, before=9, after=2):
    """Cut every sequence prefix into windows around each candidate target.

    Parameters
    ----------
    records : pandas.DataFrame
        As returned by :func:`read_signal_peptides`: columns ``accession``,
        ``sequence`` and ``cleavage_site`` (1-based last residue of the
        signal peptide).
    prefix : int, default=50
        Only the first ``prefix`` residues of each sequence are used
        (thesis 5.4.1: sequences of 50 amino acids).
    before, after : int, default=9, 2
        Residues before and after the target in each window (window length
        ``before + 1 + after`` = 12 in the thesis).

    Returns
    -------
    windows : pandas.DataFrame
        One row per window, sequences in input order and targets increasing:
        ``accession``, ``target`` (1-based position of the target residue in
        the sequence), ``window`` (the ``before + 1 + after`` residues) and
        ``label`` (1 for the window whose target is ``cleavage_site + 1``,
        the first residue of the mature protein; else 0). Each kept sequence
        gives ``prefix - before - after`` windows (targets ``before + 1`` to
        ``prefix - after``: 39 for the defaults) with exactly one positive.
        ``windows.attrs["counts"]`` holds how many sequences were read, dropped
        (and why) and kept; the same is logged at INFO level.

    Notes
    -----
    Filtering, in this order (the study used 2,705 unique sequences of 50
    residues): sequences shorter than ``prefix`` are dropped; sequences whose
    positive target ``cleavage_site + 1`` is not a window target (it must lie
    in ``before + 1 .. prefix - after``) are dropped; then duplicate prefixes
    are removed: when all copies of a prefix agree on the cleavage site the
    first (in input order) is kept, and when they disagree the whole group is
    dropped, since its label is ambiguous.

    Examples
    --------
    >>> import pandas as pd
    >>> rec = pd.DataFrame({"accession": ["P1"], "sequence": ["MKLLAVLALAGAQA" * 4],
    ...                     "cleavage_site": [15]})
    >>> w = cleavage_windows(rec)
    >>> len(w), int(w["label"].sum()), w.loc[w["label"] == 1, "target"].item()
    (39, 1, 16)
    """
    prefix = _check_int("prefix", prefix, 1)
    before = _check_int("before", before, 0)
    after = _check_int("after", after, 0)
    width = before + 1 + after
    if width > prefix:
        raise ValueError(f"window length before + 1 + after = {width} exceeds prefix = {prefix}")
    missing = [c for c in ("accession", "sequence", "cleavage_site") if c not in records.columns]
    if missing:
        raise ValueError(f"records is missing column(s) {missing}; found {list(records.columns)}")

    n_read = len(records)
    seqs = records["sequence"].astype(str)
    short = (seqs.str.len() < prefix).to_numpy()
    records = records.loc[~short]
    first_target, last_target = before + 1, prefix - after
    positive = records["cleavage_site"].to_numpy(np.int64) + 1
    no_window = (positive < first_target) | (positive > last_target)
    records = records.loc[~no_window]

    heads = records["sequence"].astype(str).str.slice(0, prefix)
    n_sites = records.groupby(heads.to_numpy())["cleavage_site"].transform("nunique").to_numpy()
    ambiguous = n_sites > 1
    duplicate = heads.duplicated(keep="first").to_numpy() & ~ambiguous
    keep = ~ambiguous & ~duplicate
    records, heads = records.loc[keep], heads.loc[keep]

    counts = {
        "n_read": int(n_read),
        "n_short_dropped": int(short.sum()),
        "n_no_positive_window_dropped": int(no_window.sum()),
        "n_ambiguous_duplicate_dropped": int(ambiguous.sum()),
        "n_duplicate_dropped": int(duplicate.sum()),
        "n_kept": int(len(records)),
    }
    logger.info("cleavage windows: %s", counts)

    targets = np.arange(first_target, last_target + 1)  # 1-based target positions
    n_seq, n_win = len(records), len(targets)
    # All windows of all prefixes by one strided view of the prefix bytes.
    if n_seq:
        buf = np.frombuffer("".join(heads).encode("ascii"), dtype="S1").reshape(n_seq, prefix)
        starts = targets - 1 - before  # 0-based first residue of each window
        idx = starts[:, None] + np.arange(width)[None, :]
        letters = buf[:, idx].reshape(n_seq * n_win, width)
        window = letters.view(f"S{width}").ravel().astype(str)
    else:
        window = np.array([], dtype=str)
    positive = records["cleavage_site"].to_numpy(np.int64) + 1
    label = (np.tile(targets, n_seq) == np.repeat(positive, n_win)).astype(np.int64)
    windows = pd.DataFrame(
        {
            "accession": np.repeat(records["accession"].to_numpy(dtype=object), n_win),
            "target": np.tile(targets, n_seq).astype(np.int64),
            "window": window,
            "label": label,
        }
    )
    windows.attrs["counts"] = counts
    return windows


def candidate_windows(sequences, *, prefix=50, before=9, after=2):
    """Every candidate cleavage window of unlabelled sequences (for prediction).

    Parameters
    ----------
    sequences : mapping of str -> str, or sequence of (accession, sequence) pairs
        Protein sequences (upper or lower case), e.g. read from a FASTA file.
    prefix, before, after : int, default=50, 9, 2
        As in :func:`cleavage_windows`: only the first ``prefix`` residues are
        used; a window is ``before`` residues, the target, ``after`` residues.

    Returns
    -------
    windows : pandas.DataFrame
        ``accession``, ``target`` (1-based position of the window's target,
        the first residue of the mature protein if the site is there) and
        ``window``; targets ``before + 1 .. min(len, prefix) - after`` of each
        sequence, in input order.

    Raises
    ------
    ValueError
        Naming the accession: a sequence shorter than one window
        (``before + 1 + after`` residues), or a residue outside the 20
        standard amino acids within the first ``prefix`` residues (its letter
        and 1-based position are given).

    Examples
    --------
    >>> w = candidate_windows({"P1": "MKLLAVLALAGAQA"}, before=9, after=2)
    >>> w["target"].tolist(), w["window"].iloc[0]
    ([10, 11, 12], 'MKLLAVLALAGA')
    """
    from ._fasta import STANDARD_RESIDUES

    prefix = _check_int("prefix", prefix, 1)
    before = _check_int("before", before, 0)
    after = _check_int("after", after, 0)
    width = before + 1 + after
    if width > prefix:
        raise ValueError(f"window length before + 1 + after = {width} exceeds prefix = {prefix}")
    items = list(sequences.items()) if hasattr(sequences, "items") else list(sequences)
    if not items:
        raise ValueError("no sequences given")
    standard = set(STANDARD_RESIDUES)
    acc, tgt, win = [], [], []
    for accession, sequence in items:
        head = str(sequence).upper()[:prefix]
        if len(head) < width:
            raise ValueError(
                f"sequence {accession!r} has {len(head)} residues, fewer than one window of {width} "
                f"({before} before the cleavage site, the site, {after} after)"
            )
        odd = [(i + 1, a) for i, a in enumerate(head) if a not in standard]
        if odd:
            pos, letter = odd[0]
            raise ValueError(
                f"sequence {accession!r} has non-standard residue {letter!r} at position {pos} (within the "
                f"first {prefix} residues used; only the 20 standard amino acids {STANDARD_RESIDUES} can be encoded)"
            )
        for t in range(before + 1, len(head) - after + 1):
            acc.append(accession)
            tgt.append(t)
            win.append(head[t - 1 - before : t + after])
    return pd.DataFrame({"accession": acc, "target": np.asarray(tgt, dtype=np.int64), "window": win})
