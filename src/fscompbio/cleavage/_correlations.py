"""Correlations of the window features with the label, and of the support vectors' features (figure 5.4)."""

from __future__ import annotations

import numpy as np
from sklearn.svm import SVC

from ._folds import balanced_subsample

__all__ = ["label_correlations", "support_vector_correlations"]


def label_correlations(X, y):
    """Pearson correlation of every column of ``X`` with the label ``y`` (0 for a constant column).

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,)

    Returns
    -------
    r : ndarray of shape (d,)
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],) or X.shape[0] < 2:
        raise ValueError(f"X must be (n, d) and y (n,) with n >= 2; got {X.shape} and {y.shape}")
    Xc = X - X.mean(axis=0)
    yc = y - y.mean()
    denom = np.sqrt(np.einsum("ij,ij->j", Xc, Xc) * (yc @ yc))
    num = yc @ Xc
    return np.where(denom > 0, num / np.where(denom > 0, denom, 1.0), 0.0)  # guard: constant column or label


def support_vector_correlations(X, y, *, max_per_class=None, C=1.0, gamma="scale", random_state=None):
    """Correlation of each feature with the label on all windows and on a Gaussian SVM's support vectors.

    The data behind thesis figure 5.4: the SVM (C = 1) is trained on a
    class-balanced subsample of the windows (``max_per_class`` per class),
    and the correlations are computed over all given windows and over the
    support vectors of that SVM.

    Returns
    -------
    result : dict
        ``corr_all`` and ``corr_sv`` (ndarray (d,)), ``support`` (row indices
        of the support vectors in ``X``), ``train_index``.
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    train = balanced_subsample(y, max_per_class, random_state)
    svm = SVC(kernel="rbf", C=C, gamma=gamma).fit(X[train], y[train])
    support = train[svm.support_]
    return {
        "corr_all": label_correlations(X, y),
        "corr_sv": label_correlations(X[support], y[support]),
        "support": support,
        "train_index": train,
    }
