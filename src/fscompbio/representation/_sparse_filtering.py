"""Sparse filtering (Ngiam et al. 2011; thesis 5.2 and appendix A.2)."""

from __future__ import annotations

import logging
import time
from numbers import Integral

import numpy as np
from scipy.optimize import minimize
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, Options, _fit_context, validate_data
from .._warnings import warn

__all__ = ["SparseFiltering", "sparse_filtering_objective"]

logger = logging.getLogger("fscompbio.representation")

#: The smoothing constant of appendix A.2, used in the soft absolute value
#: sqrt(f^2 + EPS) and inside both l2 norms, exactly as in Ngiam's MATLAB code.
EPS = 1e-8

#: eigenvalues of X^T X below this fraction of the largest are round-off: the data span fewer dimensions
_RANK_TOL = 1e-10


def _row_span(gram):
    """Orthonormal basis (d, r) of the span of the data rows when it has < 90% of the d dimensions, else None."""
    evals, evecs = np.linalg.eigh(gram)
    keep = evals > _RANK_TOL * max(float(evals[-1]), np.finfo(float).tiny)
    if keep.sum() >= 0.9 * gram.shape[0]:
        return None
    return np.ascontiguousarray(evecs[:, keep][:, ::-1])


def _feature_norms(W, gram, n_samples):
    """l2 norm of each soft-absolute feature over the samples, from the Gram matrix.

    ``sum_j (f_kj^2 + EPS) + EPS = w_k^T (X^T X) w_k + n_samples * EPS + EPS``,
    so the norms cost one (n_features, d) x (d, d) product instead of a pass
    over the data. Returns the norms and ``W @ gram`` (reused by the gradient).
    """
    WG = W @ gram
    sq = np.einsum("kd,kd->k", WG, W)
    sq = np.maximum(sq, 0.0)  # clip round-off: w^T G w >= 0 since G is PSD
    return np.sqrt(sq + n_samples * EPS + EPS), WG


def _objective_and_gradient(W, X, gram, batch_size):
    """Objective of appendix A.2 and its gradient with respect to ``W``.

    ``X`` (n_samples, d) is already in the compute dtype; ``W`` and ``gram``
    are float64. Samples are processed in blocks of ``batch_size`` rows so the
    (batch, n_features) temporaries stay small; the objective and the
    gradient are accumulated in float64.
    """
    n_samples = X.shape[0]
    dtype = X.dtype
    n1, WG = _feature_norms(W, gram, n_samples)
    inv_n1 = (1.0 / n1).astype(dtype)
    inv_n1_sq = inv_n1 * inv_n1
    Wt = np.ascontiguousarray(W.T, dtype=dtype)
    obj = 0.0
    c = np.zeros(W.shape[0])
    grad = np.zeros(W.shape)
    for start in range(0, n_samples, batch_size):
        Xb = X[start : start + batch_size]
        F = Xb @ Wt  # (b, k) features f = W x of appendix A.2
        F2 = np.multiply(F, F)
        F2 += dtype.type(EPS)  # Fs^2 = f^2 + EPS
        n2 = np.sqrt(F2 @ inv_n1_sq + dtype.type(EPS))  # per-sample norm of Fs / n1
        Fs = np.sqrt(F2)  # soft absolute value
        s = Fs @ inv_n1  # per-sample sum of the feature-normalised values
        obj += float(np.sum(s / n2, dtype=np.float64))
        # Backpropagation through the sample normalisation (l2grad with D = 1):
        # dO/dNFs_jk = u_j - v_j NFs_jk with u = 1/n2 and v = s/n2^3.
        u = 1.0 / n2
        v = s * u * u * u
        # c_k = sum_j dO/dNFs_jk Fs_jk, needed by the feature normalisation.
        c += (u @ Fs).astype(np.float64) - inv_n1 * (v @ F2).astype(np.float64)
        # dO/dF = (dO/dNFs / n1) * F / Fs, the c-term is added below via the Gram matrix.
        Q = np.divide(F, Fs, out=Fs)
        Q *= u[:, None]
        Q *= inv_n1
        F *= v[:, None]
        F *= inv_n1_sq
        Q -= F
        grad += Q.T @ Xb
    # Feature-normalisation term: -(c_k / n1_k^3) * (X^T X w_k).
    grad -= (c / n1**3)[:, None] * WG
    return obj, grad


