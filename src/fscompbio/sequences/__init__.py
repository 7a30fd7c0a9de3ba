"""Signal-peptide sequences: reading, cleavage-site windows and encodings (thesis 5.4).

>>> from fscompbio.sequences import read_signal_peptides, cleavage_windows, encode_windows
"""

from ._encoding import encode_windows, encoding_feature_names, load_aa_scales
from ._fasta import STANDARD_RESIDUES, read_signal_peptides
from ._windows import cleavage_windows, window_positions

__all__ = [
    "STANDARD_RESIDUES",
    "read_signal_peptides",
    "cleavage_windows",
    "window_positions",
    "load_aa_scales",
    "encode_windows",
    "encoding_feature_names",
]
