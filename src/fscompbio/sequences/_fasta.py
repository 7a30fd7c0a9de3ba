"""Reading and validating the signal-peptide FASTA + TSV pair (thesis 5.4.1)."""

from __future__ import annotations

import gzip
import io
import logging
import re
import sys
import zlib
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd

from .._optional import optional_import

__all__ = ["STANDARD_RESIDUES", "NUCLEOTIDE_LETTERS", "iter_fasta", "read_fasta", "read_signal_peptides",
           "looks_like_nucleotides"]

logger = logging.getLogger("fscompbio.sequences")

#: The 20 standard amino acids, in the column order of ``aa_scales.csv``.
STANDARD_RESIDUES = "ARNDCQEGHILKMFPSTWYV"
_STANDARD_SET = frozenset(STANDARD_RESIDUES)

_REQUIRED_COLUMNS = ("Accession", "Cleavage_Site")

#: The letters of a nucleotide sequence (DNA, RNA, and N for an unknown base).
NUCLEOTIDE_LETTERS = "ACGTUN"
_NON_LETTERS = re.compile("[^A-Z]")
_GZIP_MAGIC = b"\x1f\x8b"


def looks_like_nucleotides(sequence, *, min_fraction=0.9):
    """Whether ``sequence`` reads as DNA or RNA rather than protein.

    True when at least ``min_fraction`` of its letters are A, C, G, T, U or N
    (case ignored; gaps ``-``, stops ``*`` and other non-letters not counted).
    Proteins rarely come close: in the 2,932 UniProt signal-peptide proteins
    shipped with the study the largest such fraction is 0.78.

    Examples
    --------
    >>> looks_like_nucleotides("ATGGCGTTTAAACGCGCT"), looks_like_nucleotides("MKWVTFISLLLLFSSAYS")
    (True, False)
    """
    letters = _NON_LETTERS.sub("", str(sequence).upper())
    return bool(letters) and sum(letters.count(c) for c in NUCLEOTIDE_LETTERS) >= min_fraction * len(letters)


def _fasta_accession(record_id):
    """The accession of a FASTA header: ``ACC`` or UniProt's ``sp|ACC|NAME``."""
    parts = record_id.split("|")
    if len(parts) >= 3 and parts[0] in {"sp", "tr"}:
        return parts[1]
    return record_id


