"""The registry of synthetic data sets: name -> generator, sizes, relevant features, task."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Callable

import numpy as np

from .._scaling import standardize
from . import _synthetic as syn

__all__ = ["Dataset", "DatasetSpec", "DATASETS", "make_dataset", "top_variance", "standardized", "scale_disparity",
           "SCALE_WARNING", "draw_name", "split_draw"]

#: the ratio of the largest to the smallest feature's standard deviation above which the command line and the
#: workflow suggest standardising (breast cancer's raw measurements: 2e5; the study's data: at most 690, tox_171's
#: intensities)
SCALE_WARNING = 1000


@dataclass(frozen=True)
class Dataset:
    """A data set: ``X``, ``y``, the indices of the relevant features and the task.

    Attributes
    ----------
    X : ndarray of shape (n_samples, n_features), float64
    y : ndarray of shape (n_samples,)
        int64 in {-1, +1} for ``task="binary"``, class indices for
        ``"multiclass"``, float64 for ``"regression"``.
    relevant : ndarray of shape (n_relevant,), int64
        Indices of the features known to be relevant (empty when unknown).
    task : {"binary", "multiclass", "regression"}
    feature_names : ndarray of shape (n_features,), str
    name : str
    standardized : bool
        True when every feature was scaled over all samples (:func:`standardized`): an evaluation then scales
        each training part again by its own mean and sd, and so never uses a test sample's values
        (:func:`fscompbio.evaluation.evaluate_folds`' ``standardize``).
    """

    X: np.ndarray
    y: np.ndarray
    relevant: np.ndarray
    task: str
    feature_names: np.ndarray
    name: str = ""
    standardized: bool = False

    @property
    def n_samples(self):
        return self.X.shape[0]

    @property
    def n_features(self):
        return self.X.shape[1]


@dataclass(frozen=True)
class DatasetSpec:
    """How to make one registered data set."""

    generator: Callable
    n_samples: int
    n_features: int
    n_relevant: int
    task: str
    description: str
    source: str
    extra: dict = field(default_factory=dict)


def _spec(generator, n_samples, n_features, n_relevant, task, description, source):
    return DatasetSpec(generator, n_samples, n_features, n_relevant, task, description, source)


DATASETS: dict[str, DatasetSpec] = {
    # thesis appendix A.3 / section 3.3.1: 300 x 200, 10 relevant (XOR: 2)
    "fake_class": _spec(syn.fake_class, 300, 200, 10, "binary",
                        "linear Zhang with permuted labels (negative control)", "thesis A.3 (1)"),
    "linear_zhang_feature_noise": _spec(syn.linear_zhang_feature_noise, 300, 200, 10, "binary",
                                        "linear Zhang, 5% outlier values in the relevant features",
                                        "thesis A.3 (4); Zhang et al. 2006"),
    "linear_zhang_sample_noise": _spec(syn.linear_zhang_sample_noise, 300, 200, 10, "binary",
                                       "linear Zhang, 5% outlier samples", "thesis A.3 (3); Zhang et al. 2006"),
    "linear_weston": _spec(syn.linear_weston, 300, 200, 10, "binary",
                           "Weston's linear problem, groups of 5 + 5", "thesis A.3 (2); Weston et al. 2000"),
    "nonlinear_weston": _spec(syn.nonlinear_weston, 300, 200, 10, "binary",
                              "Weston's non-linear problem in 10 dimensions", "thesis A.3 (5); Weston et al. 2000"),
    "xor": _spec(syn.xor, 300, 200, 2, "binary", "XOR of the first two of 200 N(0,1) features",
                 "thesis 3.3.1"),
    # the early randSel text (Athanasakis et al.): 100 features, 5 relevant (XOR 2)
    "linear_weston_100": _spec(partial(syn.linear_weston, groups=(3, 2)), 300, 100, 5, "binary",
                               "Weston's linear problem, groups of 3 + 2 of 100", "Athanasakis et al. (early text of Principled Non-Linear Feature Selection); Weston et al. 2000"),
    "nonlinear_weston_100": _spec(partial(syn.nonlinear_weston, n_relevant=5), 300, 100, 5, "binary",
                                  "Weston's non-linear problem in 5 of 100 dimensions",
                                  "Athanasakis et al. (early text of Principled Non-Linear Feature Selection); Weston et al. 2000"),
    "xor_100": _spec(syn.xor, 300, 100, 2, "binary", "XOR of the first two of 100 features",
                 "Athanasakis et al. (early text of Principled Non-Linear Feature Selection)"),
    # d-dimensional XOR of thesis chapter 4 and the randSel paper (its figure 1: subsamples of 1000)
    "xor_d": _spec(syn.xor, 1000, 200, 2, "binary", "XOR of the first two of d (200) features",
                   "thesis 4.2 (fig. 4.3); Athanasakis, Shawe-Taylor & Fernandez-Reyes, Principled Non-Linear Feature Selection, fig. 1"),
    # Sun, Yao & Goodison, Feature selection for nonlinear regression (section 4.1): + 1000 irrelevant N(0,1)
    "additive": _spec(syn.additive, 200, 1004, 4, "regression", "additive model, eq. 4.18", "Sun, Yao & Goodison, Feature Selection for Nonlinear Regression, 4.1"),
    "nonadditive": _spec(syn.nonadditive, 200, 1003, 3, "regression", "non-additive model, eq. 4.19",
                         "Sun, Yao & Goodison, Feature Selection for Nonlinear Regression, 4.1"),
    "sine": _spec(syn.sine, 200, 1001, 1, "regression", "sine model, eq. 4.20", "Sun, Yao & Goodison, Feature Selection for Nonlinear Regression, 4.1"),
    "spiral": _spec(syn.spiral, 200, 1002, 2, "regression", "spiral model, eq. 4.21", "Sun, Yao & Goodison, Feature Selection for Nonlinear Regression, 4.1"),
}


_DRAW = re.compile(r"^(?P<base>.+)_draw(?P<k>[1-9][0-9]*)$")


def draw_name(name, k):
    """The name of draw ``k`` of a synthetic set: ``name`` itself for draw 0, ``<name>_draw<k>`` otherwise.

    The thesis evaluates one draw of each synthetic set; further draws (the same recipe, new data) tell
    whether a verdict depends on that draw.

    >>> draw_name("xor", 0), draw_name("xor", 2)
    ('xor', 'xor_draw2')
    """
    k = int(k)
    if k < 0:
        raise ValueError(f"draw index must be >= 0; got {k}")
    return name if k == 0 else f"{name}_draw{k}"


def split_draw(name):
    """``(set, k)`` of a data set name: ``("xor", 2)`` for ``"xor_draw2"``, ``(name, 0)`` otherwise.

    >>> split_draw("xor_draw2"), split_draw("linear_weston")
    (('xor', 2), ('linear_weston', 0))
    """
    m = _DRAW.match(name)
    return (m["base"], int(m["k"])) if m else (name, 0)


def make_dataset(name, *, random_state=None, n_samples=None, n_features=None):
    """Generate the registered synthetic data set ``name``.

    Parameters
    ----------
    name : str
        A key of :data:`DATASETS`, or ``<key>_draw<k>`` (:func:`draw_name`): the same recipe, named as
        draw ``k``. Which data a draw gives is set by ``random_state`` alone (the workflow derives one seed
        per name).
    random_state : int, numpy.random.Generator or None
        Seed or generator; the same seed gives the same data, bit for bit.
    n_samples, n_features : int, default=None
        Override the registered sizes (``n_features`` counts the relevant ones).

    Returns
    -------
    Dataset

    Examples
    --------
    >>> ds = make_dataset("xor", random_state=0)
    >>> ds.X.shape, ds.relevant.tolist(), ds.task
    ((300, 200), [0, 1], 'binary')
    """
    try:
        spec = DATASETS[split_draw(name)[0]]
    except KeyError:
        raise ValueError(f"unknown dataset {name!r}; known: {sorted(DATASETS)}") from None
    n = spec.n_samples if n_samples is None else int(n_samples)
    d = spec.n_features if n_features is None else int(n_features)
    if n < 2:
        raise ValueError(f"n_samples must be >= 2 for {name!r}; got {n}")
    if d < spec.n_relevant:
        raise ValueError(f"n_features must be >= {spec.n_relevant} (the relevant features) for {name!r}; got {d}")
    rng = random_state if isinstance(random_state, np.random.Generator) else np.random.default_rng(random_state)
    X, y = spec.generator(rng, n, d)
    X = np.ascontiguousarray(X, dtype=np.float64)
    return Dataset(
        X=X,
        y=np.asarray(y),
        relevant=np.arange(spec.n_relevant, dtype=np.int64),
        task=spec.task,
        feature_names=np.array([f"x{j}" for j in range(d)]),
        name=name,
    )


def top_variance(ds, k):
    """The data set restricted to its ``k`` features of highest variance (label-blind).

    An unsupervised filter: it never looks at ``y``, so it can run before any
    cross-validation without leaking the classes into the selection. Ties keep
    the earlier feature; the kept features stay in their original order, and
    ``relevant`` is re-indexed (relevant features that are dropped are lost).

    Parameters
    ----------
    ds : Dataset
    k : int
        Number of features to keep (all when ``k >= n_features``).

    Returns
    -------
    Dataset
    """
    k = int(k)
    if k < 1:
        raise ValueError(f"k must be >= 1; got {k}")
    if k >= ds.n_features:
        return ds
    var = ds.X.var(axis=0)
    keep = np.sort(np.argsort(-var, kind="stable")[:k])
    new_index = np.full(ds.n_features, -1)
    new_index[keep] = np.arange(k)
    relevant = new_index[ds.relevant]
    return Dataset(
        X=np.ascontiguousarray(ds.X[:, keep]),
        y=ds.y,
        relevant=relevant[relevant >= 0].astype(np.int64),
        task=ds.task,
        feature_names=ds.feature_names[keep],
        name=ds.name,
        standardized=ds.standardized,
    )


def standardized(ds):
    """The data set with every feature at zero mean and unit variance over its samples (label-blind).

    An unsupervised transform, like :func:`top_variance`: it never looks at ``y``. Constant features are only
    centred. For features measured in different units, whose Gaussian-kernel distances would otherwise follow the
    feature of largest spread (see :func:`scale_disparity`).

    The result is marked ``standardized``: the workflow's and ``fscompbio evaluate``'s folds scale each training
    part again by its own mean and sd. A per-feature affine map cancels in that scaling, so a fold sees exactly
    the raw values scaled by its training part, and the scaling over all samples reaches no test part.
    """
    return replace(ds, X=standardize(ds.X), standardized=True)


def scale_disparity(ds, threshold=SCALE_WARNING):
    """A sentence naming the features of least and largest standard deviation when these differ over
    ``threshold`` times (constant features left out), else None.

    Every Gaussian kernel of the study (the selectors' and the SVM's) measures distances summed over the features,
    so on such data the feature of largest spread decides them alone, whatever the labels.
    """
    sd = np.std(ds.X, axis=0)
    varying = np.flatnonzero(np.ptp(ds.X, axis=0) > 0)  # a constant column's sd can round to 1e-16, not 0
    if varying.size < 2:
        return None
    lo, hi = varying[np.argmin(sd[varying])], varying[np.argmax(sd[varying])]
    if sd[hi] <= threshold * sd[lo]:
        return None
    return (f"the features' standard deviations range from {sd[lo]:.3g} ({ds.feature_names[lo]}) to {sd[hi]:.3g} "
            f"({ds.feature_names[hi]}), over {threshold:,} times: the Gaussian kernels' distances follow the largest")
