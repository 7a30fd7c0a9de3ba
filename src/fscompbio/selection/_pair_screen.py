"""A second-order screen: the label's squared correlation with every pairwise product of features.

Expanding the centred alignment of a Gaussian kernel in its inverse width
gives, term by term, what a screen can compute on every feature at once (see
:func:`pair_product_screen`). The first-order term is each feature's squared
correlation with the label (what randSel's first-order screen estimates); the
second-order term holds, for every pair ``(a, b)``, ``4 (y_c' (x_a * x_b))^2``:
the interactions (an XOR pair) that no first-order statistic can see. A
real-valued label enters both by its normal scores
(:func:`centred_label_columns`), so that their tests keep their level
whatever the label's tails.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import chi2, false_discovery_control

from .._scaling import normal_scores

__all__ = ["pair_product_screen", "pair_quadratic_screen", "quadratic_basis", "centred_label_columns", "pair_pvalues",
           "main_effect_scores", "main_effect_pvalues"]

#: bytes of one block of the ``(block, n_features)`` products (the whole ``d x d`` matrix is never formed)
BLOCK_BUDGET = 32 * 2**20
#: candidate pairs kept (by the bounded statistic) per pair finally returned, rescored exactly
CANDIDATES_PER_PAIR = 20


def centred_label_columns(y):
    """The centred label as columns ``(n_samples, q)``: one column for a binary target (its codes centred) and
    for a real target (its normal scores, :func:`fscompbio._scaling.normal_scores`, centred), one centred
    indicator per class for more than two classes.

    A real target enters by its normal scores, not its values, so that the chi-squared law of
    :func:`pair_pvalues` and :func:`main_effect_pvalues` holds whatever the target's tails. Their law is the
    normal limit of a sum of ``y_i x_i`` over the label's permutations; with a skewed target (a few samples
    many standard deviations out) and a product of two features, a handful of terms carries the sum and its
    tails are far heavier than the normal law's, so a test at the Bonferroni level over all pairs rejects
    under permuted labels almost every time. The normal scores are a monotone transform: a pair or feature
    whose values follow the label's ranks still scores high (``bench/bench_pair_screen_real_label.py``).
    """
    y = np.asarray(y)
    if y.dtype.kind in "fc" and np.unique(y).size > 2:
        Y = normal_scores(y.astype(float)[:, None])
    else:
        classes, inv = np.unique(y, return_inverse=True)
        if classes.size <= 2:
            Y = (inv == inv.max()).astype(float)[:, None]
        else:
            Y = (inv[:, None] == np.arange(classes.size)[None, :]).astype(float)
    return Y - Y.mean(axis=0)


def _standardise(X):
    X = np.asarray(X, dtype=np.float64)
    Z = X - X.mean(axis=0)
    sd = Z.std(axis=0)
    return Z / np.where(sd > 0, sd, 1.0)


def _squared_correlations(P, Yc):
    """``sum_q corr(Yc[:, q], P[:, k])^2`` for each column of ``P`` (0 for a constant column)."""
    P = P - P.mean(axis=0)
    den = np.sqrt((P**2).sum(axis=0))
    num = Yc.T @ P  # (q, k)
    ynorm = np.sqrt((Yc**2).sum(axis=0))[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        r = num / (ynorm * den[None, :])
    return np.nan_to_num((r**2).sum(axis=0), nan=0.0)


def exact_pair_scores(Z, Yc, pairs):
    """``sum_q corr(Yc[:, q], z_a * z_b)^2`` for each row ``(a, b)`` of ``pairs`` (0 for a constant product)."""
    return _squared_correlations(Z[:, pairs[:, 0]] * Z[:, pairs[:, 1]], Yc)


def main_effect_scores(X, y):
    """Each feature's squared correlation with the centred label (summed over the label's columns,
    :func:`centred_label_columns`): the first-order term of the alignment's expansion
    (:func:`pair_product_screen`), normalised as the pairs' scores are."""
    return _squared_correlations(np.asarray(X, dtype=np.float64), centred_label_columns(y))