def _check_file(path):
    """A missing path or a folder gets the file's name in the error, like every other bad input."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"{path}: no such file" if not Path(path).exists() else f"{path}: not a file")


@contextmanager
def _open_text(path):
    """A UTF-8 text handle on ``path`` (``"-"``: standard input), decompressed when it is gzip (by its first bytes)."""
    stdin = str(path) == "-"
    if stdin:
        raw = sys.stdin.buffer
        wrapped = not hasattr(raw, "peek")
        if wrapped:
            raw = io.BufferedReader(raw)
    else:
        _check_file(path)
        raw = open(path, "rb")
    text = binary = None
    try:
        binary = gzip.GzipFile(fileobj=raw, mode="rb") if raw.peek(2)[:2] == _GZIP_MAGIC else raw
        text = io.TextIOWrapper(binary, encoding="utf-8", newline=None)
        yield text
    finally:
        if not stdin:
            raw.close()
        else:  # standard input stays open: detach every wrapper instead of closing it
            if text is not None:
                text.detach()
            if binary is not None and binary is not raw:
                binary.close()  # a GzipFile does not close the file it was given
            if wrapped:
                raw.detach()


def iter_fasta(fasta_path):
    """Yield ``(record number, accession, upper-case sequence)`` of each FASTA record, one at a time.

    ``fasta_path`` may be gzip-compressed (recognised by its first bytes, whatever its name) or ``"-"``
    for standard input. Memory does not grow with the file. A malformed file or an empty header stops
    with an error naming the file and the record; empty sequences and repeated accessions are yielded
    (the caller decides).
    """
    name = "standard input" if str(fasta_path) == "-" else str(fasta_path)
    SeqIO = optional_import("Bio.SeqIO", "Reading FASTA files")
    with _open_text(fasta_path) as handle:
        try:
            for number, record in enumerate(SeqIO.parse(handle, "fasta"), start=1):
                accession = _fasta_accession(record.id)
                if not accession:
                    raise ValueError(f"{name}: record {number} has an empty header (no accession)")
                yield number, accession, str(record.seq).upper()
        except (gzip.BadGzipFile, EOFError, zlib.error) as exc:  # a damaged or truncated .gz
            raise ValueError(f"{name}: not a valid gzip file ({exc or 'truncated'})") from exc
        except ValueError as exc:  # Biopython's message does not name the file; also a binary file's decode error
            if str(exc).startswith(name):
                raise
            if "comments at the beginning" in str(exc):  # Biopython's words for lines before the first header
                raise ValueError(f"{name}: not a valid FASTA file: it has lines before its first '>' header (each "
                                 "record starts with a line '>accession', its sequence on the lines below; a bare "
                                 "sequence needs such a line above it)") from exc
            first_paragraph = " ".join(str(exc).strip().split("\n\n")[0].split())
            raise ValueError(f"{name}: not a valid FASTA file ({first_paragraph})") from exc


def read_fasta(fasta_path):
    """Map accession -> upper-case sequence; errors name the file and record."""
    sequences, numbers = {}, {}
    for number, accession, sequence in iter_fasta(fasta_path):
        if accession in sequences:
            same = "the same sequence as" if sequence == sequences[accession] else "a different sequence from"
            raise ValueError(f"{fasta_path}: duplicate accession {accession!r} (record {number}), with {same} "
                             f"record {numbers[accession]}")
        if not sequence:
            raise ValueError(f"{fasta_path}: record {accession!r} has a missing (empty) sequence")
        sequences[accession], numbers[accession] = sequence, number
    if not sequences:
        raise ValueError(f"{fasta_path}: no FASTA records found")
    return sequences


def _read_tsv(tsv_path):
    """The annotation table; errors name the file, the column and the record."""
    _check_file(tsv_path)
    try:
        table = pd.read_csv(tsv_path, sep="\t", dtype={"Accession": str})
    except pd.errors.EmptyDataError:
        raise ValueError(f"{tsv_path}: empty file; expected a tab-separated header with columns "
                         f"{list(_REQUIRED_COLUMNS)}") from None
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise ValueError(f"{tsv_path}: not a readable tab-separated file ({str(exc).strip().splitlines()[0]})") from exc
    missing = [c for c in _REQUIRED_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{tsv_path}: missing column(s) {missing}; found {list(table.columns)}")
    if table["Accession"].isna().any():
        row = int(np.flatnonzero(table["Accession"].isna().to_numpy())[0]) + 2  # 1-based, after the header
        raise ValueError(f"{tsv_path}: line {row} has no Accession")
    dup = table["Accession"].duplicated().to_numpy()
    if dup.any():
        j = int(np.flatnonzero(dup)[0])
        accession = table["Accession"].iloc[j]
        i = int(np.flatnonzero((table["Accession"] == accession).to_numpy())[0])
        raise ValueError(f"{tsv_path}: duplicate accession {accession!r} (lines {i + 2} and {j + 2})")
    site = pd.to_numeric(table["Cleavage_Site"], errors="coerce")
    bad = site.isna() | (site != np.floor(site))
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(
            f"{tsv_path}: record {table['Accession'].iloc[i]!r} has a non-integer Cleavage_Site "
            f"{str(table['Cleavage_Site'].iloc[i])!r}"
        )
    table["Cleavage_Site"] = site.astype(np.int64)
    return table


def read_signal_peptides(fasta_path, tsv_path, *, nonstandard="drop"):
    """Read signal-peptide sequences and their cleavage sites, validated.

    Parameters
    ----------
    fasta_path : str or path-like
        FASTA file of full protein sequences; the header is the accession
        (``>P01234``) or UniProt's ``>sp|P01234|NAME ...``. Read with Biopython.
    tsv_path : str or path-like
        Tab-separated annotation with at least the columns ``Accession`` and
        ``Cleavage_Site`` (the 1-based position of the LAST residue of the
        signal peptide, as in UniProt).
    nonstandard : {"drop", "error"}, default="drop"
        Policy for sequences containing residues outside the 20 standard amino
        acids (for example ``X``, ``U``, ``B``, ``Z``) anywhere in the full
        sequence: ``"drop"`` removes the sequence (the number dropped is
        logged and stored in ``attrs["counts"]``), ``"error"`` raises a
        ``ValueError`` naming the record and the residues. Lower-case letters
        are upper-cased first.

    Returns
    -------
    records : pandas.DataFrame
        Columns ``accession`` (str), ``sequence`` (str, upper case) and
        ``cleavage_site`` (int64), in the TSV's row order.
        ``records.attrs["counts"]`` is a dict ``{"n_read": ..,
        "n_nonstandard_dropped": .., "n_kept": ..}``.

    Raises
    ------
    ValueError
        With the file and the record named, for: an empty, binary or
        non-FASTA file, an empty or unreadable TSV, a duplicate accession (in
        either file), a FASTA record with an empty sequence, a TSV accession
        without a FASTA sequence ("missing sequence"), a FASTA accession that
        is not in the TSV ("unknown accession"), a non-integer cleavage site,
        or a cleavage site outside ``1 .. len(sequence) - 1`` (the mature
        protein must have at least one residue).
    FileNotFoundError
        If either file does not exist (the message names it).
    """
    if nonstandard not in {"drop", "error"}:
        raise ValueError(f"nonstandard must be 'drop' or 'error'; got {nonstandard!r}")
    fasta_path, tsv_path = Path(fasta_path), Path(tsv_path)
    sequences = read_fasta(fasta_path)
    table = _read_tsv(tsv_path)

    accessions = table["Accession"].tolist()
    known = set(accessions)
    for accession in accessions:
        if accession not in sequences:
            raise ValueError(
                f"{tsv_path}: record {accession!r} has a missing sequence (no such accession in {fasta_path})"
            )
    for accession in sequences:
        if accession not in known:
            raise ValueError(f"{fasta_path}: unknown accession {accession!r} (not in {tsv_path})")

    records = pd.DataFrame(
        {
            "accession": accessions,
            "sequence": [sequences[a] for a in accessions],
            "cleavage_site": table["Cleavage_Site"].to_numpy(np.int64),
        }
    )
    lengths = records["sequence"].str.len().to_numpy()
    sites = records["cleavage_site"].to_numpy()
    out_of_range = (sites < 1) | (sites >= lengths)
    if out_of_range.any():
        i = int(np.flatnonzero(out_of_range)[0])
        raise ValueError(
            f"{tsv_path}: record {records['accession'].iloc[i]!r} has Cleavage_Site {int(sites[i])} outside "
            f"the sequence (must be 1..{int(lengths[i]) - 1} for its {int(lengths[i])} residues)"
        )

    odd = [sorted(set(s) - _STANDARD_SET) for s in records["sequence"]]
    has_odd = np.array([bool(o) for o in odd], dtype=bool)
    if has_odd.any() and nonstandard == "error":
        i = int(np.flatnonzero(has_odd)[0])
        raise ValueError(
            f"{fasta_path}: record {records['accession'].iloc[i]!r} has non-standard residue(s) "
            f"{''.join(odd[i])!r} (nonstandard='error'; use 'drop' to skip such sequences)"
        )
    n_read = len(records)
    records = records.loc[~has_odd].reset_index(drop=True)
    counts = {"n_read": n_read, "n_nonstandard_dropped": int(has_odd.sum()), "n_kept": len(records)}
    records.attrs["counts"] = counts
    logger.info(
        "read %d signal peptides from %s; dropped %d with non-standard residues; kept %d",
        n_read,
        fasta_path,
        counts["n_nonstandard_dropped"],
        counts["n_kept"],
    )
    return records
