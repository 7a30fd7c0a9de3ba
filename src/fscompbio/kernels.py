"""Gaussian kernels, centring, centred kernel target alignment and HSIC.

Everything here is vectorised: a kernel on ``m`` samples costs one BLAS
matrix product and one elementwise exponential, never a Python loop over
sample pairs.

Conventions
-----------
The Gaussian kernel is written ``k(x, x') = exp(-gamma * ||x - x'||^2)``.
The thesis writes both ``exp(-sigma ||x - x'||^2)`` (chapter 5) and a *width*
``sigma`` elsewhere; we always call the factor ``gamma`` and the width
``sigma``, related by ``gamma = 1 / (2 sigma^2)``, i.e.
``sigma = 1 / sqrt(2 gamma)`` (see :func:`sigma_to_gamma`).

References
----------
.. [1] Cortes, Mohri and Rostamizadeh (2012). Algorithms for learning kernels
   based on centered alignment. JMLR 13:795-828.
.. [2] Song, Smola, Gretton, Bedo and Borgwardt (2012). Feature selection via
   dependence maximization. JMLR 13:1393-1434 (HSIC0, HSIC1 as in Song et al. 2007).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils.multiclass import type_of_target

from ._warnings import warn

__all__ = [
    "sq_distances",
    "gaussian_kernel",
    "sigma_to_gamma",
    "gamma_to_sigma",
    "gamma_from_median_sq",
    "median_sq_distance",
    "median_distance",
    "gamma_grid",
    "center",
    "alignment",
    "hsic",
    "label_kernel",
    "auto_label_kind",
    "neighbourhood",
    "local_label_kernels",
    "label_kernels",
    "task_of_target",
]


# --------------------------------------------------------------------------
# Distances and the Gaussian kernel
# --------------------------------------------------------------------------
def _check_norms(X, sq_norms, name):
    """Refuse non-finite input and squared distances that overflow X's float type.

    ``||x - y||^2 <= 2 ||x||^2 + 2 ||y||^2``, so squared row norms below a quarter
    of the type's largest value keep every distance finite.
    """
    limit = np.finfo(X.dtype).max / 4
    largest = sq_norms.max(initial=0.0)
    if largest <= limit:  # also False for NaN
        return
    if not np.isfinite(X).all():
        i, j = np.argwhere(~np.isfinite(X))[0]
        raise ValueError(f"{name} has a non-finite value ({float(X[i, j])}) at sample {i}, feature {j}")
    raise ValueError(
        f"squared distances overflow {X.dtype}: the largest squared row norm of {name} is "
        f"{float(largest):.3g} (limit {float(limit):.3g}); standardise the features"
        + (" or pass float64 data" if X.dtype != np.float64 else "")
    )


def sq_distances(X, Y=None):
    """Squared Euclidean distances ``||x_i - y_j||^2`` by one matrix product.

    Parameters
    ----------
    X : array-like of shape (m, d)
    Y : array-like of shape (n, d), default=None
        ``None`` means ``Y = X``; the diagonal is then exactly zero.

    Returns
    -------
    D2 : ndarray of shape (m, n)
        Non-negative; round-off below zero is clipped. Float32 input stays
        float32.

    Raises
    ------
    ValueError
        If X or Y holds NaN or infinity, or if a squared distance would
        overflow the input's float type (float32 overflows once a row's squared
        norm passes ~8.5e37, i.e. entries of ~1e19): the message gives the
        largest squared row norm and suggests standardising or float64.
    """
    X = np.asarray(X, dtype=np.result_type(np.asarray(X).dtype, np.float32))
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (samples x features); got shape {X.shape}")
    same = Y is None
    Y = X if same else np.asarray(Y, dtype=X.dtype)
    if Y.ndim != 2 or Y.shape[1] != X.shape[1]:
        raise ValueError(
            f"X and Y must have the same number of features; got {X.shape} and {Y.shape}"
        )
    xx = np.einsum("ij,ij->i", X, X)
    yy = xx if same else np.einsum("ij,ij->i", Y, Y)
    _check_norms(X, xx, "X")
    if not same:
        _check_norms(Y, yy, "Y")
    D2 = -2.0 * (X @ Y.T)
    D2 += xx[:, None]
    D2 += yy[None, :]
    np.maximum(D2, 0.0, out=D2)  # clip round-off: distances are non-negative
    if same:
        np.fill_diagonal(D2, 0.0)  # exact zero self-distance
        D2 = 0.5 * (D2 + D2.T)  # exact symmetry despite round-off
    return D2


def sigma_to_gamma(sigma):
    """Gaussian width ``sigma`` -> factor ``gamma = 1 / (2 sigma^2)``."""
    sigma = np.asarray(sigma, dtype=float)
    if np.any(~(sigma > 0)):  # ~(>) also catches NaN
        raise ValueError(f"sigma must be > 0; got {sigma!r}")
    with np.errstate(over="ignore", divide="ignore", under="ignore"):
        gamma = 1.0 / (2.0 * sigma**2)
    extreme = ~np.isfinite(gamma) | (gamma == 0)
    if np.any(extreme):
        s = np.ravel(sigma)[np.flatnonzero(np.ravel(extreme))[0]]
        raise ValueError(
            f"sigma={float(s)!r} is outside the range where gamma = 1 / (2 sigma^2) is a finite non-zero float64 "
            "(about 1e-154 < sigma < 1e154); rescale the features"
        )
    return gamma


def gamma_to_sigma(gamma):
    """Factor ``gamma`` -> Gaussian width ``sigma = 1 / sqrt(2 gamma)``."""
    gamma = np.asarray(gamma, dtype=float)
    if np.any(gamma <= 0):
        raise ValueError(f"gamma must be > 0; got {gamma!r}")
    return 1.0 / np.sqrt(2.0 * gamma)


def gaussian_kernel(X, Y=None, *, gamma=None, sigma=None, sq_dists=None):
    """Gaussian (RBF) kernel ``exp(-gamma ||x - y||^2)``.

    Parameters
    ----------
    X : array-like of shape (m, d)
    Y : array-like of shape (n, d), default=None
    gamma : float, default=None
        The factor in the exponent. Give ``gamma`` or ``sigma``, not both;
        with neither, the median heuristic ``sigma = median distance`` is used.
    sigma : float, default=None
        The width; ``gamma = 1 / (2 sigma^2)``.
    sq_dists : ndarray of shape (m, n), default=None
        Precomputed squared distances (then X and Y are ignored).

    Returns
    -------
    K : ndarray of shape (m, n)
    """
    if gamma is not None and sigma is not None:
        raise ValueError(f"give gamma or sigma, not both; got gamma={gamma!r}, sigma={sigma!r}")
    D2 = sq_distances(X, Y) if sq_dists is None else np.asarray(sq_dists)
    if gamma is None:
        if sigma is None:
            sigma = _median_from_sq(D2)
        gamma = float(sigma_to_gamma(sigma))
    if not isinstance(gamma, Real) or not np.isfinite(gamma) or gamma <= 0:
        raise ValueError(f"gamma must be a finite float > 0; got {gamma!r}")
    if not np.issubdtype(D2.dtype, np.floating):
        D2 = D2.astype(np.float64)
    # gamma in the kernel's own float type; beyond its range (e.g. gamma > 3.4e38 for float32, a width
    # below ~4e-20) it is clipped to the largest value: every non-zero distance still gives exp(-inf) = 0
    # and the zero self-distance exp(0) = 1, where the unclipped product would be inf * 0 = NaN.
    g = D2.dtype.type(min(float(gamma), float(np.finfo(D2.dtype).max)))
    with np.errstate(over="ignore"):  # gamma * d2 -> inf is the correct limit
        E = np.multiply(D2, g)
    np.negative(E, out=E)
    return np.exp(E, out=E)


def median_sq_distance(d2):
    """Median of the positive squared distances ``d2`` (any shape), in their float type; ``1.0`` if none.

    The one median of the package's width heuristics: the median distance is its square root, and a
    width ``t`` times the median distance is the factor :func:`gamma_from_median_sq`. Zeros (a point
    with itself, or points that coincide on these features) are left out; when every distance is zero
    any width gives the same constant kernel.
    """
    d2 = np.asarray(d2)
    v = d2[d2 > 0]
    return np.median(v) if v.size else 1.0


def _median_from_sq(D2):
    """Median distance from a matrix of squared distances: its off-diagonal upper triangle when square."""
    m, n = D2.shape
    return float(np.sqrt(median_sq_distance(D2[np.triu_indices(m, k=1)] if m == n else D2.ravel())))


def median_distance(X):
    """Median heuristic: median pairwise Euclidean distance of the rows of X."""
    return _median_from_sq(sq_distances(X))


def gamma_from_median_sq(multiplier, median_sq):
    """Factor ``gamma = 1 / (2 (t m)^2)`` of the width ``t`` times the median distance ``m``, from ``m^2``.

    ``multiplier`` (``t``) may be an array (a grid of widths); ``median_sq`` is
    :func:`median_sq_distance`'s. No square root is taken, so the factor is exact to one rounding per
    operation.
    """
    return 1.0 / (2.0 * multiplier**2 * median_sq)


def gamma_grid(X=None, *, n_widths=7, low=-1.0, high=1.0, median=None):
    """Default Gaussian bandwidth grid: median heuristic times a log range.

    ``sigma_k = median * 10**t_k`` for ``t_k`` in ``linspace(low, high,
    n_widths)``, returned as factors ``gamma_k = 1 / (2 sigma_k^2)`` in
    *decreasing* order of gamma (increasing width).

    Parameters
    ----------
    X : array-like of shape (m, d), default=None
        Used only to compute the median distance when ``median`` is None.
    n_widths : int, default=7
    low, high : float, default=-1, 1
        Decimal exponents of the range of multipliers.
    median : float, default=None
        A precomputed median distance.

    Returns
    -------
    gammas : ndarray of shape (n_widths,)
    """
    if median is None:
        if X is None:
            raise ValueError("gamma_grid needs X or median")
        median = median_distance(X)
    if n_widths < 1:
        raise ValueError(f"n_widths must be >= 1; got {n_widths!r}")
    sigmas = median * np.logspace(low, high, n_widths)
    return sigma_to_gamma(sigmas)


# --------------------------------------------------------------------------
# Centring, alignment, HSIC
# --------------------------------------------------------------------------
_ROUNDOFF = 1e-10  # relative size below which a centred kernel is taken as exactly zero

# --------------------------------------------------------------------------
def center(K):
    """Centre a kernel matrix: ``H K H`` with ``H = I - 11^T / m``, in O(m^2).

    Computed as ``K - row means - column means + grand mean`` without
    forming ``H``. Works for a stack of kernels of shape ``(..., m, m)``.
    """
    K = np.asarray(K, dtype=np.result_type(np.asarray(K).dtype, np.float32))
    if K.ndim < 2 or K.shape[-1] != K.shape[-2]:
        raise ValueError(f"K must be square (..., m, m); got shape {K.shape}")
    col = K.mean(axis=-2, keepdims=True)
    row = K.mean(axis=-1, keepdims=True)
    grand = col.mean(axis=-1, keepdims=True)
    return K - row - col + grand


def alignment(K, L, *, centered=True):
    """Centred kernel target alignment (thesis definition 2.3.1).

    ``A(K, L) = <Kc, Lc>_F / (||Kc||_F ||Lc||_F)`` with ``Kc = H K H``.
    The thesis' printed denominator (sums of absolute entries) is a typo;
    this is the Frobenius-norm definition of Cortes et al. (2012).

    Parameters
    ----------
    K : array-like of shape (m, m) or (b, m, m)
        One kernel or a stack of ``b`` kernels on the same samples.
    L : array-like of shape (m, m)
        The target (label) kernel.
    centered : bool, default=True
        ``False`` gives the uncentred alignment of Cristianini et al.

    Returns
    -------
    a : float, or ndarray of shape (b,) for a stack
        In ``[-1, 1]``; ``0.0`` when either centred kernel is zero.
    """
    K = np.asarray(K, dtype=float)
    L = np.asarray(L, dtype=float)
    if L.ndim != 2 or L.shape[0] != L.shape[1]:
        raise ValueError(f"L must be square (m, m); got shape {L.shape}")
    if K.shape[-2:] != L.shape:
        raise ValueError(f"K {K.shape} and L {L.shape} must be on the same samples")
    Lc = center(L) if centered else L
    Kc = center(K) if centered else K
    # <HKH, HLH> equals <K, HLH>, but the centred product avoids cancellation
    # when K is nearly constant
    num = np.tensordot(Kc, Lc, axes=([-2, -1], [0, 1]))
    k_norm = np.sqrt(np.einsum("...ij,...ij->...", Kc, Kc))
    l_norm = np.sqrt(np.einsum("ij,ij->", Lc, Lc))
    # a centred kernel that is round-off of a constant kernel counts as zero
    k_norm = np.where(k_norm > _ROUNDOFF * np.sqrt(np.einsum("...ij,...ij->...", K, K)), k_norm, 0.0)
    l_norm = l_norm if l_norm > _ROUNDOFF * np.sqrt(np.einsum("ij,ij->", L, L)) else 0.0
    denom = k_norm * l_norm
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.where(denom > 0, num / np.where(denom > 0, denom, 1.0), 0.0)
    return float(a) if a.ndim == 0 else a


def hsic(K, L, *, estimator="biased"):
    """Hilbert-Schmidt independence criterion.

    Parameters
    ----------
    K, L : array-like of shape (m, m)
        Kernels on the inputs and on the labels.
    estimator : {"biased", "unbiased"}, default="biased"
        ``"biased"``: HSIC0 = ``trace(K H L H) / (m - 1)^2`` (Song et al. 2007, eq. 4).
        ``"unbiased"``: HSIC1 of Song et al. 2007, eq. 5, with the diagonals of K and L
        set to zero::

            1/(m(m-3)) [tr(K L) + 1'K1 1'L1 / ((m-1)(m-2)) - 2/(m-2) 1'K L1]

        (needs ``m >= 4``).

    Returns
    -------
    float
    """
    K = np.asarray(K, dtype=float)
    L = np.asarray(L, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.shape != L.shape:
        raise ValueError(f"K and L must be square and of equal shape; got {K.shape} and {L.shape}")
    m = K.shape[0]
    if estimator == "biased":
        if m < 2:
            raise ValueError(f"the biased HSIC needs m >= 2 samples; got {m}")
        return float(np.einsum("ij,ij->", K, center(L)) / (m - 1) ** 2)
    if estimator == "unbiased":
        if m < 4:
            raise ValueError(f"the unbiased HSIC needs m >= 4 samples; got {m}")
        Kt = K.copy()
        Lt = L.copy()
        np.fill_diagonal(Kt, 0.0)
        np.fill_diagonal(Lt, 0.0)
        k1 = Kt.sum(axis=0)
        l1 = Lt.sum(axis=0)
        tr_kl = np.einsum("ij,ij->", Kt, Lt)  # L symmetric: tr(K L) = sum K*L
        term = tr_kl + k1.sum() * l1.sum() / ((m - 1) * (m - 2)) - 2.0 / (m - 2) * (k1 @ l1)
        return float(term / (m * (m - 3)))
    raise ValueError(f"estimator must be 'biased' or 'unbiased'; got {estimator!r}")


# --------------------------------------------------------------------------
# Label kernels
# --------------------------------------------------------------------------
def task_of_target(y):
    """``"binary"``, ``"multiclass"`` or ``"regression"`` for a target vector."""
    t = type_of_target(y)
    if t == "binary":
        return "binary"
    if t == "multiclass":
        return "multiclass"
    if t in ("continuous",):
        return "regression"
    raise ValueError(f"Unknown label type: {t!r}; expected a 1-D binary, multiclass or real target")


#: the label kernel ``"auto"`` picks for each task of :func:`task_of_target`
AUTO_LABEL_KINDS = {"binary": "linear", "multiclass": "onehot", "regression": "gaussian"}


def auto_label_kind(y, param="kind", kind="auto"):
    """The label kernel ``"auto"`` picks for ``y``: ``"linear"``, ``"onehot"`` or ``"gaussian"`` by its task.

    The task follows scikit-learn's rule (:func:`task_of_target`), which takes a target of whole numbers (a score,
    a count of days, ``151.0``) for classes, one per value. Where that reading leaves some class with a single
    sample, the target is more likely real-valued, and the one-hot kernel of so many classes is nearly the
    identity: a warning names the estimator's parameter (``param``) that reads it as real-valued. Class names
    (strings) are classes whatever their counts, and never warn.

    Parameters
    ----------
    y : array-like of shape (m,)
    param : str, default="kind"
        The parameter the warning names (``"label_kernel"`` of the selectors, ``"label_kind"`` of KTA).
    kind : str, default="auto"
        The estimator's setting: any kind but ``"auto"`` is returned as it is (no warning).

    Returns
    -------
    str
        ``"linear"`` for two classes, ``"onehot"`` for more, ``"gaussian"`` for a real-valued target.

    Examples
    --------
    >>> auto_label_kind([-1, 1, 1, -1]), auto_label_kind([0, 1, 2, 2, 1, 0]), auto_label_kind([0.5, 1.25, 3.0])
    ('linear', 'onehot', 'gaussian')
    """
    if kind != "auto":
        return kind
    task = task_of_target(y)
    if task == "multiclass" and np.asarray(y).dtype.kind in "iuf":  # names ("a", "b") are classes whatever their counts
        counts = np.unique(np.asarray(y), return_counts=True)[1]
        if counts.min() == 1:
            warn(f"y is read as {counts.size} classes (scikit-learn's rule for whole numbers), "
                 f"{int((counts == 1).sum())} of them with a single sample; for a real-valued target set "
                 f"{param}='gaussian'")
    return AUTO_LABEL_KINDS[task]


def label_kernel(y, *, kind="auto", gamma=None):
    """Kernel on the labels.

    Parameters
    ----------
    y : array-like of shape (m,)
    kind : {"auto", "linear", "balanced", "onehot", "gaussian"}, default="auto"
        ``"linear"``: binary labels mapped to {-1, +1} (the larger label is
        +1), ``L = y y^T``. ``"balanced"``: ``y_i / m_{y_i}`` so that each class
        weighs equally (Song et al. 2007, section 3). ``"onehot"``: ``L_ij = [y_i = y_j]``
        (multiclass). ``"gaussian"``: a Gaussian kernel on a real target with
        the median heuristic unless ``gamma`` is given. ``"auto"`` picks
        linear, onehot or gaussian from the target type.
    gamma : float, default=None
        For ``kind="gaussian"`` only.

    Returns
    -------
    L : ndarray of shape (m, m)
    """
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be 1-D; got shape {y.shape}")
    kind = auto_label_kind(y, kind=kind)
    if kind in ("linear", "balanced"):
        classes, inv = np.unique(y, return_inverse=True)
        if classes.size != 2:
            raise ValueError(f"kind={kind!r} needs a binary target; got {classes.size} classes")
        s = np.where(inv == 1, 1.0, -1.0)
        if kind == "balanced":
            counts = np.bincount(inv)
            s = s / counts[inv]
        return np.outer(s, s)
    if kind == "onehot":
        _, inv = np.unique(y, return_inverse=True)
        return (inv[:, None] == inv[None, :]).astype(float)
    if kind == "gaussian":
        yf = y.astype(float).reshape(-1, 1)
        return gaussian_kernel(yf, gamma=gamma)
    raise ValueError(
        f"kind must be one of 'auto', 'linear', 'balanced', 'onehot', 'gaussian'; got {kind!r}"
    )


def label_kernels(Y, *, kind="auto"):
    """Label kernels of several targets on the same samples (the rows of ``Y``), stacked.

    The same as :func:`label_kernel` on each row (e.g. permutations of one set of labels), built in a few
    array operations for the discrete kinds rather than one row at a time.

    Parameters
    ----------
    Y : array-like of shape (q, m)
    kind : {"auto", "linear", "balanced", "onehot", "gaussian"}, default="auto"
        As in :func:`label_kernel`; ``"auto"`` is resolved from all of ``Y``'s values, and ``"gaussian"``
        takes each row's own median heuristic (one row at a time).

    Returns
    -------
    L : ndarray of shape (q, m, m)
    """
    Y = np.asarray(Y)
    if Y.ndim != 2:
        raise ValueError(f"Y must be 2-D (one target per row); got shape {Y.shape}")
    if kind == "auto":
        kind = AUTO_LABEL_KINDS[task_of_target(Y.ravel())]
    if kind == "gaussian":
        m = Y.shape[1]
        return np.stack([label_kernel(row, kind="gaussian") for row in Y]) if Y.shape[0] else np.empty((0, m, m))
    if kind not in ("linear", "balanced", "onehot"):
        raise ValueError(f"kind must be one of 'auto', 'linear', 'balanced', 'onehot', 'gaussian'; got {kind!r}")
    _, inv = np.unique(Y, return_inverse=True)
    inv = inv.reshape(Y.shape)
    if kind == "onehot":
        return (inv[:, :, None] == inv[:, None, :]).astype(float)
    hi, lo = inv.max(axis=1, keepdims=True), inv.min(axis=1, keepdims=True)
    other = (inv != hi) & (inv != lo)
    if (hi == lo).any() or other.any():
        q = int(np.flatnonzero((hi == lo).ravel() | other.any(axis=1))[0])
        raise ValueError(f"kind={kind!r} needs a binary target in every row; row {q} holds "
                         f"{np.unique(Y[q]).size} distinct labels")
    pos = inv == hi  # the larger label is +1, as in label_kernel
    S = np.where(pos, 1.0, -1.0)
    if kind == "balanced":
        n_pos = pos.sum(axis=1, keepdims=True)
        S = S / np.where(pos, n_pos, Y.shape[1] - n_pos)
    return S[:, :, None] * S[:, None, :]


def neighbourhood(X, n_neighbors):
    """Symmetric 0/1 matrix of near pairs: ``N_ij = 1`` where ``j`` is among the ``n_neighbors`` nearest
    samples of ``i`` (Euclidean) or ``i`` among ``j``'s; the diagonal is 0.

    Parameters
    ----------
    X : ndarray of shape (m, d)
    n_neighbors : int
        At least 1 and below ``m``.

    Returns
    -------
    N : ndarray of shape (m, m)
    """
    from sklearn.neighbors import NearestNeighbors

    X = np.asarray(X, dtype=float)
    m = X.shape[0]
    if not 1 <= int(n_neighbors) < m:
        raise ValueError(f"n_neighbors={n_neighbors} needs at least 1 and fewer than the {m} samples of X")
    # the k + 1 nearest, each sample's own first (ties with an identical sample: whichever comes first)
    idx = NearestNeighbors(n_neighbors=int(n_neighbors) + 1).fit(X).kneighbors(X, return_distance=False)
    N = np.zeros((m, m))
    np.put_along_axis(N, idx, 1.0, axis=1)
    np.fill_diagonal(N, 0.0)
    return np.maximum(N, N.T)


def local_label_kernels(Y, near):
    """Relief's target as a label kernel: ``+1`` for a near pair of one class (a near hit), ``-1`` for a near
    pair of two classes (a near miss), 0 for a pair that is not near.

    With a Gaussian kernel ``K = exp(-gamma D)`` on one feature (``D`` its squared differences), the inner
    product ``<K, L> = sum_ij L_ij + gamma (sum_misses D_ij - sum_hits D_ij) + O(gamma^2)``: to first order
    in ``gamma`` it is the Relief score of Kira & Rendell (1992), "A practical approach to feature
    selection", and Kononenko (1994), "Estimating attributes: analysis and extensions of RELIEF" (with
    squared differences and the ``k`` nearest neighbours of each sample), which sees what tells near samples
    of different classes apart, class pair by class pair, where an alignment with the whole label kernel is
    led by the classes most apart.

    Parameters
    ----------
    Y : array-like of shape (m,) or (q, m)
        Class labels (one target per row).
    near : ndarray of shape (m, m)
        The near pairs (:func:`neighbourhood`), the same for every row of ``Y``.

    Returns
    -------
    L : ndarray of shape (m, m) or (q, m, m)
    """
    Y = np.asarray(Y)
    near = np.asarray(near, dtype=float)
    if near.shape != (Y.shape[-1], Y.shape[-1]):
        raise ValueError(f"near must have shape ({Y.shape[-1]}, {Y.shape[-1]}); got {near.shape}")
    same = Y[..., :, None] == Y[..., None, :]
    return near * np.where(same, 1.0, -1.0)
