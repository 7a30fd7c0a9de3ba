"""The small numerical studies behind the thesis' figures 2.1, 3.1, 3.2, 4.1 and 4.2.

Each function takes data or sizes and an explicit generator and returns
arrays; the plotting lives in :mod:`fscompbio.plots.alignment` and
:mod:`fscompbio.plots.linear_models`.
"""

from __future__ import annotations

import numpy as np

from .kernels import (alignment, center, gamma_from_median_sq, hsic, label_kernel, median_sq_distance, sigma_to_gamma,
                      sq_distances)

__all__ = [
    "class_proportions",
    "lasso_regularisation_path",
    "alignment_vs_width",
    "classification_losses",
    "weston_2d",
    "alignment_vs_sample_size",
    "split_alignments",
    "batched_subset_sq_distances",
]


def class_proportions(y):
    """Counts and percentages of the +1 and -1 classes (thesis table 3.1)."""
    y = np.asarray(y)
    n = y.size
    pos, neg = int(np.sum(y == 1)), int(np.sum(y == -1))
    if pos + neg != n:
        raise ValueError(f"labels must be in {{-1, +1}}; got {np.unique(y).tolist()}")
    return {"n": n, "pos": pos, "neg": neg, "pos_pct": 100.0 * pos / n, "neg_pct": 100.0 * neg / n}


def lasso_regularisation_path(X, y, *, n_alphas=100, eps=1e-3):
    """The Lasso's coefficients along its regularisation path (thesis figure 2.1).

    Features are standardised and the +-1 labels centred, then
    :func:`sklearn.linear_model.lasso_path` solves
    ``min_w ||y - X w||^2 / (2m) + lambda ||w||_1`` for ``n_alphas`` values of
    ``lambda`` from ``lambda_max`` (where ``w = 0``) down to ``eps * lambda_max``.

    Returns
    -------
    alphas : ndarray of shape (n_alphas,), decreasing
    coefs : ndarray of shape (n_features, n_alphas)
    """
    from sklearn.linear_model import lasso_path
    from sklearn.preprocessing import StandardScaler

    Xs = StandardScaler().fit_transform(np.asarray(X, dtype=float))
    yc = np.asarray(y, dtype=float) - np.mean(y)
    alpha_max = np.max(np.abs(Xs.T @ yc)) / Xs.shape[0]  # the smallest lambda with w = 0
    grid = np.geomspace(alpha_max, eps * alpha_max, n_alphas)
    alphas, coefs, _ = lasso_path(Xs, yc, alphas=grid)
    return alphas, coefs


def alignment_vs_width(X, y, sigmas):
    """Centred alignment of ``exp(-||x - x'||^2 / (2 sigma^2))`` with ``y y^T`` per width.

    Thesis figure 3.1. One distance matrix, one exponential per width.

    Returns
    -------
    ndarray of shape (len(sigmas),)
    """
    D2 = sq_distances(X)
    Lc = center(label_kernel(y))
    gammas = sigma_to_gamma(np.asarray(sigmas, dtype=float))
    out = np.empty(gammas.size)
    for k, g in enumerate(gammas):  # loop over widths only: each step is O(m^2)
        out[k] = alignment(np.exp(-g * D2), Lc)
    return out


def classification_losses(margins):
    """Losses of a margin ``y f(x)`` (thesis figure 3.2).

    Returns a dict of arrays: ``"0-1"`` = [yf <= 0], ``"square"`` = (1 - yf)^2
    (the Lasso's loss), ``"logistic"`` = log2(1 + exp(-yf)) (scaled to pass
    through (0, 1) like the others), ``"hinge"`` = max(0, 1 - yf).
    """
    z = np.asarray(margins, dtype=float)
    return {
        "0-1": (z <= 0).astype(float),
        "square": (1.0 - z) ** 2,
        "logistic": np.logaddexp(0.0, -z) / np.log(2.0),
        "hinge": np.maximum(0.0, 1.0 - z),
    }


def weston_2d(rng, n):
    """Weston et al. (2000)'s original 2-D non-linear problem.

    ``y = -1``: ``N((-3/4, -3), I)`` or ``N((3/4, 3), I)``; ``y = +1``:
    ``N((3, -3), I)`` or ``N((-3, 3), I)``, each with probability 1/2.
    """
    y = np.where(rng.random(n) < 0.5, -1, 1)
    sign = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    mu = np.where((y == 1)[:, None], [3.0, -3.0], [-0.75, -3.0]) * sign[:, None]
    return mu + rng.standard_normal((n, 2)), y


def _unbiased_alignment(K, L):
    """Alignment with the diagonal (self-interaction) terms removed.

    ``HSIC1(K, L) / sqrt(HSIC1(K, K) HSIC1(L, L))``, with HSIC1 the unbiased estimator of Song et al. (2007,
    eq. 5) (:func:`fscompbio.kernels.hsic`); ``0.0`` when either self-term is not positive.
    """
    kk, ll = hsic(K, K, estimator="unbiased"), hsic(L, L, estimator="unbiased")
    return hsic(K, L, estimator="unbiased") / np.sqrt(kk * ll) if kk > 0 and ll > 0 else 0.0


