"""HSIC Lasso (Yamada et al. 2014) through the third-party ``pyHSICLasso`` package.

The peer method of the regression comparison (figure ``figR_2``): Sun, Yao and
Goodison (2015) compare their local-learning selector with the authors' HSIC
Lasso code. This wrapper calls pyHSICLasso's public API only (``HSICLasso.input``,
``.regression`` / ``.classification``, ``.get_index``, ``.get_index_score``) and
gives it the scikit-learn selector interface of this package. pyHSICLasso is a
dependency of the package, imported only when an HSIC Lasso is fitted.
"""

from __future__ import annotations

import contextlib
import io
import warnings
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, StrOptions, _fit_context
from .._validation import check_fit_data
from .._scaling import standardize
from ..kernels import task_of_target
from ._ranking import ranking_from_scores, top_k_mask

__all__ = ["HSICLasso", "import_pyhsiclasso"]


def import_pyhsiclasso():
    """The ``pyHSICLasso.HSICLasso`` class, or an ImportError that says how to install it."""
    try:
        from pyHSICLasso import HSICLasso as _PyHSICLasso
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            "HSICLasso needs the optional package pyHSICLasso (Yamada et al. 2014), which is not installed: "
            "pip install 'fscompbio[hsiclasso]' (the workflow's extra, fscompbio[workflow], includes it), "
            "or drop 'hsic_lasso' from the methods of the regression figure in config.yaml"
        ) from exc
    return _PyHSICLasso


class HSICLasso(SelectorMixin, BaseEstimator):
    """HSIC Lasso feature selection (Yamada et al. 2014) via pyHSICLasso.

    Solves ``min_{w >= 0} ||Lbar - sum_j w_j Kbar_j||_F^2 + lambda ||w||_1``
    (the feature-wise kernelised Lasso of eq. 3.15 in Sun, Yao and Goodison
    2015) along its non-negative LARS path and ranks the features by the order
    in which they enter it, up to ``n_features_to_select``; the rest share the
    last rank in index order.

    Parameters
    ----------
    n_features_to_select : int, default=5
        Features on the path (pyHSICLasso's ``num_feat``; at most ``n_features - 1``,
        as its LARS solver stops with an error once every feature has entered).
    task : {"auto", "regression", "classification"}, default="auto"
        Gaussian output kernel (regression) or delta kernel (classification);
        ``"auto"`` follows the target type.
    block_size : int, default=0
        pyHSICLasso's ``B``: 0 is the original (vanilla) HSIC Lasso, whose
        memory grows with ``n_samples^2 x n_features``; ``B > 0`` is block HSIC
        Lasso with ``n_permutations`` permutations (``B`` should divide the
        number of samples).
    n_permutations : int, default=3
        pyHSICLasso's ``M`` (used when ``block_size > 0``).
    max_neighbors : int, default=10
        pyHSICLasso's ``max_neighbors`` (related features it reports).

    Attributes
    ----------
    path_features_ : ndarray of int
        The features on the LARS path, in order of entry.
    scores_ : ndarray of shape (n_features_in_,), float64
        pyHSICLasso's coefficient for the features on the path, 0 elsewhere.
    ranking_ : ndarray of shape (n_features_in_,), int
        1 = entered the path first.

    Notes
    -----
    Constant columns are ranked last and exact copies of a column right after
    it; pyHSICLasso sees each distinct varying column once (its LARS solver
    fails on the singular steps they cause). pyHSICLasso scales every feature by its standard deviation and uses a
    Gaussian kernel of width ``sqrt(d)`` on it; it seeds NumPy's global random
    generator with the permutation number in block mode, so its result is
    deterministic. Its printed progress is captured, not shown.

    References
    ----------
    M. Yamada, W. Jitkrittum, L. Sigal, E. P. Xing and M. Sugiyama (2014).
    High-dimensional feature selection by feature-wise kernelized Lasso.
    Neural Computation 26(1):185-207.
    """

    _parameter_constraints: dict = {
        "n_features_to_select": [Interval(Integral, 1, None, closed="left")],
        "task": [StrOptions({"auto", "regression", "classification"})],
        "block_size": [Interval(Integral, 0, None, closed="left")],
        "n_permutations": [Interval(Integral, 1, None, closed="left")],
        "max_neighbors": [Interval(Integral, 0, None, closed="left")],
    }

    def __init__(self, *, n_features_to_select=5, task="auto", block_size=0, n_permutations=3, max_neighbors=10):
        self.n_features_to_select = n_features_to_select
        self.task = task
        self.block_size = block_size
        self.n_permutations = n_permutations
        self.max_neighbors = max_neighbors

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Run HSIC Lasso on ``X`` and ``y``."""
        X, y = check_fit_data(self, X, y, why_dense="pyHSICLasso takes dense arrays", y_numeric=False,
                              ensure_min_samples=2)
        py_hsic_lasso = import_pyhsiclasso()
        task = self.task
        if task == "auto":
            task = "regression" if task_of_target(y) == "regression" else "classification"
        if task == "classification":
            y = np.unique(y, return_inverse=True)[1].astype(np.float64) + 1.0
        else:
            y = np.asarray(y, dtype=np.float64)
        d = X.shape[1]
        # pyHSICLasso's LARS breaks on a singular step: give it each distinct non-constant column once
        # (a constant column has a zero centred kernel; a copy enters with its original)
        varying = np.flatnonzero(np.ptp(X, axis=0) > 0)
        _, first = np.unique(X[:, varying], axis=1, return_index=True)
        kept = varying[np.sort(first)]
        # ... and it fails once every feature is on the path: ask for at most len(kept) - 1
        num_feat = min(self.n_features_to_select, kept.size - 1)
        scores = np.zeros(d)
        path = np.zeros(0, dtype=int)
        if num_feat >= 1:
            model = py_hsic_lasso()
            # standardised here: pyHSICLasso divides by (sd + 1e-19), which breaks on features in tiny units
            Xk = standardize(X[:, kept])
            if task == "regression":
                y = (y - y.mean()) / (y.std() if y.std() > 0 else 1.0)
            model.input(np.ascontiguousarray(Xk), y)
            run = model.regression if task == "regression" else model.classification
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # B not dividing n: pyHSICLasso drops samples
                run(num_feat=num_feat, B=self.block_size, M=self.n_permutations,
                    max_neighbors=min(self.max_neighbors, d - 1), n_jobs=1)
            path = kept[np.asarray(model.get_index(), dtype=int)]
            if path.size:
                scores[path] = np.asarray(model.get_index_score(), dtype=float).ravel()
        order_key = np.zeros(d)
        order_key[path] = np.arange(path.size, 0, -1)  # earlier on the path = better
        for j in np.setdiff1d(varying, kept):  # an exact copy: right after its original
            original = kept[np.flatnonzero(np.all(X[:, kept] == X[:, [j]], axis=0))[0]]
            scores[j] = scores[original]
            order_key[j] = order_key[original] - 0.5
        order_key[np.setdiff1d(np.arange(d), varying)] = -1.0  # constant columns last
        self.path_features_ = path
        self.scores_ = scores
        self.ranking_ = ranking_from_scores(order_key)
        return self

    def _get_support_mask(self):
        check_is_fitted(self)
        return top_k_mask(self.ranking_, self.n_features_to_select)