def sparse_filtering_objective(W, X, *, dtype=np.float64, batch_size=4096):
    """The sparse-filtering objective of appendix A.2 and its analytic gradient.

    Parameters
    ----------
    W : ndarray of shape (n_features, n_input)
        Filter weights; the learned features of sample ``x`` are ``W x``.
    X : ndarray of shape (n_samples, n_input)
        Data, one sample per row.
    dtype : {numpy.float64, numpy.float32}, default=numpy.float64
        Precision of the (n_samples, n_features) computations.
    batch_size : int, default=4096
        Rows processed at a time (memory only).

    Returns
    -------
    objective : float
        ``sum_j sum_k fhat_kj`` (see :class:`SparseFiltering`).
    gradient : ndarray of shape (n_features, n_input), dtype float64

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> obj, grad = sparse_filtering_objective(rng.normal(size=(4, 3)), rng.normal(size=(10, 3)))
    >>> grad.shape
    (4, 3)
    """
    W = np.asarray(W, dtype=np.float64)
    X64 = np.asarray(X, dtype=np.float64)
    if W.ndim != 2 or X64.ndim != 2 or W.shape[1] != X64.shape[1]:
        raise ValueError(f"W must be (n_features, n_input) and X (n_samples, n_input); got {W.shape} and {X64.shape}")
    return _objective_and_gradient(W, np.ascontiguousarray(X64, dtype=dtype), X64.T @ X64, int(batch_size))


