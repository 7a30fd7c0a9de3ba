"""Model selection for a ranked feature list: greedy KTA (algorithm 3) and nested CV (2.5.1).

Both take a ranking of the features (``ranking_``, 1 = best, as every
``fscompbio`` selector exposes it) and choose how many of the top-ranked
features to keep and the width of the Gaussian kernel of the final SVM:

* :class:`KTASelect` walks the ranked list once and keeps the prefix and width
  with the highest centred kernel target alignment on the training data (thesis
  algorithm 3, section 3.1): no inner cross-validation at all.
* :class:`OwnModelSelect` keeps the selector's own model (``get_support()``,
  e.g. randSel's selected set of thesis 4.2.4) and only chooses the width by
  alignment, as KTA does.
* :class:`NestedCVSelect` runs the inner loop of the nested cross-validation of
  section 2.5.1: the selector is refitted on every inner training fold, and the
  number of features and the width are chosen by the inner-CV accuracy of a
  Gaussian SVM with ``C = 1`` (ties go to the smaller model).

All three are scikit-learn meta-estimators around any ranking selector, e.g.
``KTASelect(BaHSIC())``: ``fit(X, y)`` fits the selector and chooses the model,
and ``transform``, ``get_support`` and ``get_feature_names_out`` then keep the
chosen features, so they go into a ``Pipeline`` or ``GridSearchCV`` like any
selector (``make_pipeline(KTASelect(BaHSIC()), SVC())``); the chosen size and
width are the fitted attributes ``n_features_``, ``gamma_`` and ``sigma_``.
Their ``select`` method runs the model selection alone on a ranking (or a
selector) that the caller fitted, and returns a :class:`ModelSelectionResult`
(chosen features, gamma, the time taken).

The label kernel of the alignment follows the target (``label_kind="auto"``):
``y y^T`` on {-1, +1} for two classes, the one-hot kernel ``[y_i = y_j]`` for
several classes, a Gaussian kernel (median width) for a real-valued target. The Gaussian widths are a grid *relative to the median pairwise
distance of the candidate feature subset*, ``sigma = median * 10**t`` for ``t``
in ``linspace(low, high, n_widths)``, because the scale of the distances grows
with the number of features (thesis figure 3.1); an absolute grid of ``gammas``
may be given instead.

Speed: both build the squared distances of the prefixes cumulatively
(``D2(prefix k+1) = D2(prefix k) + (x_k - x_k')^2``, feature after feature in
the order of the ranking, which fixes every rounding), so every prefix costs
``O(m^2)`` per width and no kernel is recomputed from scratch; nested CV builds
them once per inner fold for the training and the validation rows together and
calls SVC's libsvm routines directly, without SVC's per-call validation.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.feature_selection import SelectorMixin
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.svm import SVC
from sklearn.utils import check_random_state
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_array, check_is_fitted, check_X_y, column_or_1d

try:  # the libsvm binding behind SVC (its fit and predict): see _PrecomputedSVC
    from sklearn.svm import _libsvm
except ImportError:  # pragma: no cover
    _libsvm = None

from ._compat import HasMethods, Interval, StrOptions, _fit_context
from ._validation import check_fit_data
from ._warnings import selected_set_unused, warn
from ._pairs import CenteredTarget, PairLayout, batched_alignment
from .kernels import (auto_label_kind, gamma_to_sigma, label_kernel, median_sq_distance, sigma_to_gamma,
                      task_of_target)

__all__ = [
    "ModelSelectionResult",
    "KTASelect",
    "NestedCVSelect",
    "NestedCVRegressionSelect",
    "OwnModelSelect",
    "prefix_sizes",
    "default_cv_sizes",
    "ranking_order",
    "resolve_label_kind",
]


@dataclass
class ModelSelectionResult:
    """What a model selector chose.

    Attributes
    ----------
    features : ndarray of shape (k,), int
        Chosen feature indices, best-ranked first (:class:`OwnModelSelect`: in the order of the columns).
    gamma : float
        Factor of the final Gaussian kernel ``exp(-gamma ||x - x'||^2)``.
    sigma : float
        The same as a width, ``1 / sqrt(2 gamma)``.
    score : float
        The criterion of the chosen model (alignment, or mean inner-CV accuracy).
    seconds : float
        Wall-clock time of the model selection (for nested CV: including the
        selector refits on the inner folds).
    sizes : ndarray of shape (n_sizes,), int
        The candidate numbers of features that were evaluated.
    log10_multipliers : ndarray of shape (n_widths,)
        The width grid as ``log10(sigma / median distance)`` (NaN for an
        absolute ``gammas`` grid).
    scores : ndarray of shape (n_sizes, n_widths)
        The criterion for every candidate.
    """

    features: np.ndarray
    gamma: float
    sigma: float
    score: float
    seconds: float
    sizes: np.ndarray
    log10_multipliers: np.ndarray
    scores: np.ndarray = field(repr=False)

    @property
    def n_features(self):
        """Number of chosen features."""
        return int(self.features.size)

    def to_dict(self):
        """A JSON-friendly dict (without the score table)."""
        return {
            "features": [int(f) for f in self.features],
            "n_features": self.n_features,
            "gamma": float(self.gamma),
            "sigma": float(self.sigma),
            "score": float(self.score),
            "seconds": float(self.seconds),
        }


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------
def ranking_order(ranking):
    """Feature indices sorted best first from a ``ranking_`` (1 = best), stable.

    Parameters
    ----------
    ranking : array-like of shape (n_features,)

    Returns
    -------
    order : ndarray of shape (n_features,), int
    """
    ranking = np.asarray(ranking)
    if ranking.ndim != 1 or ranking.size == 0:
        raise ValueError(f"ranking must be a non-empty 1-D array; got shape {ranking.shape}")
    return np.argsort(ranking, kind="stable")


def prefix_sizes(n_features, max_sizes=None):
    """Candidate prefix sizes ``1..n_features``, or at most ``max_sizes`` of them.

    With ``max_sizes`` the sizes are ``1..n`` thinned to a geometric grid
    (``unique(round(geomspace(1, n, max_sizes)))``, always containing 1 and
    ``n``): dense among small models, where the alignment changes fastest, and
    sparse among large ones. This is the documented shortcut for very
    high-dimensional data; ``None`` evaluates every prefix as algorithm 3 does.
    """
    n_features = int(n_features)
    if n_features < 1:
        raise ValueError(f"n_features must be >= 1; got {n_features}")
    if max_sizes is None or max_sizes >= n_features:
        return np.arange(1, n_features + 1)
    if max_sizes < 2:
        raise ValueError(f"max_sizes must be >= 2 or None; got {max_sizes!r}")
    sizes = np.unique(np.round(np.geomspace(1, n_features, int(max_sizes))).astype(int))
    return sizes


def _width_grid(n_widths, low, high):
    return np.linspace(low, high, n_widths)


def _gammas_for(d2_pairs, gammas, multipliers):
    """The gamma grid for one candidate: absolute, or relative to its median distance."""
    if gammas is not None:
        return np.asarray(gammas, dtype=float)
    med = float(np.sqrt(median_sq_distance(d2_pairs)))  # zeros ignored; 1.0 when every distance is zero
    return sigma_to_gamma(med * 10.0**multipliers)


def resolve_label_kind(y, label_kind="auto"):
    """The label kernel for a target: ``label_kind`` itself, or the one that ``"auto"`` picks.

    ``"auto"``: ``"linear"`` (``y y^T`` on {-1, +1}) for two distinct labels, whatever their type (so a
    binary target gives exactly the alignment of thesis algorithm 3), ``"onehot"`` for several classes,
    ``"gaussian"`` (median width) for a real-valued target.

    Examples
    --------
    >>> resolve_label_kind(["a", "b", "a"]), resolve_label_kind([0, 1, 2]), resolve_label_kind([0.1, 0.7, 2.5])
    ('linear', 'onehot', 'gaussian')
    """
    if label_kind == "auto" and np.unique(np.asarray(y)).size == 2:
        return "linear"
    return auto_label_kind(y, "label_kind", kind=label_kind)


def _ranking_of(fitted, n_features):
    """A fitted selector's ``ranking_`` (1 = best), else one from its ``scores_`` (higher = better)."""
    ranking = getattr(fitted, "ranking_", None)
    if ranking is None:
        scores = getattr(fitted, "scores_", None)
        if scores is None:
            raise ValueError(
                f"{type(fitted).__name__} has neither ranking_ nor scores_ after fit: KTASelect and NestedCVSelect "
                "need a ranking selector (every fscompbio selector, or one with scores_)"
            )
        scores = np.asarray(scores, dtype=float)
        ranking = np.empty(scores.size, dtype=np.intp)
        ranking[np.argsort(-scores, kind="stable")] = np.arange(1, scores.size + 1)
    ranking = np.asarray(ranking)
    if ranking.shape != (n_features,):
        raise ValueError(f"{type(fitted).__name__}.ranking_ has shape {ranking.shape}; X has {n_features} features")
    return ranking


def _default_selector():
    from .selection import BaHSIC  # the thesis' backward HSIC elimination: any task, non-linear

    return BaHSIC()


class _ModelSelectorMixin(SelectorMixin):
    """``fit``/``transform`` of the model selectors: fit the selector, choose the model, keep its features.

    Subclasses implement ``_choose(X, y, selector) -> ModelSelectionResult`` and set ``self.selector_``.
    """

    _why_dense = "Gaussian kernels on the chosen features"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def _selector(self):
        return self.selector if self.selector is not None else _default_selector()

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Fit the selector on ``(X, y)`` and choose the number of features and the width.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels (strings or integers) or, for :class:`KTASelect` and
            :class:`OwnModelSelect`, a real-valued target.

        Returns
        -------
        self
        """
        X, y = check_fit_data(self, X, y, why_dense=self._why_dense, ensure_min_samples=3)
        res = self._choose(X, y, self._selector())
        support = np.zeros(X.shape[1], dtype=bool)
        support[res.features] = True
        self.result_ = res
        self.features_ = res.features.copy()
        self.support_ = support
        self.n_features_ = res.n_features
        self.gamma_ = res.gamma
        self.sigma_ = res.sigma
        self.score_ = res.score
        return self

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.support_




def _check_gammas(gammas):
    if gammas is None:
        return None
    g = np.asarray(gammas, dtype=float).ravel()
    if g.size == 0 or not np.all(np.isfinite(g)) or np.any(g <= 0):
        raise ValueError(f"gammas must be a non-empty list of finite floats > 0; got {gammas!r}")
    return g


# --------------------------------------------------------------------------
# greedy KTA
# --------------------------------------------------------------------------
class KTASelect(_ModelSelectorMixin, BaseEstimator):
    """Greedy kernel-target-alignment model selection (thesis algorithm 3).

    Walks the ranked feature list and, for every prefix of the top-ranked
    features and every Gaussian width of the grid, computes the centred kernel
    target alignment (definition 2.3.1) of a Gaussian kernel on the prefix with
    the label kernel. The prefix and width of highest alignment are kept; ties
    go to the smaller prefix (algorithm 3 walks from the full set to the
    smallest and replaces its best with ``>=``). The width is the one of the
    grid that maximises the alignment at each step (section 3.1). No inner
    cross-validation.

    Parameters
    ----------
    selector : estimator or None, default=None
        The ranking selector that :meth:`fit` fits (cloned) for the ranked
        list: any estimator with ``fit`` and ``ranking_`` (1 = best) or
        ``scores_``; ``None`` = :class:`fscompbio.selection.BaHSIC` with its
        defaults. Not used by :meth:`select`, which takes a ranking.
    n_widths : int, default=7
        Number of widths in the relative grid.
    low, high : float, default=-1.0, 1.0
        ``sigma = median distance of the prefix * 10**t``, ``t`` in
        ``linspace(low, high, n_widths)``.
    gammas : array-like of float or None, default=None
        An absolute grid of kernel factors instead of the relative one.
    max_sizes : int or None, default=None
        Evaluate at most this many prefix sizes (a geometric grid from 1 to n,
        see :func:`prefix_sizes`); ``None`` evaluates all of them. Each
        evaluated prefix costs ``O(m^2)`` per width: on wide data (thousands
        of features) give e.g. ``max_sizes=50``.
    label_kind : {"auto", "linear", "balanced", "onehot", "gaussian"}, default="auto"
        The label kernel (:func:`fscompbio.kernels.label_kernel`): ``y y^T``
        on labels mapped to {-1, +1}, its class-balanced variant, the one-hot
        kernel ``[y_i = y_j]`` of several classes, or a Gaussian kernel (median
        width) on a real-valued target. ``"auto"`` (:func:`resolve_label_kind`)
        takes ``"linear"`` for two classes, ``"onehot"`` for more and
        ``"gaussian"`` for a real target.

    Attributes
    ----------
    selector_ : estimator
        The selector fitted on all of ``X``.
    features_ : ndarray of shape (n_features_,), int
        The chosen features, best-ranked first.
    support_ : ndarray of shape (n_features_in_,), bool
        Mask of the chosen features (``get_support()``).
    n_features_ : int
        The chosen number of features.
    gamma_ : float
        The chosen factor of the Gaussian kernel ``exp(-gamma ||x - x'||^2)`` on the chosen features.
    sigma_ : float
        The same as a width, ``1 / sqrt(2 gamma_)``.
    score_ : float
        The criterion of the chosen model.
    result_ : ModelSelectionResult
        Everything :meth:`select` returns (the candidate sizes and the score of every candidate).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When ``X`` was a DataFrame with string column names.

    Notes
    -----
    Algorithm 3 of the thesis: with ``C = H K H``,
    ``a = <C_x, C_y>_F / (||C_x||_F ||C_y||_F)``. Here only the strict upper
    triangle of the pairwise squared distances is kept (the Gaussian kernel has
    a unit diagonal); the distances of prefix ``k + 1`` are those of prefix
    ``k`` plus the squared differences of feature ``k + 1``, so each prefix
    costs ``O(m^2)`` per width. ``<K, C_y>`` and ``||H K H||_F^2 = ||K||_F^2 -
    2/m ||K 1||^2 + (1' K 1)^2 / m^2`` are read from the triangle directly.

    If every alignment is negative, the full evaluated set is kept, as
    algorithm 3 does with its initial ``a_best = 0``.

    Examples
    --------
    >>> import numpy as np
    >>> from fscompbio.selection import CorrelationSelector
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 6)); y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    >>> res = KTASelect().select(X, y, ranking=[1, 2, 3, 4, 5, 6])
    >>> sorted(res.features.tolist())
    [0, 1]

    As an estimator around a selector, in a pipeline:

    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.svm import SVC
    >>> kta = KTASelect(CorrelationSelector()).fit(X, y)
    >>> kta.get_support().nonzero()[0].tolist(), kta.n_features_
    ([0, 1], 2)
    >>> make_pipeline(KTASelect(CorrelationSelector()), SVC()).fit(X, y).score(X, y) > 0.9
    True
    """

    _parameter_constraints: dict = {
        "selector": [HasMethods(["fit"]), None],
        "n_widths": [Interval(Integral, 1, None, closed="left")],
        "low": [Interval(Real, None, None, closed="neither")],
        "high": [Interval(Real, None, None, closed="neither")],
        "gammas": ["array-like", None],
        "max_sizes": [Interval(Integral, 2, None, closed="left"), None],
        "label_kind": [StrOptions({"auto", "linear", "balanced", "onehot", "gaussian"})],
    }

    def __init__(self, selector=None, *, n_widths=7, low=-1.0, high=1.0, gammas=None, max_sizes=None,
                 label_kind="auto"):
        self.selector = selector
        self.n_widths = n_widths
        self.low = low
        self.high = high
        self.gammas = gammas
        self.max_sizes = max_sizes
        self.label_kind = label_kind

    def _choose(self, X, y, selector):
        with selected_set_unused():  # the ranking is chosen from, not the selector's own set
            self.selector_ = clone(selector).fit(X, y)
        return self.select(X, y, _ranking_of(self.selector_, X.shape[1]))

    def alignment_table(self, X, y, ranking):
        """Alignment of every evaluated (prefix size, width).

        Parameters
        ----------
        X : array-like of shape (m, n)
        y : array-like of shape (m,)
            Class labels or a real target (see ``label_kind``).
        ranking : array-like of shape (n,), 1 = best

        Returns
        -------
        sizes : ndarray of shape (n_sizes,)
        gammas : ndarray of shape (n_sizes, n_widths)
        scores : ndarray of shape (n_sizes, n_widths)
        """
        self._validate_params()
        X, y = check_X_y(X, y, dtype=np.float64)
        order = ranking_order(ranking)
        if order.size != X.shape[1]:
            raise ValueError(f"ranking has {order.size} entries but X has {X.shape[1]} features")
        m = X.shape[0]
        if m < 3:
            raise ValueError(f"KTASelect needs at least 3 samples; got {m}")
        gammas = _check_gammas(self.gammas)
        mults = _width_grid(self.n_widths, self.low, self.high)
        sizes = prefix_sizes(X.shape[1], self.max_sizes)

        layout = PairLayout(m)
        target = CenteredTarget(label_kernel(y, kind=resolve_label_kind(y, self.label_kind)), layout)
        iu, ju = layout.ia, layout.ib
        d2 = np.zeros(layout.n_pairs)
        diff = np.empty_like(d2)
        other = np.empty_like(d2)
        wanted = np.zeros(X.shape[1] + 1, dtype=bool)
        wanted[sizes] = True
        n_w = gammas.size if gammas is not None else mults.size
        all_g = np.empty((sizes.size, n_w))
        scores = np.empty((sizes.size, n_w))
        E = np.empty((n_w, layout.n_pairs))
        row = 0
        # the ranked features' columns as contiguous rows, up to the largest evaluated prefix
        Xt = np.ascontiguousarray(X[:, order[: sizes[-1]]].T)
        for k in range(1, sizes[-1] + 1):
            np.take(Xt[k - 1], iu, out=diff)
            np.take(Xt[k - 1], ju, out=other)
            np.subtract(diff, other, out=diff)
            np.multiply(diff, diff, out=diff)
            np.add(d2, diff, out=d2)  # d2 of the prefix k: that of k - 1 plus feature k's squared differences
            if not wanted[k]:
                continue
            g = _gammas_for(d2, gammas, mults)
            np.multiply(-g[:, None], d2[None, :], out=E)  # (n_w, P) off-diagonal kernel entries, one width a row
            np.exp(E, out=E)
            all_g[row] = g
            scores[row] = batched_alignment(E.T, target)
            row += 1
            if row == sizes.size:
                break
        return sizes, all_g, scores

    def select(self, X, y, ranking):
        """Choose the prefix of the ranking and the width by maximal alignment.

        Parameters
        ----------
        X : array-like of shape (m, n)
            Training data.
        y : array-like of shape (m,)
            Training labels (or a real target, see ``label_kind``).
        ranking : array-like of shape (n,)
            Feature ranking, 1 = best (a selector's ``ranking_``).

        Returns
        -------
        ModelSelectionResult
        """
        t0 = time.perf_counter()
        sizes, gammas, scores = self.alignment_table(X, y, ranking)
        order = ranking_order(ranking)
        best_per_size = scores.max(axis=1)
        if np.all(best_per_size < 0):
            i = sizes.size - 1  # algorithm 3: a_best starts at 0, so the full set stays
        else:
            # maximal alignment; ties to the smaller subset (first index, sizes increase)
            i = int(np.flatnonzero(best_per_size == best_per_size.max())[0])
        j = int(np.argmax(scores[i]))
        gamma = float(gammas[i, j])
        mults = (
            np.full(gammas.shape[1], np.nan)
            if self.gammas is not None
            else _width_grid(self.n_widths, self.low, self.high)
        )
        return ModelSelectionResult(
            features=order[: sizes[i]].copy(),
            gamma=gamma,
            sigma=float(gamma_to_sigma(gamma)),
            score=float(scores[i, j]),
            seconds=time.perf_counter() - t0,
            sizes=sizes,
            log10_multipliers=mults,
            scores=scores,
        )


# --------------------------------------------------------------------------
# nested cross-validation
# --------------------------------------------------------------------------
def _cum_sq_dists(A, B, order, sizes):
    """Yield (size, D2(A, B) on the first `size` features of `order`), cumulatively.

    ``D2`` is one array updated in place (``D2 += (a_f - b_f)^2``, feature after feature, in the order of
    the ranking) and yielded at each wanted size: use it before the next step. The columns of the ranked
    features are copied once into contiguous rows, and the differences go into one buffer, so a step
    allocates nothing.
    """
    sizes = np.asarray(sizes, dtype=np.intp)
    last = int(sizes.max())
    wanted = np.zeros(last + 1, dtype=bool)
    wanted[sizes] = True
    cols = np.asarray(order[:last])
    At = np.ascontiguousarray(A[:, cols].T)  # (last, rows of A): feature k of the ranking is row k - 1
    Bt = At if B is A else np.ascontiguousarray(B[:, cols].T)
    D2 = np.zeros((A.shape[0], B.shape[0]))
    diff = np.empty_like(D2)
    for k in range(1, last + 1):
        np.subtract(At[k - 1][:, None], Bt[k - 1][None, :], out=diff)
        np.multiply(diff, diff, out=diff)
        np.add(D2, diff, out=D2)
        if wanted[k]:
            yield k, D2


class _PrecomputedSVC:
    """``SVC(C=C, kernel="precomputed")`` fitted again and again on the same training labels.

    ``SVC.fit`` and ``SVC.predict`` validate their parameters and input on every call, which on the small
    kernels of nested cross-validation costs several times libsvm's own work. Here the labels are encoded
    once, as ``SVC.fit`` encodes them (``np.unique``, a class weight of one per class), and each fit and
    prediction calls the libsvm routines that ``SVC.fit`` and ``SVC.predict`` call, with the parameters of
    an ``SVC(C=C, kernel="precomputed")``: the same support vectors, coefficients and predictions. The seed
    ``SVC.fit`` draws from NumPy's global generator (its ``random_state=None``) is drawn here too, so the
    global generator ends where it did. Without scikit-learn's libsvm binding, ``SVC`` itself is used.
    """

    def __init__(self, C, y):
        self.svc = SVC(C=C, kernel="precomputed")
        y = column_or_1d(y, warn=True)
        check_classification_targets(y)
        self.classes_, codes = np.unique(y, return_inverse=True)
        if self.classes_.size < 2:
            raise ValueError(f"The number of classes has to be greater than one; got {self.classes_.size} class")
        self.y = y
        self.codes = np.asarray(codes, dtype=np.float64, order="C")
        self.class_weight = compute_class_weight(None, classes=self.classes_, y=y)

    def predict(self, K_train, K_test):
        """Fit on the training kernel ``K_train`` (m x m), predict the rows of ``K_test`` (t x m)."""
        if _libsvm is None:  # pragma: no cover - scikit-learn without its libsvm binding
            return clone(self.svc).fit(K_train, self.y).predict(K_test)
        p = self.svc
        seed = check_random_state(p.random_state).randint(np.iinfo("i").max)  # as SVC.fit draws it
        K_train = np.ascontiguousarray(K_train, dtype=np.float64)
        K_test = np.ascontiguousarray(K_test, dtype=np.float64)
        if K_train.shape != (self.codes.size, self.codes.size) or K_test.shape[1] != self.codes.size:
            raise ValueError(f"kernels of shapes {K_train.shape} and {K_test.shape} for {self.codes.size} samples")
        _libsvm.set_verbosity_wrap(p.verbose)
        support, sv, n_support, dual_coef, intercept, prob_a, prob_b, status, _ = _libsvm.fit(
            K_train, self.codes, svm_type=0, sample_weight=np.empty(0), class_weight=self.class_weight,
            kernel="precomputed", C=p.C, nu=p.nu, probability=False, degree=p.degree, shrinking=p.shrinking,
            tol=p.tol, cache_size=p.cache_size, coef0=p.coef0, gamma=0.0, epsilon=p.epsilon,
            max_iter=p.max_iter, random_seed=seed,
        )
        if status == 1:
            warn(f"Solver terminated early (max_iter={p.max_iter}).", ConvergenceWarning)
        if not (np.isfinite(intercept).all() and np.isfinite(dual_coef).all()):
            raise ValueError("The dual coefficients or intercepts are not finite.")
        codes = _libsvm.predict(
            K_test, support, sv, n_support, dual_coef, intercept, prob_a, prob_b, svm_type=0,
            kernel="precomputed", degree=p.degree, coef0=p.coef0, gamma=0.0, cache_size=p.cache_size,
        )
        return self.classes_.take(np.asarray(codes, dtype=np.intp))


def default_cv_sizes(n_features, n_sizes=10):
    """Default candidate numbers of features for nested CV: a geometric grid 1..n."""
    return prefix_sizes(n_features, n_sizes)


class NestedCVSelect(_ModelSelectorMixin, BaseEstimator):
    """Inner loop of the nested cross-validation of section 2.5.1.

    On each of ``inner_folds`` stratified folds of the training data the
    selector is refitted on the inner training part; for every candidate number
    of top-ranked features and every width a Gaussian SVM (``C``) is trained
    and its accuracy measured on the inner validation part. The candidate with
    the best mean accuracy wins; ties go to the smaller number of features,
    then to the smaller width (section 2.5.1, step 6). The chosen size is then
    applied to the ranking of the selector fitted on the whole training data.

    Parameters
    ----------
    selector : estimator or None, default=None
        The ranking selector that :meth:`fit` refits on every inner fold and
        on all of ``X`` (cloned): any estimator with ``fit`` and ``ranking_``
        or ``scores_`` (and ``get_support()`` for ``sizes="support"``);
        ``None`` = :class:`fscompbio.selection.BaHSIC`. :meth:`select` takes
        its selector as an argument instead.
    sizes : array-like of int, "support" or None, default=None
        Candidate numbers of features. ``None``: a geometric grid of 10 sizes
        from 1 to n. ``"support"``: only the selector's own ``get_support()``
        (the thesis' random 10% baseline in the CV setting: only the width is
        chosen). Sizes above n are dropped.
    n_widths : int, default=7
    low, high : float, default=-1.0, 1.0
        Relative width grid, as in :class:`KTASelect`, with the median distance
        of the candidate features on the inner training part.
    gammas : array-like of float or None, default=None
        An absolute grid instead.
    inner_folds : int, default=10
    C : float, default=1.0
        SVM regularisation (the thesis uses 1).
    random_state : int, RandomState instance or None, default=None
        Shuffling of the inner folds.
    inner_params : dict or None, default=None
        Parameters set (``set_params``) on the selector's clones refitted on
        the inner folds only, e.g. ``{"n_bootstraps": 100}`` for stability
        selection; the fit on all of ``X``, whose ranking the chosen size is
        applied to, keeps the selector's own. The inner fits only choose a
        size, so a cheaper inner selector trades the precision of that
        choice for time (``None``: the inner fits are the selector's own,
        section 2.5.1).

    Attributes
    ----------
    selector_ : estimator
        The selector fitted on all of ``X``.
    features_ : ndarray of shape (n_features_,), int
        The chosen features, best-ranked first.
    support_ : ndarray of shape (n_features_in_,), bool
        Mask of the chosen features (``get_support()``).
    n_features_ : int
        The chosen number of features.
    gamma_ : float
        The chosen factor of the Gaussian kernel ``exp(-gamma ||x - x'||^2)`` on the chosen features.
    sigma_ : float
        The same as a width, ``1 / sqrt(2 gamma_)``.
    score_ : float
        The chosen model's mean inner-CV accuracy.
    result_ : ModelSelectionResult
        Everything :meth:`select` returns (the candidate sizes and the score of every candidate).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When ``X`` was a DataFrame with string column names.

    Notes
    -----
    The target must be class labels (two or more classes; stratified folds):
    for a real-valued target use :class:`KTASelect`, whose Gaussian label
    kernel needs no classifier.

    Kernels are precomputed from cumulative squared distances over the
    ranked features (one array for the inner training and validation rows
    against the training rows), so each candidate size costs ``O(m^2)`` per
    width, and ``SVC(C, kernel="precomputed")`` is trained and tested on
    them through the libsvm routines that ``SVC.fit`` and ``SVC.predict``
    call, with its parameters but without its per-call input validation
    (several times libsvm's own work on these small kernels): the same
    predictions, bit for bit.
    """

    _parameter_constraints: dict = {
        "selector": [HasMethods(["fit"]), None],
        "sizes": ["array-like", StrOptions({"support"}), None],
        "n_widths": [Interval(Integral, 1, None, closed="left")],
        "low": [Interval(Real, None, None, closed="neither")],
        "high": [Interval(Real, None, None, closed="neither")],
        "gammas": ["array-like", None],
        "inner_folds": [Interval(Integral, 2, None, closed="left")],
        "C": [Interval(Real, 0, None, closed="neither")],
        "random_state": ["random_state"],
        "inner_params": [dict, None],
    }

    def __init__(
        self, selector=None, *, sizes=None, n_widths=7, low=-1.0, high=1.0, gammas=None, inner_folds=10, C=1.0,
        random_state=None, inner_params=None
    ):
        self.selector = selector
        self.sizes = sizes
        self.n_widths = n_widths
        self.low = low
        self.high = high
        self.gammas = gammas
        self.inner_folds = inner_folds
        self.C = C
        self.random_state = random_state
        self.inner_params = inner_params

    def _choose(self, X, y, selector):
        self._check_target(y)
        with selected_set_unused():  # the ranking is chosen from, not the selector's own set
            self.selector_ = clone(selector).fit(X, y)
        return self.select(X, y, selector, fitted=self.selector_)

    def _candidate_sizes(self, n_features):
        if self.sizes is None:
            return default_cv_sizes(n_features)
        s = np.unique(np.asarray(self.sizes, dtype=int).ravel())
        if s.size == 0 or np.any(s < 1):
            raise ValueError(f"sizes must be positive integers; got {self.sizes!r}")
        s = s[s <= n_features]
        if s.size == 0:
            s = np.array([n_features])
        return s

    def _ordered_candidates(self, fitted, n_features):
        """(order of features, candidate sizes) of one fitted selector."""
        if isinstance(self.sizes, str):  # "support": the selector's own fixed subset
            support = np.flatnonzero(fitted.get_support())
            if support.size == 0:
                raise ValueError(f"{type(fitted).__name__} selected no features; sizes='support' needs some")
            rest = np.setdiff1d(np.arange(n_features), support)
            return np.concatenate([support, rest]), np.array([support.size])
        return ranking_order(fitted.ranking_), self._candidate_sizes(n_features)

    # the steps a nested CV of another predictor replaces (NestedCVRegressionSelect)
    def _check_target(self, y):
        """Refuse, before any fit, a target the inner predictor cannot take."""
        if task_of_target(y) == "regression" and np.unique(y).size > 2:
            raise ValueError(
                "NestedCVSelect chooses by the inner-CV accuracy of an SVM classifier, so y must be class labels; "
                f"got a real-valued target ({np.unique(y).size} distinct values): use NestedCVRegressionSelect "
                "(kernel ridge regression) or KTASelect (its Gaussian label kernel) for regression"
            )

    def _check_data(self, X, y):
        return check_X_y(X, y, dtype=np.float64)

    def _splitter(self, seed):
        return StratifiedKFold(self.inner_folds, shuffle=True, random_state=seed)

    def _fold_scorer(self, y_tr, y_va):
        """The score of a (size, width) candidate on one inner fold from its kernel blocks (training x training,
        validation x training), summed over the folds: the SVM's validation accuracy."""
        svm = _PrecomputedSVC(self.C, y_tr)
        return lambda K_tr, K_va: np.mean(svm.predict(K_tr, K_va) == y_va)

    def _mean_score(self, total, y):
        """The criterion of every candidate from its fold scores' sum (higher is better)."""
        return total / self.inner_folds

    def select(self, X, y, selector, *, fitted=None):
        """Choose the number of top-ranked features and the width by inner CV.

        Parameters
        ----------
        X : array-like of shape (m, n)
            Training data (the outer training fold).
        y : array-like of shape (m,)
        selector : estimator with ``fit`` and ``ranking_``
            Cloned and refitted on every inner training fold.
        fitted : fitted selector or None, default=None
            The selector already fitted on all of ``X`` (the outer training
            fold), whose ranking the chosen size is applied to; fitted here
            when ``None`` (and then timed as part of the model selection).

        Returns
        -------
        ModelSelectionResult
        """
        self._validate_params()
        if not hasattr(selector, "fit"):
            raise ValueError(f"selector must have a fit method; got {selector!r}")
        t0 = time.perf_counter()
        X, y = self._check_data(X, y)
        gammas_abs = _check_gammas(self.gammas)
        mults = _width_grid(self.n_widths, self.low, self.high)
        n = X.shape[1]
        rng = check_random_state(self.random_state)
        cv = self._splitter(rng.randint(2**31 - 1))
        n_w = gammas_abs.size if gammas_abs is not None else mults.size

        cand = None
        total = None
        inner_selector = clone(selector)
        if self.inner_params:
            try:
                inner_selector.set_params(**self.inner_params)
            except ValueError as e:
                raise ValueError(f"inner_params {self.inner_params!r} do not fit {type(selector).__name__}: {e}") from e
        for itr, iva in cv.split(X, y):
            with selected_set_unused():
                inner = clone(inner_selector).fit(X[itr], y[itr])
            order, sizes = self._ordered_candidates(inner, n)
            if cand is None:
                cand = sizes
                total = np.zeros((cand.size, n_w))
            # with sizes="support" each inner fit keeps its own subset (one candidate, row 0)
            support_mode = isinstance(self.sizes, str)
            # one distance array for the training rows then the validation rows, against the training rows
            n_tr = itr.size
            iu = np.triu_indices(n_tr, k=1)
            score = self._fold_scorer(y[itr], y[iva])
            K = np.empty((y.size, n_tr))  # the kernel of one (size, width), rewritten in place
            for k, D in _cum_sq_dists(X[np.concatenate([itr, iva])], X[itr], order, sizes):
                r = 0 if support_mode else int(np.searchsorted(cand, k))
                g = _gammas_for(D[:n_tr][iu], gammas_abs, mults)
                for j, gamma in enumerate(g):
                    np.multiply(D, -gamma, out=K)
                    np.exp(K, out=K)
                    total[r, j] += score(K[:n_tr], K[n_tr:])
        acc = self._mean_score(total, y)
        best = acc.max()
        # ties: smaller model first (sizes increase), then smaller width (grid order)
        r, j = np.argwhere(acc == best)[0]

        if fitted is None:
            with selected_set_unused():
                fitted = clone(selector).fit(X, y)
        order, sizes = self._ordered_candidates(fitted, n)
        k = int(sizes[0]) if isinstance(self.sizes, str) else int(cand[r])
        feats = order[:k].copy()
        if gammas_abs is not None:
            gamma = float(gammas_abs[j])
        else:
            d2 = _pairwise_sq(X[:, feats])
            gamma = float(_gammas_for(d2, None, mults[j]))
        return ModelSelectionResult(
            features=feats,
            gamma=gamma,
            sigma=float(gamma_to_sigma(gamma)),
            score=float(best),
            seconds=time.perf_counter() - t0,
            sizes=cand,
            log10_multipliers=mults if gammas_abs is None else np.full(n_w, np.nan),
            scores=acc,
        )


class NestedCVRegressionSelect(NestedCVSelect):
    """:class:`NestedCVSelect` for a real-valued target: Gaussian kernel ridge regression in place of the SVM.

    On each of ``inner_folds`` shuffled folds of the training data the selector is refitted on the inner
    training part; for every candidate number of top-ranked features and every width, Gaussian kernel ridge
    regression (its ridge chosen by leave-one-out error on the inner training part,
    :func:`fscompbio.prediction.kernel_ridge_loo`) predicts the inner validation part. The candidate of least
    mean squared validation error wins; ties go to the smaller number of features, then the smaller width. The
    chosen size is applied to the ranking of the selector fitted on all the training data. A protocol of ours:
    the thesis' nested cross-validation (section 2.5.1) is for two classes.

    Parameters
    ----------
    selector : estimator or None, default=None
        The ranking selector refitted on every inner fold and on all of ``X`` (cloned); it must accept a
        real-valued ``y`` (give the HSIC selectors a Gaussian label kernel, e.g. with
        :func:`fscompbio.evaluation.for_real_target`, when ``y`` holds whole numbers). ``None`` =
        :class:`fscompbio.selection.BaHSIC` with ``label_kernel="gaussian"``.
    sizes, n_widths, low, high, gammas, inner_folds, random_state, inner_params
        As in :class:`NestedCVSelect` (the inner folds are shuffled k-fold, not stratified).
    alphas : array-like of float or None, default=None
        The ridges (``None``: those of :class:`fscompbio.prediction.GaussianKernelRidge`).

    Attributes
    ----------
    selector_, features_, support_, n_features_, gamma_, sigma_, result_, n_features_in_
        As in :class:`NestedCVSelect`.
    score_ : float
        The chosen model's mean squared inner validation error, negated (higher is better).
    """

    _parameter_constraints: dict = {
        **{k: v for k, v in NestedCVSelect._parameter_constraints.items() if k != "C"},
        "alphas": ["array-like", None],
    }

    def __init__(self, selector=None, *, sizes=None, n_widths=7, low=-1.0, high=1.0, gammas=None, inner_folds=10,
                 alphas=None, random_state=None, inner_params=None):
        self.selector = selector
        self.sizes = sizes
        self.n_widths = n_widths
        self.low = low
        self.high = high
        self.gammas = gammas
        self.inner_folds = inner_folds
        self.alphas = alphas
        self.random_state = random_state
        self.inner_params = inner_params

    def _selector(self):
        from .selection import BaHSIC

        return self.selector if self.selector is not None else BaHSIC(label_kernel="gaussian")

    def _check_target(self, y):
        """Any numeric target: kernel ridge regression takes it (``_check_data`` checks it is numeric)."""

    def _check_data(self, X, y):
        X, y = check_X_y(X, y, dtype=np.float64, y_numeric=True)
        if y.size < 2 * self.inner_folds:
            raise ValueError(f"NestedCVRegressionSelect: {y.size} samples are too few for {self.inner_folds} inner "
                             "folds of at least 2 training samples each")
        return X, y

    def _splitter(self, seed):
        return KFold(self.inner_folds, shuffle=True, random_state=seed)

    def _fold_scorer(self, y_tr, y_va):
        """Kernel ridge's summed squared validation error, negated."""
        from .prediction import DEFAULT_ALPHAS, kernel_ridge_loo

        alphas = DEFAULT_ALPHAS if self.alphas is None else self.alphas

        def score(K_tr, K_va):
            coef, intercept, _, _ = kernel_ridge_loo(K_tr, y_tr, alphas)
            return -np.sum((y_va - K_va @ coef - intercept) ** 2)

        return score

    def _mean_score(self, total, y):
        return total / y.size  # every sample is validated once: the mean squared error, negated


def _pairwise_sq(A):
    """Strict-upper-triangle squared distances of the rows of A (vector)."""
    A = check_array(A, dtype=np.float64)
    sq = np.einsum("ij,ij->i", A, A)
    D2 = sq[:, None] + sq[None, :] - 2.0 * (A @ A.T)
    np.maximum(D2, 0.0, out=D2)  # clip round-off
    return D2[np.triu_indices(A.shape[0], k=1)]



# --------------------------------------------------------------------------
# the selector's own model
# --------------------------------------------------------------------------
class OwnModelSelect(KTASelect):
    """The selector's own model: its ``get_support()``, with the width chosen by alignment.

    Some selectors decide themselves how many features to keep: randSel's
    selected set (thesis 4.2.4: the features with positive expected
    contribution; with error control in ``RandSel.selected_``) is the model the
    thesis used for randSel. This model selector keeps exactly that set and,
    like :class:`KTASelect`, chooses the Gaussian width of the final SVM from
    the same grid by maximal centred alignment on the training data. No inner
    cross-validation, no prefix search.

    Parameters
    ----------
    selector : estimator or None, default=None
        The selector that :meth:`fit` fits (cloned) and whose
        ``get_support()`` is kept; ``None`` =
        :class:`fscompbio.selection.RandSel` with its defaults (randSel's
        own model). :meth:`select` takes a fitted selector instead.
    n_widths, low, high, gammas, label_kind
        As in :class:`KTASelect`.
    Attributes
    ----------
    selector_ : estimator
        The selector fitted on all of ``X``.
    features_ : ndarray of shape (n_features_,), int
        The chosen features, in the order of the columns of ``X``.
    support_ : ndarray of shape (n_features_in_,), bool
        Mask of the chosen features (``get_support()``).
    n_features_ : int
        The chosen number of features.
    gamma_ : float
        The chosen factor of the Gaussian kernel ``exp(-gamma ||x - x'||^2)`` on the chosen features.
    sigma_ : float
        The same as a width, ``1 / sqrt(2 gamma_)``.
    score_ : float
        The alignment of the chosen width (NaN for an empty support).
    result_ : ModelSelectionResult
        Everything :meth:`select` returns (the candidate sizes and the score of every candidate).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When ``X`` was a DataFrame with string column names.

    Examples
    --------
    >>> import numpy as np
    >>> from fscompbio.selection import CorrelationSelector
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 6)); y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)
    >>> sel = CorrelationSelector(n_features_to_select=2).fit(X, y)
    >>> OwnModelSelect().select(X, y, sel).features.tolist()
    [0, 1]
    >>> OwnModelSelect(CorrelationSelector(n_features_to_select=2)).fit(X, y).get_support().nonzero()[0].tolist()
    [0, 1]
    """

    _parameter_constraints: dict = {k: v for k, v in KTASelect._parameter_constraints.items() if k != "max_sizes"}

    def __init__(self, selector=None, *, n_widths=7, low=-1.0, high=1.0, gammas=None, label_kind="auto"):
        super().__init__(selector, n_widths=n_widths, low=low, high=high, gammas=gammas, label_kind=label_kind)

    def _selector(self):
        if self.selector is not None:
            return self.selector
        from .selection import RandSel  # randSel's own model: its error-controlled selected set

        return RandSel()

    def _choose(self, X, y, selector):
        self.selector_ = clone(selector).fit(X, y)
        if not hasattr(self.selector_, "get_support"):
            raise ValueError(f"OwnModelSelect needs a selector with get_support(); got {selector!r}")
        return self.select(X, y, self.selector_)

    def select(self, X, y, fitted):
        """Keep ``fitted.get_support()`` and choose the width by maximal alignment.

        Parameters
        ----------
        X : array-like of shape (m, n)
            Training data (the data the selector was fitted on).
        y : array-like of shape (m,)
        fitted : fitted selector with ``get_support()``

        Returns
        -------
        ModelSelectionResult
            ``sizes`` holds the one size evaluated. An empty support gives
            an empty model (no features, NaN width and score).
        """
        t0 = time.perf_counter()
        if not hasattr(fitted, "get_support"):
            raise ValueError(f"OwnModelSelect needs a fitted selector with get_support(); got {fitted!r}")
        X = check_array(X, dtype=np.float64)
        support = np.flatnonzero(fitted.get_support())
        if support.size == 0:
            # an error-controlled selector may find nothing (e.g. randSel on permuted labels): the empty
            # model, which a classifier can only answer with the majority class
            nan = float("nan")
            return ModelSelectionResult(features=support, gamma=nan, sigma=nan, score=nan,
                                        seconds=time.perf_counter() - t0, sizes=np.array([0]),
                                        log10_multipliers=_width_grid(self.n_widths, self.low, self.high),
                                        scores=np.full((1, self.n_widths), nan))
        if support.size > X.shape[1] or support.max() >= X.shape[1]:
            raise ValueError(f"the support of {type(fitted).__name__} does not fit X with {X.shape[1]} features")
        k = support.size
        # the alignment of every width on the full support: the last row of the prefix table
        # (max_sizes=2 evaluates only the sizes 1 and k)
        sizes, gammas, scores = KTASelect(
            n_widths=self.n_widths, low=self.low, high=self.high, gammas=self.gammas,
            max_sizes=2 if k > 2 else None,
            label_kind=self.label_kind,
        ).alignment_table(X[:, support], y, np.arange(1, k + 1))
        j = int(np.argmax(scores[-1]))
        gamma = float(gammas[-1, j])
        mults = (
            np.full(gammas.shape[1], np.nan)
            if self.gammas is not None
            else _width_grid(self.n_widths, self.low, self.high)
        )
        return ModelSelectionResult(
            features=support.copy(),
            gamma=gamma,
            sigma=float(gamma_to_sigma(gamma)),
            score=float(scores[-1, j]),
            seconds=time.perf_counter() - t0,
            sizes=np.array([k]),
            log10_multipliers=mults,
            scores=scores[-1:],
        )
