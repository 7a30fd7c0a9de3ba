"""Stability selection with Lasso, l1-logistic regression or LPBoost (thesis 2.4.4, algorithm 2, 3.2.1)."""

from __future__ import annotations

import functools
import warnings
from numbers import Integral, Real

import numpy as np
from scipy.special import expit
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import SelectorMixin
from sklearn.linear_model import LogisticRegression, lars_path, lasso_path
from sklearn.svm import l1_min_c
from joblib import Parallel, delayed, effective_n_jobs
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, StrOptions, _fit_context
from .._validation import check_fit_data
from .._scaling import column_scales
from ._ranking import ranking_from_scores

__all__ = ["StabilitySelection"]


@functools.lru_cache(maxsize=64)
def _liblinear_seed(seed):
    """liblinear's seed under ``LogisticRegression(random_state=seed)``: ``check_random_state(seed).randint(INT_MAX)``."""
    return int(check_random_state(seed).randint(np.iinfo("i").max))


class _L1Logistic:
    """Supports of ``LogisticRegression(l1_ratio=1, solver="liblinear", C=C, random_state=seed)``, fast.

    Stability selection fits 5,000 small l1-logistic models per selector fit (1,000 subsamples x 5 values
    of ``C``); ``LogisticRegression.fit`` spends most of each validating its input and parameters
    (``bench/bench_fast_paths.py`` (a) times both). This calls liblinear's trainer (scikit-learn's ``_liblinear.train_wrap``)
    with exactly the arguments ``LogisticRegression.fit`` gives it, so the weights are identical. The
    private entry point is checked once against ``LogisticRegression`` on a small problem; if it is
    missing, has another signature or gives other weights (another scikit-learn version), the public
    estimator is used.
    """

    _fast = None  # None: not checked yet; then True / False

    def __init__(self, seed):
        self.seed = seed
        self._liblinear_seed = _liblinear_seed(seed)

    def _reference(self, Z, y, C):
        clf = LogisticRegression(l1_ratio=1, solver="liblinear", C=C, random_state=self.seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf.fit(Z, y)
        return clf.coef_[0], float(clf.intercept_[0])

    def _train(self, Z, y, C):
        from sklearn.svm import _liblinear

        # the defaults of LogisticRegression: tol 1e-4, intercept (bias) 1, max_iter 100; labels encoded
        # 0/1 in sorted order; unit class and sample weights; solver 6 = L1R_LR (l1-regularised primal)
        y_ind = (y == np.max(y)).astype(np.float64)
        raw, _ = _liblinear.train_wrap(Z, y_ind, False, 6, 1e-4, 1.0, float(C), np.ones(2), 100,
                                       self._liblinear_seed, 0.1, np.ones(Z.shape[0]))
        return raw[0, :-1], float(raw[0, -1])

    @classmethod
    def _check_fast(cls):
        try:
            rng = np.random.default_rng(0)
            Z = rng.normal(size=(40, 12))
            y = np.where(Z[:, 0] - Z[:, 3] + 0.5 * rng.normal(size=40) > 0, 1.0, -1.0)
            probe = cls(7)
            return all(np.array_equal(np.r_[probe._reference(Z, y, C)], np.r_[probe._train(Z, y, C)])
                       for C in (0.05, 0.3, 2.0))
        except Exception:  # noqa: BLE001 - any failure of the private path means: use the public one
            return False

    def fit(self, Z, y, C):
        """Weights and intercept of the fitted model (``coef_[0]``, ``intercept_[0]``): ``y`` in {-1, +1}."""
        if _L1Logistic._fast is None:
            _L1Logistic._fast = self._check_fast()
        if not _L1Logistic._fast:
            return self._reference(Z, y, C)
        return self._train(np.ascontiguousarray(Z, dtype=np.float64), y, C)

    def coef(self, Z, y, C):
        """The weights of the fitted model (``coef_[0]``): ``Z`` C-contiguous float64, ``y`` in {-1, +1}."""
        return self.fit(Z, y, C)[0]

    def coef_working_set(self, Z, y, C, start):
        """The weights of the same problem solved on a working set of features grown until optimal.

        liblinear's problem is ``min ||w||_1 + |b| + C sum_i log(1 + exp(-y_i (z_i.w + b)))``. A weight
        ``w_j = 0`` is optimal when ``C |sum_i y_i z_ij sigma(-y_i f_i)| <= 1`` (the KKT condition). The
        problem is solved on the features ``start`` only; every other feature that violates its condition at
        that solution joins the working set, and the problem is solved again, until none does. The result
        solves the whole problem: on wide data (65 x 7,129) the working set holds ~2x as many features as
        samples and one or two solves suffice.

        It is not bit-identical to ``coef``, and it is closer to the optimum: liblinear stops at a tolerance
        relative to the initial gradient, which over thousands of features is loose (the comparison with a
        tight solve is in ``docs/deviations.md``).
        """
        n = Z.shape[1]
        in_set = np.zeros(n, dtype=bool)
        in_set[start] = True
        while True:
            cols = np.flatnonzero(in_set)
            Zw = np.ascontiguousarray(Z[:, cols], dtype=np.float64)
            w, b = self.fit(Zw, y, C)
            if cols.size == n:
                return w
            margin = y * (Zw @ w + b)
            gradient = C * np.abs(Z.T @ (y * expit(-margin)))
            violators = ~in_set & (gradient > 1.0)
            if not violators.any():
                out = np.zeros(n)
                out[cols] = w
                return out
            in_set |= violators


class _LassoPathCD:
    """Supports of :func:`sklearn.linear_model.lasso_path` at ``alphas``, fast: the same coordinate descent.

    Stability selection solves 5,000 small lasso paths per selector fit (1,000 subsamples x 5 values of
    ``alpha``); on a 135 x 200 subsample ``lasso_path`` spends about a third of each validating and
    preparing its input (``bench/bench_fast_paths.py`` (d) times both). This calls scikit-learn's
    coordinate-descent kernel (``_cd_fast.enet_coordinate_descent``) with exactly the arguments
    ``lasso_path`` gives it on dense input (a Fortran-ordered copy of ``Z``, ``alpha * m`` and 0 as the
    penalties, ``max_iter=1000``, ``tol=1e-4``, the global random state, cyclic updates, warm starts from
    the previous ``alpha``; the Gram matrix ``Z'Z`` and ``Z'y`` when samples outnumber features, as
    ``precompute="auto"`` does), so the weights are identical. The private entry point is checked once against
    ``lasso_path`` on small problems; if it is missing, has another signature or gives other weights
    (another scikit-learn version), ``lasso_path`` is used.
    """

    _fast = None  # None: not checked yet; then True / False

    @staticmethod
    def _reference(Z, y, alphas):
        _, coefs, _ = lasso_path(Z, y, alphas=alphas)
        return coefs  # (n, n_alphas)

    @staticmethod
    def _train(Z, y, alphas):
        from sklearn.linear_model import _cd_fast
        from sklearn.utils import check_random_state as _rs

        m, n = Z.shape
        Xf = np.asfortranarray(Z, dtype=np.float64)
        yc = np.ascontiguousarray(y, dtype=np.float64)
        rng = _rs(None)  # lasso_path's random_state=None: the global state (one draw per solve, as there)
        order = np.sort(np.asarray(alphas, dtype=np.float64))[::-1]
        coef = np.zeros(n, dtype=np.float64)
        coefs = np.empty((n, order.size), dtype=np.float64)
        if m > n:  # lasso_path's precompute="auto": the Gram matrix when samples outnumber features
            gram = np.empty((n, n), dtype=np.float64, order="C")
            np.dot(Xf.T, Xf, out=gram)
            xy = np.empty(n, dtype=np.float64, order="C")
            np.dot(Xf.T, yc, out=xy)
        for i, alpha in enumerate(order):
            l1, l2 = alpha * 1.0 * m, alpha * (1.0 - 1.0) * m  # lasso_path: l1_ratio = 1, penalties x m
            if m > n:
                coef, _, _, _ = _cd_fast.enet_coordinate_descent_gram(
                    coef, l1, l2, gram, xy, yc, 1000, 1e-4, rng, False, False, True)
            else:
                coef, _, _, _ = _cd_fast.enet_coordinate_descent(
                    coef, l1, l2, Xf, yc, 1000, 1e-4, rng, False, False, True)
            coefs[:, i] = coef
        return coefs

    @classmethod
    def _check_fast(cls):
        try:
            rng = np.random.default_rng(0)
            for m, n in ((30, 12), (20, 45)):
                Z = rng.normal(size=(m, n))
                y = Z[:, 0] - Z[:, 3] + 0.5 * rng.normal(size=m)
                y -= y.mean()
                alphas = np.max(np.abs(Z.T @ y)) / m * np.geomspace(1.0, 0.05, 6)[1:]
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", ConvergenceWarning)
                    if not np.array_equal(cls._reference(Z, y, alphas), cls._train(Z, y, alphas)):
                        return False
            return True
        except Exception:  # noqa: BLE001 - any failure of the private path means: use the public one
            return False

    @classmethod
    def supports(cls, Z, y, alphas):
        """Boolean (n_alphas, n): the non-zero weights of ``lasso_path(Z, y, alphas=alphas)`` (alphas decreasing)."""
        if cls._fast is None:
            cls._fast = cls._check_fast()
        coefs = cls._train(Z, y, alphas) if cls._fast else cls._reference(Z, y, alphas)
        return (coefs != 0).T


def _lars_supports(Z, y, alphas, max_steps=None):
    """Supports of the exact lasso solutions at ``alphas`` from the LARS-lasso path (Efron et al. 2004).

    The lasso path is piecewise linear in ``alpha`` between the breakpoints LARS returns (same scaling as
    :func:`sklearn.linear_model.lasso_path`: ``(1/2m)||y - Zw||^2 + alpha ||w||_1``, no intercept); between
    two breakpoints the active set is fixed, so a feature is selected there when it is non-zero at either end.

    ``lars_path`` allocates its path for ``max_iter`` steps (500 by default: 28 MB for 7,129 features,
    a fifth of a subsample's time at 36 x 7,129); the path is computed with room for ``2 m + 16`` steps
    first, which the lasso paths of stability selection's half-samples do not reach (17-59 steps on the
    four micro-arrays). The steps are the same arithmetic whatever ``max_iter`` (it only sizes the
    arrays and bounds the loop), so the path is identical; a path that reaches the bound is computed
    again with the default. ``max_steps`` overrides the bound ``2 m + 16``.
    """
    alpha_min = float(np.min(alphas))
    cap = min(500, 2 * Z.shape[0] + 16) if max_steps is None else int(max_steps)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LARS' collinearity / early-stopping notes on p >> m
        bp, _, coefs, n_iter = lars_path(Z, y, method="lasso", alpha_min=alpha_min, return_path=True,
                                         max_iter=cap, return_n_iter=True)
        if n_iter >= cap:  # the bound was reached: the reference, with lars_path's default max_iter
            bp, _, coefs = lars_path(Z, y, method="lasso", alpha_min=alpha_min, return_path=True)
    return _supports_from_breakpoints(bp, coefs, alphas)


def _supports_from_breakpoints(bp, coefs, alphas):
    """Boolean (n_alphas, n) supports at ``alphas`` of a LARS-lasso path (breakpoints ``bp``, ``coefs``)."""
    nz = coefs != 0  # (n, n_breakpoints), breakpoints decreasing
    out = np.zeros((len(alphas), coefs.shape[0]), dtype=bool)
    for i, a in enumerate(alphas):
        k = int(np.searchsorted(-bp, -a, side="left"))  # first breakpoint <= a
        if k < bp.size and bp[k] == a:
            out[i] = nz[:, k]
        elif k == 0:
            out[i] = nz[:, 0]
        elif k >= bp.size:
            out[i] = nz[:, -1]
        else:
            out[i] = nz[:, k - 1] | nz[:, k]
    return out


def _subsample(rng, y_codes, fraction):
    """Indices of a random subsample of ``fraction`` of the samples, stratified by ``y_codes``.

    Each class keeps
    ``max(1, floor(fraction * m_c))`` samples, so every class is present.
    """
    idx = []
    for c in np.unique(y_codes):
        members = np.flatnonzero(y_codes == c)
        k = max(1, int(np.floor(fraction * members.size)))
        idx.append(rng.choice(members, size=k, replace=False))
    return np.sort(np.concatenate(idx))


class StabilitySelection(SelectorMixin, BaseEstimator):
    """Stability selection: selection frequencies of a sparse learner over subsamples.

    For each of ``n_bootstraps`` subsamples of half of the data (drawn without
    replacement, stratified by class for classification targets) the sparse
    learner is fitted for every value of a grid of regularisation parameters,
    and every feature with a non-zero weight has its counter incremented
    (thesis algorithm 2). ``stability_scores_`` holds the selection
    frequencies per grid value, ``scores_`` their maximum over the grid
    (Meinshausen and Buhlmann's stability path maximum), and ``get_support()``
    the features with ``scores_ >= threshold``.

    Parameters
    ----------
    learner : {"lasso", "logistic", "lpboost"}, default="lasso"
        ``"lasso"``: :func:`sklearn.linear_model.lasso_path` (definition
        2.4.3) on centred, standardised features; the grid is
        ``alpha_max * ratios`` with ``alpha_max = max |Z'y| / m``.
        ``"logistic"``: l1-regularised logistic regression (eq. 3.2,
        ``LogisticRegression(l1_ratio=1, solver="liblinear")``), grid
        ``C = l1_min_c / ratios``. ``"lpboost"``: :class:`fscompbio.prediction.LPBoost`'s
        linear program (eq. 3.4) with single features as weak learners, grid
        ``nus``. ``ratios = geomspace(1, lambda_min_ratio, n_lambdas + 1)[1:]``
        (the empty model at ratio 1 is left out). Multiclass targets: one
        one-vs-rest problem per class, a feature counts if any selects it.
    n_bootstraps : int, default=100
        Number of subsamples (thesis: 1000).
    sample_fraction : float in (0, 1), default=0.5
        Size of each subsample as a fraction of the samples.
    n_lambdas : int, default=5
        Grid size for lasso and logistic.
    lambda_min_ratio : float in (0, 1), default=0.1
        Smallest regularisation as a fraction of the one that selects nothing.
    nus : array-like of float in (0, 1], default=(0.6, 0.7, 0.8, 0.9, 1.0)
        The LPBoost grid: cap ``D = 1 / (nu m)`` (raised to the smallest
        feasible cap if needed). Larger ``nu`` = sparser.
    threshold : float in (0.5, 1], default=0.6
        ``pi_thr``: the support is ``scores_ >= threshold``.
    random_state : int, RandomState instance or None, default=None
        Subsampling (and the logistic solver's seed).
    n_jobs : int or None, default=None
        Processes over which the subsamples are spread (joblib; None: 1, or
        the enclosing ``joblib.parallel_config``). The subsamples are drawn
        before they are spread, so the result does not depend on ``n_jobs``.
    lasso_solver : {"cd", "lars"}, default="cd"
        How the lasso is solved (``learner="lasso"``). ``"cd"``:
        :func:`sklearn.linear_model.lasso_path` (coordinate descent to a
        duality gap of 1e-4). ``"lars"``: the exact solutions read off the
        LARS-lasso path (Efron et al. 2004; the solver Meinshausen and
        Buhlmann used), faster when features far outnumber samples
        (``bench/bench_fast_paths.py`` (c)); the supports differ from coordinate descent's in ~0.3% of
        the (subsample, grid value, feature) entries, where a weight is near zero.
    logistic_solver : {"working_set", "liblinear"}, default="working_set"
        How the l1-logistic problems are solved (``learner="logistic"``).
        Both solve liblinear's problem (the one of ``LogisticRegression(l1_ratio=1,
        solver="liblinear")``). ``"liblinear"``: one liblinear solve on all
        features, weights identical to ``LogisticRegression``. ``"working_set"``:
        when features outnumber twice the subsample, liblinear on a working set
        (the 2m features most correlated with the labels, plus the support at
        the previous ``C``) grown by every feature that violates its optimality
        condition until none does (a KKT check, as with the strong rules of
        Tibshirani et al. 2012): many times faster on wide data, and closer to
        the exact solution than one liblinear solve on all features (whose
        tolerance is relative to the gradient over all of them; the numbers
        are in ``docs/deviations.md``); otherwise the same as ``"liblinear"``.
    lp_solver : {"column_generation", "cvxpy"}, default="column_generation"
        How LPBoost's linear program is solved. ``"column_generation"``:
        :class:`fscompbio.prediction._lpboost.ColumnGenerationLP` (HiGHS, a
        working set of learners, warm-started across the ``nus`` grid; about
        50 times faster); ``"cvxpy"``: the whole primal LP with cvxpy
        (:class:`fscompbio.prediction._lpboost.PrimalLP`), the reference.
        Both give the same optimum (tested).

    Attributes
    ----------
    stability_scores_ : ndarray of shape (n_lambdas, n_features_in_)
        Selection frequency of every feature at every grid value.
    lambdas_ : ndarray of shape (n_lambdas,)
        The grid: lasso ``alpha``, logistic ``C`` or LPBoost ``nu``, from the
        strongest to the weakest regularisation.
    scores_ : ndarray of shape (n_features_in_,)
        ``max`` over the grid of ``stability_scores_``.
    ranking_ : ndarray of shape (n_features_in_,)
        1 = best; ties of ``scores_`` are broken by the mean frequency over
        the grid, then by the lower index.
    q_ : float
        Mean number of features selected per subsample over the whole grid
        (the size of the union over the grid), Meinshausen and Buhlmann's ``q_Lambda``.
    expected_false_selections_ : float
        The bound of eq. 2.7, ``E(V) <= q^2 / ((2 pi_thr - 1) p)``.
    subsamples_ : ndarray of shape (n_bootstraps, subsample size), int
        The drawn subsamples (for auditing).
    n_features_in_ : int

    References
    ----------
    Meinshausen and Buhlmann (2010). Stability selection. JRSS B 72:417-473.
    """

    _parameter_constraints: dict = {
        "learner": [StrOptions({"lasso", "logistic", "lpboost"})],
        "n_bootstraps": [Interval(Integral, 1, None, closed="left")],
        "sample_fraction": [Interval(Real, 0, 1, closed="neither")],
        "n_lambdas": [Interval(Integral, 1, None, closed="left")],
        "lambda_min_ratio": [Interval(Real, 0, 1, closed="neither")],
        "nus": ["array-like"],
        "threshold": [Interval(Real, 0.5, 1, closed="right")],
        "random_state": ["random_state"],
        "n_jobs": [Integral, None],
        "lasso_solver": [StrOptions({"cd", "lars"})],
        "logistic_solver": [StrOptions({"working_set", "liblinear"})],
        "lp_solver": [StrOptions({"column_generation", "cvxpy"})],
    }

    def __init__(
        self,
        *,
        learner="lasso",
        n_bootstraps=100,
        sample_fraction=0.5,
        n_lambdas=5,
        lambda_min_ratio=0.1,
        nus=(0.6, 0.7, 0.8, 0.9, 1.0),
        threshold=0.6,
        random_state=None,
        n_jobs=None,
        lasso_solver="cd",
        logistic_solver="working_set",
        lp_solver="column_generation",
    ):
        self.learner = learner
        self.n_bootstraps = n_bootstraps
        self.sample_fraction = sample_fraction
        self.n_lambdas = n_lambdas
        self.lambda_min_ratio = lambda_min_ratio
        self.nus = nus
        self.threshold = threshold
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.lasso_solver = lasso_solver
        self.logistic_solver = logistic_solver
        self.lp_solver = lp_solver

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Run the subsamples and count the selections.

        Parameters
        ----------
        X : array-like of shape (m, n)
        y : array-like of shape (m,)
            Class labels (any learner) or real values (lasso only).

        Returns
        -------
        self
        """
        X, y = check_fit_data(self, X, y, why_dense="its learners run on centred, scaled columns",
                              y_numeric=self.learner == "lasso")
        rng = check_random_state(self.random_state)
        m, n = X.shape
        target = type_of_target(y)
        classification = target in ("binary", "multiclass")
        if self.learner != "lasso":
            check_classification_targets(y)
        if classification or self.learner != "lasso":
            n_classes = np.unique(y).size
            if n_classes < 2:
                raise ValueError(
                    f"StabilitySelection(learner={self.learner!r}) needs at least 2 classes in y; got {n_classes} class"
                )
        if classification:
            classes, codes = np.unique(y, return_inverse=True)
            # one {-1,+1} target per one-vs-rest problem (a single one when binary)
            Y = np.where(codes[:, None] == (np.arange(classes.size) if classes.size > 2 else [1]), 1.0, -1.0)
        else:
            codes = None
            Y = y.astype(float)[:, None]
        mean, sd = column_scales(X)
        Z = (X - mean) / sd
        ratios = np.geomspace(1.0, self.lambda_min_ratio, self.n_lambdas + 1)[1:]
        if self.learner == "lasso":
            Yc = Y - Y.mean(axis=0)
            alpha_max = float(np.max(np.abs(Z.T @ Yc)) / m)
            if alpha_max <= 0:
                alpha_max = 1.0  # constant target or features: nothing can be selected anyway
            lambdas = alpha_max * ratios
        elif self.learner == "logistic":
            cmin = max(l1_min_c(Z, y, loss="log"), 1e-12)  # guard a degenerate (constant) design
            lambdas = cmin / ratios
        else:
            nus = np.asarray(self.nus, dtype=float).ravel()
            if nus.size == 0 or np.any(nus <= 0) or np.any(nus > 1):
                raise ValueError(f"nus must be non-empty values in (0, 1]; got {self.nus!r}")
            lambdas = np.sort(nus)[::-1]  # strongest regularisation (sparsest) first
        subs = []
        seed = rng.randint(2**31 - 1)
        for b in range(self.n_bootstraps):
            if codes is not None:
                idx = _subsample(rng, codes, self.sample_fraction)
            else:
                k = max(2, int(np.floor(self.sample_fraction * m)))
                idx = np.sort(rng.choice(m, size=min(k, m), replace=False))
            subs.append(idx)
        n_jobs = min(effective_n_jobs(self.n_jobs), self.n_bootstraps)
        if n_jobs > 1:
            chunks = np.array_split(np.arange(self.n_bootstraps), n_jobs)
            parts = Parallel(n_jobs=n_jobs)(
                delayed(self._select_subsamples)(Z, Y, [subs[b] for b in chunk], lambdas, seed) for chunk in chunks
            )
            sels = np.concatenate(parts, axis=0)
        else:
            sels = self._select_subsamples(Z, Y, subs, lambdas, seed)  # (n_bootstraps, n_lambdas, n) bool
        counts = sels.sum(axis=0, dtype=float)
        union_sizes = np.count_nonzero(sels.any(axis=1), axis=1).astype(float)
        freqs = counts / self.n_bootstraps
        self.stability_scores_ = freqs
        self.lambdas_ = lambdas
        self.scores_ = freqs.max(axis=0)
        self.ranking_ = ranking_from_scores(self.scores_, freqs.mean(axis=0))
        self.q_ = float(union_sizes.mean())
        self.expected_false_selections_ = self.q_**2 / ((2.0 * self.threshold - 1.0) * n)
        lengths = {s.size for s in subs}
        self.subsamples_ = np.vstack(subs) if len(lengths) == 1 else np.array(subs, dtype=object)
        return self

    def _select_subsamples(self, Z, Y, subs, lambdas, seed):
        """Boolean (len(subs), n_lambdas, n) selections of the subsamples ``subs``."""
        lp_cache = {}
        return np.stack([self._select_subsample(Z[idx], Y[idx], lambdas, seed, lp_cache) for idx in subs])

    def _select_subsample(self, Zs, Ys, lambdas, seed, lp_cache):
        """Boolean (n_lambdas, n) selection of one subsample."""
        n = Zs.shape[1]
        # re-standardise on the subsample (constant columns stay zero)
        mu, sd = column_scales(Zs)
        Zs = (Zs - mu) / sd
        sel = np.zeros((lambdas.size, n), dtype=bool)
        if self.learner == "lasso":
            Yc = Ys - Ys.mean(axis=0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                for t in range(Yc.shape[1]):
                    if self.lasso_solver == "lars":
                        sel |= _lars_supports(Zs, Yc[:, t], lambdas)
                    else:
                        sel |= _LassoPathCD.supports(Zs, Yc[:, t], lambdas)
        elif self.learner == "logistic":
            model = _L1Logistic(seed)  # LogisticRegression(l1_ratio=1, solver="liblinear", C, random_state=seed)
            ms = Zs.shape[0]
            # a working set pays off when features outnumber twice the samples (its first size)
            working_set = self.logistic_solver == "working_set" and n > 2 * ms
            for t in range(Ys.shape[1]):  # one-vs-rest for multiclass (liblinear is binary)
                yt = Ys[:, t]
                if np.unique(yt).size < 2:
                    raise ValueError("This solver needs samples of at least 2 classes in the data, but the data "
                                     f"contains only one class: {Ys[0, t]!r}")
                if working_set:
                    # the 2m features most correlated with the labels, then each C's support for the next
                    # (C increasing: supports grow); optimality is checked on every feature
                    start = np.argsort(-np.abs(Zs.T @ yt), kind="stable")[: 2 * ms]
                for i, C in enumerate(lambdas):
                    if working_set:
                        w = model.coef_working_set(Zs, yt, C, start)
                        start = np.union1d(start, np.flatnonzero(w))
                    else:
                        w = model.coef(Zs, yt, C)
                    sel[i] |= w != 0
        else:
            from ..prediction import ColumnGenerationLP, feasible_cap

            ms = Zs.shape[0]
            H = np.hstack([Zs, -Zs]) if self.lp_solver == "cvxpy" else None  # the learners: every feature, both signs
            for t in range(Ys.shape[1]):
                yt = Ys[:, t]
                if self.lp_solver == "column_generation":
                    # one working set and basis for the whole grid: only the cap changes
                    solve = ColumnGenerationLP(None, yt, signed_features=Zs).solve  # H = [Zs, -Zs]
                else:
                    # cvxpy is imported only when this reference path is used (it is slow to import)
                    from ..prediction import PrimalLP

                    key = (ms, 2 * n)
                    if key not in lp_cache:
                        lp_cache[key] = PrimalLP(ms, 2 * n)

                    def solve(cap, lp=lp_cache[key], yt=yt):
                        return lp.solve(H, yt, cap)[0], None

                for i, nu in enumerate(lambdas):  # nu decreasing: caps increasing
                    cap = feasible_cap(yt, 1.0 / (nu * ms))
                    a = solve(cap)[0]
                    sel[i] |= (a[:n] + a[n:]) > 1e-8  # weights below solver tolerance count as zero
        return sel

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.scores_ >= self.threshold

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags
