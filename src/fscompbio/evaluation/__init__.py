"""Evaluation of feature selectors (thesis section 2.5): metrics, the CV protocol, the method registry.

Metrics: :func:`accuracy`, :func:`precision_recall`, :func:`selection_matrix`,
:func:`mean_variance`, :func:`consistency_log_likelihood` (eq. 2.8),
:func:`simulate_selections` (the toy of figures 2.2-2.4).

Protocol: :func:`outer_splits` (stratified outer folds), :func:`run_outer_fold`
(selector on the training fold, KTA or nested-CV model selection, Gaussian SVM
with C = 1 on the test fold, timings), :func:`split_timing` (wall-clock fields
apart, so results reproduce byte for byte), :func:`aggregate_folds` (means, sds,
ranges, mean variance, log-likelihood over the folds), :func:`summarise_fold_jobs`
(one data set's summary: :func:`aggregate_folds` per method and model selection).

The workflow's outer folds of chapters 3 and 4, shared with ``fscompbio evaluate``: :func:`fold_seeds`,
:func:`evaluate_folds`. Which features were selected, how often: :func:`feature_table` (the
``figures/{name}_features.csv`` of every data set), :func:`top_features`, :data:`CONSENSUS_RULE`.

Methods: :data:`METHODS`, :func:`make_selector` (name -> selector) and
:func:`method_spec`.

Cleavage sites (chapter 5) are evaluated in :mod:`fscompbio.cleavage`.

Regression recovery (Sun, Yao and Goodison 2015, figure 2): :func:`recovery_fraction`,
:func:`recovery_trial`, :func:`recovery_trials`, :func:`recovery_table`. Outer folds of a real-valued target
(the protocol with Gaussian kernel ridge regression in place of the SVM; ours): :func:`regression_fold`,
:func:`regression_splits`, :func:`regression_seeds`, :func:`evaluate_regression_folds` (the workflow's and
``fscompbio evaluate``'s).

Multi-class (figure figM_1): :func:`multiclass_fold` (HSIC selectors with the one-hot label kernel and
:class:`OneHotKTASelect`, or the one-vs-rest l1-logistic baseline :func:`ovr_l1_logistic_fold`).

The randSel paper's synthetic table (tableP_2): :func:`reshuffled_nested_cv` (nested CV over reshuffles of
samples and features), :func:`reshuffle_table`.
"""

from ._features import CONSENSUS_RULE, FEATURE_COLUMNS, feature_table, top_features
from ._folds import CHAPTER_METHODS, CHAPTERS, FoldSeeds, evaluate_folds, fold_seeds
from ._methods import (
    METHODS,
    TASK_METHODS,
    MethodSpec,
    for_real_target,
    make_selector,
    method_spec,
    model_selections_for,
    task_error,
)
from ._metrics import (
    accuracy,
    consistency_log_likelihood,
    mean_variance,
    precision_recall,
    selection_matrix,
    simulate_selections,
)
from ._protocol import (
    ABSOLUTE_GAMMAS,
    METRICS,
    MODEL_SELECTIONS,
    TIMING_KEYS,
    absolute_gammas,
    aggregate_folds,
    outer_splits,
    run_outer_fold,
    split_timing,
    summarise_fold_jobs,
)
from ._oracle import ORACLES, oracle_accuracy
from ._multiclass import OneHotKTASelect, multiclass_fold, multiclass_seeds, multiclass_table, ovr_l1_logistic_fold
from ._recovery import recovery_fraction, recovery_table, recovery_trial, recovery_trials
from ._regression_folds import (REGRESSION_MODEL_SELECTIONS, evaluate_regression_folds, regression_fold,
                               regression_seeds, regression_splits)
from ._reshuffle import reshuffle_table, reshuffled_nested_cv

__all__ = [
    "ORACLES",
    "oracle_accuracy",
    "accuracy",
    "precision_recall",
    "selection_matrix",
    "mean_variance",
    "consistency_log_likelihood",
    "simulate_selections",
    "outer_splits",
    "run_outer_fold",
    "split_timing",
    "aggregate_folds",
    "summarise_fold_jobs",
    "METRICS",
    "MODEL_SELECTIONS",
    "ABSOLUTE_GAMMAS",
    "absolute_gammas",
    "TIMING_KEYS",
    "METHODS",
    "MethodSpec",
    "make_selector",
    "method_spec",
    "model_selections_for",
    "TASK_METHODS",
    "task_error",
    "for_real_target",
    "recovery_fraction",
    "recovery_trial",
    "recovery_trials",
    "recovery_table",
    "REGRESSION_MODEL_SELECTIONS",
    "evaluate_regression_folds",
    "regression_fold",
    "regression_seeds",
    "regression_splits",
    "OneHotKTASelect",
    "multiclass_fold",
    "multiclass_seeds",
    "multiclass_table",
    "ovr_l1_logistic_fold",
    "reshuffled_nested_cv",
    "reshuffle_table",
    "CHAPTERS",
    "CHAPTER_METHODS",
    "FoldSeeds",
    "fold_seeds",
    "evaluate_folds",
    "CONSENSUS_RULE",
    "FEATURE_COLUMNS",
    "feature_table",
    "top_features",
]
