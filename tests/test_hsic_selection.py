"""FoHSIC and BaHSIC (thesis algorithms 4, 5; algorithm 1 of Song, Smola, Gretton, Borgwardt & Bedo (2007),
"Supervised Feature Selection via Dependence Estimation") and their batched HSIC."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.utils.estimator_checks import check_param_validation, parametrize_with_checks

from fscompbio._scaling import standardize
from fscompbio.datasets import make_dataset
from fscompbio.kernels import gaussian_kernel, hsic, label_kernel
from fscompbio.selection import BaHSIC, FoHSIC
from fscompbio._pairs import PairLayout, PairTensor, batched_hsic, hsic_pair_weights
from fscompbio.selection._hsic import candidate_hsic

ESTIMATORS = [BaHSIC(), BaHSIC(estimator="unbiased", step=2), FoHSIC(n_steps=3), FoHSIC(estimator="unbiased")]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible(estimator, check):
    check(estimator)


@pytest.mark.parametrize("cls", [BaHSIC, FoHSIC])
def test_param_validation(cls):
    check_param_validation(cls.__name__, cls())


@settings(max_examples=25, deadline=None)
@given(
    m=st.integers(5, 14),
    d=st.integers(2, 7),
    gamma=st.floats(0.01, 2.0),
    estimator=st.sampled_from(["biased", "unbiased"]),
    seed=st.integers(0, 2**31 - 1),
)
def test_incremental_kernel_update_equals_recomputation(m, d, gamma, estimator, seed):
    """K(S without i) = K(S) / exp(-gamma D_i), K(S with j) = K(S) * exp(-gamma D_j): HSIC as recomputed."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    y = np.r_[[-1, 1], rng.choice([-1, 1], m - 2)]
    L = label_kernel(y)
    lay = PairLayout(m)
    tensor = PairTensor(X, lay)
    w = hsic_pair_weights(L, lay, estimator)
    S = np.arange(d)
    d2 = tensor.matvec_mask(S)
    # the linear form of HSIC equals fscompbio.kernels.hsic
    K = gaussian_kernel(X, gamma=gamma)
    np.testing.assert_allclose(batched_hsic(lay.take(K)[:, None], w)[0], hsic(K, L, estimator=estimator), atol=1e-10)
    # backward: remove each i
    got = candidate_hsic(tensor, d2, S, gamma, w, sign=-1)
    ref = [hsic(gaussian_kernel(np.delete(X, i, axis=1), gamma=gamma) if d > 1 else np.ones((m, m)), L, estimator=estimator) for i in S]
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-6)  # float32 exponentials
    # forward: from the first feature, add each other j
    d2_0 = tensor.matvec_mask(np.array([0]))
    got = candidate_hsic(tensor, d2_0, S[1:], gamma, w, sign=+1)
    ref = [hsic(gaussian_kernel(X[:, [0, j]], gamma=gamma), L, estimator=estimator) for j in S[1:]]
    np.testing.assert_allclose(got, ref, rtol=1e-4, atol=1e-6)


def _top2(sel):
    return set(np.argsort(sel.ranking_, kind="stable")[:2].tolist())


def test_xor_bahsic_finds_the_pair_fohsic_does_not():
    """The thesis' point (4.3.1.6): backward elimination sees the XOR pair, greedy forward inclusion does not."""
    ba = fo = 0
    for seed in range(5):
        ds = make_dataset("xor", random_state=seed, n_features=50)
        ba += _top2(BaHSIC().fit(ds.X, ds.y)) == {0, 1}
        fo += _top2(FoHSIC(n_steps=2).fit(ds.X, ds.y)) == {0, 1}
    assert ba == 5
    assert fo <= 1


def test_xor_300x200_bahsic_finds_the_pair_for_5_seeds_of_5():
    """BaHSIC puts the XOR pair on top at the thesis' size (300 x 200), with the defaults (HSIC1, 10% removed per
    step)."""
    hits = [_top2(BaHSIC().fit(*_xy(seed))) == {0, 1} for seed in range(5)]
    assert all(hits), hits


@pytest.mark.slow
def test_xor_bahsic_200_features_one_at_a_time():
    """XOR 300 x 200, one feature removed per step: {0, 1} on top for at least 4 seeds of 5."""
    hits = [_top2(BaHSIC(step=1).fit(*_xy(seed))) == {0, 1} for seed in range(5)]
    assert sum(hits) >= 4, hits


def _xy(seed):
    ds = make_dataset("xor", random_state=seed)
    return ds.X, ds.y


@pytest.mark.slow
def test_xor_bahsic_100_features():
    for seed in range(5):
        ds = make_dataset("xor", random_state=seed, n_features=100)
        assert _top2(BaHSIC().fit(ds.X, ds.y)) == {0, 1}, f"seed {seed}"


def test_hsic0_and_hsic1_agree_on_a_clear_problem():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 25))
    y = np.where(X[:, 0] + X[:, 1] + X[:, 2] + 0.3 * rng.normal(size=150) > 0, 1, -1)
    for cls in (BaHSIC, FoHSIC):
        r0 = cls(n_features_to_select=3).fit(X, y)
        r1 = cls(n_features_to_select=3, estimator="unbiased").fit(X, y)
        assert set(np.flatnonzero(r0.get_support())) == set(np.flatnonzero(r1.get_support())) == {0, 1, 2}


