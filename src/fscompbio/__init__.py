"""fscompbio: reference reproduction of "Feature Selection in Computational Biology".

Subpackages: :mod:`fscompbio.kernels`, :mod:`fscompbio.datasets`,
:mod:`fscompbio.selection`, :mod:`fscompbio.model_selection`,
:mod:`fscompbio.representation`, :mod:`fscompbio.prediction`,
:mod:`fscompbio.sequences`, :mod:`fscompbio.evaluation`, :mod:`fscompbio.plots`.

The library needs numpy, scipy, scikit-learn, pandas and joblib (``pip install fscompbio``); the extras
``lp``, ``hsiclasso``, ``cleavage`` and ``workflow`` add what a few estimators, the cleavage tool and the
Snakemake workflow need (``pip install 'fscompbio[workflow]'``).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    #: the one version string: pyproject.toml's, read from the installed package's metadata
    __version__ = version("fscompbio")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
