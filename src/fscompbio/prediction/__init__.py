"""Predictors: LPBoost (linear program, cvxpy) and LPBoost multiple kernel learning."""

from .._lazy import lazy_exports

_EXPORTS = {
    "LPBoost": "._lpboost",
    "LPBoostMKL": "._mkl",
}
__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