def test_linear_weston_forward_and_backward():
    ds = make_dataset("linear_weston", random_state=0, n_features=60)
    for sel in (BaHSIC(n_features_to_select=10), FoHSIC(n_features_to_select=10, n_steps=10)):
        sel.fit(ds.X, ds.y)
        assert np.isin(np.flatnonzero(sel.get_support()), ds.relevant).sum() >= 7


def test_rankings_and_paths():
    ds = make_dataset("xor", random_state=0, n_features=20)
    ba = BaHSIC(step=3).fit(ds.X, ds.y)
    assert sorted(ba.ranking_.tolist()) == list(range(1, 21))
    assert ba.n_steps_ == ba.hsic_path_.size == ba.widths_.size
    fo = FoHSIC(n_steps=4).fit(ds.X, ds.y)
    assert sorted(fo.ranking_.tolist()) == list(range(1, 21)) and fo.n_steps_ == 4
    fo2 = FoHSIC(step=0.5).fit(ds.X, ds.y)
    assert fo2.n_steps_ < 20


def test_regression_target():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 10))
    y = np.sin(2 * X[:, 3]) + 0.1 * rng.normal(size=100)
    assert BaHSIC().fit(X, y).ranking_[3] == 1
    assert FoHSIC(n_steps=1).fit(X, y).ranking_[3] == 1


def test_errors_name_the_parameter():
    X = np.random.default_rng(0).normal(size=(20, 4))
    y = np.r_[np.ones(10), -np.ones(10)]
    with pytest.raises(ValueError, match="width_multipliers"):
        BaHSIC(width_multipliers=(0.0,)).fit(X, y)
    with pytest.raises(ValueError, match="estimator='unbiased' needs at least 4"):
        FoHSIC(estimator="unbiased").fit(X[:3], y[[0, 1, 10]])


# ---------------------------------------------------------------------------------------------------------
# the blocked candidate HSIC (PairTensor rows, blocks of BLOCK_BYTES) against direct float64 computations


def test_pair_tensor_rows_are_contiguous_squared_differences():
    """One C-contiguous float32 row per feature, equal to (x_a - x_b)^2 in float32; cached == recomputed."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(23, 40))
    lay = PairLayout(23)
    cached, uncached = PairTensor(X, lay), PairTensor(X, lay, budget=0)
    assert cached.cached and not uncached.cached
    assert cached.rows.shape == (40, lay.n_pairs) and cached.rows.flags.c_contiguous  # rows stream from memory
    X32 = X.astype(np.float32)
    np.testing.assert_array_equal(cached.rows, np.square(X32[lay.ia] - X32[lay.ib]).T)
    cols = rng.permutation(40)[:17]  # more and fewer than m rows, unsorted
    for c in (cols, np.arange(40)):
        np.testing.assert_array_equal(uncached.get(c), cached.get(c))
        np.testing.assert_array_equal(cached.get(c), cached.T[:, c])
    base = rng.random(lay.n_pairs).astype(np.float32)
    for c in (np.arange(5, 12), cols[:7]):  # consecutive (read in place) and gathered
        for op in (np.add, np.subtract):
            want = op(base, cached.rows[c])
            for t in (cached, uncached):
                np.testing.assert_array_equal(t.combine_rows(base, c, np.empty_like(want), op), want)
    with pytest.raises(IndexError, match="feature indices"):
        cached.get([0, 40])


@settings(max_examples=40, deadline=None)
@given(
    m=st.integers(4, 16),
    d=st.integers(2, 12),
    log_gamma=st.floats(-3.0, 0.5),
    estimator=st.sampled_from(["biased", "unbiased"]),
    block=st.integers(1, 5),
    cached=st.booleans(),
    seed=st.integers(0, 2**31 - 1),
)
def test_candidate_hsic_equals_direct_float64_hsic(m, d, log_gamma, estimator, block, cached, seed):
    """Every candidate's HSIC equals fscompbio.kernels.hsic of the float64 Gaussian kernel of S -/+ {i},
    for random sets, candidates in any order (consecutive or not) and blocks of 1-5 candidates."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    y = np.r_[[-1, 1], rng.choice([-1, 1], m - 2)]
    L = label_kernel(y)
    gamma = 10.0**log_gamma
    lay = PairLayout(m)
    tensor = PairTensor(X, lay, budget=None if cached else 0)
    tensor.block = block
    w = hsic_pair_weights(L, lay, estimator)
    in_set = rng.random(d) < 0.5
    S, C = np.flatnonzero(in_set), np.flatnonzero(~in_set)
    C = C if rng.random() < 0.5 else rng.permutation(C)

    def direct(cols):
        K = gaussian_kernel(X[:, cols], gamma=gamma) if cols.size else np.ones((m, m))
        return hsic(K, L, estimator=estimator)

    d2 = tensor.matvec_mask(S)
    # the pair tensor holds float32 squared differences: with 4 samples the unbiased estimator cancels terms
    # of order 1e-3 to leave ~1e-3, so its float32 rounding reaches ~2e-7 in absolute terms (seen: m=4, d=4)
    tol = {"rtol": 1e-5, "atol": 1e-6}
    if C.size:  # forward: S with each i
        got = candidate_hsic(tensor, d2, C, gamma, w, sign=+1)
        np.testing.assert_allclose(got, [direct(np.r_[S, i]) for i in C], **tol)
    if S.size:  # backward: S without each i
        got = candidate_hsic(tensor, d2, S, gamma, w, sign=-1)
        np.testing.assert_allclose(got, [direct(S[S != i]) for i in S], **tol)


