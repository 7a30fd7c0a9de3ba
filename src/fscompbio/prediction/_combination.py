"""A window classifier's score combined with a residue weight matrix and a log prior of the cleavage position.

Cleavage-site predictors since von Heijne (1986) and SignalP combine what a
window looks like with where it lies in the sequence. The window classifier
(e.g. the Gaussian SVM on the 648 scale values) sees the residues around a
candidate site but not the site's position; a weight matrix on the residues
adds a second, independent view of the same window; a log prior of the
position says how often signal peptides are cleaved there. The three scores
are weighted by a conditional logit (McFadden 1974): the probability that
window ``j`` of a sequence is its cleavage window is
``exp(w . f_j) / sum_i exp(w . f_i)`` over the sequence's windows, fitted on
training sequences held out from the classifier (:class:`CombinedSiteScorer`).

Where the gain comes from: on the signal peptides of chapter 5 the conditional logit gives the residue
matrix small weights (0.02-0.13 on the standardised scores, sometimes negative) against about 2 for the
SVM and about 0.7 for the position prior; the residues add little to what the SVM already sees, and
the gain over the SVM alone comes from the position prior. ``scores`` keeps a subset of the three
(table P1's ablation rows: SVM + position prior, SVM + residue matrix).
"""

from __future__ import annotations

import inspect
from numbers import Integral, Real

import numpy as np
from scipy.optimize import minimize
from sklearn.base import BaseEstimator, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._compat import HasMethods, Interval, _fit_context, validate_data
from ._base import BinaryClassifierMixin
from ._pwm import PositionWeightMatrix
from ._svm import GaussianSVC

__all__ = ["CombinedSiteScorer", "SITE_SCORES", "conditional_logit"]

_MAX_SEED = np.iinfo(np.int32).max


def conditional_logit(F, chosen, groups, *, alpha=1e-2):
    """Weights of a conditional logit: one chosen alternative per group, ``P(j) = softmax_group(F w)_j``.

    Parameters
    ----------
    F : array-like of shape (n, k)
        Features of every alternative (here: the scores of a window).
    chosen : array-like of bool, shape (n,)
        The chosen alternative of each group (here: the cleavage window).
    groups : array-like of shape (n,)
        Group of each alternative (here: the sequence). Groups without a chosen
        alternative or with a single alternative carry no information and are
        ignored; a group with several chosen alternatives is an error.
    alpha : float, default=1e-2
        Ridge penalty ``alpha/2 ||w||^2`` on the weights of the standardised
        features (keeps the weights finite when the training ranking is perfect).

    Returns
    -------
    w : ndarray of shape (k,)
        Weights of the original (unstandardised) features. Scores ``F w`` rank
        the alternatives of a group; constants per group do not matter.

    Notes
    -----
    When a group's alternatives are a uniform random sample of its non-chosen
    alternatives plus the chosen one (all positives and random negatives of a
    sequence), the conditional logit on the sample estimates the same weights
    as on all alternatives (McFadden 1978, "Modelling the choice of residential
    location": sampling of alternatives with uniform conditioning).

    Examples
    --------
    >>> F = np.array([[2.0], [0.0], [1.0], [3.0], [0.5], [0.0]])
    >>> w = conditional_logit(F, [True, False, False, True, False, False], [0, 0, 0, 1, 1, 1])
    >>> bool(w[0] > 0)
    True
    """
    F = np.asarray(F, dtype=np.float64)
    chosen = np.asarray(chosen, dtype=bool)
    groups = np.asarray(groups)
    if F.ndim != 2 or chosen.shape != (F.shape[0],) or groups.shape != (F.shape[0],):
        raise ValueError(f"F must be (n, k), chosen and groups (n,); got {F.shape}, {chosen.shape}, {groups.shape}")
    _, g = np.unique(groups, return_inverse=True)
    n_chosen = np.bincount(g, weights=chosen)
    n_alt = np.bincount(g)
    if np.any(n_chosen > 1):
        raise ValueError(f"every group needs at most one chosen alternative; {int(np.sum(n_chosen > 1))} groups "
                         "have more")
    useful = (n_chosen == 1) & (n_alt > 1)
    keep = useful[g]
    if not np.any(keep):
        raise ValueError("no group has a chosen alternative and another one: the weights cannot be fitted")
    F, chosen, g = F[keep], chosen[keep], np.unique(g[keep], return_inverse=True)[1]
    order = np.argsort(g, kind="stable")
    F, chosen, g = F[order], chosen[order], g[order]
    starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
    mu, sd = F.mean(axis=0), F.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    Z = (F - mu) / sd
    Zc = Z[chosen]

    def nll(w):
        s = Z @ w
        m = np.maximum.reduceat(s, starts)
        e = np.exp(s - m[g])
        tot = np.add.reduceat(e, starts)
        p = e / tot[g]
        value = -(Zc @ w).sum() + (m + np.log(tot)).sum() + 0.5 * alpha * w @ w
        grad = -Zc.sum(axis=0) + p @ Z + alpha * w
        return value, grad

    res = minimize(nll, np.zeros(F.shape[1]), jac=True, method="L-BFGS-B")
    return res.x / sd


