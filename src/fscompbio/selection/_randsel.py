"""randSel: randomised non-linear feature selection by kernel target alignment.

Thesis section 4.2 and algorithm 6; "Principled Non-Linear Feature Selection"
(Athanasakis, Shawe-Taylor & Fernandez-Reyes) section 3 and its algorithm 1.
"""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

import numpy as np
from scipy.stats import norm
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._compat import Interval, RealNotInt, StrOptions, _fit_context, validate_data
from .._scaling import normal_scores, standardize  # noqa: F401  (normal_scores: re-exported)
from .._validation import check_target
from .._warnings import EmptySelectionWarning, warn
from ..kernels import auto_label_kind, task_of_target
from ._pair_screen import (main_effect_pvalues, main_effect_scores, pair_product_screen, pair_pvalues,
                           pair_quadratic_screen)
from ._randsel_inference import _normal_scores, confirmed_sets
from ._randsel_passes import (  # noqa: F401  (balanced_subsample, random_subset_masks: re-exported)
    LOCAL_NEIGHBOURS,
    MAX_AUTO_PERMUTATIONS,
    SCREEN_ABOVE,
    SCREEN_CULL_FRACTION,
    SCREEN_PAIRS,
    SCREEN_SUBSETS,
    SCREEN_TO,
    SCREEN_WIDTH,
    TEST_BATCHES,
    TEST_SUBSETS_FACTOR,
    _iteration,
    _n_batches,
    _Problem,
    _screen_iteration,
    _screen_test_scores,
    auto_n_subsets,
    balanced_subsample,
    random_subset_masks,
)
from ._ranking import ranking_from_order, top_k_mask
from ._tail_scaling import tail_adaptive_scale

__all__ = [
    "RandSel",
    "EmptySelectionWarning",
    "ARCHIVED_RANDSEL",
    "expected_contributions",
    "random_subset_masks",
    "balanced_subsample",
]


#: ``fix_main_effects``: a fixed main effect is released when its normal score in an iteration is below
#: ``-RELEASE_Z`` (significantly negative at this one-sided level)
RELEASE_LEVEL = 0.001
RELEASE_Z = float(norm.isf(RELEASE_LEVEL))
#: ``fix_main_effects``: the fewest iterations of a fit with fixed main effects. When every survivor is fixed
#: nothing is culled, and the iterations repeat the test on fresh partitions; an iteration's test is confirmed at
#: the next one, so 5 iterations test 4 times. Two (one test) left breast cancer's ``selected_`` empty for 3 of 20
#: seeds (``docs/randsel.md``, section 31)
MAIN_EFFECT_MIN_ITERATIONS = 5
#: ``main_effect_weight``: the marginal test counts as this many iterations of the kernel's evidence, the ratio
#: of its expected normal score on a linear feature to an exact iteration's (Stouffer's weights proportional to
#: the expected scores; measured on linear Zhang's sets, ``docs/randsel.md`` section 27)
MAIN_EFFECT_WEIGHT = 1.5
#: after a screen ``selected_`` tests two families, each feature's first-order contribution (a permutation
#: test of the maximum) and the second-order screen's pairs (Bonferroni over all pairs scored), and takes
#: their union: the pairs are tested at this share of ``alpha``, the contributions at the rest (a weighted
#: Bonferroni split, so that the union keeps the family-wise level ``alpha``). The interactions the pair
#: screen is built to establish lie many orders of magnitude below either level (``docs/randsel.md``, section 33)
PAIR_ALPHA_SHARE = 0.05
#: the randSel settings of the workflow's runs archived before 2026-11-26, made before the width fix
#: (``width_scale="spread"``), the heavy-tail scaling (``standardize="auto"``), the pair screen
#: (``screen_pairs``), the fixed main effects (``fix_main_effects``) and their marginal evidence
#: (``main_effect_weight``) became the defaults: pass them to
#: reproduce those runs' randSel
ARCHIVED_RANDSEL = {"width_scale": "minus", "width": 0.22, "standardize": True, "screen_pairs": 0,
                    "fix_main_effects": False, "main_effect_weight": 0.0}