def alignment_vs_sample_size(X, y, sample_sizes, n_bootstraps, rng, *, chunk=50):
    """Mean (and sd) alignment over bootstraps of each sample size (thesis figure 4.1).

    For each size ``m``, ``n_bootstraps`` samples of ``m`` rows are drawn with
    replacement; the Gaussian width is the median heuristic of each bootstrap.
    Both the centred alignment (definition 2.3.1, whose diagonal terms inflate
    small samples) and its unbiased counterpart (HSIC1-based, Song et al. 2007, eq. 5)
    are returned.

    Returns
    -------
    dict with ``"biased_mean"``, ``"biased_sd"``, ``"unbiased_mean"``,
    ``"unbiased_sd"``: arrays of shape (len(sample_sizes),)
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    out = {k: np.empty(len(sample_sizes)) for k in ("biased_mean", "biased_sd", "unbiased_mean", "unbiased_sd")}
    for s, m in enumerate(sample_sizes):
        idx = rng.integers(0, X.shape[0], size=(n_bootstraps, m))
        biased, unbiased = [], []
        for start in range(0, n_bootstraps, chunk):
            rows = idx[start:start + chunk]
            Xb = X[rows]  # (b, m, d)
            sq = np.einsum("bij,bij->bi", Xb, Xb)
            D2 = np.maximum(sq[:, :, None] + sq[:, None, :] - 2.0 * Xb @ Xb.transpose(0, 2, 1), 0.0)
            iu = np.triu_indices(m, k=1)
            off = D2[:, iu[0], iu[1]]
            med2 = np.array([median_sq_distance(r) for r in off])  # per bootstrap
            K = np.exp(-gamma_from_median_sq(1.0, med2)[:, None, None] * D2)  # sigma = the median distance
            yb = y[rows]
            for b in range(K.shape[0]):  # label kernels differ per bootstrap
                L = label_kernel(yb[b]) if np.unique(yb[b]).size == 2 else None
                if L is None:  # a bootstrap with one class carries no information
                    biased.append(0.0)
                    unbiased.append(0.0)
                    continue
                biased.append(alignment(K[b], L))
                unbiased.append(float(_unbiased_alignment(K[b], L)))
        biased, unbiased = np.asarray(biased), np.asarray(unbiased)
        out["biased_mean"][s], out["biased_sd"][s] = biased.mean(), biased.std(ddof=1)
        out["unbiased_mean"][s], out["unbiased_sd"][s] = unbiased.mean(), unbiased.std(ddof=1)
    return out


def batched_subset_sq_distances(X, masks):
    """Squared distances of ``X`` restricted to each feature subset, in one product.

    Parameters
    ----------
    X : ndarray of shape (m, d)
    masks : ndarray of shape (d, b), 0/1
        Column ``k`` selects the features of subset ``k``.

    Returns
    -------
    D2 : ndarray of shape (b, m, m)
        ``D2[k, i, j] = sum_f masks[f, k] (X[i, f] - X[j, f])^2``: the
        per-feature squared differences ``(m*m, d)`` times the masks ``(d, b)``.
    """
    X = np.asarray(X, dtype=float)
    m, d = X.shape
    diff2 = (X[:, None, :] - X[None, :, :]) ** 2  # (m, m, d)
    D2 = diff2.reshape(m * m, d) @ np.asarray(masks, dtype=float)
    return D2.T.reshape(-1, m, m)


def split_alignments(X, y, n_splits, subsample, rng, *, width_factor=0.5):
    """Alignment of two random halves of the features on random subsamples (thesis figure 4.2).

    Each split draws ``subsample`` rows without replacement and a random
    partition of the features into halves ``A`` (``floor(d/2)`` features) and
    ``B``. Each half's Gaussian width is ``width_factor`` times its median
    pairwise distance on the subsample.

    The width is fixed here on purpose: maximising the centred alignment over a
    grid that reaches small widths picks up the diagonal (self-interaction)
    terms, which give every subset an alignment near ``1 / sqrt(m)`` and hide
    the XOR signal; at half the median distance the halves holding both
    relevant features stand out (the alignments are in ``docs/deviations.md``,
    figure 4.2).

    Returns
    -------
    dict with ``"a"``, ``"b"`` (alignments, shape (n_splits,)), ``"a_has"``,
    ``"b_has"`` (number of the features 0 and 1 in each half).
    """
    X = np.asarray(X, dtype=float)
    m, d = X.shape
    half = d // 2
    res = {"a": np.empty(n_splits), "b": np.empty(n_splits), "a_has": np.empty(n_splits, int),
           "b_has": np.empty(n_splits, int)}
    for t in range(n_splits):  # one split per step: two kernels from one batched product
        rows = rng.choice(m, size=subsample, replace=False)
        perm = rng.permutation(d)
        masks = np.zeros((d, 2))
        masks[perm[:half], 0] = 1.0
        masks[perm[half:], 1] = 1.0
        D2 = batched_subset_sq_distances(X[rows], masks)
        Lc = center(label_kernel(y[rows]))
        iu = np.triu_indices(subsample, k=1)
        med2 = np.array([median_sq_distance(h) for h in D2[:, iu[0], iu[1]]])  # squared median distance per half
        gammas = gamma_from_median_sq(width_factor, med2)
        a = alignment(np.exp(-gammas[:, None, None] * D2), Lc)
        res["a"][t], res["b"][t] = a
        res["a_has"][t] = int(masks[0, 0] + masks[1, 0])
        res["b_has"][t] = int(masks[0, 1] + masks[1, 1])
    return res
