"""What the binary classifiers of this package share: a label from the sign of the decision function."""

from __future__ import annotations

import numpy as np
from sklearn.base import ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_is_fitted

__all__ = ["BinaryClassifierMixin"]


class BinaryClassifierMixin(ClassifierMixin):
    """``predict`` = ``classes_[1]`` where ``decision_function`` is positive; binary-only tags.

    For estimators with ``classes_`` of two labels and a ``decision_function``
    that is positive for ``classes_[1]``. Put it before ``BaseEstimator``;
    ``fit`` calls :meth:`_fit_classes` on the validated labels.
    """

    def _fit_classes(self, y):
        """Set ``classes_`` from binary labels ``y`` and return the index of each label (1 = ``classes_[1]``).

        Raises ``ValueError`` for labels that are not two classes (scikit-learn's message for more than
        two, naming the estimator and the class for one).
        """
        check_classification_targets(y)
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        classes, index = np.unique(y, return_inverse=True)
        if y_type != "binary":
            raise ValueError(
                f"Only binary classification is supported. The type of the target is {y_type} "
                f"({type(self).__name__} got {classes.size} class(es) in y: {classes[:5]!r})."
            )
        if classes.size < 2:
            raise ValueError(f"{type(self).__name__} needs samples of both classes; y has 1 class ({classes[0]!r})")
        self.classes_ = classes
        return index

    def predict(self, X):
        """``classes_[1]`` where the decision function is positive, else ``classes_[0]``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(int)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags
