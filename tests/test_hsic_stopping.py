"""FoHSIC stops at n_features_to_select: the same included features in the same order as the full run."""

import numpy as np
import pytest

from fscompbio.selection import BaHSIC, FoHSIC


def _data(seed, m=60, d=25):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    relevant = rng.choice(d, size=4, replace=False)
    y = np.where(X[:, relevant].sum(axis=1) + 0.5 * rng.normal(size=m) > 0, "yes", "no")
    return X, y


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("k,step", [(1, 1), (5, 1), (7, 3), (6, 0.2)])
def test_fohsic_stops_with_the_full_runs_prefix(seed, k, step):
    X, y = _data(seed)
    full = FoHSIC(step=step).fit(X, y)
    short = FoHSIC(n_features_to_select=k, step=step).fit(X, y)
    first = np.argsort(full.ranking_, kind="stable")[:k]
    assert np.array_equal(np.argsort(short.ranking_, kind="stable")[:k], first)
    assert np.array_equal(np.flatnonzero(short.get_support()), np.sort(first))
    assert short.n_steps_ < full.n_steps_
    assert np.array_equal(short.hsic_path_, full.hsic_path_[: short.n_steps_])
    assert sorted(short.ranking_.tolist()) == list(range(1, X.shape[1] + 1))  # still a full ranking


def test_fohsic_n_steps_wins_over_the_stop_and_none_ranks_everything():
    X, y = _data(0)
    assert FoHSIC(n_features_to_select=2, n_steps=6).fit(X, y).n_steps_ == 6
    assert FoHSIC().fit(X, y).n_steps_ == X.shape[1]
    assert FoHSIC(n_features_to_select=4).fit(X, y).n_steps_ == 4


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_fohsic_tail_starts_with_the_last_steps_runner_up(seed):
    """The never-included features follow by their HSIC in the last step: the first of them is the feature
    that step would have included without its winner (the same run on X without the winner's column)."""
    X, y = _data(seed)
    k = 4
    order = np.argsort(FoHSIC(n_features_to_select=k).fit(X, y).ranking_, kind="stable")
    keep = np.delete(np.arange(X.shape[1]), order[k - 1])
    order_without = keep[np.argsort(FoHSIC(n_features_to_select=k).fit(X[:, keep], y).ranking_, kind="stable")]
    assert np.array_equal(order_without[: k - 1], order[: k - 1])
    assert order_without[k - 1] == order[k]


def test_bahsic_support_does_not_depend_on_running_below_it():
    """BaHSIC runs down to one feature whatever n_features_to_select is: its ranking is that of the default."""
    X, y = _data(2)
    assert np.array_equal(BaHSIC(n_features_to_select=3).fit(X, y).ranking_, BaHSIC().fit(X, y).ranking_)