class RandSel(SelectorMixin, BaseEstimator):
    """Randomised non-linear feature selection by expected alignment contributions (randSel).

    Each iteration draws ``n_subsets`` random partitions of the ``n``
    surviving features into a minus-subset ``S`` of ``floor(n/2)`` features
    and a plus-subset ``S+`` of ``floor(n/2) + 1`` (the complement of ``S``,
    plus one random member of ``S`` when ``n`` is even), each on a random
    subsample of the samples, and computes the alignment ``a`` of an
    equal-width Gaussian kernel with the label kernel on both. The
    contribution of feature ``j`` (thesis definition 4.2.1; "Principled
    Non-Linear Feature Selection", definition 3.2),

    ``c_j = E[a(S+) | j in S+] - E[a(S) | j not in S]``,

    is estimated by the mean of ``a(S+) - a(S)`` over the partitions with
    ``j`` in ``S+`` and not in ``S`` (``S`` is uniform over the
    ``floor(n/2)``-subsets and ``S+`` over the ``(floor(n/2)+1)``-subsets, as
    the definition asks), with a standard error from the batches of
    partitions. The bottom ``cull_fraction`` of the non-fixed features is
    culled and the loop repeats until ``min_features`` remain (thesis
    algorithm 6; the paper's algorithm 1). On data with more than
    ``screen_above`` features, screening iterations first estimate the same
    contributions to first order, all features at once, and halve the
    features until ``screen_to`` remain (see Notes, "Wide data").

    Parameters
    ----------
    n_subsets : "auto" or int, default="auto"
        Random partitions per (exact, non-screening) iteration (the thesis'
        ``n_s``: 3,000 on the synthetic sets). ``"auto"``: ``max(300, 8 n)``
        for ``n`` surviving features (rounded up to a hundred), so that every
        feature is on the plus side of about ``4 n`` partitions whatever ``n``:
        1,600 in the first iteration on 200 features, 300 once 37 or fewer
        remain. With the default screen, exact iterations see at most 500
        features (4,000 partitions).
    subsample : "auto", int or float, default="auto"
        Samples per subsample ``m_a``: ``"auto"`` is a third of the samples
        (the thesis' choice for its mass-spectrometry sets), at least 20 and at
        most 200; an int is a count, a float a fraction of ``n_samples``. The
        cost of a partition grows with the square of the subsample.
    batch_size : int, default=100
        Partitions that share one subsample and one matrix product. Every
        iteration has at least 20 batches when it has 20 partitions or more
        (smaller batches then): the standard errors are computed between
        batches.
    cull_fraction : float, default=0.25
        Fraction ``z`` of the non-fixed features culled per iteration (thesis
        4.3: 25%; the paper: 12.5%). At least one.
    width : float or array-like of float, default=0.5
        Width ``sigma`` of the Gaussian kernel of the minus-subsets as a
        multiple of the scale that ``width_scale`` names (with
        ``width_scale="spread"``, ``sigma^2 = width^2`` times the
        interquartile range of their squared distances; otherwise ``sigma`` is
        ``width`` times their median distance), re-measured every iteration on
        20,000 distances of its first subsample. A list is a grid, used as
        ``width_rule`` says. See Notes, "Width".
    width_scale : {"spread", "subset_size", "minus", "subset_median", "subset_spread"}, default="spread"
        ``"spread"``: the squared width of an iteration is ``width^2`` times
        the interquartile range of the minus-subsets' squared distances, and
        the plus-subsets' squared width is ``(h + 1) / h`` of it, as with
        ``"subset_size"`` (0.5 of the spread is 0.22 of the median on 100
        independent features; see Notes, "Width"). ``"subset_size"``: ``sigma``
        is ``width`` times the minus-subsets' median distance and the squared
        width of a subset grows with its size (the plus-subsets, one feature
        larger, have ``(h + 1) / h`` the squared width of the minus-subsets of
        ``h`` features), so that a feature of average spread leaves the
        kernel's width relative to the distances unchanged. ``"minus"``: both
        subsets at ``width`` times the minus-subsets' median distance (the
        thesis' "Gaussian kernel with equal width"). ``"subset_median"``,
        ``"subset_spread"``: every subset at its own scale (the median or the
        interquartile range of its own squared distances on 2,000 pairs of
        the subsample).
    width_rule : {"evidence", "select", "calibrated", "tail", "alignment"}, default="evidence"
        With a grid of widths: ``"evidence"`` evaluates every width on every
        batch and gives each feature its largest normal score over the grid;
        ``"select"`` evaluates every width on every batch and keeps, per
        iteration, the width whose normal scores above the family-wise 5%
        threshold over the iteration's features (Bonferroni) sum to the most,
        the grid's first width when none passes it; ``"calibrated"`` also
        evaluates every width on the same partitions with fixed permutations
        of the labels (enough for 500 null contributions per width, at most
        20) and keeps, per iteration, the width at which the most features'
        contributions exceed every contribution of the permuted labels, the
        grid's first width on a tie; ``"tail"`` evaluates the same permuted
        labels and scores each feature at each width against their
        contributions at that width (the upper tail of a Pearson type III law
        with their mean, variance and skewness), then as ``"evidence"`` gives
        it its largest score; ``"alignment"`` keeps, per
        iteration, the width of largest mean alignment over its first 4
        batches (the thesis' rule). Under ``"evidence"``, ``"select"``,
        ``"calibrated"`` and ``"tail"`` the scores are adjusted for the choice
        among the grid's widths (Sidak).
        Unused with a single width. See Notes, "Width".
    cull_by : {"evidence", "contribution"}, default="evidence"
        ``"contribution"``: cull by this iteration's contributions (the
        thesis). ``"evidence"``: by the sum, over the iterations a feature has
        survived, of its ``c_j / se_j`` as normal scores (Stouffer's sum), so
        that one unlucky iteration does not cull a feature that every earlier
        iteration found useful. See Notes.
    alpha : float, default=0.05
        Level of the selected set: the family-wise error rate over every test
        of the run (Bonferroni), see ``selected_``. The tests are given the
        data: they measure how precisely the partitions estimate each
        contribution on these samples, not whether an association would
        replicate in new ones, so a chance association can pass: on data of
        up to ``screen_above`` features whose labels are independent of every
        feature, most fits select one or two (``docs/randsel.md``, section 12).
        ``refit_permutations`` tests against refits on permuted labels
        instead (see Notes).
    fix_after : int or None, default=None
        Fix (never cull) a feature that ranks in the top ``top_fraction`` by
        contribution for this many consecutive iterations; a miss resets the
        count. None disables fixing (as in the thesis' experiments).
    top_fraction : float, default=0.05
        The top percentile ``a`` used for fixing (at least one feature).
    min_features : int, default=2
        Stop when this many features remain (or when every survivor is fixed).
    screen_above : int or None, default=500
        Data with more features than this are screened first: screening
        iterations estimate every feature's contribution to first order from
        ``screen_subsets`` random halves and cull half of the features per
        iteration, until ``screen_to`` remain; the exact iterations then
        continue on these. None: no screen (the thesis' scheme on any width).
        See Notes, "Wide data".
    screen_to : int, default=50
        Features left by the screen.
    screen_subsets : int, default=200
        Random halves per screening iteration (in at least 20 batches, each on
        its own subsample, as the partitions).
    screen_width : float, default=2.0
        Width of the screening iterations' Gaussian kernel as a multiple of
        the median pairwise distance of the random halves.
    screen_by : {"auto", "evidence", "contribution", "hsic"}, default="auto"
        How the screening iterations cull. ``"auto"``: as ``cull_by``.
        ``"evidence"``: by the features' summed normal scores (contribution
        over standard error); ``"contribution"``: by this iteration's
        contributions. ``"hsic"``: by the contribution with the derivative
        taken with each half's kernel norm held fixed (the change of HSIC1
        with the label): close to a marginal test's ranking (the F test on two
        classes), where the default screen also lowers a feature redundant
        with those already in the half's kernel. See Notes, "Wide data".
    screen_pairs : int, default=5
        On data wider than ``pair_screen_above`` features, the
        ``screen_pairs`` feature pairs whose product is most correlated with
        the centred label (a real-valued label's normal scores, so that the
        test keeps its level whatever the label's tails; the second-order
        term of the alignment,
        :func:`fscompbio.selection._pair_screen.pair_product_screen`) are
        scored; a pair significant at level ``alpha`` over all pairs is fixed
        (never culled), and on screened data the members of all of them are
        never culled by the first-order screen, so that an interaction without
        marginal effects (an XOR pair) reaches the exact iterations. 0: no pair
        screen. See Notes, "Wide data".
    pair_terms : {"product", "quadratic", "both"}, default="product"
        What the pair screen scores. ``"product"``: the label's squared
        correlation with ``x_a x_b``, the alignment's second-order term (one
        degree of freedom per pair; squared features compete too).
        ``"quadratic"``: the ``R^2`` of the label on the products of the two
        features' orthonormal polynomials of degree 1 and 2 (up to four
        degrees of freedom; the alignment's terms up to the fourth order,
        :func:`fscompbio.selection._pair_screen.pair_quadratic_screen`), which
        holds every interaction of two features of three values, such as two
        loci that act when both or neither are heterozygous; about four times
        the screen's cost, and a weaker test of a pure product. ``"both"``:
        the two screens, each family's ``screen_pairs`` best pairs tested at
        half of ``alpha`` (a pair in both keeps its smaller p-value), which
        keeps a product pair's one-degree-of-freedom test; about five times
        the product screen's cost. ``"quadratic"`` and ``"both"``: two
        classes or a real-valued label only (``docs/randsel.md``, section 34).
    pair_screen_above : int or None, default=0
        The pair screen runs on data wider than this many features: by default
        on data of any width, where it fixes an established pair before the
        first, blind iterations can cull one of its members
        (``docs/randsel.md``, sections 17 and 24). A fit in which no pair is
        significant is the same with or without it.
        None: only on data wider than ``screen_above`` (the default before
        2026-11-28); ``screen_above=None`` turns both screens off.
    fix_main_effects : bool or {"fwe", "fdr"}, default=True
        On data not screened (``screen_above`` features or fewer), fix every
        feature whose squared correlation with the centred label (the
        alignment's first-order term,
        :func:`fscompbio.selection._pair_screen.main_effect_scores`) is
        significant at level ``alpha``
        (:func:`~fscompbio.selection._pair_screen.main_effect_pvalues`):
        ``True`` or ``"fwe"``, at family-wise level ``alpha`` over the
        features (Bonferroni); ``"fdr"``, at false-discovery rate ``alpha``
        (Benjamini and Hochberg's step-up procedure; under the global null,
        no main effect at all, this is family-wise control at ``alpha`` too),
        which fixes more weak main effects. An established main effect is not
        culled while the kernel's evidence allows, as an established pair is
        never culled. Fixing protects from blind culling; it does not select
        (``selected_`` keeps its own test). A fixed main effect whose normal
        score in an iteration is below ``-RELEASE_Z`` (its contribution
        significantly negative at the one-sided level ``RELEASE_LEVEL``,
        0.001, among that iteration's survivors) is released and culled as any
        other feature: a weak or chance main effect beside strong non-linear
        features does not hold a place above them. The fit runs at least
        ``MAIN_EFFECT_MIN_ITERATIONS`` (5) iterations, so that ``selected_``
        is tested, four times, when every feature is fixed. A fit without a
        significant main effect is the same with or without fixing.
        ``"fdr"`` fixes more weak main effects, which helps a weak additive
        signal and costs where many features carry one
        (``docs/randsel.md``, section 27). False: every feature is culled by
        the kernel's evidence alone (as in the runs archived with
        ``ARCHIVED_RANDSEL``).
    main_effect_weight : float, default=1.5
        On data not screened where some feature's main effect is significant
        at family-wise level ``alpha`` (elsewhere every feature's expected
        marginal score is that of noise, whose weight is 0, and the fit is
        the same as with 0 bit for bit), each feature's marginal test (the
        one-sided normal score of its unadjusted first-order p-value, negative
        scores set to 0: no marginal correlation is no evidence against a
        non-linear feature) enters its evidence before the first iteration
        with this weight, as that many iterations of the kernel's (Stouffer's
        sum with weights proportional to the expected scores: on a linear
        feature the marginal test's expected normal score is about 1.5 times
        an exact iteration's). A weak linear feature that is not fixed is then not
        culled by one blind iteration. Used with ``cull_by="evidence"`` only;
        ``selected_``'s test does not use the evidence (``docs/randsel.md``,
        section 27). 0: the kernel's evidence alone (as in the runs archived
        with ``ARCHIVED_RANDSEL``).
    n_permutations : "auto" or int, default="auto"
        Label permutations that calibrate the first-order test of
        ``selected_`` after a screen (see Notes, "Error control"). ``"auto"``:
        the fewest for a test at its level ``alpha_1``, ``ceil(1 / alpha_1) -
        1``, when the fit screens and ``selected_`` is the model
        (``n_features_to_select=None``), else 0; ``alpha_1`` is ``alpha``
        less the pair screen's share (``PAIR_ALPHA_SHARE``, 0.05): 21
        permutations at ``alpha=0.05``, 19 with ``screen_pairs=0``. They share
        one extra pass over all features. With 0 a screened fit's ``selected_``
        is empty (no test); fewer than ``ceil(1 / alpha_1) - 1`` leave only the
        pairs' test in it. Unused on data of up to ``screen_above`` features,
        and with ``refit_permutations``.
    refit_permutations : int, default=0
        When > 0, ``selected_`` is a permutation test of the whole fit:
        randSel is fitted again on this many permutations of the labels, and
        a feature is selected when its largest normal score over the
        iterations it was tested in exceeds the largest score of every refit
        (family-wise level ``1 / (1 + refit_permutations)``; at least
        ``ceil(1 / alpha) - 1``, 19 at ``alpha=0.05``). It replaces the
        Bonferroni test and the screen's test pass, whose scores measure the
        partitions' Monte Carlo error given the data, not the data's chance
        associations (see Notes, "Error control by refits"). Costs
        ``refit_permutations`` more fits; unused with ``n_features_to_select``.
    balanced : bool, default=False
        Draw class-balanced subsamples (classification only). With
        ``balanced=False`` a subsample that holds a single class (no alignment)
        is redrawn; a setup where that happens more often than not is refused.
    standardize : "auto_skip", "auto", bool or "normal_scores", default="auto_skip"
        ``"auto_skip"``: unit variance for every feature whose tails are no
        heavier than a normal's (one-sided kurtosis tests at family-wise level
        0.01 over the features; for class labels the kurtosis of the values
        standardised within each class, pooled, so that the classes'
        separation is not counted as tails); in the heavy-tailed features, a
        value further than 3 robust standard deviations from the median is
        set to the median before unit variance, unless its sample is outlying
        in most heavy-tailed features, whose values then keep their normal
        scores (:func:`~fscompbio.selection._tail_scaling.tail_adaptive_scale`, ``heavy="skip"``). An
        equal-width Gaussian kernel then weighs the features by their bulk:
        a few extreme values neither compress a feature's bulk nor dominate
        its distances, while a multimodal feature keeps its modes (see Notes,
        "Scales"). ``"auto"``: the same test, with normal scores for every
        heavy-tailed feature. ``True``: zero mean and unit variance for every
        feature (the noise features of the Weston sets have standard
        deviation 20). ``"normal_scores"``: every feature replaced by its
        normal scores ``Phi^-1((rank - 1/2) / m)``. ``False``: the data as
        given.
    estimator : {"unbiased", "biased"}, default="unbiased"
        ``"unbiased"``: ``HSIC1(K, L) / sqrt(HSIC1(K, K) HSIC1(L, L))`` with the
        unbiased HSIC1 of Song et al., "Feature selection via dependence
        maximization" (eq. 5: the diagonals removed). ``"biased"``: the centred
        alignment of thesis definition 2.3.1, whose diagonal term tends to
        ``1 / sqrt(m - 1)`` for a narrow kernel and so hides what the
        off-diagonal entries carry (see Notes).
    label_kernel : {"auto", "linear", "balanced", "onehot", "gaussian", "local"}, default="auto"
        The kernel on the target (:func:`fscompbio.kernels.label_kernel`):
        ``"auto"`` follows the task (binary, multiclass, regression).
        ``"local"`` (class labels): Relief's target, ``+1`` for a pair of
        near samples of one class, ``-1`` for near samples of two classes,
        0 for the other pairs, near meaning among each other's
        ``n_neighbors`` nearest samples on all the standardised features
        (:func:`fscompbio.kernels.local_label_kernels`); the alignment then
        rewards what tells apart neighbouring samples of different classes,
        class pair by class pair, where the whole label kernel is led by the
        classes furthest apart (``docs/randsel.md``, section 23).
    n_neighbors : int, default=10
        The near samples of each sample under ``label_kernel="local"``
        (ignored otherwise); at most the number of samples less one.
    n_features_to_select : int or None, default=None
        ``None``: :meth:`get_support` returns ``selected_`` (randSel's own
        model, thesis 4.2.4, with error control); an int: the top of
        ``ranking_``.
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    ranking_ : ndarray of shape (n_features_in_,), int
        1 = best: by elimination order (later = better), the final survivors
        by the culling key (evidence, or their last contribution).
    scores_ : ndarray of shape (n_features_in_,), float64
        ``n_features_in_ + 1 - ranking_`` (higher = more relevant).
    selected_ : ndarray of int
        The error-controlled model: the union of two tests, each at its share
        of ``alpha`` (family-wise level ``alpha`` over both). First, the
        contributions, at ``alpha`` less ``PAIR_ALPHA_SHARE`` of it: below the
        screen, the features whose contribution is significantly positive at
        one iteration and again at the next (fresh partitions and subsamples),
        each test at that level over ``n_tests``, the number of (feature,
        iteration) tests of the run (Bonferroni), taken at the iteration where
        this set is largest (ties: the later); after a screen, the features
        whose score in a test pass (``test_zscores_``) exceeds the maximum over
        all features of the same pass on each of ``n_permutations_`` permuted
        labels (a permutation test of the maximum). Second, the members of the
        second-order screen's pairs whose Bonferroni p-value over all pairs is
        at most ``PAIR_ALPHA_SHARE * alpha``: an interaction, which no
        first-order score sees, or an even effect (a squared feature) beside a
        stronger linear one, whose contribution vanishes. Without a pair
        screen the first test has all of ``alpha``. Empty when nothing is
        significant. With ``refit_permutations``: the features whose largest
        score over the run exceeds the largest of every refit on permuted
        labels. See Notes.
    selected_iteration_ : int or None
        The iteration (0-based) of ``selected_``.
    pvalues_ : ndarray of shape (n_features_in_,)
        Adjusted p-values, so that ``selected_`` is exactly ``pvalues_ <=
        alpha``: the smaller of the contribution's p-value divided by ``1 -
        PAIR_ALPHA_SHARE`` and, for a member of a screened pair, the pair's
        ``screen_pair_pvalues_`` divided by ``PAIR_ALPHA_SHARE``, capped at 1
        (a weighted Bonferroni split; without a pair screen, the first alone,
        undivided). The contribution's p-value, below the screen: of ``H0: c_j
        <= 0`` at ``selected_iteration_`` (the first tested iteration when
        nothing is selected), ``max(n_tests * p_it, p_it+1)`` (1 for features
        no longer alive); after a screen: the permutation p-value ``(1 +
        #{null maxima >= z_j}) / (1 + n_permutations_)`` (1 without
        permutations).
    zscores_ : ndarray of shape (n_features_in_,)
        ``c_j / se_j`` at that iteration as normal scores (nan when not alive;
        after a screen, ``test_zscores_``).
    screen_pairs_ : ndarray of shape (n_pairs, 2), int
        The second-order screen's pairs, best first (empty when the data are
        no wider than ``pair_screen_above``, or ``screen_pairs=0``).
    screen_pair_scores_ : ndarray of shape (n_pairs,)
        Their squared correlations with the centred label (``R^2`` for the
        pairs of the quadratic screen, ``pair_terms="quadratic"`` or
        ``"both"``).
    screen_pair_pvalues_ : ndarray of shape (n_pairs,)
        Their p-values, Bonferroni-adjusted over all the pairs scored
        (:func:`~fscompbio.selection._pair_screen.pair_pvalues`); the members
        of the pairs at or below ``alpha`` are fixed (``fixed_``), and after a
        screen those at or below ``PAIR_ALPHA_SHARE * alpha`` are selected.
    n_permutations_ : int
        Label permutations run (0 unless the fit screened or
        ``refit_permutations > 0``).
    test_zscores_ : ndarray of shape (n_features_in_,) or None
        After a screen with permutations: the normal scores of every
        feature's first-order contribution in the test pass with the real
        labels. None otherwise.
    null_max_zscores_ : ndarray of shape (n_permutations_,) or None
        The largest normal score of the test pass for each permuted label
        vector (with ``refit_permutations``: of each refit, over its features
        and iterations). None without permutations.
    zscores_history_, pvalues_history_ : ndarray of shape (n_iterations_, n_features_in_)
        The normal scores and the unadjusted one-sided p-values of every
        iteration (nan for culled features).
    selected_per_iteration_ : list of ndarray of int
        The confirmed significant set at each iteration (with
        ``refit_permutations``: the refit test's set, at iteration 0).
    contributions_ : ndarray of shape (n_iterations_, n_features_in_), float64
        Estimated contribution of every feature at every iteration; ``nan``
        for features already culled.
    contribution_se_ : ndarray of shape (n_iterations_, n_features_in_)
        Their standard errors over partitions and subsamples (between batches).
    support_history_ : list of ndarray of int
        The surviving feature set at the start of each iteration and, last, the
        final survivors: nested, largest first. Chapter 5 builds its kernels on
        these sets.
    widths_ : ndarray of shape (n_iterations_,)
        The width multiplier used per iteration.
    mean_alignment_ : ndarray of shape (n_iterations_,)
        Mean alignment of all subsets of the iteration (thesis figure 4.3:
        it rises as noise features are culled, and may fall at the last
        iterations, when relevant features are culled too).
    n_subsets_, n_batches_ : ndarray of shape (n_iterations_,), int
        Partitions (random halves in a screening iteration) and batches per
        iteration.
    screened_ : ndarray of shape (n_iterations_,), bool
        Which iterations were screening iterations (first-order estimates;
        their ``contributions_`` carry no test, ``zscores_history_`` is nan).
    subsample_ : int
        Samples per subsample.
    fixed_ : ndarray of int
        Features fixed during the run (``fix_after``), the members of the
        second-order screen's significant pairs (``screen_pair_pvalues_``) and,
        with ``fix_main_effects``, the significant main effects not released.
    main_effect_pvalues_ : ndarray of shape (n_features_in_,) or None
        With ``fix_main_effects`` on data not screened, each feature's
        first-order p-value, adjusted over the features (Bonferroni, or
        Benjamini-Hochberg with ``fix_main_effects="fdr"``); else None.
    evidence_ : ndarray of shape (n_features_in_,)
        Stouffer's sum of each feature's normal scores over the iterations it
        was alive (the culling key of ``cull_by="evidence"``), plus its
        weighted marginal score (``main_effect_weight``).
    n_iterations_ : int

    Notes
    -----
    The derivations and measurements behind these notes are in
    ``docs/randsel.md`` (this implementation's changes) and
    ``docs/deviations.md`` (the earlier deviations from the thesis).

    **Width.** The width is fixed per iteration rather than chosen by
    maximal alignment (the centred alignment of a kernel that tends to the
    identity tends to ``1 / sqrt(m - 1)``, so that rule picks the floor of
    any grid), and the alignment is HSIC1 (the off-diagonal signal only).
    The alignment of ``exp(-gamma D)`` sees ``gamma`` times the spread of
    the distances, not their level, so the width is set from their spread
    (``width_scale="spread"``), and the plus-subsets' squared width is
    ``(h + 1) / h`` of the minus-subsets', so that a feature of average
    spread leaves the kernel's width relative to the distances unchanged
    (``docs/randsel.md``, sections 1 and 6). A grid of widths (``width`` a
    list) is evaluated on the same partitions and combined as
    ``width_rule`` says; each rule gains on some of the study's sets what it
    loses on others, so a single width is the default (sections 17 to 21).

    **Scales.** At a width set from the spread the kernel is carried by the
    bulk of the pairs, so each feature's scale must be its bulk's: unit
    variance, unless the feature's tails are significantly heavier than a
    normal's (its variance is then the tails'), in which case the bulk must
    be scaled apart from the tails (``docs/randsel.md``, sections 7 and 9).
    Light-tailed multimodal features keep their modes apart. Normal scores
    (the ``standardize="auto"`` option) scale the bulk but keep a
    heavy-tailed feature's outlying values at its extreme ranks. Where the
    outliers are matters: an outlying *value* in one feature (a measurement
    glitch) carries no information and is best at the centre, while an
    outlying *sample* (every feature of a sample far out) is best left far
    out, where the Gaussian kernel gives it no weight. The default,
    ``standardize="auto_skip"``, tells them apart: a sample outlying in more
    than half of the heavy-tailed features keeps its normal scores, and
    every other outlying value is set to the median (``docs/randsel.md``,
    section 15).

    **Subsets and culling.** ``n_subsets="auto"`` puts every feature on the
    plus side of about ``4 n`` partitions, and ``cull_by="evidence"`` culls
    by the evidence accumulated over the iterations a feature survived, so
    that one noisy iteration cannot undo the earlier ones (the thesis' rule is
    ``cull_by="contribution"``).

    **Wide data.** On more than ``screen_above`` features, screening
    iterations estimate every feature's contribution at once to first order:
    adding ``j`` to a random half ``S`` moves its weight in the kernel
    ``exp(-gamma sum_i w_i T_i)`` from 0 to 1, so the paired difference
    ``a(S u {j}) - a(S)`` is, to first order, the derivative ``da/dw_j`` at
    ``w = 1_S`` (the scaling-factor gradient of Weston et al., "Feature
    selection for SVMs", NIPS 2000, here of the alignment), two matrix
    products per batch for all features. Each screening iteration culls half
    of the features until ``screen_to`` remain, so a fit grows linearly with
    the number of features. A first-order screen cannot see an interaction
    without marginal effects; the second-order term of the same expansion
    holds, for every pair, the squared covariance of the centred label with
    the pair's product (:func:`~fscompbio.selection._pair_screen.pair_product_screen`
    derives it and computes it for all pairs, blockwise). The members of the
    ``screen_pairs`` best pairs survive the screen, and those of a pair
    significant at family-wise level ``alpha`` over all the pairs scored
    (:func:`~fscompbio.selection._pair_screen.pair_pvalues`) are fixed: an
    established interaction is ranked by the exact iterations, not culled by
    them. ``screen_by="hsic"`` culls by the contributions themselves, with
    the halves' kernel norms held fixed, a statistic close to a marginal
    test's; the default culls by the normal scores. The pair screen runs on
    data of any width (``pair_screen_above``), where it fixes an established
    pair before the first, blind iterations can cull one of its members. The
    exact iterations rank all survivors; their evidence starts afresh after
    the screen (``docs/randsel.md``, sections 3, 8, 17 and 30).

    **Error control.** ``c_j / se_j`` is referred to a t distribution with
    ``n_batches - 1`` degrees of freedom (the batches are independent draws
    given the data) and turned into a normal score (``zscores_``). A feature
    is selected when it is significant at level ``alpha_1 / n_tests`` at one
    iteration and confirmed at level ``alpha_1`` at the next, whose partitions
    and subsamples are fresh (Bonferroni over the run). After a screen the
    survivors are aligned with the label by construction, so this test is
    instead a permutation test of the maximum: one test pass computes the
    first-order contributions of all features for the real labels and
    ``n_permutations_`` permutations of them on the same subsamples and
    halves, and a feature is selected when its score exceeds every permuted
    label vector's largest (family-wise level ``1 / (1 + n_permutations_) <=
    alpha_1``). A pair without marginal effect has no first-order score, and
    an even effect beside a stronger linear one has no contribution, so the
    second-order screen's pairs are tested too, by Bonferroni over all the
    pairs scored, at ``PAIR_ALPHA_SHARE`` of ``alpha``; the contributions'
    test gets the rest, ``alpha_1``, and ``selected_`` is the union
    (family-wise level ``alpha`` over both families, a weighted Bonferroni
    split), on data of any width (``docs/randsel.md``, sections 33 and 35).

    **Error control by refits** (``refit_permutations``). Both tests above
    measure how precisely the partitions estimate ``c_j`` on the data at
    hand: with more partitions the standard errors shrink, and a feature
    that the data align with the label by chance passes (with thousands of
    partitions, a class unrelated to every feature gets features selected).
    The refit test compares each feature's largest normal score over the run
    with the largest of whole refits on permuted labels, which repeat the
    culling and the screen, so that the selection of the survivors is part
    of the null; under labels independent of the features a selection
    happens with probability at most ``1 / (1 + refit_permutations)``
    (Westfall & Young, 1993, "Resampling-based multiple testing", the max-T
    procedure). It loses power on weak linear signals, where the Bonferroni
    test selected relevant features that chance associations can match
    (``docs/randsel.md``, section 12).

    **An empty selection.** When nothing passes the test, ``fit`` warns
    (:class:`EmptySelectionWarning`) with the smallest p-value and what to
    set: ``n_features_to_select=k`` (the top ``k`` of ``ranking_``, which is
    always complete) or a larger ``alpha``. ``transform`` then returns no
    column, as scikit-learn's selectors do, and warns again, so that in a
    pipeline the next step's failure follows a message naming the cause; no
    feature is substituted behind the test's back.

    **Cost.** A batch of ``B`` partitions on one subsample of ``s`` points
    costs one matrix product ``T @ [M, 1]`` of the per-feature squared
    differences ``T`` (``s(s-1)/2 x n``, float32, formed in blocks of pairs)
    with the minus-subset masks (a plus-subset's distance is the total minus
    its complement's), one float32 exponential and a batched alignment.
    Memory is bounded whatever ``n_samples`` and ``n_features``.

    Deviations from the thesis: subsets come as partitions (the thesis draws
    the two sizes independently; the distributions of each are the same);
    ``batch_size`` partitions share a subsample; the width from the spread
    of the distances and relative to the subset's size; the defaults above; culling by evidence; the HSIC1
    alignment; the error-controlled ``selected_``; the screens.

    References
    ----------
    D. Athanasakis, "Feature Selection in Computational Biology", PhD thesis,
    University College London, 2014, chapter 4. D. Athanasakis, J.
    Shawe-Taylor and D. Fernandez-Reyes, "Principled Non-Linear Feature
    Selection". L. Song, A. Smola, A. Gretton, J. Bedo and K. Borgwardt,
    "Feature selection via dependence maximization", JMLR 13, 2012.

    Examples
    --------
    >>> import numpy as np
    >>> from fscompbio.datasets import make_dataset
    >>> ds = make_dataset("xor", random_state=0, n_features=20)
    >>> sel = RandSel(random_state=0).fit(ds.X, ds.y)
    >>> sorted(np.argsort(sel.ranking_)[:2].tolist()), sel.selected_.tolist()
    ([0, 1], [0, 1])
    """

    _parameter_constraints: dict = {
        "n_subsets": [StrOptions({"auto"}), Interval(Integral, 1, None, closed="left")],
        "subsample": [
            StrOptions({"auto"}),
            Interval(Integral, 4, None, closed="left"),
            Interval(RealNotInt, 0, 1, closed="right"),
        ],
        "batch_size": [Interval(Integral, 1, None, closed="left")],
        "cull_fraction": [Interval(RealNotInt, 0, 1, closed="neither")],
        "width": [Interval(Real, 0, None, closed="neither"), "array-like"],
        "width_scale": [StrOptions({"subset_size", "minus", "spread", "subset_median", "subset_spread"})],
        "width_rule": [StrOptions({"select", "calibrated", "evidence", "tail", "alignment"})],
        "cull_by": [StrOptions({"evidence", "contribution"})],
        "alpha": [Interval(Real, 0, 1, closed="neither")],
        "fix_after": [Interval(Integral, 1, None, closed="left"), None],
        "top_fraction": [Interval(Real, 0, 1, closed="right")],
        "min_features": [Interval(Integral, 1, None, closed="left")],
        "screen_above": [Interval(Integral, 1, None, closed="left"), None],
        "screen_to": [Interval(Integral, 1, None, closed="left")],
        "screen_subsets": [Interval(Integral, 2, None, closed="left")],
        "screen_width": [Interval(Real, 0, None, closed="neither")],
        "screen_by": [StrOptions({"auto", "evidence", "contribution", "hsic"})],
        "screen_pairs": [Interval(Integral, 0, None, closed="left")],
        "pair_screen_above": [Interval(Integral, 0, None, closed="left"), None],
        "pair_terms": [StrOptions({"product", "quadratic", "both"})],
        "fix_main_effects": ["boolean", StrOptions({"fwe", "fdr"})],
        "main_effect_weight": [Interval(Real, 0, None, closed="left")],
        "n_permutations": [StrOptions({"auto"}), Interval(Integral, 0, None, closed="left")],
        "refit_permutations": [Interval(Integral, 0, None, closed="left")],
        "balanced": ["boolean"],
        "standardize": ["boolean", StrOptions({"normal_scores", "auto", "auto_skip"})],
        "estimator": [StrOptions({"biased", "unbiased"})],
        "label_kernel": [StrOptions({"auto", "linear", "balanced", "onehot", "gaussian", "local"})],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "n_features_to_select": [Interval(Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
    }

    def __init__(
        self,
        *,
        n_subsets="auto",
        subsample="auto",
        batch_size=100,
        cull_fraction=0.25,
        width=0.5,
        width_scale="spread",
        width_rule="evidence",
        cull_by="evidence",
        alpha=0.05,
        fix_after=None,
        top_fraction=0.05,
        min_features=2,
        screen_above=SCREEN_ABOVE,
        screen_to=SCREEN_TO,
        screen_subsets=SCREEN_SUBSETS,
        screen_width=SCREEN_WIDTH,
        screen_by="auto",
        screen_pairs=SCREEN_PAIRS,
        pair_screen_above=0,
        pair_terms="product",
        fix_main_effects=True,
        main_effect_weight=MAIN_EFFECT_WEIGHT,
        n_permutations="auto",
        refit_permutations=0,
        balanced=False,
        standardize="auto_skip",
        estimator="unbiased",
        label_kernel="auto",
        n_neighbors=LOCAL_NEIGHBOURS,
        n_features_to_select=None,
        random_state=None,
    ):
        self.n_subsets = n_subsets
        self.subsample = subsample
        self.batch_size = batch_size
        self.cull_fraction = cull_fraction
        self.width = width
        self.width_scale = width_scale
        self.width_rule = width_rule
        self.cull_by = cull_by
        self.alpha = alpha
        self.fix_after = fix_after
        self.top_fraction = top_fraction
        self.min_features = min_features
        self.screen_above = screen_above
        self.screen_to = screen_to
        self.screen_subsets = screen_subsets
        self.screen_width = screen_width
        self.screen_by = screen_by
        self.screen_pairs = screen_pairs
        self.pair_screen_above = pair_screen_above
        self.pair_terms = pair_terms
        self.fix_main_effects = fix_main_effects
        self.main_effect_weight = main_effect_weight
        self.n_permutations = n_permutations
        self.refit_permutations = refit_permutations
        self.balanced = balanced
        self.standardize = standardize
        self.estimator = estimator
        self.label_kernel = label_kernel
        self.n_neighbors = n_neighbors
        self.n_features_to_select = n_features_to_select
        self.random_state = random_state

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags

    def _pair_screen_above(self):
        return self.screen_above if self.pair_screen_above is None else self.pair_screen_above

    def _width_grid(self):
        grid = np.atleast_1d(np.asarray(self.width, dtype=float)).ravel()
        if grid.size == 0 or np.any(~np.isfinite(grid)) or np.any(grid <= 0):
            raise ValueError(f"width must be a float > 0 or a non-empty list of floats > 0; got {self.width!r}")
        return grid

    def _setup(self, X, y, rng):
        """Validated problem, width grid and label kind (shared by fit and expected_contributions)."""
        check_target(y)
        if self.standardize == "normal_scores":
            X = normal_scores(X)
        elif self.standardize in ("auto", "auto_skip"):
            X = tail_adaptive_scale(X, y, heavy="normal_scores" if self.standardize == "auto" else "skip")
        elif self.standardize:
            X = standardize(X)
        grid = self._width_grid()
        task = task_of_target(y)
        if self.balanced and task == "regression":
            raise ValueError("balanced=True needs a classification target; got a real-valued y")
        kind = auto_label_kind(y, "label_kernel", kind=self.label_kernel)
        if kind in ("linear", "balanced") and task != "binary":
            raise ValueError(f"label_kernel={kind!r} needs a binary target; got a {task} target")
        problem = _Problem(X, y, subsample=self.subsample, balanced=self.balanced, label_kind=kind, rng=rng,
                           n_neighbors=self.n_neighbors)
        return problem, grid

    def _n_subsets(self, n):
        return auto_n_subsets(n) if self.n_subsets == "auto" else int(self.n_subsets)

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Run randSel on ``X`` (``(n_samples, n_features)``) and target ``y``."""
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=False)
        refits = self.refit_permutations if self.n_features_to_select is None else 0
        if 0 < refits and 1.0 / (1 + refits) > self.alpha:
            raise ValueError(
                f"refit_permutations={refits} cannot reach alpha={self.alpha}: the smallest p-value of the refit "
                f"test is 1/{refits + 1}; use at least {math.ceil(1.0 / self.alpha - 1e-9) - 1}"
            )
        rng = check_random_state(self.random_state)
        problem, grid = self._setup(X, y, rng)
        d = X.shape[1]
        surv = np.arange(d)
        fixed = np.zeros(d, dtype=bool)
        streak = np.zeros(d, dtype=int)
        evidence = np.zeros(d)
        order = []  # culled features, worst first
        protected = np.zeros(d, dtype=bool)  # the second-order screen's pairs: never culled by the screen
        self.screen_pairs_ = np.empty((0, 2), dtype=int)
        self.screen_pair_scores_ = np.empty(0)
        self.screen_pair_pvalues_ = np.empty(0)
        # the marginal tests read the label as the label kernel does: a real target under the Gaussian label
        # kernel even when its values are integers, classes under the others even when coded as floats
        y_marginal = y.astype(np.float64) if problem.kind == "gaussian" else np.unique(y, return_inverse=True)[1]
        if self.screen_above is not None and self.screen_pairs > 0 and d > self._pair_screen_above():
            self.screen_pairs_, self.screen_pair_scores_, self.screen_pair_pvalues_ = self._pair_screen(
                problem.X, y_marginal)
            protected[self.screen_pairs_.ravel()] = True
            # a pair whose terms are correlated with the label at family-wise level alpha over all pairs is
            # an established interaction: fixed, so that the exact iterations rank it but never cull it
            fixed[self.screen_pairs_[self.screen_pair_pvalues_ <= self.alpha].ravel()] = True
        self.main_effect_pvalues_ = None
        main = np.zeros(d, dtype=bool)  # fixed main effects, released when the kernel's evidence goes against them
        min_iterations = 0
        unscreened = self.screen_above is None or d <= self.screen_above
        if unscreened and (self.fix_main_effects or self.main_effect_weight > 0):
            marginal = main_effect_scores(problem.X, y_marginal)
            family_wise = main_effect_pvalues(marginal, y_marginal, d)  # Bonferroni: also the test of the global null
        if self.fix_main_effects and unscreened:
            # an established main effect (the alignment's first-order term significant at level alpha over all
            # features): fixed, as an established pair is; MAIN_EFFECT_MIN_ITERATIONS at least, so that
            # selected_ is tested, more than once, even when every feature is fixed
            self.main_effect_pvalues_ = (main_effect_pvalues(marginal, y_marginal, d, control="fdr")
                                         if self.fix_main_effects == "fdr" else family_wise)
            main = self.main_effect_pvalues_ <= self.alpha
            min_iterations = MAIN_EFFECT_MIN_ITERATIONS if main.any() else 0
        if self.main_effect_weight > 0 and unscreened and (family_wise <= self.alpha).any():
            # the marginal test as main_effect_weight iterations of evidence for a main effect (one-sided: no
            # marginal correlation is no evidence against a feature whose signal is non-linear), on data where
            # the marginal tests reject the global null of no main effect: elsewhere the expected marginal
            # score of every feature is that of noise, and the weight that Stouffer's sum would give it is 0
            one_sided = norm.isf(main_effect_pvalues(marginal, y_marginal, 1))
            evidence += self.main_effect_weight * np.maximum(one_sided, 0.0)
        hist = dict(c=[], se=[], z=[], width=[], align=[], n_subsets=[], n_batches=[], screen=[], support=[])
        while surv.size > self.min_features and (
            not np.all((fixed | main)[surv]) or len(hist["c"]) < min_iterations
        ):
            hist["support"].append(surv.copy())
            n = surv.size
            n_prot = int(protected[surv].sum())
            screening = self.screen_above is not None and d > self.screen_above and n - n_prot > self.screen_to
            if hist["screen"] and hist["screen"][-1] and not screening:
                evidence[surv] = 0.0  # the exact iterations start their own evidence (see Notes)
            if screening:
                N = self.screen_subsets
                c, se, mult, mean_a = _screen_iteration(
                    problem, surv, N, self.batch_size, self.screen_width, self.estimator, rng,
                    hold_norm=self.screen_by == "hsic",
                )
                z = _normal_scores(c, se, _n_batches(N, self.batch_size))
            else:
                N = self._n_subsets(n)
                c, se, mult, mean_a, z = _iteration(
                    problem, surv, N, self.batch_size, grid, self.estimator, rng, self.width_scale,
                    self.width_rule,
                )
            for key, row_vals in (("c", c), ("se", se), ("z", z)):
                row = np.full(d, np.nan)
                row[surv] = row_vals
                hist[key].append(row)
            hist["width"].append(mult)
            hist["align"].append(mean_a)
            hist["n_subsets"].append(N)
            hist["n_batches"].append(_n_batches(N, self.batch_size))
            hist["screen"].append(screening)
            if self.fix_after is not None:
                n_top = max(1, int(np.ceil(self.top_fraction * n)))
                top = surv[np.argsort(-c, kind="stable")[:n_top]]
                hit = np.zeros(d, dtype=bool)
                hit[top] = True
                streak[surv] = np.where(hit[surv], streak[surv] + 1, 0)
                fixed |= streak >= self.fix_after
            if main.any() and not screening:
                # a main effect whose contribution is significantly negative (one-sided, level RELEASE_LEVEL)
                # among this iteration's survivors is released: the kernel's evidence overrules the marginal test
                main[surv[main[surv] & (z < -RELEASE_Z)]] = False
            free_idx = np.flatnonzero(~(fixed | main)[surv] & ~(protected[surv] if screening else False))
            if screening:  # down by SCREEN_CULL_FRACTION, but not below screen_to (besides the protected pairs)
                n_cull = min(max(1, int(np.floor(SCREEN_CULL_FRACTION * n))), n - n_prot - self.screen_to)
            else:
                n_cull = max(1, int(np.floor(self.cull_fraction * n)))
            n_cull = min(n_cull, n - self.min_features, free_idx.size)
            evidence[surv] += z
            by_evidence = (self.cull_by if not screening or self.screen_by == "auto" else self.screen_by) == "evidence"
            key = evidence[surv] if by_evidence else c
            worst = free_idx[np.argsort(key[free_idx], kind="stable")[:n_cull]]
            order.extend(surv[worst].tolist())
            surv = np.delete(surv, worst)
        hist["support"].append(surv.copy())
        if hist["c"]:  # the final survivors, worst first by the culling key
            last = evidence[surv] if self.cull_by == "evidence" else hist["c"][-1][surv]
            surv_sorted = surv[np.argsort(np.nan_to_num(last, nan=-np.inf), kind="stable")]
        else:
            surv_sorted = surv
        order.extend(surv_sorted.tolist())
        ranking, scores = ranking_from_order(order[::-1], d)

        n_it = len(hist["c"])
        self.contributions_ = np.array(hist["c"]).reshape(n_it, d)
        self.contribution_se_ = np.array(hist["se"]).reshape(n_it, d)
        self._scores_history = np.array(hist["z"]).reshape(n_it, d)
        self.support_history_ = hist["support"]
        self.widths_ = np.asarray(hist["width"], dtype=float)
        self.mean_alignment_ = np.asarray(hist["align"], dtype=float)
        self.n_subsets_ = np.asarray(hist["n_subsets"], dtype=int)
        self.n_batches_ = np.asarray(hist["n_batches"], dtype=int)
        self.screened_ = np.asarray(hist["screen"], dtype=bool)
        self.fixed_ = np.flatnonzero(fixed | main)
        self.evidence_ = evidence
        self.n_iterations_ = n_it
        self.subsample_ = problem.s
        self.ranking_ = ranking
        self.scores_ = scores
        self.n_permutations_ = 0 if refits else self._n_permutations_for(bool(self.screened_.any()))
        self.test_zscores_ = self.null_max_zscores_ = None
        if self.n_permutations_:  # the real labels and their permutations on shared subsamples and halves
            ys = np.array([y] + [y[rng.permutation(y.shape[0])] for _ in range(self.n_permutations_)])
            n_sets = TEST_SUBSETS_FACTOR * self.screen_subsets
            z = _screen_test_scores(problem.X, ys, problem.kind, problem.s, n_sets, max(1, n_sets // TEST_BATCHES),
                                    self.screen_width, self.estimator, rng, near=problem.near)
            self.test_zscores_, self.null_max_zscores_ = z[0], z[1:].max(axis=1)
        self._select()
        if refits:
            self._select_by_refits(X, y, refits, rng)
        if self.n_features_to_select is None and self.selected_.size == 0:
            warn(self._empty_message("fit"), EmptySelectionWarning)
        return self

    def _empty_message(self, where):
        """What an empty ``selected_`` means and what to set (the fit's warning and transform's error)."""
        if self.refit_permutations and self.n_permutations_:
            test = f"a permutation test of the whole fit with {self.n_permutations_} refits on permuted labels"
        elif self.screened_.any():
            test = f"a permutation test of the maximum with {self.n_permutations_} label permutations"
        else:
            test = "a Bonferroni test over the run's iterations, confirmed at the next one"
        head = {
            "fit": "RandSel selected no feature",
            "transform": "RandSel.transform returns no column (the next step of a pipeline will fail on it)",
        }[where]
        text = (
            f"{head}: no feature's contribution was significantly positive at alpha={self.alpha} ({test}; "
            f"smallest p-value {float(np.min(self.pvalues_)) if self.pvalues_.size else 1.0:.3g}). "
            "Set n_features_to_select=k to keep the top k features of ranking_ instead, or a larger alpha."
        )
        return text + self._established_pairs_note()

    def _established_pairs_note(self):
        """The second-order screen's pairs significant at ``alpha`` (fixed, so ranked high) that ``selected_``
        does not hold: after a screen it tests the pairs at their share of ``alpha`` only, below it the
        contributions of their members."""
        established = self.screen_pair_pvalues_ <= self.alpha
        pairs = self.screen_pairs_[established]
        if pairs.size == 0:
            return ""
        names = getattr(self, "feature_names_in_", None)
        label = (lambda j: repr(str(names[j]))) if names is not None else str
        shown = ", ".join(f"({label(a)}, {label(b)})" for a, b in pairs.tolist())
        p = float(self.screen_pair_pvalues_[established].max())
        ranks = np.sort(self.ranking_[np.unique(pairs)])
        why = (f"selected_ tests the pairs at alpha x {PAIR_ALPHA_SHARE:g}, the rest of alpha going to the "
               + ("first-order test" if self.screened_.any() else "test of the contributions"))
        return (
            f" The second-order screen found {len(pairs)} pair(s) of columns significant at alpha over all pairs, "
            f"{shown} (adjusted p <= {p:.3g}; a pair (j, j) is a squared feature), but {why}. Their members are "
            f"fixed and rank {', '.join(str(r) for r in ranks)} in ranking_: n_features_to_select={int(ranks.max())} "
            "keeps them."
        )

    def transform(self, X):
        """Keep the selected columns of ``X``.

        With ``n_features_to_select=None`` and an empty ``selected_`` this
        returns an array of no column, as scikit-learn's selectors do, and
        warns (:class:`EmptySelectionWarning`) with what to set, so that the
        next step of a pipeline, which fails on it, is not the first word on
        the cause. Features are never substituted: a fixed-size selection is
        ``n_features_to_select``.
        """
        check_is_fitted(self)
        if self.n_features_to_select is None and self.selected_.size == 0:
            warn(self._empty_message("transform"), EmptySelectionWarning)
            with warnings.catch_warnings():  # scikit-learn's own, less specific warning of the same event
                warnings.filterwarnings("ignore", message="No features were selected", category=UserWarning)
                return super().transform(X)
        return super().transform(X)

    def _pair_screen(self, X, y):
        """The pair screen's pairs, scores and Bonferroni-adjusted p-values under ``pair_terms``; with "both"
        each family is tested at half of ``alpha`` (its p-values doubled), and a pair found by both keeps the
        smaller."""
        d = X.shape[1]
        families = []
        if self.pair_terms in ("product", "both"):
            pairs, scores = pair_product_screen(X, y, self.screen_pairs)
            families.append((pairs, scores, pair_pvalues(scores, y, d)))
        if self.pair_terms in ("quadratic", "both"):
            pairs, scores, df = pair_quadratic_screen(X, y, self.screen_pairs)
            families.append((pairs, scores, pair_pvalues(scores, y, d, diagonal=False, df=df)))
        if len(families) == 1:
            return families[0]
        pairs, scores, pvalues = (np.concatenate(parts) for parts in zip(*families))
        pvalues = np.minimum(1.0, len(families) * pvalues)
        order = np.argsort(pvalues, kind="stable")  # ties: the product family's first
        _, first = np.unique(pairs[order], axis=0, return_index=True)
        keep = order[np.sort(first)]
        return pairs[keep], scores[keep], pvalues[keep]

    def _n_permutations_for(self, screened):
        if not screened:
            return 0
        if self.n_permutations != "auto":
            return int(self.n_permutations)
        if self.n_features_to_select is not None:
            return 0
        return min(MAX_AUTO_PERMUTATIONS, math.ceil(1.0 / self._first_order_alpha() - 1e-9) - 1)

    def _pair_share(self):
        """The share of ``alpha`` the second-order screen's pairs are tested at in ``selected_`` (0: no pair
        screen ran)."""
        return PAIR_ALPHA_SHARE if self.screen_pairs_.shape[0] else 0.0

    def _first_order_alpha(self):
        """The level of ``selected_``'s test of the contributions (the iterations' Bonferroni test, or the
        permutation test after a screen): ``alpha`` less the pairs' share."""
        return self.alpha * (1.0 - self._pair_share())

    def _select(self):
        """Per-iteration statistics, p-values and the error-controlled selected set."""
        d = self.n_features_in_
        n_it = self.n_iterations_
        Z = np.full((n_it, d), np.nan)  # c / se as normal scores (through t with n_batches - 1 df)
        tested = ~self.screened_
        for it in range(n_it):
            surv = self.support_history_[it]
            if not tested[it]:  # a screen's first-order statistics are not tested (see Notes)
                continue
            Z[it, surv] = self._scores_history[it, surv]
        P = norm.sf(Z)
        n_tests = sum(s.size for s, t in zip(self.support_history_[:n_it], tested) if t)
        P0 = np.nan_to_num(P, nan=1.0)
        # the pair screen's share of alpha is its own, as after a screen
        sets, best = confirmed_sets(P0, n_tests, self._first_order_alpha())
        self.zscores_history_ = Z
        self.pvalues_history_ = P
        if self.screened_.any():  # the exact iterations' test is biased by the screen: a permutation test
            self._select_by_permutations()
            return
        # the second-order screen's established pairs: their members are selected whatever the iterations'
        # test says (an even effect beside a stronger linear one has no contribution; docs/randsel.md, section 35)
        pairs = self._established_pair_members()
        self.selected_per_iteration_ = [np.union1d(chosen, pairs) for chosen in sets]
        if best is None and pairs.size and n_it:  # the pairs' test alone: reported at the first tested iteration
            best = int(np.argmax(tested))
        self.selected_ = self.selected_per_iteration_[best] if best is not None else np.array([], dtype=int)
        self.selected_iteration_ = best
        it = best if best is not None else int(np.argmax(tested)) if tested.any() else 0
        if n_it:
            # adjusted so that selected_ == (pvalues_ <= alpha) at that iteration: Bonferroni at it, the
            # confirmation at it + 1 as it is, over the first-order family's share of alpha; a member of a screened
            # pair keeps the smaller of that and its pair's p-value over the pairs' share (as after a screen)
            nxt = P0[it + 1] if it + 1 < n_it else np.ones(d)
            self.zscores_ = Z[it]
            self.pvalues_ = self._with_pair_pvalues(np.maximum(P0[it] * max(n_tests, 1), nxt))
        else:
            self.zscores_ = np.full(d, np.nan)
            self.pvalues_ = np.ones(d)

    def _select_by_permutations(self):
        """``selected_`` of a screened fit: the test pass's scores against the permuted maxima."""
        d = self.n_features_in_
        if not self.n_permutations_:  # no test asked for (the nested sets or the ranking are the model)
            self._set_selected(np.ones(d), np.full(d, np.nan))
            return
        p = _max_t_pvalues(self.test_zscores_, self.null_max_zscores_)
        self._set_selected(self._with_pair_pvalues(p), self.test_zscores_)

    def _with_pair_pvalues(self, p):
        """The union of the two families by a weighted Bonferroni split: the first-order p-values ``p`` divided
        by their share of ``alpha``, the pairs' by theirs, the smaller per feature, capped at 1, so that
        ``selected_ == (pvalues_ <= alpha)``."""
        share = self._pair_share()
        p = np.minimum(1.0, np.asarray(p, dtype=float) / (1.0 - share))
        if share:
            pair_p = np.repeat(np.minimum(1.0, self.screen_pair_pvalues_ / share), 2)
            np.minimum.at(p, self.screen_pairs_.ravel(), pair_p)
        return p

    def _established_pair_members(self):
        """The members of the second-order screen's pairs significant at their share of ``alpha``."""
        share = self._pair_share()
        if not share:
            return np.array([], dtype=int)
        return np.unique(self.screen_pairs_[self.screen_pair_pvalues_ <= share * self.alpha * (1.0 + 1e-9)])

    def _select_by_null(self, z, null):
        """``selected_`` of a max-T permutation test: statistics ``z`` against the permuted maxima ``null``
        (:func:`_max_t_pvalues`)."""
        self._set_selected(_max_t_pvalues(z, null), z)

    def _set_selected(self, p, z):
        """``selected_`` = the features whose adjusted p-value ``p`` is at most ``alpha``, as one set (iteration 0);
        ``zscores_`` = ``z`` (nan where not finite: never tested)."""
        chosen = np.flatnonzero(p <= self.alpha * (1.0 + 1e-9))  # p = k / (1 + B) divided by a share, rounded
        self.selected_per_iteration_ = [chosen] + [np.array([], dtype=int)] * max(self.n_iterations_ - 1, 0)
        self.selected_ = chosen
        self.selected_iteration_ = 0 if chosen.size else None
        self.zscores_ = np.where(np.isfinite(z), z, np.nan)
        self.pvalues_ = p

    def _max_zscores(self):
        """Every feature's largest normal score over the iterations it was tested in (-inf: never tested)."""
        Z = self.zscores_history_
        if Z.shape[0] == 0:
            return np.full(self.n_features_in_, -np.inf)
        return np.max(np.where(np.isnan(Z), -np.inf, Z), axis=0)

    def _select_by_refits(self, X, y, refits, rng):
        """``selected_`` by the max-T permutation test of the whole fit (see Notes, "Error control by refits")."""
        params = {**self.get_params(), "refit_permutations": 0, "n_permutations": 0}
        null = np.empty(refits)
        for b in range(refits):
            perm = rng.permutation(y.shape[0])
            est = type(self)(**{**params, "random_state": int(rng.randint(2**31 - 1))})
            with warnings.catch_warnings():  # a refit's own (empty) selection is not used
                warnings.simplefilter("ignore", EmptySelectionWarning)
                est.fit(X, y[perm])
            null[b] = est._max_zscores().max()
        self.n_permutations_ = refits
        self.test_zscores_, self.null_max_zscores_ = self._max_zscores(), null
        self._select_by_null(self.test_zscores_, null)

    def _get_support_mask(self):
        check_is_fitted(self)
        if self.n_features_to_select is not None:
            return top_k_mask(self.ranking_, self.n_features_to_select)
        mask = np.zeros(self.n_features_in_, dtype=bool)
        mask[self.selected_] = True
        return mask


