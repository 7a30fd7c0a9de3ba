"""Predictors: LPBoost (linear program, cvxpy), LPBoost multiple kernel learning, Nadaraya-Watson regression."""

from .._lazy import lazy_exports

_EXPORTS = {
    "LPBoost": "._lpboost",
    "LPBoostMKL": "._mkl",
    "NadarayaWatsonRegressor": "._nadaraya_watson",
}
__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