def test_candidate_hsic_does_not_depend_on_the_block_size():
    ds = make_dataset("xor", random_state=1, n_features=60)
    X = standardize(ds.X[:120])
    lay = PairLayout(120)
    tensor = PairTensor(X, lay)
    w = hsic_pair_weights(label_kernel(ds.y[:120]), lay, "unbiased")
    d2 = tensor.matvec_mask([3, 7])
    cand = np.setdiff1d(np.arange(60), [3, 7])
    results = []
    for block in (1, 4, 13, 1000):
        tensor.block = block
        results.append(candidate_hsic(tensor, d2, cand, 0.1, w, sign=+1))
    for h in results[1:]:
        # only the float32 dot products over the 7,140 pairs may round differently (about 1e-9 here)
        np.testing.assert_allclose(h, results[0], rtol=0, atol=1e-8)


def _reference_fohsic(X, y, n_steps, mults=(0.35, 0.5, 0.7, 1.0), kind="auto"):
    """Thesis algorithm 4 recomputing every candidate's float64 Gaussian kernel (the estimator's width rule)."""
    X = standardize(X)
    m, d = X.shape
    L = label_kernel(y, kind=kind)
    sq = np.square(X[:, None, :] - X[None, :, :])  # (m, m, d)
    iu = np.triu_indices(m, 1)

    def h_of(D2, gamma):
        return hsic(np.exp(-gamma * D2), L, estimator="unbiased")

    def width(D2):
        v = D2[iu]
        gammas = 1.0 / (2.0 * np.asarray(mults) ** 2 * np.median(v[v > 0]))
        return gammas[int(np.argmax([h_of(D2, g) for g in gammas]))]

    included, cand, last = [], list(range(d)), np.zeros(d)
    for _ in range(n_steps):
        D2 = sq[:, :, included].sum(axis=2)
        gamma = width(sq.mean(axis=2) if not included else D2 * (len(included) + 1) / len(included))
        h = np.array([h_of(D2 + sq[:, :, i], gamma) for i in cand])
        last[cand] = h
        included.append(cand.pop(int(np.argmax(h))))
    rest = sorted(cand, key=lambda i: -last[i])
    ranking = np.empty(d, dtype=int)
    ranking[included + rest] = np.arange(1, d + 1)
    return ranking


def _reference_bahsic(X, y, step, mults=(0.35, 0.5, 0.7, 1.0)):
    """Thesis algorithm 5 recomputing every candidate's float64 Gaussian kernel (the estimator's width rule)."""
    X = standardize(X)
    m, d = X.shape
    L = label_kernel(y)
    sq = np.square(X[:, None, :] - X[None, :, :])
    iu = np.triu_indices(m, 1)
    S, removed = list(range(d)), []
    while len(S) > 1:
        D2 = sq[:, :, S].sum(axis=2)
        v = D2[iu]
        gammas = 1.0 / (2.0 * np.asarray(mults) ** 2 * np.median(v[v > 0]))
        gamma = gammas[int(np.argmax([hsic(np.exp(-g * D2), L, estimator="unbiased") for g in gammas]))]
        h = np.array([hsic(np.exp(-gamma * (D2 - sq[:, :, i])), L, estimator="unbiased") for i in S])
        k = min(max(1, int(np.floor(step * len(S)))), len(S) - 1)
        out = np.argsort(-h, kind="stable")[:k]
        removed.extend(S[j] for j in out)
        S = [i for j, i in enumerate(S) if j not in set(out.tolist())]
    removed.extend(S)
    ranking = np.empty(d, dtype=int)
    ranking[removed[::-1]] = np.arange(1, d + 1)
    return ranking


@pytest.mark.parametrize("name, seed", [("nonlinear_weston", 0), ("linear_weston", 1), ("xor", 2)])
def test_rankings_equal_a_direct_float64_reference(name, seed):
    """FoHSIC's and BaHSIC's full rankings (the never-included tail too) equal a slow float64 reference."""
    ds = make_dataset(name, random_state=seed, n_samples=60, n_features=14)
    np.testing.assert_array_equal(FoHSIC(n_steps=6).fit(ds.X, ds.y).ranking_, _reference_fohsic(ds.X, ds.y, 6))
    np.testing.assert_array_equal(BaHSIC(step=0.25).fit(ds.X, ds.y).ranking_, _reference_bahsic(ds.X, ds.y, 0.25))
