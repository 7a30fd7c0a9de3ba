"""The premise of a synthetic data set: what an oracle that knows the relevant features can reach.

A message of the study about a synthetic set (thesis appendix A.3) presumes that the set, as generated, holds
the signal the message needs. Our reading of a garbled recipe may not: if a classifier trained on the
relevant features alone (the selection every method aims at) stays near chance, no selector can show a
"much improved" accuracy there. :func:`oracle_accuracy` measures it on the outer folds of the chapter-3
protocol, so that it compares fold for fold with the selectors.
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import SVC

#: the oracles: name -> (features, kernel)
ORACLES = {
    "gaussian_relevant": ("relevant", "rbf"),
    "linear_relevant": ("relevant", "linear"),
    "gaussian_all": ("all", "rbf"),
}
#: multiples of scikit-learn's ``gamma="scale"`` (1 / (n_features x variance)) tried by the Gaussian oracles
GAMMA_MULTIPLIERS = (0.25, 0.5, 1.0, 2.0, 4.0)


def _oracle(kind, C, inner_folds, random_state, n_features, variance):
    if kind == "linear":
        return SVC(kernel="linear", C=C)
    scale = 1.0 / (n_features * variance) if variance > 0 else 1.0
    grid = {"gamma": [m * scale for m in GAMMA_MULTIPLIERS]}
    cv = StratifiedKFold(n_splits=inner_folds, shuffle=True, random_state=random_state)
    return GridSearchCV(SVC(kernel="rbf", C=C), grid, cv=cv)


def oracle_accuracy(X, y, relevant, folds, C=1.0, inner_folds=3, random_state=0):
    """Test accuracy on each outer fold of SVMs that are told which features are relevant.

    Parameters
    ----------
    X, y : arrays of shape (n_samples, n_features) and (n_samples,)
    relevant : array of int
        The indices of the relevant features (the data set's ground truth); must not be empty.
    folds : list of (train, test) index arrays
        The outer folds (:func:`fscompbio.evaluation.outer_splits`).
    C : float
        The SVMs' C (the thesis' 1, as in 4.3).
    inner_folds, random_state : int
        The Gaussian oracles choose their width on an inner stratified split of each training part, over
        :data:`GAMMA_MULTIPLIERS` x scikit-learn's ``gamma="scale"``.

    Returns
    -------
    dict
        ``{oracle: [accuracy per fold]}`` for every oracle of :data:`ORACLES`: a Gaussian and a linear SVM
        on the relevant features only, and a Gaussian SVM on every feature (what selection has to improve
        on).
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    relevant = np.asarray(relevant, dtype=int)
    if relevant.size == 0:
        raise ValueError("oracle_accuracy needs the relevant features of a synthetic set; got none")
    out = {name: [] for name in ORACLES}
    for train, test in folds:
        for name, (features, kind) in ORACLES.items():
            cols = relevant if features == "relevant" else np.arange(X.shape[1])
            Xtr, Xte = X[np.ix_(train, cols)], X[np.ix_(test, cols)]
            model = _oracle(kind, C, inner_folds, random_state, len(cols), float(Xtr.var()))
            model.fit(Xtr, y[train])
            out[name].append(float(np.mean(model.predict(Xte) == y[test])))
    return out
