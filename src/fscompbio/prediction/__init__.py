"""Predictors: LPBoost (linear program, cvxpy), LPBoost multiple kernel learning, Nadaraya-Watson regression,
a Gaussian SVM for large imbalanced window sets, a position weight matrix, selector-then-predictor pipelines
and the saved cleavage-site model."""

from .._lazy import lazy_exports

_EXPORTS = {
    "LPBoost": "._lpboost",
    "LPBoostMKL": "._mkl",
    "NadarayaWatsonRegressor": "._nadaraya_watson",
    "GaussianSVC": "._svm",
    "PositionWeightMatrix": "._pwm",
    "CombinedSiteScorer": "._combination",
    "SelectThenSVM": "._pipelines",
    "RandSelMKL": "._pipelines",
    "CleavageSiteModel": "._cleavage_model",
}
__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
