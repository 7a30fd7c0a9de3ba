"""What the binary classifiers of this package share: a label from the sign of the decision function."""

from __future__ import annotations

from sklearn.base import ClassifierMixin
from sklearn.utils.validation import check_is_fitted

__all__ = ["BinaryClassifierMixin"]


class BinaryClassifierMixin(ClassifierMixin):
    """``predict`` = ``classes_[1]`` where ``decision_function`` is positive; binary-only tags.

    For estimators with ``classes_`` of two labels and a ``decision_function``
    that is positive for ``classes_[1]``. Put it before ``BaseEstimator``.
    """

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
