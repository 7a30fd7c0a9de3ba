"""fscompbio: reference reproduction of "Feature Selection in Computational Biology".

Subpackages: :mod:`fscompbio.kernels`, :mod:`fscompbio.datasets`,
:mod:`fscompbio.selection`, :mod:`fscompbio.model_selection`,
:mod:`fscompbio.representation`, :mod:`fscompbio.prediction`,
:mod:`fscompbio.sequences`, :mod:`fscompbio.evaluation`, :mod:`fscompbio.plots`.
"""

__version__ = "0.1.0"
