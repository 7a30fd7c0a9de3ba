"""The one place that imports scikit-learn's private parameter-validation API.

``_fit_context``, ``Interval``, ``StrOptions`` and ``validate_params`` are
private and have moved between scikit-learn versions; import them from here.
"""

from sklearn.base import _fit_context
from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    Options,
    RealNotInt,
    StrOptions,
    validate_params,
)
from sklearn.utils.validation import validate_data

__all__ = [
    "_fit_context",
    "HasMethods",
    "Interval",
    "Options",
    "RealNotInt",
    "StrOptions",
    "validate_params",
    "validate_data",
]
