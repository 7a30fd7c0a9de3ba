"""Learned representations: sparse filtering (thesis 5.2, appendix A.2).

>>> from fscompbio.representation import SparseFiltering
"""

from ._sparse_filtering import SparseFiltering, sparse_filtering_objective

__all__ = ["SparseFiltering", "sparse_filtering_objective"]