#: the scores a :class:`CombinedSiteScorer` can combine, in the order of ``weights_``
SITE_SCORES = ("classifier", "residues", "position")


class CombinedSiteScorer(BinaryClassifierMixin, BaseEstimator):
    """A window classifier, a residue weight matrix and a position prior, weighted by a conditional logit.

    The classifier ranks windows by what they look like; the position prior
    (the log odds of cleavage at the window's position) adds what the
    classifier cannot see. On the chapter-5 signal peptides the gain over the
    classifier alone comes from the position prior: the residue matrix gets
    small weights (module docstring); ``scores`` drops parts for ablations.

    The input's last ``n_symbol_columns`` columns are integer symbols: the
    residue codes of the window (all but the last) and the window's position in
    the sequence (the last); the columns before them are the classifier's
    input. The score of a window is
    ``w_1 base(x) + w_2 pwm(residues) + w_3 log_odds(position)``.

    Fitting (every step on the training windows given to :meth:`fit`):

    1. a random ``holdout_fraction`` of the training sequences (``groups``;
       or of the units ``split_groups``, e.g. homology clusters) is held
       out; the classifier and the two weight matrices (residues; position,
       i.e. the log prior of the cleavage position) are fitted on the others
       (the classifier's inner splits by the same units) and score the
       held-out windows;
    2. the weights ``w`` are those of the conditional logit of the held-out
       sequences (:func:`conditional_logit`): which of a sequence's windows is
       its cleavage window;
    3. the classifier and the matrices are refitted on all training windows
       (a :class:`GaussianSVC` with a grid keeps the ``C`` and ``gamma`` chosen in
       step 1 instead of searching again, when ``reuse_tuning``).

    Parameters
    ----------
    base : estimator, default=None
        The window classifier (``fit``, ``decision_function``); ``None`` =
        :class:`GaussianSVC` with balanced class weights. Its ``fit`` gets
        ``groups`` when it accepts them.
    n_symbol_columns : int, default=13
        The trailing symbol columns: 12 residue codes and the position.
    scores : tuple of {"classifier", "residues", "position"}, default=("classifier", "residues", "position")
        The scores combined (at least one; the symbol columns are read whichever
        are kept).
    pseudocount : float, default=1.0
        Of both weight matrices.
    holdout_fraction : float, default=0.25
        Fraction of the training sequences held out to fit the weights.
    reuse_tuning : bool, default=True
        See step 3.
    random_state : int, RandomState instance or None, default=None
        Seeds the held-out draw and the classifier.

    Attributes
    ----------
    base_ : the classifier fitted on all training windows
    pwm_, prior_ : PositionWeightMatrix
        On the residue codes and on the position.
    weights_ : ndarray of shape (len(scores),)
        ``w``, in the order of ``scores``.
    holdout_groups_ : ndarray
        The held-out sequences (or ``split_groups`` units) of step 1.
    holdout_base_ : the classifier fitted in step 1
    classes_ : ndarray of shape (2,)

    References
    ----------
    von Heijne, G. (1986). A new method for predicting signal sequence cleavage
    sites. Nucleic Acids Research 14:4683-4690. McFadden, D. (1974).
    Conditional logit analysis of qualitative choice behavior.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> n_seq, n_win = 60, 8
    >>> groups = np.repeat(np.arange(n_seq), n_win); pos = np.tile(np.arange(n_win), n_seq)
    >>> y = (pos == rng.integers(2, 5, n_seq).repeat(n_win)).astype(int)
    >>> codes = rng.integers(0, 4, size=(y.size, 2)); codes[y == 1, 0] = 0
    >>> X = np.column_stack([rng.normal(size=(y.size, 3)) + y[:, None], codes, pos])
    >>> m = CombinedSiteScorer(n_symbol_columns=3, random_state=0).fit(X, y, groups)
    >>> m.weights_.shape
    (3,)
    """

    _parameter_constraints: dict = {
        "base": [HasMethods(["fit", "decision_function"]), None],
        "n_symbol_columns": [Interval(Integral, 2, None, closed="left")],
        "scores": [tuple, list],
        "pseudocount": [Interval(Real, 0, None, closed="neither")],
        "holdout_fraction": [Interval(Real, 0, 1, closed="neither")],
        "reuse_tuning": ["boolean"],
        "random_state": ["random_state"],
    }

    def __init__(self, *, base=None, n_symbol_columns=13, scores=SITE_SCORES, pseudocount=1.0, holdout_fraction=0.25,
                 reuse_tuning=True, random_state=None):
        self.base = base
        self.n_symbol_columns = n_symbol_columns
        self.scores = scores
        self.pseudocount = pseudocount
        self.holdout_fraction = holdout_fraction
        self.reuse_tuning = reuse_tuning
        self.random_state = random_state

    def _split(self, X):
        k = int(self.n_symbol_columns)
        if X.shape[1] <= k:
            raise ValueError(f"X has {X.shape[1]} columns; CombinedSiteScorer needs the classifier's columns and then "
                             f"n_symbol_columns={k} symbol columns (residue codes, position)")
        return X[:, :-k], X[:, -k:-1], X[:, -1:]

    def _check_scores(self):
        scores = tuple(self.scores)
        if not scores or len(set(scores)) != len(scores) or not set(scores) <= set(SITE_SCORES):
            raise ValueError(f"scores must be distinct names among {SITE_SCORES}, at least one; got {self.scores!r}")
        return scores

    def _fit_parts(self, X, y, groups, seed, base=None):
        Xb, codes, pos = self._split(X)
        base = clone(self.base if self.base is not None else GaussianSVC(class_weight="balanced")) if base is None \
            else base
        if "random_state" in base.get_params(deep=False):
            base.set_params(random_state=seed)
        if "groups" in inspect.signature(base.fit).parameters:
            base.fit(Xb, y, groups=groups)
        else:
            base.fit(Xb, y)
        pwm = PositionWeightMatrix(pseudocount=self.pseudocount).fit(codes, y)
        prior = PositionWeightMatrix(pseudocount=self.pseudocount).fit(pos, y)
        return base, pwm, prior

    def _features(self, parts, X):
        base, pwm, prior = parts
        Xb, codes, pos = self._split(X)
        value = {"classifier": lambda: np.asarray(base.decision_function(Xb), dtype=float).ravel(),
                 "residues": lambda: pwm.decision_function(codes), "position": lambda: prior.decision_function(pos)}
        return np.column_stack([value[name]() for name in self._check_scores()])

    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, groups=None, split_groups=None):
        """Hold out sequences, fit the weights on them, refit the parts on every training window.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_columns)
            The classifier's columns, then the residue codes and the position.
        y : array-like of shape (n_windows,)
            Binary; the larger label marks the cleavage window.
        groups : array-like of shape (n_windows,)
            Sequence of every window (required: the weights are fitted per sequence).
        split_groups : array-like of shape (n_windows,), default=None
            The units held out in step 1 and of the classifier's inner splits
            (e.g. the homology cluster of every window, so that no held-out
            sequence has a close homologue among the fitting ones); ``None`` =
            ``groups``. Every sequence must lie in one unit.

        Returns
        -------
        self : CombinedSiteScorer
        """
        X, y = validate_data(self, X, y, dtype=[np.float64, np.float32])
        self._fit_classes(y)
        if groups is None:
            raise ValueError("CombinedSiteScorer.fit needs groups (the sequence of every window)")
        groups = np.asarray(groups)
        if groups.shape != y.shape:
            raise ValueError(f"groups must have one entry per window; got {groups.shape} for {y.shape[0]} windows")
        units = groups if split_groups is None else np.asarray(split_groups)
        if units.shape != y.shape:
            raise ValueError(f"split_groups must have one entry per window; got {units.shape} for {y.shape[0]} windows")
        self._split(X)
        self._check_scores()
        pos_label = self.classes_[1]
        rng = check_random_state(self.random_state)
        seed_hold, seed_final = int(rng.randint(_MAX_SEED)), int(rng.randint(_MAX_SEED))
        seqs = np.unique(units)
        n_hold = int(round(self.holdout_fraction * seqs.size))
        if n_hold < 1 or n_hold >= seqs.size:
            raise ValueError(f"holdout_fraction={self.holdout_fraction} of {seqs.size} units (sequences or "
                             "split_groups) leaves no held-out or no fitting unit")
        self.holdout_groups_ = np.sort(rng.choice(seqs, size=n_hold, replace=False))
        held = np.isin(units, self.holdout_groups_)
        for name, part in (("fitting", ~held), ("held-out", held)):
            if np.unique(y[part]).size < 2:
                raise ValueError(f"the {name} sequences have windows of one class only; more sequences are needed")
        parts = self._fit_parts(X[~held], y[~held], units[~held], seed_hold)
        self.holdout_base_ = parts[0]
        F = self._features(parts, X[held])
        self.weights_ = conditional_logit(F, y[held] == pos_label, groups[held])
        base = clone(self.base if self.base is not None else GaussianSVC(class_weight="balanced"))
        tuned = parts[0]
        if (self.reuse_tuning and isinstance(base, GaussianSVC) and getattr(tuned, "cv_results_", None) is not None):
            base.set_params(C=tuned.C_, gamma=tuned.gamma_, Cs=None, gamma_multipliers=None)
        self.base_, self.pwm_, self.prior_ = self._fit_parts(X, y, units, seed_final, base=base)
        return self

    def decision_function(self, X):
        """``weights_`` . (classifier score, residue log-odds, position log-odds; those in ``scores``) of every window.

        Parameters
        ----------
        X : array-like of shape (n_windows, n_columns)

        Returns
        -------
        scores : ndarray of shape (n_windows,)
            Rank the windows of a sequence (higher = more likely its cleavage
            window); not calibrated across sequences.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        return self._features((self.base_, self.pwm_, self.prior_), X) @ self.weights_

