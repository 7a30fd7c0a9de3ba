"""LPBoost multiple kernel learning over kernel-ridge weak learners (thesis 5.3).

The weak learners are kernel ridge regressions on class-balanced subsamples,
one per (subsample, feature set, Gaussian width, ridge parameter); LPBoost
(the linear program of eq. 5.1) combines them convexly, and an ensemble of
LPBoost solutions, each on a random half of the weak learners, votes.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import scipy.linalg
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted
from threadpoolctl import threadpool_limits

from .._compat import Interval, _fit_context, validate_data
from .._optional import optional_import
from ._base import BinaryClassifierMixin
from ..kernels import gamma_grid, median_distance, sq_distances
from ._lpboost import PrimalLP, feasible_cap

__all__ = ["LPBoostMKL"]

_CHUNK = 4096  # rows of X per block when evaluating weak learners (bounds memory)


def _solve_lpboost_lp(H, y, D, *, cache=None):
    """Solve the LPBoost linear program over a generic weak-learner matrix ``H``.

    Reuses the chapter-3 solver :class:`fscompbio.prediction._lpboost.PrimalLP`
    (the primal of eq. 3.4, built once per shape with cvxpy parameters and
    re-solved): maximise ``rho - D sum_i xi_i`` subject to
    ``y_i (sum_j a_j H_ij + b) >= rho - xi_i``, ``xi >= 0``, ``a >= 0``,
    ``sum_j a_j = 1``. Its dual is eq. 5.1 (``min beta`` s.t.
    ``sum_i u_i y_i H_ij <= beta``, ``sum_i u_i = 1``, ``0 <= u_i <= D``)
    plus ``sum_i u_i y_i = 0`` from the bias ``b``, as in the chapter-3 LPBoost.

    Parameters
    ----------
    H : ndarray of shape (m, J)
        Outputs of the J weak learners on the m training samples.
    y : ndarray of shape (m,)
        Labels in {-1, +1}.
    D : float
        The cap on the sample weights; raised to the smallest feasible cap
        (:func:`fscompbio.prediction._lpboost.feasible_cap`) if below it.
    cache : dict, default=None
        ``((m, J), solver) -> PrimalLP``: pass the same dict to re-solve
        problems of one shape without canonicalising them again. HiGHS is
        tried first; if it fails (status UNKNOWN), Clarabel solves the LP.

    Returns
    -------
    a : ndarray of shape (J,)
        Weak-learner weights: non-negative and summing to one.
    b : float
        The bias.
    objective : float
        The optimal ``rho - D sum xi`` (= beta of the dual).
    """
    cp = optional_import("cvxpy", "LPBoostMKL")
    H = np.asarray(H, dtype=float)
    y = np.asarray(y, dtype=float)
    if y.shape != (H.shape[0],):
        raise ValueError(f"y must have shape ({H.shape[0]},) to match H {H.shape}; got {y.shape}")
    cache = {} if cache is None else cache
    cap = feasible_cap(y, D)
    try:
        lp = cache.get((H.shape, "HIGHS"))
        if lp is None:
            lp = cache[(H.shape, "HIGHS")] = PrimalLP(*H.shape, solver="HIGHS")
        a, b, _, objective = lp.solve(H, y, cap)
    except (ValueError, RuntimeError, cp.error.SolverError):
        # HiGHS occasionally ends with status UNKNOWN on these dense, nearly collinear LPs
        # (seen on 400 x 40 learner matrices); the interior-point solver Clarabel then solves them
        lp = cache.get((H.shape, "CLARABEL"))
        if lp is None:
            lp = cache[(H.shape, "CLARABEL")] = PrimalLP(*H.shape, solver="CLARABEL")
        a, b, _, objective = lp.solve(H, y, cap)
    a = a / a.sum()  # exact simplex despite solver round-off (a >= 0 already clipped)
    return a, b, objective


def _balanced_indices(idx_by_class, k, rng):
    """``k`` indices drawn without replacement from each class (in class order)."""
    return np.concatenate([rng.choice(idx, size=k, replace=False) for idx in idx_by_class])


class LPBoostMKL(BinaryClassifierMixin, BaseEstimator):
    """LPBoost multiple kernel learning with kernel-ridge weak learners (thesis 5.3).

    Each weak learner is a kernel ridge regression ``h(x) = sum_i a_i
    k_(S, gamma)(x_i, x)`` with ``a = (K + lambda I)^(-1) y`` fitted on a
    class-balanced subsample of the training data (the larger class is
    subsampled), for every combination of a balanced subsample, a feature set
    ``S`` (e.g. randSel's nested surviving sets), a Gaussian factor ``gamma``
    and a ridge parameter ``lambda``. The weak learners' outputs on a held-out
    balanced sample are combined by the LPBoost linear program of eq. 5.1 with
    cap ``D``; ``n_estimators`` LPBoost classifiers are trained, each on a
    random half of the weak learners, and the predicted class is their
    majority vote.

    Parameters
    ----------
    feature_sets : list of array-like of int, default=None
        The feature sets the Gaussian kernels are defined on (column indices
        of X). ``None`` means one set of all features.
    n_widths : int, default=5
        Gaussian widths per feature set: ``sigma = median * 10**t`` for ``t``
        in ``linspace(width_low, width_high, n_widths)``, where ``median`` is
        the median pairwise distance of the first ridge subsample restricted
        to the set (see :func:`fscompbio.kernels.gamma_grid`).
    width_low, width_high : float, default=-1.0, 0.5
        Decimal exponents of the width multipliers.
    lambdas : tuple of float, default=(0.1,)
        Ridge parameters of the weak learners ("a very small range", 5.5).
    n_subsamples : int, default=2
        Independent balanced subsamples on which the weak learners are fitted.
    subsample_size : int, default=100
        Samples per class in each ridge subsample (fewer if half of the
        smaller class is smaller).
    lp_size : int, default=300
        Samples per class of the balanced sample on which the LP is solved;
        drawn from the half of the training data not used by the ridge
        subsamples (all data when a class has a single sample).
    nus : tuple of float, default=(0.05, 0.2, 0.5)
        Candidate soft-margin fractions; the cap is ``D = 1 / (nu m)`` for
        ``m`` LP samples (Demiriz et al. 2002), so ``nu`` in ``(0, 1]``
        bounds the fraction of margin errors. The value used is chosen by
        ``cv``-fold cross-validation of a single LPBoost over all weak
        learners on the LP sample (balanced accuracy); a single value skips
        the CV.
    cv : int, default=3
        Inner folds for choosing ``nu`` (and hence ``D``).
    n_estimators : int, default=25
        LPBoost classifiers in the randomised ensemble (thesis: 500).
    learner_fraction : float, default=0.5
        Fraction of the weak learners each ensemble member sees (thesis: half).
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is the positive class (+1 in the LP).
    n_features_in_ : int
    feature_sets_ : list of ndarray of int
    gammas_ : ndarray of shape (n_sets, n_widths)
        Gaussian factors ``exp(-gamma d^2)`` per feature set.
    subsample_indices_ : ndarray of shape (n_subsamples, 2 * k)
        Training rows of each balanced ridge subsample.
    lp_indices_ : ndarray of shape (m,)
        Training rows of the LP sample.
    dual_coef_ : ndarray of shape (n_subsamples, n_sets, n_widths, n_lambdas, 2 * k)
        Kernel ridge coefficients ``a`` of every weak learner.
    scales_ : ndarray of shape (n_learners,)
        Each weak learner's output is divided by its largest absolute value
        on the LP sample, so that ``h`` lies in ``[-1, 1]`` there.
    learner_params_ : ndarray of shape (n_learners, 4)
        ``(subsample, feature set, width, lambda)`` indices of each learner.
    estimators_learners_ : ndarray of shape (n_estimators, n_half)
        Weak learners seen by each ensemble member.
    estimators_weights_ : ndarray of shape (n_estimators, n_half)
        LP weights of each member (each row on the simplex).
    estimators_intercepts_ : ndarray of shape (n_estimators,)
        The bias ``b`` of each member's LP.
    weights_ : ndarray of shape (n_learners,)
        Mean LP weight of each weak learner over the ensemble (a convex
        combination: non-negative, summing to one).
    nu_ : float
    D_ : float
        The chosen soft-margin parameter and cap ``D = 1 / (nu_ m)`` (at
        least the smallest feasible cap).
    cv_scores_ : ndarray of shape (len(nus),)
        Mean inner-CV balanced accuracy per ``nu`` (NaN when not run).

    See Also
    --------
    fscompbio.prediction.LPBoost : LPBoost over single-feature weak learners (eq. 3.3/3.4).
    fscompbio.selection.RandSel : provides the nested feature sets.

    Notes
    -----
    Implements thesis section 5.3: weak learners ``h_t(x) = sum_i a_i
    kappa_(S_t, sigma)(x_i, x)`` with ``a = (K + lambda I)^(-1) y`` and the
    linear program (5.1)::

        min beta  s.t.  sum_i u_i y_i h_ij <= beta,  sum_i u_i = 1,  0 <= u_i <= D,

    solved in its primal form with cvxpy by the chapter-3 LPBoost's solver
    (``PrimalLP``). Deviation: that LP has a bias ``b``, so its dual also has
    ``sum_i u_i y_i = 0``, which eq. 5.1 as printed omits; a member's bias
    shifts all of its margins equally (it is reused so that the project has
    one LPBoost solver). Only
    kernels between the evaluated points and the ridge subsamples are ever
    formed, never an all-by-all kernel. :meth:`predict` is the majority vote;
    :meth:`decision_function` is the vote with ties broken by the mean margin
    (a continuous score that ranks the windows of a sequence and agrees with
    the vote); :meth:`mean_margin` and :meth:`vote_share` give the two parts.

    References
    ----------
    .. [1] Demiriz, Bennett and Shawe-Taylor (2002). Linear programming
       boosting via column generation. Machine Learning 46:225-254.
    .. [2] Fletcher, Hussain and Shawe-Taylor (2010). Multiple kernel
       learning on the limit order book. JMLR W&CP 11:167-174.

    Examples
    --------
    >>> import numpy as np
    >>> from fscompbio.prediction import LPBoostMKL
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 4))
    >>> y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    >>> clf = LPBoostMKL(feature_sets=[[0, 1], [0, 1, 2, 3]], random_state=0).fit(X, y)
    >>> bool(np.isclose(clf.weights_.sum(), 1.0))
    True
    """

    _parameter_constraints: dict = {
        "feature_sets": [list, None],
        "n_widths": [Interval(Integral, 1, None, closed="left")],
        "width_low": [Interval(Real, None, None, closed="neither")],
        "width_high": [Interval(Real, None, None, closed="neither")],
        "lambdas": [tuple, list],
        "n_subsamples": [Interval(Integral, 1, None, closed="left")],
        "subsample_size": [Interval(Integral, 1, None, closed="left")],
        "lp_size": [Interval(Integral, 1, None, closed="left")],
        "nus": [tuple, list],
        "cv": [Interval(Integral, 2, None, closed="left")],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learner_fraction": [Interval(Real, 0, 1, closed="right")],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        feature_sets=None,
        n_widths=5,
        width_low=-1.0,
        width_high=0.5,
        lambdas=(0.1,),
        n_subsamples=2,
        subsample_size=100,
        lp_size=300,
        nus=(0.05, 0.2, 0.5),
        cv=3,
        n_estimators=25,
        learner_fraction=0.5,
        random_state=None,
    ):
        self.feature_sets = feature_sets
        self.n_widths = n_widths
        self.width_low = width_low
        self.width_high = width_high
        self.lambdas = lambdas
        self.n_subsamples = n_subsamples
        self.subsample_size = subsample_size
        self.lp_size = lp_size
        self.nus = nus
        self.cv = cv
        self.n_estimators = n_estimators
        self.learner_fraction = learner_fraction
        self.random_state = random_state

    # ------------------------------------------------------------------
    def _check_extra_params(self, n_features):
        lambdas = np.asarray(self.lambdas, dtype=float)
        if lambdas.ndim != 1 or lambdas.size == 0 or np.any(~np.isfinite(lambdas)) or np.any(lambdas <= 0):
            raise ValueError(f"lambdas must be a non-empty sequence of finite floats > 0; got {self.lambdas!r}")
        nus = np.asarray(self.nus, dtype=float)
        if nus.ndim != 1 or nus.size == 0 or np.any(~(nus > 0)) or np.any(nus > 1):
            raise ValueError(f"nus must be a non-empty sequence of floats in (0, 1]; got {self.nus!r}")
        if self.feature_sets is None:
            sets = [np.arange(n_features)]
        else:
            if len(self.feature_sets) == 0:
                raise ValueError("feature_sets must be None or a non-empty list of index arrays; got []")
            sets = []
            for i, s in enumerate(self.feature_sets):
                s = np.asarray(s)
                if s.ndim != 1 or s.size == 0 or not np.issubdtype(s.dtype, np.integer):
                    raise ValueError(
                        f"feature_sets[{i}] must be a non-empty 1-D array of int column indices; got {s!r}"
                    )
                if s.min() < 0 or s.max() >= n_features:
                    raise ValueError(
                        f"feature_sets[{i}] has indices outside [0, {n_features}) for X with "
                        f"{n_features} features: min {s.min()}, max {s.max()}"
                    )
                sets.append(np.unique(s))
        return lambdas, nus, sets

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Fit the weak learners, choose ``D`` by inner CV and train the ensemble.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Binary labels.

        Returns
        -------
        self : LPBoostMKL
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        rng = check_random_state(self.random_state)
        y_idx = self._fit_classes(y)
        lambdas, nus, sets = self._check_extra_params(X.shape[1])
        ys = np.where(y_idx == 1, 1.0, -1.0)
        counts = np.bincount(y_idx, minlength=2)
        if counts.min() < 2:
            raise ValueError(
                f"LPBoostMKL needs at least 2 samples of each class (one sample of a class is too few); "
                f"got class counts {dict(zip(self.classes_.tolist(), counts.tolist()))}"
            )

        # split every class in two: a pool for the ridge subsamples, a pool for the LP
        ridge_pool, lp_pool = [], []
        for c in range(2):
            idx = rng.permutation(np.flatnonzero(y_idx == c))
            half = idx.size // 2
            ridge_pool.append(idx[:half])
            lp_pool.append(idx[half:])
        k = int(min(self.subsample_size, min(p.size for p in ridge_pool)))
        self.subsample_indices_ = np.stack(
            [_balanced_indices(ridge_pool, k, rng) for _ in range(self.n_subsamples)]
        )
        k_lp = int(min(self.lp_size, min(p.size for p in lp_pool)))
        self.lp_indices_ = _balanced_indices(lp_pool, k_lp, rng)

        self.feature_sets_ = sets
        self.lambdas_ = lambdas
        first = X[self.subsample_indices_[0]]
        self.gammas_ = np.stack(
            [
                gamma_grid(
                    median=max(median_distance(first[:, s]), 1e-12),  # guard: constant columns
                    n_widths=self.n_widths,
                    low=self.width_low,
                    high=self.width_high,
                )
                for s in sets
            ]
        )
        self.X_subsamples_ = X[self.subsample_indices_]  # (n_subsamples, 2k, d)
        n_sub, n_sets, n_w, n_l = self.n_subsamples, len(sets), self.n_widths, lambdas.size
        coef = np.empty((n_sub, n_sets, n_w, n_l, 2 * k))
        eye = np.eye(2 * k)
        # many small factorisations: one BLAS thread each is far faster than a
        # thread pool contended by other processes
        with threadpool_limits(limits=1, user_api="blas"):
            for b in range(n_sub):
                yb = ys[self.subsample_indices_[b]]
                for si, s in enumerate(sets):
                    D2 = sq_distances(self.X_subsamples_[b][:, s])
                    for gi, g in enumerate(self.gammas_[si]):
                        K = np.exp(-g * D2)
                        for li, lam in enumerate(lambdas):
                            factor = scipy.linalg.cho_factor(K + lam * eye)  # K PSD, lam > 0: positive definite
                            coef[b, si, gi, li] = scipy.linalg.cho_solve(factor, yb)
        self.dual_coef_ = coef
        grids = np.meshgrid(np.arange(n_sub), np.arange(n_sets), np.arange(n_w), np.arange(n_l), indexing="ij")
        self.learner_params_ = np.stack([g.ravel() for g in grids], axis=1)
        n_learners = self.learner_params_.shape[0]
        self.scales_ = np.ones(n_learners)
        H = self._raw_outputs(X[self.lp_indices_], np.ones(n_learners, dtype=bool))
        scale = np.abs(H).max(axis=0)
        self.scales_ = np.where(scale > 0, scale, 1.0)  # guard: an all-zero learner stays zero
        H /= self.scales_
        y_lp = ys[self.lp_indices_]
        m = y_lp.size

        # choose nu (hence D) by inner CV of one LPBoost over all weak learners
        self.cv_scores_ = np.full(nus.size, np.nan)
        cache = {}
        if nus.size > 1:
            folds = np.empty(m, dtype=int)
            for c in (-1.0, 1.0):
                idx = rng.permutation(np.flatnonzero(y_lp == c))
                folds[idx] = np.arange(idx.size) % self.cv
            for ni, nu in enumerate(nus):
                scores = []
                for f in range(self.cv):
                    tr, te = folds != f, folds == f
                    if not np.any(te) or np.unique(y_lp[tr]).size < 2:
                        continue
                    a, b, _ = _solve_lpboost_lp(H[tr], y_lp[tr], 1.0 / (nu * tr.sum()), cache=cache)
                    pred = np.where(H[te] @ a + b >= 0, 1.0, -1.0)
                    recalls = [np.mean(pred[y_lp[te] == c] == c) for c in (-1.0, 1.0) if np.any(y_lp[te] == c)]
                    scores.append(np.mean(recalls))
                self.cv_scores_[ni] = np.mean(scores) if scores else np.nan
            best = int(np.nanargmax(self.cv_scores_)) if np.any(np.isfinite(self.cv_scores_)) else 0
        else:
            best = 0
        self.nu_ = float(nus[best])
        self.D_ = feasible_cap(y_lp, 1.0 / (self.nu_ * m))

        # the randomised ensemble: each member sees a random fraction of the weak learners
        n_half = max(1, int(round(self.learner_fraction * n_learners)))
        members = np.stack([np.sort(rng.choice(n_learners, size=n_half, replace=False)) for _ in range(self.n_estimators)])
        weights = np.empty(members.shape)
        intercepts = np.empty(self.n_estimators)
        for e, cols in enumerate(members):
            weights[e], intercepts[e], _ = _solve_lpboost_lp(H[:, cols], y_lp, self.D_, cache=cache)
        self.estimators_learners_ = members
        self.estimators_weights_ = weights
        self.estimators_intercepts_ = intercepts
        full = np.zeros((self.n_estimators, n_learners))
        np.put_along_axis(full, members, weights, axis=1)
        self.weights_ = full.mean(axis=0)
        return self

    # ------------------------------------------------------------------
    def _raw_outputs(self, X, active):
        """Weak-learner outputs ``h_j(x) / scale_j`` for the learners in ``active`` (others 0)."""
        n_sub, n_sets, n_w, n_l, _ = self.dual_coef_.shape
        out = np.zeros((X.shape[0], active.size))
        act = active.reshape(n_sub, n_sets, n_w, n_l)
        for start in range(0, X.shape[0], _CHUNK):
            Xc = X[start : start + _CHUNK]
            block = out[start : start + _CHUNK].reshape(Xc.shape[0], n_sub, n_sets, n_w, n_l)
            for b in range(n_sub):
                for si, s in enumerate(self.feature_sets_):
                    if not act[b, si].any():
                        continue
                    D2 = sq_distances(Xc[:, s], self.X_subsamples_[b][:, s])
                    for gi, g in enumerate(self.gammas_[si]):
                        if not act[b, si, gi].any():
                            continue
                        block[:, b, si, gi, :] = np.exp(-g * D2) @ self.dual_coef_[b, si, gi].T
        out[:, ~active] = 0.0
        return out / self.scales_

    def _margins(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        active = self.weights_ > 0
        H = self._raw_outputs(X, active)
        full = np.zeros((self.n_estimators, self.weights_.size))
        np.put_along_axis(full, self.estimators_learners_, self.estimators_weights_, axis=1)
        return H @ full.T + self.estimators_intercepts_  # (n_samples, n_estimators)

    def decision_function(self, X):
        """The ensemble's vote, with ties broken by the mean margin; > 0 iff the prediction is ``classes_[1]``.

        ``score = (2 v - 1) + tanh(mean margin) / (n_estimators + 1)``, where
        ``v`` is the share of members voting for ``classes_[1]`` and the mean
        margin is ``mean_k (sum_j a_kj h_j(x) + b_k)``. The second term is
        smaller than half the step between two vote shares, so the score
        orders samples by votes first and by mean margin among equal votes:
        a continuous score that ranks the windows of a sequence and agrees
        with the majority vote of :meth:`predict`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,)
        """
        F = self._margins(X)
        return (2.0 * (F > 0).mean(axis=1) - 1.0) + np.tanh(F.mean(axis=1)) / (self.n_estimators + 1)

    def mean_margin(self, X):
        """Mean ensemble margin ``mean_k (sum_j a_kj h_j(x) + b_k)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        margin : ndarray of shape (n_samples,)
        """
        return self._margins(X).mean(axis=1)

    def vote_share(self, X):
        """Fraction of ensemble members voting for ``classes_[1]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        share : ndarray of shape (n_samples,)
        """
        return (self._margins(X) > 0).mean(axis=1)

