"""A fitted estimator as plain arrays and JSON, and back: a model file that runs no code when it is read.

A pickle can run any code when it is loaded; a file of NumPy arrays (read with ``allow_pickle=False``) and
a JSON description cannot. Only the estimators the cleavage-site model needs are stored this way
(:data:`STORABLE`): the Gaussian SVM, the weight matrix and the combined scorer. Each is rebuilt from its
parameters (``get_params``) and given back its fitted attributes (those ending in ``_``); what prediction
does not use is left out (:data:`NOT_STORED`), so a loaded model predicts exactly as the fitted one did but
cannot be refitted from its parts.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator

__all__ = ["STORABLE", "NOT_STORED", "estimator_to_arrays", "estimator_from_arrays"]

#: fitted attributes not stored: libsvm's own model (``GaussianSVC.decision_function`` uses the copies
#: ``support_vectors_``, ``dual_coef_``, ``intercept_``) and the combined scorer's step-1 classifier
#: (used only to fit the weights)
NOT_STORED = frozenset({"svc_", "holdout_base_"})


def _classes():
    from ..prediction import CombinedSiteScorer, GaussianSVC, PositionWeightMatrix

    return {c.__name__: c for c in (GaussianSVC, PositionWeightMatrix, CombinedSiteScorer)}


#: the estimator classes that can be stored (by name)
STORABLE = ("GaussianSVC", "PositionWeightMatrix", "CombinedSiteScorer")


def _value(value, key, arrays, where):
    """A JSON description of ``value``; arrays go into ``arrays`` under ``key``."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, np.ndarray):
        if value.dtype == object:  # e.g. accessions: text is stored as text, and read back as objects
            if not all(isinstance(v, str) for v in value.ravel()):
                raise ValueError(f"{where}: an object array of other than text cannot be stored without pickle")
            arrays[key] = value.astype(str)
            return {"text_objects": key}
        arrays[key] = value
        return {"array": key}
    if isinstance(value, tuple):
        return {"tuple": [_value(v, f"{key}/{i}", arrays, where) for i, v in enumerate(value)]}
    if isinstance(value, list):
        return {"list": [_value(v, f"{key}/{i}", arrays, where) for i, v in enumerate(value)]}
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise ValueError(f"{where}: a dict with non-text keys cannot be stored")
        return {"dict": {k: _value(v, f"{key}/{k}", arrays, where) for k, v in value.items()}}
    if isinstance(value, BaseEstimator):
        return {"estimator": _describe(value, key, arrays)}
    raise ValueError(f"{where}: a {type(value).__name__} cannot be stored without pickle")


def _describe(estimator, key, arrays):
    name = type(estimator).__name__
    if name not in STORABLE or type(estimator) is not _classes()[name]:
        raise ValueError(f"a {name} cannot be stored without pickle; storable: {', '.join(STORABLE)}")
    params = {k: _value(v, f"{key}/params/{k}", arrays, f"{name}.{k}")
              for k, v in estimator.get_params(deep=False).items()}
    fitted = {k: _value(v, f"{key}/{k}", arrays, f"{name}.{k}") for k, v in sorted(vars(estimator).items())
              if k.endswith("_") and not k.startswith("_") and k not in NOT_STORED}
    return {"class": name, "params": params, "fitted": fitted}


def estimator_to_arrays(estimator, prefix="estimator"):
    """``(description, arrays)``: a JSON-able description of a fitted estimator and its arrays by name.

    Raises ``ValueError`` naming the class or attribute that cannot be stored without pickle.
    """
    arrays = {}
    return _describe(estimator, prefix, arrays), arrays


def _restore(spec, arrays):
    if spec is None or isinstance(spec, (bool, int, float, str)):
        return spec
    if not isinstance(spec, dict) or len(spec) != 1:
        raise ValueError(f"not a stored value: {str(spec)[:80]!r}")
    (kind, body), = spec.items()
    if kind in ("array", "text_objects"):
        if body not in arrays:
            raise ValueError(f"array {body!r} is missing")
        return np.asarray(arrays[body]) if kind == "array" else np.asarray(arrays[body]).astype(object)
    if kind == "tuple":
        return tuple(_restore(v, arrays) for v in body)
    if kind == "list":
        return [_restore(v, arrays) for v in body]
    if kind == "dict":
        return {k: _restore(v, arrays) for k, v in body.items()}
    if kind == "estimator":
        return estimator_from_arrays(body, arrays)
    raise ValueError(f"unknown stored kind {kind!r}")


def estimator_from_arrays(description, arrays):
    """The estimator of :func:`estimator_to_arrays`: built from its parameters, its fitted attributes set.

    Only the classes of :data:`STORABLE` are built; anything else is a ``ValueError``.
    """
    name = description.get("class") if isinstance(description, dict) else None
    if name not in STORABLE:
        raise ValueError(f"stored estimator class {name!r} is not one of {', '.join(STORABLE)}")
    estimator = _classes()[name](**{k: _restore(v, arrays) for k, v in description["params"].items()})
    for k, v in description["fitted"].items():
        if not (k.endswith("_") and not k.startswith("_")):
            raise ValueError(f"stored attribute {k!r} of {name} is not a fitted attribute")
        setattr(estimator, k, _restore(v, arrays))
    return estimator
