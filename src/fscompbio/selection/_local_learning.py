"""Local-learning feature selection for non-linear regression.

Sun, Yao and Goodison, "Feature Selection for Nonlinear Regression and its
Application to Cancer Research" (SDM 2015), section 2: a regression problem is
decomposed into the binary problems "below / above the threshold ``s_i``" for
every pair of consecutive sorted responses; the leave-one-out margin of every
sample in every such problem is a *linear* function of the feature weights
(eq. 2.7), its nearest neighbours are hidden variables averaged out with kernel
probabilities (eq. 2.14), and the weights minimise a Huber-loss l1-SVM (eqs.
2.9-2.11) by gradient descent on ``w = v^2`` (eqs. 2.12-2.13), alternating with
the kernel probabilities in a fixed-point loop until the weights settle.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted
from threadpoolctl import threadpool_info

from .._compat import Interval, _fit_context
from .._validation import check_fit_data
from .._scaling import minmax_scale
from ._ranking import ranking_from_scores, top_k_mask

__all__ = ["LocalLearningRegression", "huber", "huber_derivative"]

#: memory budget (bytes) for the cached per-feature absolute-difference tensor
ABSDIFF_BUDGET = 512 * 2**20
#: bytes of the pair tensor per row block in :meth:`_PairAbsDiff.matvec2`: small enough to stay in a
#: core's L2 cache while both products read it
FUSED_BLOCK_BYTES = 512 * 2**10
#: :meth:`_PairAbsDiff.matvec2` goes block by block only for tensors larger than this; smaller ones stay
#: in the last-level cache between two plain products, where blocking gains nothing
FUSED_MIN_BYTES = 16 * 2**20
_BLOCK_ROWS = 64  # row blocks are multiples of BLAS's row unrolling: every row's dot product is summed as in one call
_MIN_EXPONENT = -700.0  # exp(-700) ~ 1e-304: kernel weights never underflow to an exact zero


def huber(rho, h):
    """The Huber loss of eq. 2.10 (a smoothed hinge ``max(0, 1 - rho)``).

    ``0`` for ``rho > 1 + h``; ``(1 + h - rho)^2 / (4 h)`` for
    ``|1 - rho| <= h``; ``1 - rho`` for ``rho < 1 - h``.
    """
    rho = np.asarray(rho, dtype=float)
    return np.where(rho > 1 + h, 0.0, np.where(rho < 1 - h, 1.0 - rho, (1 + h - rho) ** 2 / (4 * h)))


def huber_derivative(rho, h):
    """``dH / drho`` of :func:`huber`: ``0``, ``-(1 + h - rho) / (2 h)`` or ``-1``."""
    rho = np.asarray(rho, dtype=float)
    return np.where(rho > 1 + h, 0.0, np.where(rho < 1 - h, -1.0, -(1 + h - rho) / (2 * h)))


def _huber_fast(rho, h, out, tmp, mask):
    """:func:`huber` of a float64 array into ``out``, with the same operations on every element.

    ``(1 + h) - rho`` is negative exactly when ``rho > 1 + h`` (a rounded difference
    keeps its sign), so clipping it at 0 gives that branch's 0 without a mask.
    ``tmp`` (float64) and ``mask`` (bool) are work arrays of the same shape.
    """
    np.subtract(1 + h, rho, out=out)
    np.maximum(out, 0.0, out=out)
    np.square(out, out=out)  # numpy's ``** 2`` is ``square``: the same bits
    out /= 4 * h
    np.subtract(1.0, rho, out=tmp)
    np.copyto(out, tmp, where=np.less(rho, 1 - h, out=mask))
    return out


def _huber_derivative_fast(rho, h, out, mask):
    """:func:`huber_derivative` of a float64 array into ``out`` (its zeros may come out as ``-0.0``)."""
    np.subtract(1 + h, rho, out=out)
    np.maximum(out, 0.0, out=out)  # 0 exactly when rho >= 1 + h, as in _huber_fast
    out /= -2 * h  # = -(out / (2 h)): negation is exact
    np.copyto(out, -1.0, where=np.less(rho, 1 - h, out=mask))
    return out


class _PairAbsDiff:
    """The per-feature absolute differences ``A[p, k] = |x_ak - x_bk|`` over the pairs ``a < b``.

    ``matvec(w)`` gives the weighted block distances of all pairs, ``matvec2(w1, w2)``
    two of them in one pass through memory, ``rmatvec(c)`` the gradient
    contraction ``sum_p c_p A[p, :]``. The tensor is cached when it fits
    :data:`ABSDIFF_BUDGET`, and recomputed in column chunks otherwise.
    ``square(d, diagonal)`` lays pair values out as a symmetric ``m x m`` matrix.
    The ``out`` arguments take preallocated float64 arrays: the learning loop
    reuses its arrays, because a fresh array of this size costs its page faults
    on every allocation.
    """

    def __init__(self, X, *, dtype=np.float32, budget=None):
        budget = ABSDIFF_BUDGET if budget is None else budget
        self.dtype = np.dtype(dtype)
        self.X = np.asarray(X, dtype=self.dtype)
        m, d = self.X.shape
        self.ia, self.ib = np.triu_indices(m, k=1)
        self.n_pairs = self.ia.size
        self.chunk = max(1, int(64 * 2**20 // (self.dtype.itemsize * max(self.n_pairs, 1))))
        self.A = self._compute(self.X) if self.n_pairs * d * self.dtype.itemsize <= budget else None
        # flat positions of pair p above and below the diagonal of an m x m matrix, and the inverse map
        self.flat_upper = self.ia * m + self.ib
        self.flat_lower = self.ib * m + self.ia
        index = np.full(m * m, self.n_pairs, dtype=np.intp)  # the diagonal reads the extra slot
        index[self.flat_upper] = np.arange(self.n_pairs)
        index[self.flat_lower] = np.arange(self.n_pairs)
        self._square_index = index.reshape(m, m)
        #: blocked products in :meth:`matvec2`; ``fit`` turns them off under multi-threaded BLAS
        self.fused = True
        # work arrays: the pair values with the diagonal appended, and the products in the tensor's dtype
        self._ext = np.empty(self.n_pairs + 1)
        self._pairs = np.empty(self.n_pairs, dtype=self.dtype)
        self._pairs2 = np.empty(self.n_pairs, dtype=self.dtype)

    def _compute(self, Xc):
        m = Xc.shape[0]
        A = np.empty((self.n_pairs, Xc.shape[1]), dtype=self.dtype)
        start = 0
        for a in range(m - 1):  # pairs (a, a+1..m-1) are contiguous rows: one slice per sample
            stop = start + m - 1 - a
            np.subtract(Xc[a + 1 :], Xc[a], out=A[start:stop])
            np.abs(A[start:stop], out=A[start:stop])  # while the slice is in cache
            start = stop
        return A

    def keep(self, cols):
        """Restrict to the columns ``cols`` (features eliminated during learning)."""
        self.X = self.X[:, cols]
        if self.A is not None:
            self.A = np.take(self.A, cols, axis=1)  # C-contiguous in one pass (A[:, cols] is not)

    def square(self, d, diagonal, out=None):
        """The pair values ``d`` as a symmetric float64 ``m x m`` matrix with ``diagonal`` on its diagonal."""
        self._ext[:-1] = d
        self._ext[-1] = diagonal
        return np.take(self._ext, self._square_index, out=out, mode="clip")  # "clip": out unbuffered

    def matvec(self, w, out=None):
        """``A @ w`` (float64 result)."""
        w = np.asarray(w, dtype=self.dtype)
        if self.A is None:
            res = np.zeros(self.n_pairs)
            for s in range(0, w.size, self.chunk):
                res += self._compute(self.X[:, s : s + self.chunk]) @ w[s : s + self.chunk]
        else:
            res = np.matmul(self.A, w, out=self._pairs)
        if out is None:
            return res.astype(np.float64)
        np.copyto(out, res)
        return out

    def matvec2(self, w1, w2, out1=None, out2=None):
        """``(A @ w1, A @ w2)`` (float64 results) reading the cached tensor once.

        For a tensor larger than :data:`FUSED_MIN_BYTES` both products run block by
        block over rows of ``A`` small enough to stay in cache
        (:data:`FUSED_BLOCK_BYTES`), so the second one reads the block from L2
        instead of main memory (``bench/bench_local_learning.py`` (b) times both
        ways). Each row's dot product is the same BLAS computation as in one call
        over all rows (blocks are multiples of :data:`_BLOCK_ROWS` rows), so the
        results equal :meth:`matvec`'s (bit for bit with single-threaded
        OpenBLAS; ``tests/test_local_learning.py`` checks it).
        With ``fused = False`` two plain products: a multi-threaded BLAS splits one
        large product between its threads, which a block of L2 size cannot use.
        """
        w1 = np.asarray(w1, dtype=self.dtype)
        w2 = np.asarray(w2, dtype=self.dtype)
        if self.A is None:
            return self.matvec(w1, out1), self.matvec(w2, out2)
        n_rows, d = self.A.shape
        rows = max(1, FUSED_BLOCK_BYTES // (self.dtype.itemsize * max(d, 1)) // _BLOCK_ROWS) * _BLOCK_ROWS
        if not self.fused or self.A.nbytes <= FUSED_MIN_BYTES or rows >= n_rows:  # two plain products
            return self.matvec(w1, out1), self.matvec(w2, out2)
        p1, p2 = self._pairs, self._pairs2
        for s in range(0, n_rows, rows):
            block = self.A[s : s + rows]
            np.matmul(block, w1, out=p1[s : s + rows])
            np.matmul(block, w2, out=p2[s : s + rows])
        if out1 is None:
            return p1.astype(np.float64), p2.astype(np.float64)
        np.copyto(out1, p1)
        np.copyto(out2, p2)
        return out1, out2

    def rmatvec(self, c):
        """``c @ A`` (float64 result)."""
        if self.A is not None:
            np.copyto(self._pairs, c, casting="same_kind")  # = np.asarray(c, dtype=self.dtype)
            return (self._pairs @ self.A).astype(np.float64)
        c = np.asarray(c, dtype=self.dtype)
        return np.concatenate(
            [c @ self._compute(self.X[:, s : s + self.chunk]) for s in range(0, self.X.shape[1], self.chunk)]
        ).astype(np.float64)


class _ThresholdProblems:
    """The leave-one-out threshold problems of eqs. 2.4-2.6 on samples sorted by response.

    With the samples sorted so that ``y_0 <= ... <= y_{N-1}``, threshold ``t``
    (``1 <= t <= N - 1``) splits them into ``{0..t-1}`` (below ``s_t = (y_{t-1}
    + y_t) / 2``) and ``{t..N-1}``. Holding sample ``a`` out, thresholds ``t = a``
    and ``t = a + 1`` give the same split of the others, so ``t = a`` is dropped
    (and ``t = 1`` for ``a = 0``, whose lower side would be empty): the paper's
    sets ``C_n``, ``N - 2`` problems per sample. Thresholds between tied
    responses separate nothing and are dropped too.
    """

    def __init__(self, y_sorted):
        N = y_sorted.size
        a = np.arange(N)[:, None]
        t = np.arange(1, N)[None, :]
        valid = (t != a) & ~((a == 0) & (t == 1)) & (y_sorted[t - 1] < y_sorted[t])
        self.N = N
        # sign(y_a - s_t): +1 when sample a is above threshold t
        self.sign = np.where(valid, np.where(t < a, 1.0, -1.0), 0.0)
        self.n_valid = valid.sum(axis=1)


class _ExpectedMargins:
    """Expected margins (eq. 2.14) and the loss (2.11) for fixed kernel probabilities.

    Parameters
    ----------
    absdiff : _PairAbsDiff
        On the samples sorted by response.
    problems : _ThresholdProblems
    K : ndarray of shape (N, N)
        Kernel weights ``K(x_j, x_a | w)`` of the previous weights, zero diagonal
        (the held-out sample is never its own neighbour).
    alpha, h : float
        The l1 multiplier and the Huber parameter.

    Notes
    -----
    The ``N x N`` and ``N x (N - 1)`` arrays are evaluated in preallocated work
    arrays, the denominators of the invalid (sample, threshold) entries replaced
    by 1 so that those entries come out as zeros without a mask, and the pair
    values laid out by one gather (:meth:`_PairAbsDiff.square`): the same
    floating-point operations on every valid entry as the direct formulas, so
    the same bits.
    """

    def __init__(self, absdiff, problems, K, alpha, h):
        self.absdiff = absdiff
        self.problems = problems
        self.K = K
        self.alpha = alpha
        self.h = h
        N = problems.N
        cK = np.cumsum(K, axis=1)
        self.lower_K = cK[:, :-1]  # column t-1: sum_{j < t} K_aj
        self.upper_K = cK[:, -1:] - self.lower_K
        # per-sample normalisation: each sample's loss is the mean over its N - 2 problems
        scale = np.where(problems.n_valid > 0, 1.0 / np.maximum(problems.n_valid, 1), 0.0)
        self.weight = problems.sign * scale[:, None]
        self._abs_weight = np.abs(self.weight)
        invalid = problems.sign == 0
        # invalid entries (sign 0, weight 0) may have an empty side: a denominator of 1 keeps them finite
        self._lower_K = np.where(invalid, 1.0, self.lower_K)
        self._upper_K = np.where(invalid, 1.0, self.upper_K)
        self._lower_K_reversed = np.ascontiguousarray(self._lower_K[:, ::-1])
        self._N = N
        # work arrays
        self._square = np.empty((N, N))
        self._cumsum = np.empty((N, N))
        self._a = np.empty((N, N - 1))
        self._b = np.empty((N, N - 1))
        self._mask = np.empty((N, N - 1), dtype=bool)
        self._z = np.empty((N, N - 1), dtype=np.complex128)
        self._z_sum = np.empty((N, N - 1), dtype=np.complex128)
        self._c_upper = np.empty(absdiff.n_pairs)
        self._c_lower = np.empty(absdiff.n_pairs)

    def distances(self, w, out=None):
        """Weighted block distances ``d_w`` of all pairs (one product with the pair tensor)."""
        return self.absdiff.matvec(w, out)

    def margins(self, d, out=None):
        """``rho[a, t-1] = w . zbar_a(t)`` for every sample and threshold (zero where invalid),
        from the pair distances ``d = distances(w)``: the expected distances to the two sets
        are kernel-weighted prefix and suffix sums along the sorted responses."""
        KD = self.absdiff.square(d, 0.0, out=self._square)
        KD *= self.K
        cKD = np.cumsum(KD, axis=1, out=self._cumsum)
        lower = cKD[:, :-1]
        rho = np.subtract(cKD[:, -1:], lower, out=out)  # the upper sums
        rho /= self._upper_K
        np.subtract(np.divide(lower, self._lower_K, out=self._a), rho, out=rho)
        rho *= self.problems.sign  # +-1, or 0: the invalid entries are (signed) zeros
        return rho

    def _objective(self, rho, w_sum):
        H = _huber_fast(rho, self.h, self._a, self._b, self._mask)
        H *= self._abs_weight
        return float(np.sum(H) + self.alpha * w_sum)

    def loss(self, v):
        """``L(v)`` of eq. 2.11 (each sample's terms averaged over its problems)."""
        w = v * v
        return self._objective(self.margins(self.distances(w)), w.sum())

    def loss_grad(self, v):
        """``(L(v), dL/dv)``: eq. 2.12, ``2 (sum H'(rho) zbar + alpha 1) * v``."""
        w = v * v
        rho = self.margins(self.distances(w))
        return self._objective(rho, w.sum()), 2.0 * (self.grad_w(rho) + self.alpha) * v

    def grad_w(self, rho):
        """``sum_{a, t} c_at H'(rho_at) zbar_a(t)`` as one contraction with the pair tensor.

        ``zbar_a(t) = s_at (sum_{j<t} K_aj A_aj / lower_K - sum_{j>=t} K_aj A_aj /
        upper_K)``, so the sum over ``t`` reorders into per-pair coefficients
        ``C_aj = K_aj (sum_{t>j} G_at / lower_K_at - sum_{t<=j} G_at / upper_K_at)``.
        """
        N = self._N
        G = _huber_derivative_fast(rho, self.h, self._a, self._mask)
        G *= self.weight  # sign and normalisation folded in; zero on the invalid entries
        # columns of R are t = 1..N-1; C[:, j] = S1[:, j] - S2[:, j] with S1[:, j] = sum_{t > j} R1[:, t]
        # (R1 = G / lower_K) and S2[:, j] = sum_{1 <= t <= j} R2[:, t] (R2 = G / upper_K). Both running
        # sums in one: the real and imaginary parts of a complex cumsum are added independently, with the
        # same float64 additions in the same order, at the cost of one real cumsum.
        R = self._z.view(np.float64).reshape(N, N - 1, 2)
        np.divide(G[:, ::-1], self._lower_K_reversed, out=R[:, :, 0])  # R1 from t = N-1 down
        np.divide(G, self._upper_K, out=R[:, :, 1])
        S = np.cumsum(self._z, axis=1, out=self._z_sum).view(np.float64).reshape(N, N - 1, 2)
        C = self._square
        C[:, : N - 1] = S[:, ::-1, 0]
        C[:, N - 1] = 0.0
        C[:, 1:] -= S[:, :, 1]
        C *= self.K
        flat = C.reshape(-1)
        Cp = np.take(flat, self.absdiff.flat_upper, out=self._c_upper, mode="clip")
        Cp += np.take(flat, self.absdiff.flat_lower, out=self._c_lower, mode="clip")
        return self.absdiff.rmatvec(Cp)


def _kernel_weights(absdiff, w, sigma, N, *, return_distances=False):
    """``K(x_j, x_a | w) = exp(-d_w(a, j) / sigma)`` with the weighted block distance, zero diagonal.

    Each row is shifted by its smallest distance before the exponential: the
    probabilities of eq. 2.14 are ratios within a row, so the shift cancels,
    and the nearest neighbour always has weight 1 (no underflow to 0/0).
    With ``return_distances`` also the pair distances ``absdiff.matvec(w)``.
    """
    d = absdiff.matvec(w)
    D = absdiff.square(d, np.inf)
    E = -(D - D.min(axis=1, keepdims=True)) / sigma
    np.maximum(E, _MIN_EXPONENT, out=E)  # far points keep a tiny positive weight
    K = np.exp(E)
    np.fill_diagonal(K, 0.0)  # leave-one-out: a sample is never its own neighbour
    return (K, d) if return_distances else K


def _descend(problem, v, *, max_steps, tol, d0=None):
    """Gradient descent with a backtracking line search on ``L(v)`` (eq. 2.13).

    Each step is ``v <- v - eta dL/dv = ((1 - 2 eta alpha) - 2 eta sum H' zbar) * v``;
    ``eta`` is halved until the Armijo condition holds and grows by half after
    an accepted step. Along the search line ``w(eta) = (v - eta g)^2`` is
    quadratic in ``eta``, so the distances are ``d0 - 2 eta d1 + eta^2 d2`` with
    ``d1 = A (v g)``, ``d2 = A g^2``: two products with the pair tensor per step,
    computed in one pass through it (:meth:`_PairAbsDiff.matvec2`), and every
    trial step of the line search costs ``O(N^2)``, in arrays allocated once.
    Stops when a step lowers the loss by less than ``tol`` times its value.
    ``d0``, when given, must equal ``problem.distances(v * v)`` (the caller has
    computed it already).

    Returns
    -------
    v : ndarray, non-negative
    loss : float
    n_steps : int
    """
    n_pairs = problem.absdiff.n_pairs
    d0 = problem.distances(v * v, np.empty(n_pairs)) if d0 is None else np.array(d0, dtype=np.float64)
    d_new, d1, d2, work = (np.empty(n_pairs) for _ in range(4))
    rho = problem.margins(d0)
    rho_new = np.empty_like(rho)
    loss = problem._objective(rho, float(v @ v))
    eta = None
    n = 0
    for n in range(1, max_steps + 1):
        g = 2.0 * (problem.grad_w(rho) + problem.alpha) * v
        gg = float(g @ g)
        if gg == 0.0:
            break
        problem.absdiff.matvec2(v * g, g * g, d1, d2)
        if eta is None:  # first step: no feature's v moves by more than half of the largest v
            eta = 0.5 * float(np.max(np.abs(v))) / float(np.max(np.abs(g)))
        while True:
            v_new = v - eta * g
            # d_new = d0 - 2.0 * eta * d1 + eta * eta * d2, operation by operation
            np.multiply(2.0 * eta, d1, out=d_new)
            np.subtract(d0, d_new, out=d_new)
            d_new += np.multiply(eta * eta, d2, out=work)
            np.maximum(d_new, 0.0, out=d_new)  # clip round-off: distances are non-negative
            problem.margins(d_new, out=rho_new)
            new = problem._objective(rho_new, float(v_new @ v_new))
            if new <= loss - 1e-4 * eta * gg or eta < 1e-300:
                break
            eta *= 0.5
        decrease = loss - new
        v, loss = v_new, new
        d0, d_new = d_new, d0  # the accepted arrays become the current ones; the old ones are reused
        rho, rho_new = rho_new, rho
        if decrease <= tol * max(abs(loss), 1e-300):
            break
        eta *= 1.5
    return np.abs(v), loss, n


class LocalLearningRegression(SelectorMixin, BaseEstimator):
    """Feature weights for non-linear regression by local learning (l1-SVM on expected margins).

    For every pair of consecutive sorted responses the data are split at their
    midpoint ``s_i`` into a lower and an upper set; held out, each sample ``x_n``
    gets the margin ``rho = w^T (|x_n - NN_1| - |x_n - NN_2|) sign(y_n - y_i)``
    (eq. 2.7), with its nearest neighbours ``NN_1``, ``NN_2`` in the two sets
    replaced by their expectation under the kernel probabilities
    ``Q(j | n, w) ~ exp(-d_w(x_n, x_j) / sigma)`` (eq. 2.14, weighted block
    distance ``d_w``). The weights ``w = v^2 >= 0`` minimise the Huber loss of
    the margins plus ``alpha ||w||_1`` (eq. 2.11) by gradient descent on ``v``
    (eqs. 2.12-2.13); the kernel probabilities are then recomputed with the new
    weights, until the weights settle (the fixed point of theorem 2.1).

    Parameters
    ----------
    sigma : float, default=1.0
        Kernel width of ``exp(-d / sigma)``; the paper uses 1 on features
        scaled to [0, 1]. Theorem 2.1: the fixed point is unique for a large
        enough width.
    alpha : float, default=1.0
        Multiplier of the l1 term ``sum_j w_j`` (the paper's regularisation
        parameter, 1 in its experiments). The loss is each sample's mean over
        its ``N - 2`` threshold problems (eq. 2.11 divided by ``N - 2``), so
        ``alpha`` does not need to grow with the sample size.
    h : float, default=0.1
        Huber parameter of eq. 2.10 (a small ``h`` approaches the hinge loss).
    scale : bool, default=True
        Scale every feature to [0, 1] before learning, as the paper does
        (section 4.1); the kernel width is relative to that scale.
    max_iter : int, default=10
        Fixed-point iterations (kernel probabilities, then weights).
    tol : float, default=1e-3
        Stop when ``theta = ||w^(t) / max w^(t) - w^(t-1) / max w^(t-1)||_2``
        falls below this (the paper's convergence measure of figure 4(b), on
        weights normalised by their maximum).
    max_descent_steps : int, default=100
        Gradient-descent steps per fixed-point iteration.
    descent_tol : float, default=1e-6
        A descent stops when a step lowers the loss by less than this fraction.
        The fixed point needs accurate inner solutions: with ``1e-4`` the
        weights keep drifting by 1-2% per iteration and ``tol`` is never met
        (the comparison is in ``docs/deviations.md``).
    prune : float, default=1e-5
        Features with ``v_j < prune`` (``w_j < prune^2``) are eliminated from
        further iterations and get weight 0 (the paper's section 2.2).
    n_features_to_select : int or None, default=None
        Size of :meth:`get_support`: the top of ``ranking_``; None: every
        feature with a non-zero weight.

    Attributes
    ----------
    feature_weights_ : ndarray of shape (n_features_in_,), float64
        The learned weights ``w = v^2 >= 0``.
    scores_ : ndarray of shape (n_features_in_,), float64
        Equal to ``feature_weights_`` (higher = more relevant).
    ranking_ : ndarray of shape (n_features_in_,), int
        1 = largest weight; ties broken by the lower index.
    theta_ : ndarray of shape (n_iter_,)
        The change of the normalised weights per fixed-point iteration.
    loss_ : ndarray of shape (n_iter_,)
        ``L(v)`` at the end of each iteration's descent.
    n_descent_steps_ : ndarray of shape (n_iter_,), int
    n_iter_ : int
    converged_ : bool
        Whether ``theta`` fell below ``tol`` within ``max_iter`` iterations.

    See Also
    --------
    fscompbio.prediction.NadarayaWatsonRegressor : the predictor of eq. 2.2.

    Notes
    -----
    ``L(v) = sum_n 1/|C_n| sum_{i in C_n} H(v^2 . zbar_n(i)) + alpha sum_j v_j^2``.
    For fixed kernel probabilities the margins are linear in ``w``: their
    expected distances are weighted averages of ``d_w(x_n, x_j) = A_nj . w``
    over the two sets, i.e. prefix and suffix sums along the sorted responses.
    One loss costs one product of the pair tensor ``A`` (``N (N-1)/2`` pairs x
    features) with ``w``; its gradient one product with ``A^T``
    (:meth:`_ExpectedMargins.grad_w`), so a step is ``O(N^2 J)``, the paper's
    complexity. Initial weights are uniform with unit Euclidean norm.

    Speed: a descent step reads the float32 pair tensor twice (the gradient's
    product, then both line-search products block by block from L2,
    :meth:`_PairAbsDiff.matvec2`), the ``O(N^2)`` work runs in arrays allocated
    once per iteration (fresh ones cost their page faults on every call), the
    gradient's two running sums are one complex cumsum, and the kernel's
    distances start the descent. Every change performs the same floating-point
    operations as the direct code, so the weights are bit-identical to it (at
    a given BLAS thread count; ``tests/test_local_learning.py`` checks it, and
    ``bench/bench_local_learning.py`` times a fit and its peak memory against
    the direct code).

    References
    ----------
    Y. Sun, J. Yao and S. Goodison (2015). Feature Selection for Nonlinear
    Regression and its Application to Cancer Research. SIAM SDM.
    Y. Sun, S. Todorovic and S. Goodison (2010). Local-learning-based feature
    selection for high-dimensional data analysis. IEEE TPAMI 32(9):1610-1626.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 20))
    >>> y = np.sin(2 * X[:, 3]) + X[:, 7] ** 2 + 0.1 * rng.normal(size=80)
    >>> sel = LocalLearningRegression(n_features_to_select=2).fit(X, y)
    >>> np.flatnonzero(sel.get_support()).tolist()
    [3, 7]
    """

    _parameter_constraints: dict = {
        "sigma": [Interval(Real, 0, None, closed="neither")],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "h": [Interval(Real, 0, 1, closed="right")],
        "scale": ["boolean"],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "max_descent_steps": [Interval(Integral, 1, None, closed="left")],
        "descent_tol": [Interval(Real, 0, None, closed="left")],
        "prune": [Interval(Real, 0, None, closed="left")],
        "n_features_to_select": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self,
        *,
        sigma=1.0,
        alpha=1.0,
        h=0.1,
        scale=True,
        max_iter=10,
        tol=1e-3,
        max_descent_steps=100,
        descent_tol=1e-6,
        prune=1e-5,
        n_features_to_select=None,
    ):
        self.sigma = sigma
        self.alpha = alpha
        self.h = h
        self.scale = scale
        self.max_iter = max_iter
        self.tol = tol
        self.max_descent_steps = max_descent_steps
        self.descent_tol = descent_tol
        self.prune = prune
        self.n_features_to_select = n_features_to_select

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Learn the feature weights.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Real responses (at least two distinct values).

        Returns
        -------
        self
        """
        X, y = check_fit_data(self, X, y, why_dense="distances between samples", y_numeric=True,
                              ensure_min_samples=3)
        y = np.asarray(y, dtype=np.float64)
        if np.unique(y).size < 2:
            raise ValueError(
                f"LocalLearningRegression needs at least 2 distinct responses; y is constant ({y[0]!r})"
            )
        if self.scale:
            X = minmax_scale(X)
        N, J = X.shape
        order = np.argsort(y, kind="stable")
        problems = _ThresholdProblems(y[order])
        absdiff = _PairAbsDiff(X[order])
        absdiff.fused = _blas_threads() == 1  # the workflow's setting (threadpool_limits(1))

        active = np.arange(J)
        w = np.full(J, 1.0 / np.sqrt(J))  # uniform, unit Euclidean norm
        thetas, losses, steps = [], [], []
        converged = False
        for _ in range(self.max_iter):
            K, d = _kernel_weights(absdiff, w, self.sigma, N, return_distances=True)
            problem = _ExpectedMargins(absdiff, problems, K, self.alpha, self.h)
            v = np.sqrt(w)
            # the descent starts from the distances of v^2; they are the kernel's when v^2 rounds to w
            same = np.array_equal(np.asarray(v * v, dtype=absdiff.dtype), np.asarray(w, dtype=absdiff.dtype))
            v, loss, n = _descend(
                problem, v, max_steps=self.max_descent_steps, tol=self.descent_tol, d0=d if same else None
            )
            w_new = v * v
            theta = _normalised_change(w_new, w)
            thetas.append(theta)
            losses.append(loss)
            steps.append(n)
            keep = v >= self.prune
            if not keep.any():  # everything eliminated: the l1 term won
                w, active = w_new[:0], active[:0]
                break
            w_new[~keep] = 0.0  # eliminated: v = 0 stays 0 under the multiplicative updates
            if keep.sum() <= 0.9 * keep.size:  # drop the columns once a tenth of them are gone
                active = active[keep]
                absdiff.keep(np.flatnonzero(keep))
                w_new = w_new[keep]
            w = w_new
            if theta < self.tol:
                converged = True
                break

        weights = np.zeros(J)
        weights[active] = w
        self.feature_weights_ = weights
        self.scores_ = weights.copy()
        self.ranking_ = ranking_from_scores(weights)
        self.theta_ = np.asarray(thetas)
        self.loss_ = np.asarray(losses)
        self.n_descent_steps_ = np.asarray(steps, dtype=int)
        self.n_iter_ = len(thetas)
        self.converged_ = converged
        return self

    def _get_support_mask(self):
        check_is_fitted(self)
        if self.n_features_to_select is not None:
            return top_k_mask(self.ranking_, self.n_features_to_select)
        return self.feature_weights_ > 0


def _blas_threads():
    """The largest thread count of the loaded BLAS libraries (1 when none is reported)."""
    return max((int(info["num_threads"]) for info in threadpool_info() if info["user_api"] == "blas"), default=1)


def _normalised_change(w_new, w_old):
    """``||w_new / max w_new - w_old / max w_old||_2`` (1.0 when either is all zero)."""
    a, b = np.max(w_new, initial=0.0), np.max(w_old, initial=0.0)
    if a <= 0 or b <= 0:
        return 1.0
    return float(np.linalg.norm(w_new / a - w_old / b))
