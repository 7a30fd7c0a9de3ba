"""Optional dependencies: imported when an estimator that needs them is used, with a message naming the extra.

The library itself needs only numpy, scipy, scikit-learn, pandas and joblib (``pip install fscompbio``).
A few estimators need more, installed as extras of the package:

====================  =====================  ==========================================================
extra                 packages               used by
====================  =====================  ==========================================================
``lp``                cvxpy, highspy         LPBoost, LPBoostMKL, AnticorrelationWeighting,
                                             StabilitySelection(learner="lpboost")
``hsiclasso``         pyHSICLasso            HSICLasso
``cleavage``          biopython              reading FASTA files (fscompbio.sequences, the cleavage tool)
``workflow``          snakemake, matplotlib, the Snakemake workflow, its figures and the command line
                      pyyaml, pygments, ...
====================  =====================  ==========================================================
"""

from __future__ import annotations

from importlib import import_module

__all__ = ["optional_import", "EXTRAS"]

#: module -> (distribution, extra of fscompbio that installs it)
EXTRAS = {
    "cvxpy": ("cvxpy", "lp"),
    "highspy": ("highspy", "lp"),
    "pyHSICLasso": ("pyHSICLasso", "hsiclasso"),
    "Bio": ("biopython", "cleavage"),
    "matplotlib": ("matplotlib", "workflow"),
    "snakemake": ("snakemake", "workflow"),
    "yaml": ("pyyaml", "workflow"),
}


def optional_import(module, needed_by):
    """Import ``module``, or raise an ImportError that names the package and the extra that installs it.

    Parameters
    ----------
    module : str
        A key of :data:`EXTRAS` (or a submodule of one, e.g. ``"Bio.SeqIO"``).
    needed_by : str
        What needs it, for the message (e.g. ``"AnticorrelationWeighting"``).

    Returns
    -------
    module
    """
    try:
        return import_module(module)
    except ImportError as err:
        dist, extra = EXTRAS.get(module.split(".")[0], (module.split(".")[0], None))
        hint = f"pip install 'fscompbio[{extra}]'" if extra else f"pip install {dist}"
        raise ImportError(f"{needed_by} needs the optional package {dist!r}, which is not installed: {hint}") from err
