"""Metrics of section 2.5: accuracy, sparsity, precision/recall, consistency (mean variance, eq. 2.8)."""

from __future__ import annotations

import numpy as np

__all__ = [
    "accuracy",
    "precision_recall",
    "selection_matrix",
    "mean_variance",
    "consistency_log_likelihood",
    "simulate_selections",
]


def accuracy(y_true, y_pred):
    """Fraction of correctly classified samples (definition 2.5.1)."""
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    if y_true.shape != y_pred.shape or y_true.size == 0:
        raise ValueError(f"y_true and y_pred must be non-empty and of equal shape; got {y_true.shape}, {y_pred.shape}")
    return float(np.mean(y_true == y_pred))


def precision_recall(selected, relevant):
    """Precision and recall of a selected feature set against the relevant ones (definition 2.5.1).

    Parameters
    ----------
    selected : array-like of int
        Selected feature indices.
    relevant : array-like of int
        The truly relevant feature indices.

    Returns
    -------
    precision, recall : float
        ``|selected & relevant| / |selected|`` and ``/ |relevant|``; an empty
        selection has precision 0, an empty relevant set recall 0 (so means
        over folds stay defined; documented choice).
    """
    s = np.unique(np.asarray(selected, dtype=int))
    r = np.unique(np.asarray(relevant, dtype=int))
    hit = np.intersect1d(s, r).size
    precision = hit / s.size if s.size else 0.0
    recall = hit / r.size if r.size else 0.0
    return float(precision), float(recall)


def selection_matrix(selections, n_features):
    """Binary indicators ``w'_ij`` (fold i selected feature j).

    Parameters
    ----------
    selections : sequence of array-like of int
        One set of selected indices per fold.
    n_features : int

    Returns
    -------
    W : ndarray of shape (n_folds, n_features), bool
    """
    W = np.zeros((len(selections), int(n_features)), dtype=bool)
    for i, s in enumerate(selections):
        s = np.asarray(s, dtype=int)
        if s.size and (s.min() < 0 or s.max() >= n_features):
            raise ValueError(f"fold {i}: selected indices must lie in [0, {n_features}); got {s.min()}..{s.max()}")
        W[i, s] = True
    return W


def mean_variance(W):
    """Mean over features of the variance over folds of the selection indicators (section 2.5).

    ``(1/n) sum_j var_i(w'_ij)``, with the population variance (``ddof=0``).

    Parameters
    ----------
    W : array-like of shape (n_folds, n_features), bool or 0/1
    """
    W = np.asarray(W, dtype=float)
    if W.ndim != 2 or W.size == 0:
        raise ValueError(f"W must be a non-empty (n_folds, n_features) matrix; got shape {W.shape}")
    return float(W.var(axis=0).mean())


def _xlogx(x):
    return 0.0 if x <= 0 else float(x * np.log(x))


def consistency_log_likelihood(W):
    """Consistency log-likelihood of eq. 2.8 (an upper bound on the log probability).

    With fold selection sizes ``s_1..s_k``, the size ``s_u`` of their union and
    ``n`` features, the probability that random sets of these sizes all fall in
    one set of size ``s_u``, union-bounded over the ``C(n, s_u)`` such sets, is
    ``C(n, s_u) (s_u / n)^(sum_i s_i)``. With Stirling's approximation
    ``ln n! ~ n ln n - n`` its logarithm is (eq. 2.8)::

        log(s_u / n) sum_i s_i + n log n - s_u log s_u - (n - s_u) log(n - s_u)

    with ``0 log 0 = 0``. Lower (more negative) = more consistent.

    Parameters
    ----------
    W : array-like of shape (n_folds, n_features), bool or 0/1

    Returns
    -------
    float
        0.0 when nothing is selected in any fold.
    """
    W = np.asarray(W, dtype=bool)
    if W.ndim != 2 or W.size == 0:
        raise ValueError(f"W must be a non-empty (n_folds, n_features) matrix; got shape {W.shape}")
    n = W.shape[1]
    s_total = int(W.sum())
    s_u = int(np.count_nonzero(W.any(axis=0)))
    if s_u == 0:
        return 0.0
    return float(np.log(s_u / n) * s_total + _xlogx(n) - _xlogx(s_u) - _xlogx(n - s_u))


def simulate_selections(p_relevant, *, n_folds=30, n_features=20, n_relevant=2, p_other=0.05, random_state=None):
    """The consistency toy of figures 2.2-2.4: random selection indicators.

    The first ``n_relevant`` features are selected in each fold with
    probability ``p_relevant``, the others with ``p_other``, independently.

    Returns
    -------
    W : ndarray of shape (n_folds, n_features), bool
    """
    rng = np.random.default_rng(random_state)
    if not 0 <= p_relevant <= 1 or not 0 <= p_other <= 1:
        raise ValueError(f"probabilities must lie in [0, 1]; got p_relevant={p_relevant!r}, p_other={p_other!r}")
    p = np.full(n_features, float(p_other))
    p[:n_relevant] = p_relevant
    return rng.random((n_folds, n_features)) < p
