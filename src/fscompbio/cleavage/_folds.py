"""Cross-validation folds and training windows of the cleavage-site protocol.

Folds split by sequence (all windows of a sequence in one fold) or by homology cluster (no test sequence
keeps a close homologue in training). Training protocols (:func:`training_windows`):

- the capped one: a class-balanced subsample of the training windows, at most ``max_train_per_class`` of
  each class. Neither the thesis nor the paper states a cap for the SVM (the thesis trains a chunking SVM
  on all windows, section 5.5; the paper's "balanced subsamples" concern the selectors): the cap is a
  hypothesis of this reproduction for the paper's accuracies;
- the adequate one: every training positive and ``negatives_per_positive`` times as many random
  negatives, the classifier weighting the classes equally (``class_weight="balanced"``).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.model_selection import GroupKFold
from sklearn.utils import check_random_state

from ..pipelines import balanced_indices

__all__ = ["sequence_folds", "window_clusters", "balanced_subsample", "training_windows"]


def sequence_folds(groups, *, n_splits=10, random_state=None):
    """Fold index of every window, splitting by group (shuffled ``GroupKFold``).

    Parameters
    ----------
    groups : array-like of shape (n_windows,)
        Sequence identifier of each window (random sequence-level CV), or the
        homology cluster of each window's sequence (:func:`window_clusters`) for
        homology-aware CV.
    n_splits : int, default=10
    random_state : int or None, default=None
        Seed of the shuffle of the groups.

    Returns
    -------
    folds : ndarray of shape (n_windows,), int
        ``folds[i]`` in ``0..n_splits-1``; all windows of a group share a fold.
    """
    groups = np.asarray(groups)
    n_groups = np.unique(groups).size
    if not isinstance(n_splits, Integral) or n_splits < 2 or n_splits > n_groups:
        raise ValueError(f"n_splits must be an int in [2, {n_groups}] (the number of groups); got {n_splits!r}")
    folds = np.empty(groups.size, dtype=int)
    cv = GroupKFold(n_splits=n_splits, shuffle=True, random_state=random_state)
    for k, (_, test) in enumerate(cv.split(np.zeros((groups.size, 1)), groups=groups)):
        folds[test] = k
    return folds


def window_clusters(groups, sequence_clusters):
    """The homology cluster of every window: ``sequence_clusters[groups]``.

    Parameters
    ----------
    groups : array-like of int, shape (n_windows,)
        Sequence index (0..n_sequences-1) of each window.
    sequence_clusters : array-like of int, shape (n_sequences,)
        Cluster of each sequence (:func:`fscompbio.sequences.homology_clusters`).

    Returns
    -------
    ndarray of shape (n_windows,), int
    """
    groups = np.asarray(groups)
    sequence_clusters = np.asarray(sequence_clusters)
    if groups.size and (groups.min() < 0 or groups.max() >= sequence_clusters.size):
        raise ValueError(f"groups must index the {sequence_clusters.size} sequences; got values in "
                         f"[{groups.min()}, {groups.max()}]")
    return sequence_clusters[groups]


def balanced_subsample(y, max_per_class, random_state=None):
    """Indices of a class-balanced subsample (see :func:`fscompbio.pipelines.balanced_indices`)."""
    return balanced_indices(y, max_per_class, random_state)


def training_windows(y, *, max_per_class=None, negatives_per_positive=None, random_state=None):
    """The training windows of a fold under one of the two protocols.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels of the fold's training windows (1 = cleavage window).
    max_per_class : int or None, default=None
        The capped protocol (a hypothesis of this reproduction; neither text
        states a cap): a class-balanced subsample with at most this many
        windows per class (``None``: as many negatives as positives).
    negatives_per_positive : float or None, default=None
        The adequate protocol: every positive and ``round(r * n_positives)``
        random negatives (all of them if fewer). Takes precedence over
        ``max_per_class``.
    random_state : int, RandomState instance or None

    Returns
    -------
    idx : ndarray of int, sorted
    """
    rng = check_random_state(random_state)
    y = np.asarray(y)
    if negatives_per_positive is None:
        return balanced_indices(y, max_per_class, rng)
    if not negatives_per_positive > 0:
        raise ValueError(f"negatives_per_positive must be > 0 or None; got {negatives_per_positive!r}")
    pos_label = np.unique(y).max()
    pos = np.flatnonzero(y == pos_label)
    neg = np.flatnonzero(y != pos_label)
    k = min(neg.size, int(round(negatives_per_positive * pos.size)))
    return np.sort(np.concatenate([pos, rng.choice(neg, size=k, replace=False)]))
