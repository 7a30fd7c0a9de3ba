"""Feature selectors, all scikit-learn compatible (``SelectorMixin``).

Every selector: ``fit(X, y)`` returns self; ``scores_`` (higher = more
relevant), ``ranking_`` (1 = best), ``get_support()``.
"""

from .._lazy import lazy_exports

_EXPORTS = {
    # chapter 3 (linear)
    "CorrelationSelector": "._correlation",
    "LinearRFE": "._rfe",
    "StabilitySelection": "._stability",
    "RandomSelector": "._random",
    # chapter 4 (non-linear)
    "KernelRFE": "._kernel_rfe",
    "FoHSIC": "._hsic",
    "BaHSIC": "._hsic",
    "RandSel": "._randsel",
    "expected_contributions": "._randsel",
    "EmptySelectionWarning": "._randsel",
    "ARCHIVED_RANDSEL": "._randsel",
    "AnticorrelationWeighting": "._anticorrelation",
    # regression (Sun, Yao & Goodison 2015) and its peer HSIC Lasso (optional pyHSICLasso)
    "LocalLearningRegression": "._local_learning",
    "HSICLasso": "._hsic_lasso",
}
__all__ = list(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