def main_effect_pvalues(scores, y, n_features, *, control="fwe"):
    """Adjusted p-values of :func:`main_effect_scores` (the law of :func:`pair_pvalues`).

    ``control="fwe"``: Bonferroni-adjusted for ``n_features`` tests (a feature whose p-value is at most
    ``alpha`` is significant at family-wise level ``alpha``). ``control="fdr"``: Benjamini and Hochberg's
    (1995, "Controlling the false discovery rate") adjusted p-values of the ``scores`` given (``n_features``
    must be their number): the features whose p-value is at most ``q`` are the step-up procedure's
    discoveries at false-discovery rate ``q``.
    """
    if control == "fwe":
        return _chi2_pvalues(scores, y, int(n_features))
    if control != "fdr":
        raise ValueError(f"control must be 'fwe' or 'fdr', got {control!r}")
    raw = _chi2_pvalues(scores, y, 1)
    if raw.size != int(n_features):
        raise ValueError(f"control='fdr' adjusts over the scores given: {raw.size} scores for {n_features} features")
    return false_discovery_control(raw, method="bh") if raw.size else raw


def pair_product_screen(X, y, n_pairs=10, *, diagonal=True, block_budget=BLOCK_BUDGET):
    """The ``n_pairs`` feature pairs whose product is most correlated with the centred label.

    Derivation. Write the Gaussian kernel ``K = exp(-gamma D)`` with
    ``D_ij = sum_f (x_if - x_jf)^2`` and the centred label ``y_c``
    (``sum_i y_ci = 0``). The centred alignment's numerator is
    ``y_c' K y_c``; expanded in ``gamma``, a term of ``D`` or ``D^2`` that
    depends on ``i`` alone (or ``j`` alone) vanishes against ``y_c``. The
    first-order term ``-gamma y_c' D y_c = 2 gamma sum_f (y_c' x_f)^2`` is the
    sum of the features' squared (covariances with the label); the
    second-order term ``gamma^2 / 2 y_c' (D o D) y_c``, from
    ``(x_if - x_jf)^2 (x_ig - x_jg)^2``, holds for every pair ``(f, g)``
    ``4 (y_c' (x_f o x_g))^2`` (the cross term ``4 x_if x_ig x_jf x_jg``),
    ``2 (y_c' x_f^2)(y_c' x_g^2)`` (variance shifts; ``f = g`` gives the
    squared feature) and terms that mix a pair with first-order covariances.
    Each pair's own term is therefore the squared covariance of the label
    with the product ``x_f o x_g``; the screen ranks pairs by it normalised to
    a squared correlation (``sum_q corr(y_cq, x_f o x_g)^2`` over the label's
    columns, :func:`centred_label_columns`), so that pairs are comparable
    whatever their spread, and with ``diagonal=True`` the squared features
    (``f = g``) compete too.

    Computation. With standardised columns ``Z``, all pairs' covariances are
    ``Z' diag(y_c) Z``, formed in blocks of columns (``block_budget`` bytes of
    the ``(block, d)`` product, so memory stays bounded at any width) in
    float32. The exact correlation needs the spread of every product; the
    blocks instead use the bound ``var(z_f z_g) <= sqrt(E z_f^4 E z_g^4)``
    (columns scaled by their fourth moment's fourth root), keep the
    ``CANDIDATES_PER_PAIR x n_pairs`` best candidates and rescore them
    exactly (:func:`exact_pair_scores`); a block's entries below the best
    candidates so far are dropped before any partial sort (in the first block, those below the
    ``CANDIDATES_PER_PAIR x n_pairs``-th largest of its rows' maxima). The cost is about
    ``n d^2 / 2`` multiply-adds per label column (each block is multiplied
    with the columns from its own first one on).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    n_pairs : int, default=10
    diagonal : bool, default=True
        Include the squared features (pairs ``(f, f)``).
    block_budget : int
        Bytes of one block of products.

    Returns
    -------
    pairs : ndarray of shape (n_pairs, 2), int
        Best first; ``pairs[:, 0] <= pairs[:, 1]``.
    scores : ndarray of shape (n_pairs,)
        Their squared correlations (summed over the label's columns).
    """
    Z = _standardise(X)
    Yc = centred_label_columns(y)
    m, d = Z.shape
    W = _bounded(Z)
    Ycf = Yc.astype(np.float32)

    def block_scores(i0, i1):  # the pairs (f, g >= f) with f in the block: columns i0.. only
        if Ycf.shape[1] == 1:  # one label column: the squared covariances in place (0 + g^2 = g^2 exactly)
            S = (W[:, i0:i1] * Ycf).T @ W[:, i0:]
            np.square(S, out=S)
            return S
        S = np.zeros((i1 - i0, d - i0), dtype=np.float32)
        for q in range(Ycf.shape[1]):
            G = (W[:, i0:i1] * Ycf[:, q : q + 1]).T @ W[:, i0:]  # the pairs' covariances (bounded spread)
            S += G * G
        return S

    best_p = _best_candidates(block_scores, d, CANDIDATES_PER_PAIR * n_pairs, diagonal, bool(np.isfinite(W).all()),
                              block_budget)
    exact = exact_pair_scores(Z, Yc, best_p)
    order = np.lexsort((best_p[:, 1], best_p[:, 0], -exact))[:n_pairs]  # ties: lower indices first
    return best_p[order], exact[order]


