"""The premise of a synthetic set (fscompbio.evaluation.oracle_accuracy): SVMs told the relevant features."""

import numpy as np
import pytest

from fscompbio.datasets import make_dataset
from fscompbio.evaluation import ORACLES, oracle_accuracy, outer_splits


@pytest.mark.parametrize("seed", [0, 1])
def test_xor_is_learnable_by_a_gaussian_oracle_and_not_by_a_linear_one(seed):
    ds = make_dataset("xor", random_state=seed)
    perm = np.random.default_rng(seed).permutation(ds.X.shape[1])  # the relevant pair anywhere
    X, relevant = ds.X[:, perm], np.argsort(perm)[ds.relevant]
    acc = oracle_accuracy(X, ds.y, relevant, outer_splits(ds.y, 3, random_state=seed)[:2], random_state=seed)
    assert set(acc) == set(ORACLES) and all(len(v) == 2 for v in acc.values())
    assert np.mean(acc["gaussian_relevant"]) >= 0.85
    assert np.mean(acc["linear_relevant"]) <= 0.75
    assert np.mean(acc["gaussian_all"]) <= 0.7  # 198 noise features drown the pair


def test_linear_weston_is_separable_on_its_relevant_features():
    ds = make_dataset("linear_weston", random_state=0)
    acc = oracle_accuracy(ds.X, ds.y, ds.relevant, outer_splits(ds.y, 3, random_state=0)[:1])
    assert acc["linear_relevant"][0] >= 0.95 and acc["gaussian_relevant"][0] >= 0.95


def test_the_oracle_is_deterministic_and_needs_relevant_features():
    ds = make_dataset("linear_zhang_sample_noise", random_state=2)
    folds = outer_splits(ds.y, 3, random_state=2)[:1]
    assert oracle_accuracy(ds.X, ds.y, ds.relevant, folds, random_state=5) == \
        oracle_accuracy(ds.X, ds.y, ds.relevant, folds, random_state=5)
    with pytest.raises(ValueError, match="relevant features"):
        oracle_accuracy(ds.X, ds.y, [], folds)