def _max_t_pvalues(z, null):
    """The max-T permutation p-values of statistics ``z`` against the permuted maxima ``null``: ``p_j = (1 +
    #{null >= z_j}) / (1 + len(null))``; a statistic of -inf (never tested) gets p = 1."""
    p = (1.0 + np.sum(null[None, :] >= z[:, None], axis=1)) / (1.0 + null.size)
    p[~np.isfinite(z)] = 1.0
    return p


def expected_contributions(X, y, **params):
    """One randSel pass over all features, without culling.

    Figure 1 of "Principled Non-Linear Feature Selection" (200-d XOR, a
    subsample of 1,000 and 10,000 partitions): with enough partitions and
    samples the relevant features' contributions stand clear of all others.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    **params
        :class:`RandSel` parameters (``n_subsets``, ``subsample``,
        ``batch_size``, ``width``, ``estimator``, ``balanced``,
        ``label_kernel``, ``standardize``, ``random_state``).

    Returns
    -------
    contributions : ndarray of shape (n_features,)
        The estimated contribution ``c_j`` of every feature.
    standard_errors : ndarray of shape (n_features,)
        Their standard errors over partitions and subsamples.
    width : float
        The width multiplier used.
    mean_alignment : float

    Examples
    --------
    >>> from fscompbio.datasets import make_dataset
    >>> ds = make_dataset("xor", random_state=0, n_features=10)
    >>> c, se, width, _ = expected_contributions(ds.X, ds.y, n_subsets=400, random_state=0)
    >>> sorted(np.argsort(-c)[:2].tolist())
    [0, 1]
    """
    sel = RandSel(**params)
    sel._validate_params()
    X, y = validate_data(sel, X, y, dtype=np.float64)
    rng = check_random_state(sel.random_state)
    problem, grid = sel._setup(X, y, rng)
    d = X.shape[1]
    return _iteration(
        problem, np.arange(d), sel._n_subsets(d), sel.batch_size, grid, sel.estimator, rng, sel.width_scale,
        sel.width_rule,
    )[:4]
