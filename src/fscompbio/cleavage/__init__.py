"""Signal-peptide cleavage-site prediction (thesis chapter 5; Athanasakis, Shawe-Taylor & Fernandez-Reyes
2013, "Principled Non-Linear Feature Selection", section 4): the approaches of table P1, the accuracy per
sequence, the cross-validation protocol by sequence or homology cluster, and the trained model that
predicts the cleavage site of users' sequences (the default one: :func:`load_default_model`).

Every sequence contributes its candidate windows, exactly one of which is positive; a prediction for a
sequence is right when its top-scoring window is the true cleavage window (:func:`cleavage_accuracy`).

>>> from fscompbio.cleavage import make_approach, cross_validate_cleavage, CleavageSiteModel
"""

from ._accuracy import cleavage_accuracy, site_accuracy, summarise_accuracy
from ._arrays import STORABLE
from ._approaches import (
    APPROACH_LABELS,
    APPROACH_REPRESENTATION,
    APPROACH_SHORT_LABELS,
    APPROACHES,
    COMBINED_SCORES,
    LINEAR_WIDTH_MULTIPLIER,
    PAPER_TABLE1,
    TABLE_ROWS,
    make_approach,
)
from ._default import (
    default_cache_dir,
    default_model_path,
    default_model_record,
    load_default_model,
    shipped_data_dir,
    train_default_model,
)
from ._correlations import label_correlations, support_vector_correlations
from ._features import encoded_matrix, representation_matrix
from ._folds import balanced_subsample, sequence_folds, training_windows, window_clusters
from ._model import (
    MODEL_FORMAT,
    PREDICTION_COLUMNS,
    PREDICTION_FORMATS,
    PREDICTION_SCOPE,
    CleavageSiteModel,
    choose_model,
    describe_fitted,
    write_predictions,
)
from ._protocol import cross_validate_cleavage, fit_approach, learning_curve_fold, run_fold

__all__ = [
    "APPROACHES",
    "APPROACH_LABELS",
    "APPROACH_SHORT_LABELS",
    "APPROACH_REPRESENTATION",
    "TABLE_ROWS",
    "COMBINED_SCORES",
    "PAPER_TABLE1",
    "LINEAR_WIDTH_MULTIPLIER",
    "make_approach",
    "cleavage_accuracy",
    "site_accuracy",
    "summarise_accuracy",
    "sequence_folds",
    "window_clusters",
    "balanced_subsample",
    "training_windows",
    "encoded_matrix",
    "representation_matrix",
    "fit_approach",
    "run_fold",
    "cross_validate_cleavage",
    "learning_curve_fold",
    "label_correlations",
    "support_vector_correlations",
    "CleavageSiteModel",
    "default_model_record",
    "default_cache_dir",
    "default_model_path",
    "train_default_model",
    "load_default_model",
    "shipped_data_dir",
    "choose_model",
    "describe_fitted",
    "write_predictions",
    "MODEL_FORMAT",
    "STORABLE",
    "PREDICTION_COLUMNS",
    "PREDICTION_FORMATS",
    "PREDICTION_SCOPE",
]
