"""The pairwise-kernel algebra (``fscompbio._pairs``) against ``fscompbio.kernels``, one square kernel at a time.

The batched centred alignments equal :func:`fscompbio.kernels.alignment` on explicit Gaussian kernels, the
HSIC1 alignment equals the ratio of :func:`fscompbio.kernels.hsic`'s unbiased estimates, the gradients equal
finite differences, and the one median helper equals numpy's median of the pairwise squared distances.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fscompbio._pairs import (
    CenteredTarget,
    CenteredTargets,
    PairLayout,
    Workspace,
    batched_alignment,
    batched_alignments_f32,
    pair_blocks,
    pair_product,
    pair_rows32,
    pair_sq_diffs,
    pair_sq_diffs32,
    pairs_to_square,
    transpose_product,
    whole_pair_tensor,
)
from fscompbio.kernels import (
    alignment,
    center,
    gamma_from_median_sq,
    gamma_to_sigma,
    gaussian_kernel,
    hsic,
    label_kernel,
    label_kernels,
    median_distance,
    median_sq_distance,
    sigma_to_gamma,
    sq_distances,
)
from fscompbio.selection._randsel import random_subset_masks


def _labels(rng, m):
    # two of each class at least: with a single sample of one class HSIC1(L, L) is 0 up to rounding (~1e-16)
    # and the alignment a ratio of rounding errors, in the reference as in the batched code
    return np.r_[[-1, -1, 1, 1], rng.choice([-1, 1], m - 4)]


def _hsic1_alignment(K, L):
    h = lambda A, B: hsic(A, B, estimator="unbiased")  # noqa: E731
    kk, ll = h(K, K), h(L, L)
    return h(K, L) / np.sqrt(kk * ll) if kk > 0 and ll > 0 else 0.0


@settings(max_examples=40, deadline=None)
@given(
    m=st.integers(4, 14),
    d=st.integers(1, 6),
    gamma=st.floats(1e-3, 10.0),
    seed=st.integers(0, 2**31 - 1),
)
def test_batched_alignment_equals_alignment_of_explicit_gaussian_kernels(m, d, gamma, seed):
    """For random small X, y and gamma: the batched alignment of exp(-gamma D2) on the pairs equals
    kernels.alignment (and the HSIC1 form the ratio of kernels.hsic's unbiased estimates) of the full kernel."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    y = _labels(rng, m)
    L = label_kernel(y)
    lay = PairLayout(m)
    target = CenteredTarget(L, lay)
    K = gaussian_kernel(X, gamma=gamma)
    kp = lay.take(K)[:, None]
    np.testing.assert_allclose(pairs_to_square(kp[:, 0], m), K, atol=1e-15)
    np.testing.assert_allclose(batched_alignment(kp, target)[0], alignment(K, L), atol=1e-9)
    np.testing.assert_allclose(batched_alignment(kp, target, "unbiased")[0], _hsic1_alignment(K, L), atol=1e-8)


@settings(max_examples=25, deadline=None)
@given(m=st.integers(4, 15), d=st.integers(2, 8), b=st.integers(1, 6), seed=st.integers(0, 2**31 - 1))
def test_batched_distances_and_alignments_equal_one_kernel_at_a_time(m, d, b, seed):
    """D2 = T @ mask; centred and HSIC1 alignments (float64 and float32) == fscompbio.kernels per kernel."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    y = _labels(rng, m)
    masks = random_subset_masks(np.random.RandomState(seed % 1000), d, max(1, d // 2), b)
    lay = PairLayout(m)
    D2 = pair_sq_diffs(X, lay) @ masks
    L = label_kernel(y)
    target = CenteredTarget(L, lay)
    Kp = np.exp(-0.3 * D2)
    ref_a, ref_u, cond, cond_u = [], [], [], []
    for j in range(b):
        cols = np.flatnonzero(masks[:, j])
        np.testing.assert_allclose(D2[:, j], lay.take(sq_distances(X[:, cols])), atol=1e-10)
        K = gaussian_kernel(X[:, cols], gamma=0.3)
        ref_a.append(alignment(K, L))
        # float32 entries near 1 lose digits to centring: ||K|| / ||HKH|| amplifies their round-off
        cond.append(np.linalg.norm(K) / max(np.linalg.norm(center(K)), 1e-300))
        ref_u.append(_hsic1_alignment(K, L))
        # HSIC1(K, K) sums terms of size ||K - diag K||^2 that can cancel to a far smaller value (m = 4, a kernel
        # of two tight clusters: 5.8 to 2.4e-5), and the alignment divides by its root: that ratio amplifies the
        # float32 round-off of the unbiased alignment
        off = K - np.diag(np.diag(K))
        cond_u.append(np.linalg.norm(off) ** 2 / max(abs(hsic(K, K, estimator="unbiased")), 1e-300))
    np.testing.assert_allclose(batched_alignment(Kp, target), ref_a, atol=1e-9)
    np.testing.assert_allclose(batched_alignment(Kp, target, "unbiased"), ref_u, atol=1e-8)
    K32 = Kp.astype(np.float32)
    # the centring sums m entries of that size: the round-off grows with m too (m = 4, cond 410: 1.5e-3)
    f32 = np.finfo(np.float32).eps * np.asarray(cond) * m
    np.testing.assert_array_less(np.abs(batched_alignments_f32(K32, target, "biased") - ref_a), 2e-5 + 20 * f32)
    f32_u = np.finfo(np.float32).eps * np.asarray(cond_u)
    np.testing.assert_array_less(np.abs(batched_alignments_f32(K32, target, "unbiased") - ref_u),
                                 2e-4 + 200 * f32 + f32_u)


@pytest.mark.parametrize("estimator", ["biased", "unbiased"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_alignments_with_further_targets_equal_one_target_at_a_time(estimator, seed):
    """batched_alignments_f32 with further targets (permuted labels on the same samples): the first target's
    alignments are bit for bit those without them, and each further target's are its own alignments."""
    rng = np.random.default_rng(seed)
    m = 23
    X = rng.normal(size=(m, 5))
    y = _labels(rng, m)
    lay = PairLayout(m)
    target = CenteredTarget(label_kernel(y), lay)
    Ls = np.stack([label_kernel(rng.permutation(y)) for _ in range(3)])
    others = [CenteredTarget(L, lay) for L in Ls]
    K = np.column_stack([lay.take(gaussian_kernel(X[:, : j + 1], gamma=0.3)) for j in range(5)]).astype(np.float32)
    a, a_others = batched_alignments_f32(K, target, estimator, CenteredTargets(Ls, lay))
    np.testing.assert_array_equal(a, batched_alignments_f32(K, target, estimator))
    assert a_others.shape == (3, 5)
    for o, row in zip(others, a_others):
        np.testing.assert_allclose(row, batched_alignments_f32(K, o, estimator), rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(row, batched_alignment(K.astype(float), o, estimator), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("kind", ["linear", "balanced", "onehot", "gaussian"])
@pytest.mark.parametrize("m", [3, 4, 23, 90])
def test_a_stack_of_targets_is_its_targets_one_at_a_time(kind, m):
    """CenteredTargets holds, bit for bit, what CenteredTarget computes for each of its label kernels, and
    batched_alignments_f32 gives each target of the stack its own alignments."""
    rng = np.random.default_rng(m)
    if kind == "gaussian":
        Y = rng.normal(size=(4, m))
    else:
        Y = rng.integers(0, 3 if kind == "onehot" else 2, size=(4, m))
        Y[:, :2] = [0, 1]
    lay = PairLayout(m)
    Ls = label_kernels(Y, kind=kind)
    stack, ones = CenteredTargets(Ls, lay), [CenteredTarget(L, lay) for L in Ls]
    for part in ("lc_pairs32", "w1_pairs32"):
        np.testing.assert_array_equal(getattr(stack, part), np.column_stack([getattr(t, part) for t in ones]))
    for part in ("lc_trace", "lc_norm", "ll1"):
        np.testing.assert_array_equal(getattr(stack, part), [getattr(t, part) for t in ones])
    X = rng.normal(size=(m, 3))
    K = np.column_stack([lay.take(gaussian_kernel(X[:, : j + 1], gamma=0.3)) for j in range(3)]).astype(np.float32)
    for estimator in ("biased", "unbiased"):
        from_stack = batched_alignments_f32(K, ones[0], estimator, stack)[1]
        for t, row in zip(ones, from_stack):
            np.testing.assert_allclose(row, batched_alignments_f32(K, t, estimator), rtol=1e-5, atol=1e-7)
    with pytest.raises(ValueError, match="shape"):
        CenteredTargets(Ls[0], lay)


@pytest.mark.parametrize("estimator", ["biased", "unbiased"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_alignment_gradient_equals_finite_differences(estimator, seed):
    """da/dK_p of batched_alignment(..., gradient=True) against central differences of the alignment."""
    rng = np.random.default_rng(seed)
    m, b = 9, 3
    X = rng.normal(size=(m, 4))
    y = _labels(rng, m)
    lay = PairLayout(m)
    target = CenteredTarget(label_kernel(y), lay)
    Kp = np.column_stack([lay.take(gaussian_kernel(X[:, : j + 2], gamma=0.4)) for j in range(b)])
    a, grad = batched_alignment(Kp, target, estimator, gradient=True)
    np.testing.assert_array_equal(a, batched_alignment(Kp, target, estimator))
    h = 1e-6
    fd = np.empty_like(grad)
    for p in range(lay.n_pairs):
        up, down = Kp.copy(), Kp.copy()
        up[p] += h
        down[p] -= h
        fd[p] = (batched_alignment(up, target, estimator) - batched_alignment(down, target, estimator)) / (2 * h)
    np.testing.assert_allclose(grad, fd, rtol=1e-5, atol=1e-8)


def test_zero_centred_kernel_has_zero_alignment_and_gradient():
    """A constant kernel (infinite width) has a zero centred kernel: alignment 0, gradient 0, no NaN."""
    lay = PairLayout(6)
    target = CenteredTarget(label_kernel(np.array([0, 0, 0, 1, 1, 1])), lay)
    for estimator in ("biased", "unbiased"):
        a, grad = batched_alignment(np.ones((lay.n_pairs, 2)), target, estimator, gradient=True)
        np.testing.assert_array_equal(a, 0.0)
        np.testing.assert_array_equal(grad, 0.0)
    with pytest.raises(ValueError, match="estimator must be"):
        batched_alignment(np.ones((lay.n_pairs, 1)), target, "hsic2")


@settings(max_examples=30, deadline=None)
@given(m=st.integers(2, 20), d=st.integers(1, 5), seed=st.integers(0, 2**31 - 1), ties=st.booleans())
def test_median_helper_equals_numpy_median_of_pairwise_squared_distances(m, d, seed, ties):
    """median_sq_distance of the pairs' squared distances == np.median of the positive squared distances of
    the pairs a < b; the median distance is its square root; gamma_from_median_sq matches sigma_to_gamma."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d))
    if ties:  # repeated rows: zero distances, left out
        X[rng.integers(0, m, m // 2)] = X[0]
    lay = PairLayout(m)
    d2 = pair_sq_diffs(X, lay).sum(axis=1)
    full = ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2)[np.triu_indices(m, k=1)]  # exact zeros for ties
    positive = full[full > 0]
    expected = np.median(positive) if positive.size else 1.0
    assert median_sq_distance(d2) == pytest.approx(expected, rel=1e-12)
    if not ties:  # sq_distances (a matrix product) leaves round-off where rows coincide
        assert median_distance(X) == pytest.approx(np.sqrt(expected), rel=1e-12)
    med = median_sq_distance(d2)
    t = np.array([0.5, 1.0, 2.0])
    np.testing.assert_allclose(gamma_from_median_sq(t, med), sigma_to_gamma(t * np.sqrt(med)), rtol=1e-14)
    np.testing.assert_allclose(gamma_to_sigma(gamma_from_median_sq(t, med)), t * np.sqrt(med), rtol=1e-14)


def test_median_helper_without_positive_distances_is_one():
    assert median_sq_distance(np.zeros(5)) == 1.0
    assert median_sq_distance(np.zeros(0)) == 1.0
    assert median_distance(np.ones((4, 3))) == 1.0


@pytest.mark.parametrize("m, n", [(7, 3), (40, 5), (130, 2)])
def test_pair_blocks_and_transpose_product_equal_the_whole_tensor(m, n, monkeypatch):
    """The blocks of pairs tile T (the pairs in PairLayout order) and T' V is the product with the whole T."""
    import fscompbio._pairs as pairs

    monkeypatch.setattr(pairs, "PAIR_BLOCK_BYTES", 4 * n * 64)  # 64 pair rows per block
    rng = np.random.default_rng(m)
    X = rng.normal(size=(m, n)).astype(np.float32)
    lay = PairLayout(m)
    T = pair_sq_diffs(X, lay, dtype=np.float32)
    np.testing.assert_array_equal(pair_sq_diffs32(X, 0, n), T)
    ws = Workspace()
    got = np.concatenate([blk.copy() for _, blk in pair_blocks(X, ws)])
    np.testing.assert_array_equal(got, T)
    V = rng.normal(size=(lay.n_pairs, 2)).astype(np.float32)
    np.testing.assert_allclose(transpose_product(X, ws, V), T.T.astype(np.float64) @ V, rtol=1e-4)
    # the whole tensor when the pairs fit one block (7 samples: 21 pairs), and then the same products bit for bit
    whole = whole_pair_tensor(X, ws)
    assert (whole is None) == (lay.n_pairs > 64)
    if whole is not None:
        np.testing.assert_array_equal(whole, T)
        M = rng.random((n, 3)).astype(np.float32)
        a, b = np.empty((lay.n_pairs, 3), np.float32), np.empty((lay.n_pairs, 3), np.float32)
        np.testing.assert_array_equal(pair_product(X, ws, M, a), pair_product(X, ws, M, b, T=whole))
        np.testing.assert_array_equal(transpose_product(X, ws, V), transpose_product(X, ws, V, T=whole))


@pytest.mark.parametrize("m, n", [(20, 7), (9, 300), (33, 40)])
def test_pair_rows_gathered_and_looped_are_the_same_bits(m, n, monkeypatch):
    """pair_rows32 gathers a small block's pairs at once and loops over a large block's samples: the same
    float32 entries either way, for the whole layout and for a block of samples in its middle."""
    import fscompbio._pairs as pairs

    X = np.random.default_rng(m).normal(size=(m, n)).astype(np.float32)
    T = pair_sq_diffs(X, PairLayout(m), dtype=np.float32)
    lo = 3 * m - 3 * 4 // 2  # the first row of sample 3's pairs
    for gather_max in (0, 10**9):
        monkeypatch.setattr(pairs, "GATHER_MAX", gather_max)
        out = np.empty_like(T)
        assert pair_rows32(X, 0, m - 1, out) == T.shape[0]
        np.testing.assert_array_equal(out, T)
        k = pair_rows32(X, 3, 7, out)
        np.testing.assert_array_equal(out[:k], T[lo : lo + k])


def _masks_by_index_partition(keys, size):
    idx = np.argpartition(keys, size - 1, axis=1)[:, :size]
    mask = np.zeros(keys.shape)
    np.put_along_axis(mask, idx, 1.0, axis=1)
    return mask.T


class _Keys:
    """A stand-in random state whose random_sample returns the given keys."""

    def __init__(self, keys):
        self.keys = keys

    def random_sample(self, shape):
        assert shape == self.keys.shape
        return self.keys


@pytest.mark.parametrize("n, size", [(7, 3), (200, 100), (31, 1), (31, 30)])
def test_random_subset_masks_are_the_index_partitions_subsets(n, size):
    """Each subset holds the features of the `size` smallest keys (those an index partition picks), and where
    keys tie at the boundary exactly the index partition's choice: `size` members per subset."""
    keys = np.random.default_rng(n).random((25, n))
    keys[0, :] = 0.5  # every key tied
    keys[1, : size + 1] = 0.25  # a tie across the boundary
    got = random_subset_masks(_Keys(keys), n, size, 25)
    np.testing.assert_array_equal(got, _masks_by_index_partition(keys, size))
    assert (got.sum(axis=0) == size).all() and got.flags["F_CONTIGUOUS"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hsic1_alignment_gradient_obeys_euler_with_and_without_the_norm(seed):
    """HSIC1 drops the diagonal, so its alignment does not change when every pair entry of K is scaled: the
    gradient is orthogonal to K (Euler, degree 0). With the norm held fixed the numerator is linear in K:
    ``<grad, K> = a`` (degree 1), and the gradient is the label's pair weights over the fixed norm."""
    rng = np.random.default_rng(seed)
    m = 10
    X = rng.normal(size=(m, 5))
    lay = PairLayout(m)
    target = CenteredTarget(label_kernel(_labels(rng, m)), lay)
    Kp = np.column_stack([lay.take(gaussian_kernel(X[:, : j + 2], gamma=0.3)) for j in range(3)])
    a, grad = batched_alignment(Kp, target, "unbiased", gradient=True)
    a_held, held = batched_alignment(Kp, target, "unbiased", gradient=True, hold_norm=True)
    np.testing.assert_array_equal(a_held, a)
    np.testing.assert_allclose(np.einsum("pb,pb->b", grad, Kp), 0.0, atol=1e-12)
    np.testing.assert_allclose(np.einsum("pb,pb->b", held, Kp), a, rtol=1e-10)
    # one direction, the label's pair weights, for every kernel of the stack
    direction = target.w1_pairs[:, None] / target.w1_pairs[0]
    np.testing.assert_allclose(held / held[:1], np.broadcast_to(direction, held.shape), rtol=1e-10)
