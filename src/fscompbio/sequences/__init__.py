"""Signal-peptide sequences: reading, cleavage-site windows and encodings (thesis 5.4).

>>> from fscompbio.sequences import read_signal_peptides, cleavage_windows, encode_windows
"""

from ._encoding import SCALINGS, encode_windows, encoding_feature_names, load_aa_scales, one_hot_windows, residue_codes
from ._fasta import (
    NUCLEOTIDE_LETTERS,
    STANDARD_RESIDUES,
    iter_fasta,
    looks_like_nucleotides,
    read_fasta,
    read_signal_peptides,
)
from ._homology import homology_clusters, prefix_identity
from ._windows import candidate_windows, cleavage_windows, window_positions

__all__ = [
    "STANDARD_RESIDUES",
    "NUCLEOTIDE_LETTERS",
    "looks_like_nucleotides",
    "iter_fasta",
    "read_fasta",
    "read_signal_peptides",
    "cleavage_windows",
    "window_positions",
    "candidate_windows",
    "load_aa_scales",
    "SCALINGS",
    "encode_windows",
    "encoding_feature_names",
    "residue_codes",
    "one_hot_windows",
    "prefix_identity",
    "homology_clusters",
]