def _bounded(Z):
    """Columns scaled by their fourth moment's fourth root, float32: a block's squared covariance of two such
    columns' product with a unit label is at most the squared correlation (``var(a b) <= sqrt(E a^4 E b^4)``)."""
    m4 = (Z**4).mean(axis=0)
    return (Z / np.where(m4 > 0, m4, 1.0)[None, :] ** 0.25).astype(np.float32)


def _best_candidates(block_scores, d, n_cand, diagonal, finite, block_budget):
    """The pairs ``(f, g >= f)`` (``g > f`` without the diagonal) of the ``n_cand`` largest bounded scores.

    ``block_scores(i0, i1)`` gives the float32 scores of the pairs whose first member is in ``i0:i1`` against
    the columns ``i0:``; blocks of ``block_budget`` bytes, so memory stays bounded at any width. A block's
    entries below the best candidates so far are dropped before any partial sort (in the first block, those
    below the ``n_cand``-th largest of its rows' maxima). ``finite``: every scaled column is finite, so no score
    is nan and every entry of a block exceeds -inf."""
    n_cand = max(1, min(n_cand, d * (d + 1) // 2))
    block = max(1, min(d, int(block_budget // (4 * max(d, 1)))))
    best_s = np.empty(0, dtype=np.float32)
    best_p = np.empty((0, 2), dtype=np.int64)
    thr = -np.inf  # the n_cand-th best bounded score so far: a block's entries at or below it cannot enter
    for i0 in range(0, d, block):
        i1 = min(d, i0 + block)
        width = d - i0
        S = block_scores(i0, i1)
        for r in range(i1 - i0):  # (f, g < f) within the block (and g = f without the diagonal): counted once
            S[r, : r + (0 if diagonal else 1)] = -1.0
        if finite and thr == -np.inf and S.shape[0] < n_cand:  # every entry passes: the block as it is
            flat, s_blk = None, S.ravel()
        elif finite and thr == -np.inf:
            # the first block: the n_cand-th largest of its rows' maxima is at most its n_cand-th largest entry
            # (at least n_cand rows reach it), so only the entries at or above it can be candidates, and the
            # partial sort sees those alone instead of the whole block
            row_max = S.max(axis=1)
            floor = np.partition(row_max, row_max.size - n_cand)[row_max.size - n_cand]
            flat = np.flatnonzero(S.ravel() >= floor)
            s_blk = S.ravel()[flat]
        else:
            flat = np.flatnonzero(S.ravel() > thr)
            s_blk = S.ravel()[flat]
        if s_blk.size > n_cand:
            top = np.argpartition(s_blk, s_blk.size - n_cand)[s_blk.size - n_cand :]
            flat, s_blk = (top if flat is None else flat[top]), s_blk[top]
        elif flat is None:
            flat, s_blk = np.arange(s_blk.size), s_blk.copy()
        ok = s_blk >= 0
        p = np.column_stack([i0 + flat[ok] // width, i0 + flat[ok] % width])
        best_s = np.concatenate([best_s, s_blk[ok]])
        best_p = np.concatenate([best_p, p])
        if best_s.size > n_cand:
            top = np.argpartition(best_s, best_s.size - n_cand)[best_s.size - n_cand :]
            best_s, best_p = best_s[top], best_p[top]
        if best_s.size >= n_cand:
            thr = float(best_s.min())
    return best_p


def quadratic_basis(X):
    """Each feature's first two orthonormal polynomials over the samples.

    ``U`` holds the standardised values; ``V`` the squared standardised values less their projection on the
    constant and on ``U``, standardised: the second orthogonal polynomial, a function of the feature's
    distance from its mean (a variance shift, a heterozygous genotype against both homozygous ones). A feature
    with two values or fewer has no such polynomial (its square is a line in it): its column of ``V`` is zero
    and ``has_v`` is False there.

    Returns
    -------
    U, V : ndarray of shape (n_samples, n_features)
    has_v : ndarray of shape (n_features,), bool
    """
    U = _standardise(X)
    V = U**2 - 1.0  # mean 0 already (U has unit variance)
    V -= (V * U).mean(axis=0) * U  # E[U^2] = 1: the projection on U
    V -= V.mean(axis=0)
    sd = V.std(axis=0)
    # a two-valued feature's V is zero up to rounding: its spread is that of the rounding of U^2
    has_v = sd > 1e-8 * np.maximum(1.0, np.abs(U).max(axis=0) ** 2)
    V = np.where(has_v, V / np.where(has_v, sd, 1.0), 0.0)
    return U, V, has_v


def exact_pair_r2(U, V, has_v, yc, pairs):
    """For each row ``(a, b)`` of ``pairs``: ``R^2`` of the centred label ``yc`` regressed on the centred
    products of the two features' polynomials (``U`` and ``V`` of :func:`quadratic_basis`: ``u_a u_b``,
    ``u_a v_b``, ``v_a u_b``, ``v_a v_b``, those that exist), and their number (the test's degrees of freedom,
    ``(1 + has_v[a]) (1 + has_v[b])``)."""
    a, b = pairs[:, 0], pairs[:, 1]
    P = np.stack([U[:, a] * U[:, b], U[:, a] * V[:, b], V[:, a] * U[:, b], V[:, a] * V[:, b]], axis=-1)  # (m, k, 4)
    P = P - P.mean(axis=0)
    G = np.einsum("mki,mkj->kij", P, P)
    c = np.einsum("mki,m->ki", P, yc)
    beta = np.einsum("kij,kj->ki", np.linalg.pinv(G, hermitian=True), c)
    r2 = np.einsum("ki,ki->k", beta, c) / float(yc @ yc)
    df = (1 + has_v[a].astype(int)) * (1 + has_v[b].astype(int))
    return np.clip(r2, 0.0, 1.0), df


def pair_quadratic_screen(X, y, n_pairs=10, *, block_budget=BLOCK_BUDGET):
    """The ``n_pairs`` pairs of distinct features whose polynomials' products explain the most of the label.

    The product screen (:func:`pair_product_screen`) scores each pair by the second-order term of the
    alignment's expansion, the label's covariance with ``x_a x_b``. Higher terms of the same expansion
    (``gamma^3`` and ``gamma^4`` in the kernel's ``exp(-gamma D)``, ``D`` a sum of squared differences) hold
    the label's covariances with ``x_a^2 x_b``, ``x_a x_b^2`` and ``x_a^2 x_b^2``: an interaction of the
    features' distances from their means, which the product does not see (two loci that raise the risk when
    both or neither are heterozygous, with no marginal effect and no product term). On a feature with three
    values (a genotype) the polynomials of degree up to 2 span every function of it, so these four terms
    hold every interaction of two such features. Each pair's score is the ``R^2`` of the centred label on the
    four centred products of the features' orthonormal polynomials (:func:`quadratic_basis`; fewer where a
    feature has two values), whose permutation law is asymptotically ``chi^2`` with as many degrees of
    freedom (:func:`pair_pvalues` with ``df``).

    Computation. As :func:`pair_product_screen`: in blocks of bounded memory, the four products' squared
    covariances with the label under the fourth-moment bound, summed, keep ``CANDIDATES_PER_PAIR x
    n_pairs`` candidates, rescored exactly (:func:`exact_pair_r2`); four matrix products per block, so about
    four times the product screen's cost.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        Two classes or a real-valued label (by its normal scores, :func:`centred_label_columns`).
    n_pairs : int, default=10
    block_budget : int
        Bytes of one block of products.

    Returns
    -------
    pairs : ndarray of shape (n_pairs, 2), int
        Best first; ``pairs[:, 0] < pairs[:, 1]``.
    scores : ndarray of shape (n_pairs,)
        Their ``R^2``.
    df : ndarray of shape (n_pairs,), int
        The number of products of each pair (4 for two features of three values or more).
    """
    Yc = centred_label_columns(y)
    if Yc.shape[1] != 1:
        raise ValueError(f"the quadratic pair terms (pair_terms='quadratic' or 'both') need two classes or a "
                         f"real-valued label; got {Yc.shape[1]} classes (pair_terms='product' scores pairs for "
                         "several)")
    U, V, has_v = quadratic_basis(X)
    d = U.shape[1]
    WU, WV = _bounded(U), _bounded(V)
    yf = Yc.astype(np.float32)

    def block_scores(i0, i1):
        S = np.zeros((i1 - i0, d - i0), dtype=np.float32)
        for A in (WU, WV):
            left = A[:, i0:i1] * yf
            for B in (WU, WV):
                G = left.T @ B[:, i0:]
                S += G * G
        return S

    finite = bool(np.isfinite(WU).all() and np.isfinite(WV).all())
    best_p = _best_candidates(block_scores, d, CANDIDATES_PER_PAIR * n_pairs, False, finite, block_budget)
    r2, df = exact_pair_r2(U, V, has_v, Yc[:, 0], best_p)
    # ranked by p-value, not R^2, so that a pair of fewer products competes on the same scale
    stat = (U.shape[0] - 1) * r2
    order = np.lexsort((best_p[:, 1], best_p[:, 0], chi2.logsf(stat, df)))[:n_pairs]
    return best_p[order], r2[order], df[order]


def pair_pvalues(scores, y, n_features, *, diagonal=True, df=1):
    """Bonferroni-adjusted p-values of the screen's pair scores, over every pair the screen scored.

    Under ``H0`` (the label independent of the features) the correlation of
    the centred label with any fixed column has mean 0 and variance
    ``1 / (m - 1)`` over the label's permutations, and ``(m - 1) r^2`` is
    asymptotically ``chi^2_1``: the p-value of a binary or real target's
    score (a real target's by its normal scores, :func:`centred_label_columns`,
    whose light tails keep the limit accurate at the Bonferroni level). With
    ``q > 2`` classes the score sums the squared correlations of the ``q``
    class indicators; it is at most ``R^2 / (1 - max_c p_c)``, with
    ``R^2`` the one-way ANOVA's share of the product's variance explained by
    the classes (``p_c`` the class proportions) and ``(m - 1) R^2``
    asymptotically ``chi^2_{q-1}``, so ``chi2.sf((m - 1)(1 - max_c p_c) s,
    q - 1)`` is a conservative p-value. Each is multiplied by the number of
    pairs scored (``d (d + 1) / 2`` with the squared features, ``d (d - 1) /
    2`` without) and capped at 1: a pair whose adjusted p-value is at most
    ``alpha`` has a product correlated with the label at family-wise level
    ``alpha`` over all pairs. ``df`` (two classes or a real-valued label):
    the scores are ``R^2`` of the label on ``df`` columns per pair
    (:func:`pair_quadratic_screen`), with ``(m - 1) R^2`` asymptotically
    ``chi^2_df``.
    """
    d = int(n_features)
    return _chi2_pvalues(scores, y, d * (d + 1) // 2 if diagonal else d * (d - 1) // 2, df=df)


def _chi2_pvalues(scores, y, n_tests, df=1):
    """``n_tests`` times the asymptotic p-value of squared correlations with the centred label (of ``R^2`` on
    ``df`` columns, for one label column), capped at 1."""
    scores = np.asarray(scores, dtype=float)
    Yc = centred_label_columns(y)
    m, q = Yc.shape
    if q == 1:
        stat = (m - 1) * scores
    elif np.any(np.asarray(df) != 1):
        raise ValueError(f"df other than 1 needs two classes or a real-valued label; got {q} classes")
    else:
        share = np.bincount(np.unique(np.asarray(y), return_inverse=True)[1]) / m
        stat, df = (m - 1) * (1.0 - share.max()) * scores, q - 1
    return np.minimum(1.0, max(n_tests, 1) * chi2.sf(stat, df))
