"""The package's input conventions, in one place: every selector and model selector validates ``X, y`` here.

* **pandas in and out.** A DataFrame's column names become ``feature_names_in_`` (scikit-learn's
  ``validate_data``), so ``get_feature_names_out()`` and ``set_output(transform="pandas")`` keep them.
* **Missing values.** NaN or infinity in ``X`` is refused with one message that names the first bad column
  (by name for a DataFrame), counts the bad columns and samples, and shows the fix: impute inside a
  pipeline, ``make_pipeline(SimpleImputer(), <selector>)``, so that the imputation is fitted on the
  training folds only.
* **Sparse input** is accepted by the estimators whose mathematics works on it (``accept_sparse``); the
  others, built on Gaussian kernels over sample pairs or on centred columns, refuse it in one line that
  names the estimator, says why, and names the ones that take it.
* **Labels** may be strings or integers; the estimators map them to classes themselves.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import validate_data

__all__ = ["check_fit_data", "check_finite", "check_target", "SPARSE_SELECTORS"]

#: the selectors that take scipy.sparse input, named in the message of those that do not
SPARSE_SELECTORS = "CorrelationSelector, LinearRFE"


def _column_names(X):
    columns = getattr(X, "columns", None)
    return None if columns is None else [str(c) for c in columns]


def check_finite(X, estimator_name, columns=None):
    """Refuse NaN or infinity in ``X``, naming the first bad column and suggesting imputation.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features)
    estimator_name : str
    columns : list of str or None
        The column names (of a DataFrame), used in the message.

    Raises
    ------
    ValueError
        ``"X has NaN in 2 columns (3 values), the first 'gene_7' (column 7): <estimator> does not take
        missing values; impute them in a pipeline, e.g. make_pipeline(SimpleImputer(), <estimator>(...))"``.
    """
    if sp.issparse(X):
        data = X.data
        if np.isfinite(data).all():
            return
        coo = X.tocoo()
        bad_rows, bad_cols = coo.row[~np.isfinite(coo.data)], coo.col[~np.isfinite(coo.data)]
        values = coo.data[~np.isfinite(coo.data)]
    else:
        if X.dtype.kind not in "fc":
            return
        finite = np.isfinite(X)
        if finite.all():
            return
        bad_rows, bad_cols = np.nonzero(~finite)
        values = X[bad_rows, bad_cols]
    nan = np.isnan(values)
    kind = "NaN" if nan.any() else "infinity (inf)"
    sel = nan if nan.any() else np.ones(values.size, dtype=bool)
    cols = np.unique(bad_cols[sel])
    j = int(cols[0])
    name = f"{columns[j]!r} (column {j})" if columns is not None else f"column {j}"
    i = int(bad_rows[sel][np.argmax(bad_cols[sel] == j)])
    raise ValueError(
        f"X has {kind} in {cols.size} column(s) ({int(sel.sum())} value(s)), the first {name} at sample {i}: "
        f"{estimator_name} does not take missing or infinite values; impute them inside a pipeline so that "
        f"the imputation is fitted on the training data only, e.g. "
        f"make_pipeline(SimpleImputer(strategy='median'), {estimator_name}(...))"
    )


def check_fit_data(estimator, X, y="no_validation", *, reset=True, accept_sparse=False, why_dense=None,
                   dtype=np.float64, **check_params):
    """``validate_data`` with the package's conventions on missing values and sparse input.

    Parameters
    ----------
    estimator : estimator instance
        Receives ``n_features_in_`` (and ``feature_names_in_`` for a DataFrame) when ``reset``.
    X : array-like, DataFrame or scipy.sparse matrix of shape (n_samples, n_features)
    y : array-like of shape (n_samples,), None or "no_validation"
        As for scikit-learn's ``validate_data``: ``None`` with a required target raises.
    reset : bool, default=True
        True in ``fit``; False in ``transform``/``predict`` (checks the number of features).
    accept_sparse : bool or str or list of str, default=False
        The sparse formats the estimator takes (converted to the first one); False refuses sparse X.
    why_dense : str or None
        Why the estimator needs dense X, for the message (e.g. "Gaussian kernels on sample pairs").
    dtype : dtype, list of dtypes or None, default=float64
    **check_params
        Passed on (``ensure_min_samples``, ``y_numeric``, ...).

    Returns
    -------
    X or (X, y)
        As ``validate_data`` returns them.
    """
    name = type(estimator).__name__
    if sp.issparse(X) and not accept_sparse:
        why = f" ({why_dense})" if why_dense else ""
        raise TypeError(
            f"{name} needs dense X{why}; got a scipy.sparse {X.format} matrix of shape {X.shape}: pass "
            f"X.toarray() if it fits in memory, or use a selector that takes sparse input ({SPARSE_SELECTORS})"
        )
    columns = _column_names(X)
    out = validate_data(estimator, X, y, reset=reset, accept_sparse=accept_sparse, dtype=dtype,
                        ensure_all_finite=False, **check_params)
    Xv = out[0] if isinstance(out, tuple) else out
    check_finite(Xv, name, columns)
    return out


def check_target(y):
    """Reject targets of unknown type with scikit-learn's 'Unknown label type' error."""
    type_of_target(y, input_name="y", raise_unknown=True)
    return y
