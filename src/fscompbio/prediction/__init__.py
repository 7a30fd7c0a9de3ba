"""Predictors: LPBoost (linear program, cvxpy; its column-generation solver serves stability selection),
LPBoost multiple kernel learning, Nadaraya-Watson regression, Gaussian kernel ridge regression, a Gaussian SVM
for large imbalanced window sets, a position weight matrix and its combination with another scorer.

Predictors that select features first are in :mod:`fscompbio.pipelines`; the saved cleavage-site model in
:mod:`fscompbio.cleavage`."""

from .._lazy import lazy_exports

_EXPORTS = {
    "BinaryClassifierMixin": "._base",
    "LPBoost": "._lpboost",
    "ColumnGenerationLP": "._lpboost",
    "PrimalLP": "._lpboost",
    "feasible_cap": "._lpboost",
    "LPBoostMKL": "._mkl",
    "NadarayaWatsonRegressor": "._nadaraya_watson",
    "GaussianKernelRidge": "._kernel_ridge",
    "kernel_ridge_loo": "._kernel_ridge",
    "DEFAULT_ALPHAS": "._kernel_ridge",
    "GaussianSVC": "._svm",
    "PositionWeightMatrix": "._pwm",
    "CombinedSiteScorer": "._combination",
}
__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
