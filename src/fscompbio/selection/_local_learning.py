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

from .._compat import Interval, _fit_context, validate_data
from ._ranking import ranking_from_scores, top_k_mask

__all__ = ["LocalLearningRegression", "huber", "huber_derivative", "minmax_scale"]

#: memory budget (bytes) for the cached per-feature absolute-difference tensor
ABSDIFF_BUDGET = 512 * 2**20
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


def minmax_scale(X):
    """Scale every column to [0, 1] (the paper's preprocessing, section 4.1); constant columns become 0."""
    lo = X.min(axis=0)
    span = X.max(axis=0) - lo
    span = np.where(span > 0, span, 1.0)  # a constant column: all zeros, never a division by zero
    return (X - lo) / span


class _PairAbsDiff:
    """The per-feature absolute differences ``A[p, k] = |x_ak - x_bk|`` over the pairs ``a < b``.

    ``matvec(w)`` gives the weighted block distances of all pairs, ``rmatvec(c)``
    the gradient contraction ``sum_p c_p A[p, :]``. The tensor is cached when it
    fits :data:`ABSDIFF_BUDGET`, and recomputed in column chunks otherwise.
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

    def _compute(self, Xc):
        m = Xc.shape[0]
        A = np.empty((self.n_pairs, Xc.shape[1]), dtype=self.dtype)
        start = 0
        for a in range(m - 1):  # pairs (a, a+1..m-1) are contiguous rows: one slice per sample
            stop = start + m - 1 - a
            np.subtract(Xc[a + 1 :], Xc[a], out=A[start:stop])
            start = stop
        np.abs(A, out=A)
        return A

    def keep(self, cols):
        """Restrict to the columns ``cols`` (features eliminated during learning)."""
        self.X = self.X[:, cols]
        if self.A is not None:
            self.A = np.ascontiguousarray(self.A[:, cols])

    def matvec(self, w):
        """``A @ w`` (float64 result)."""
        w = np.asarray(w, dtype=self.dtype)
        if self.A is not None:
            return (self.A @ w).astype(np.float64)
        out = np.zeros(self.n_pairs)
        for s in range(0, w.size, self.chunk):
            out += self._compute(self.X[:, s : s + self.chunk]) @ w[s : s + self.chunk]
        return out

    def rmatvec(self, c):
        """``c @ A`` (float64 result)."""
        c = np.asarray(c, dtype=self.dtype)
        if self.A is not None:
            return (c @ self.A).astype(np.float64)
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
        self._N = N

    def distances(self, w):
        """Weighted block distances ``d_w`` of all pairs (one product with the pair tensor)."""
        return self.absdiff.matvec(w)

    def margins(self, d):
        """``rho[a, t-1] = w . zbar_a(t)`` for every sample and threshold (zero where invalid),
        from the pair distances ``d = distances(w)``: the expected distances to the two sets
        are kernel-weighted prefix and suffix sums along the sorted responses."""
        N = self._N
        D = np.zeros((N, N))
        D[self.absdiff.ia, self.absdiff.ib] = d
        D[self.absdiff.ib, self.absdiff.ia] = d
        cKD = np.cumsum(self.K * D, axis=1)
        lower = cKD[:, :-1]
        upper = cKD[:, -1:] - lower
        with np.errstate(invalid="ignore", divide="ignore"):
            diff = lower / self.lower_K - upper / self.upper_K
        return np.where(self.problems.sign != 0, self.problems.sign * diff, 0.0)

    def _objective(self, rho, w_sum):
        return float(np.sum(np.abs(self.weight) * huber(rho, self.h)) + self.alpha * w_sum)

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
        G = self.weight * huber_derivative(rho, self.h)  # sign and normalisation folded in
        with np.errstate(invalid="ignore", divide="ignore"):
            R1 = np.where(G != 0, G / self.lower_K, 0.0)
            R2 = np.where(G != 0, G / self.upper_K, 0.0)
        # columns of R are t = 1..N-1; S1[:, j] = sum_{t > j} R1[:, t], S2[:, j] = sum_{1 <= t <= j} R2[:, t]
        S1 = np.zeros((N, N))
        S1[:, : N - 1] = np.cumsum(R1[:, ::-1], axis=1)[:, ::-1]
        S2 = np.zeros((N, N))
        S2[:, 1:] = np.cumsum(R2, axis=1)
        C = self.K * (S1 - S2)
        Cp = C[self.absdiff.ia, self.absdiff.ib] + C[self.absdiff.ib, self.absdiff.ia]
        return self.absdiff.rmatvec(Cp)


def _kernel_weights(absdiff, w, sigma, N):
    """``K(x_j, x_a | w) = exp(-d_w(a, j) / sigma)`` with the weighted block distance, zero diagonal.

    Each row is shifted by its smallest distance before the exponential: the
    probabilities of eq. 2.14 are ratios within a row, so the shift cancels,
    and the nearest neighbour always has weight 1 (no underflow to 0/0).
    """
    D = np.full((N, N), np.inf)
    d = absdiff.matvec(w)
    D[absdiff.ia, absdiff.ib] = d
    D[absdiff.ib, absdiff.ia] = d
    E = -(D - D.min(axis=1, keepdims=True)) / sigma
    np.maximum(E, _MIN_EXPONENT, out=E)  # far points keep a tiny positive weight
    K = np.exp(E)
    np.fill_diagonal(K, 0.0)  # leave-one-out: a sample is never its own neighbour
    return K


def _descend(problem, v, *, max_steps, tol):
    """Gradient descent with a backtracking line search on ``L(v)`` (eq. 2.13).

    Each step is ``v <- v - eta dL/dv = ((1 - 2 eta alpha) - 2 eta sum H' zbar) * v``;
    ``eta`` is halved until the Armijo condition holds and grows by half after
    an accepted step. Along the search line ``w(eta) = (v - eta g)^2`` is
    quadratic in ``eta``, so the distances are ``d0 - 2 eta d1 + eta^2 d2`` with
    ``d1 = A (v g)``, ``d2 = A g^2``: two products with the pair tensor per step,
    and every trial step of the line search costs ``O(N^2)``. Stops when a step
    lowers the loss by less than ``tol`` times its value.

    Returns
    -------
    v : ndarray, non-negative
    loss : float
    n_steps : int
    """
    d0 = problem.distances(v * v)
    rho = problem.margins(d0)
    loss = problem._objective(rho, float(v @ v))
    eta = None
    n = 0
    for n in range(1, max_steps + 1):
        g = 2.0 * (problem.grad_w(rho) + problem.alpha) * v
        gg = float(g @ g)
        if gg == 0.0:
            break
        d1 = problem.distances(v * g)
        d2 = problem.distances(g * g)
        if eta is None:  # first step: no feature's v moves by more than half of the largest v
            eta = 0.5 * float(np.max(np.abs(v))) / float(np.max(np.abs(g)))
        while True:
            v_new = v - eta * g
            d_new = d0 - 2.0 * eta * d1 + eta * eta * d2
            np.maximum(d_new, 0.0, out=d_new)  # clip round-off: distances are non-negative
            rho_new = problem.margins(d_new)
            new = problem._objective(rho_new, float(v_new @ v_new))
            if new <= loss - 1e-4 * eta * gg or eta < 1e-300:
                break
            eta *= 0.5
        decrease = loss - new
        v, d0, rho, loss = v_new, d_new, rho_new, new
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
        (measured on the non-additive set, 200 samples: ``theta`` stalls near
        0.014 with 75 non-zero weights; with ``1e-6`` it falls to 7e-4 in 9
        iterations with 11 non-zero weights, for about 3 times the work).
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
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True, ensure_min_samples=3)
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

        active = np.arange(J)
        w = np.full(J, 1.0 / np.sqrt(J))  # uniform, unit Euclidean norm
        thetas, losses, steps = [], [], []
        converged = False
        for _ in range(self.max_iter):
            K = _kernel_weights(absdiff, w, self.sigma, N)
            problem = _ExpectedMargins(absdiff, problems, K, self.alpha, self.h)
            v, loss, n = _descend(problem, np.sqrt(w), max_steps=self.max_descent_steps, tol=self.descent_tol)
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


def _normalised_change(w_new, w_old):
    """``||w_new / max w_new - w_old / max w_old||_2`` (1.0 when either is all zero)."""
    a, b = np.max(w_new, initial=0.0), np.max(w_old, initial=0.0)
    if a <= 0 or b <= 0:
        return 1.0
    return float(np.linalg.norm(w_new / a - w_old / b))