class SparseFiltering(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Sparse filtering: unsupervised features by population sparsity.

    Learns ``n_features`` linear filters ``W`` so that the soft-absolute
    features, normalised first per feature over the samples and then per
    sample, are sparse (thesis 5.2; the MATLAB implementation of appendix A.2,
    which the thesis used for chapter 5).

    Parameters
    ----------
    n_features : int, default=100
        Number of features to learn (the thesis learns 1,500 from the 648
        encoded window values, an over-complete representation).
    max_iter : int, default=200
        Maximum L-BFGS iterations (the thesis: 200, with 20 corrections).
    batch_size : int, default=4096
        Samples processed at a time when evaluating the objective: bounds the
        memory to a few (batch_size, n_features) arrays; the result does not
        depend on it beyond floating-point summation order.
    reduce_rank : bool, default=True
        When the training samples span fewer dimensions than they have
        columns (fewer than 90%; the 648 scale values of a window span 228),
        optimise in an orthonormal basis of that span. Exact: ``W x`` depends
        only on the component of each filter inside the span, the gradient has
        no component outside it (so L-BFGS never moves it), and L-BFGS is
        invariant to the rotation; ``W_`` is reassembled in the input space
        with the outside components at their initial values, as the full
        optimisation leaves them. Each iteration then costs ``rank / d`` of the
        full one (0.35 on the window encodings).
    dtype : {numpy.float32, numpy.float64}, default=numpy.float32
        Precision of the per-sample computations (the two large matrix
        products and the elementwise steps). ``float32`` halves memory and
        roughly doubles speed; the weights, the norms over samples, the
        objective and the gradient are kept in float64, so the optimisation
        still decreases the objective (checked by the tests). ``transform``
        returns this dtype.
    random_state : int, RandomState instance or None, default=None
        Seed of the standard normal initial ``W`` (appendix A.2:
        ``randn(N, size(X, 1))``). Pass an int for reproducible output.

    Attributes
    ----------
    W_ : ndarray of shape (n_features, n_features_in_), dtype float64
        The learned filters.
    feature_norms_ : ndarray of shape (n_features,), dtype float64
        l2 norm over the training samples of each soft-absolute feature,
        used by ``transform`` so that new samples are scaled like the
        training samples.
    objective_ : float
        Final value of the objective (sum over training samples).
    objective_history_ : ndarray of shape (n_iter_ + 1,)
        Objective at the initial ``W`` and after each L-BFGS iteration.
    n_iter_ : int
        Number of L-BFGS iterations run.
    rank_ : int
        Dimension of the space the optimisation ran in (``n_features_in_``
        unless ``reduce_rank`` found a smaller span).
    n_features_in_ : int
        Number of input features seen during fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Input feature names, when ``X`` has string column names.

    See Also
    --------
    fscompbio.selection.RandSel : selects among the learned features (thesis 5.3).

    Notes
    -----
    Implements thesis 5.2 / appendix A.2. With ``f_kj = w_k^T x_j``, the soft
    absolute value ``F_kj = sqrt(f_kj^2 + 1e-8)``, the feature normalisation
    ``Ft_kj = F_kj / sqrt(sum_j F_kj^2 + 1e-8)`` and the sample normalisation
    ``Fhat_kj = Ft_kj / sqrt(sum_k Ft_kj^2 + 1e-8)``, it minimises

        O(W) = sum_j ||Fhat_.j||_1 = sum_j sum_k Fhat_kj

    with the analytic gradient (backpropagation through both normalisations,
    as Ngiam's ``l2rowg``) and ``scipy.optimize.minimize(method="L-BFGS-B",
    jac=True)`` with 20 corrections. The feature norms are computed from the
    Gram matrix ``X^T X`` (``sum_j f_kj^2 = w_k^T X^T X w_k``), so one objective
    evaluation costs two (n_samples x n_input x n_features) matrix products,
    done block by block.

    ``transform`` applies the same steps to new samples, with the feature
    norms of the training set (``feature_norms_``) in place of norms over the
    new batch, so each sample's features depend on that sample only;
    ``fit_transform`` on the training set returns exactly the normalised
    features ``Fhat`` whose l1 sum was minimised.

    References
    ----------
    .. [1] Ngiam, Koh, Chen, Bhaskar and Ng (2011). Sparse filtering. NIPS 24,
       1125-1133.

    Examples
    --------
    >>> import numpy as np
    >>> from fscompbio.representation import SparseFiltering
    >>> X = np.random.default_rng(0).normal(size=(200, 10))
    >>> sf = SparseFiltering(20, max_iter=50, random_state=0).fit(X)
    >>> sf.transform(X).shape
    (200, 20)
    >>> bool(sf.objective_history_[-1] < sf.objective_history_[0])
    True
    """

    _parameter_constraints: dict = {
        "n_features": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "batch_size": [Interval(Integral, 1, None, closed="left")],
        "dtype": [Options(type, {np.float32, np.float64})],
        "reduce_rank": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, n_features=100, *, max_iter=200, batch_size=4096, reduce_rank=True, dtype=np.float32,
                 random_state=None):
        self.n_features = n_features
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.reduce_rank = reduce_rank
        self.dtype = dtype
        self.random_state = random_state

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Learn the filters ``W_`` from ``X`` (``y`` is ignored).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in)
            Training data, e.g. the 648-dimensional window encodings.
        y : None
            Ignored.

        Returns
        -------
        self : SparseFiltering
        """
        X = validate_data(self, X, dtype=[np.float64, np.float32])
        rng = check_random_state(self.random_state)
        n_samples, n_input = X.shape
        W0 = rng.standard_normal((self.n_features, n_input))
        X64 = X.astype(np.float64, copy=False)
        gram_full = X64.T @ X64  # (n_input, n_input), fixed during the optimisation
        basis = _row_span(gram_full) if self.reduce_rank else None
        if basis is None:
            gram, Xc, W_start = gram_full, np.ascontiguousarray(X, dtype=self.dtype), W0
        else:  # the same problem in the coordinates of the data's span (class docstring, reduce_rank)
            gram = basis.T @ gram_full @ basis
            Xc = np.ascontiguousarray(X64 @ basis, dtype=self.dtype)
            W_start = W0 @ basis
        self.rank_ = int(n_input if basis is None else basis.shape[1])
        shape = W_start.shape
        history = []

        def fun(w):
            obj, grad = _objective_and_gradient(w.reshape(shape), Xc, gram, self.batch_size)
            if not history:
                history.append(obj)  # the first evaluation is at W0
            return obj, grad.ravel()

        started = time.perf_counter()

        def callback(intermediate_result):
            history.append(float(intermediate_result.fun))
            if len(history) % 10 == 1:  # progress of long fits, for the workflow's log files
                logger.info("iteration %d: objective %.6g (%.1f s)", len(history) - 1, history[-1],
                            time.perf_counter() - started)

        result = minimize(
            fun,
            W_start.ravel(),
            jac=True,
            method="L-BFGS-B",
            callback=callback,
            options={"maxiter": self.max_iter, "maxcor": 20},
        )
        if result.status not in (0, 1):  # 1 = max_iter reached, the thesis' stopping rule
            warn(
                f"SparseFiltering: L-BFGS-B stopped after {result.nit} of max_iter={self.max_iter} iterations: "
                f"{result.message}",
                ConvergenceWarning,
            )
        W = result.x.reshape(shape)
        self.W_ = W if basis is None else W0 - (W0 @ basis) @ basis.T + W @ basis.T
        self.feature_norms_ = _feature_norms(self.W_, gram_full, n_samples)[0]
        self.objective_ = float(result.fun)
        self.objective_history_ = np.asarray(history, dtype=np.float64)
        self.n_iter_ = int(result.nit)
        return self

    def transform(self, X):
        """Learned, normalised features of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in_)

        Returns
        -------
        X_new : ndarray of shape (n_samples, n_features), dtype ``self.dtype``
            ``Fhat`` of appendix A.2: soft absolute values of ``W_ x``, divided
            by ``feature_norms_``, then each sample scaled to unit l2 norm.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=[np.float64, np.float32], reset=False)
        dtype = np.dtype(self.dtype)
        Wt = np.ascontiguousarray(self.W_.T, dtype=dtype)
        inv_n1 = (1.0 / self.feature_norms_).astype(dtype)
        out = np.empty((X.shape[0], self.n_features), dtype=dtype)
        for start in range(0, X.shape[0], self.batch_size):
            Xb = np.asarray(X[start : start + self.batch_size], dtype=dtype)
            F = Xb @ Wt
            F *= F
            F += dtype.type(EPS)
            np.sqrt(F, out=F)  # soft absolute value
            F *= inv_n1  # feature normalisation (training-set norms)
            n2 = np.sqrt(np.einsum("jk,jk->j", F, F) + dtype.type(EPS))
            F /= n2[:, None]  # sample normalisation
            out[start : start + len(F)] = F
        return out

    @property
    def _n_features_out(self):
        return self.n_features

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = [np.dtype(self.dtype).name]
        return tags
