"""A warning of the package names the user's line, however the estimator was reached (directly, through
scikit-learn's wrappers, a pipeline's steps), not a file of scikit-learn or of this package."""

import warnings

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC

from fscompbio._warnings import caller_stacklevel, warn
from fscompbio.prediction import LPBoost
from fscompbio.selection import EmptySelectionWarning, RandSel


def _recorded(call):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        call()
    return seen


@pytest.fixture(scope="module")
def noise():
    rng = np.random.default_rng(0)
    return rng.standard_normal((60, 8)), rng.choice([0, 1], 60)


def _pipeline_fit(X, y):
    with pytest.raises(ValueError, match="0 feature"):  # the SVM after an empty selection
        make_pipeline(RandSel(random_state=1), SVC()).fit(X, y)


@pytest.mark.parametrize("how", ["fit", "fit_transform", "transform", "pipeline"])
def test_randsels_empty_selection_warns_at_the_callers_line(noise, how):
    X, y = noise
    fitted = RandSel(random_state=1)
    if how == "transform":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EmptySelectionWarning)
            fitted.fit(X, y)
    calls = {"fit": lambda: RandSel(random_state=1).fit(X, y),
             "fit_transform": lambda: RandSel(random_state=1).fit_transform(X, y),
             "transform": lambda: fitted.transform(X),
             "pipeline": lambda: _pipeline_fit(X, y)}
    seen = [w for w in _recorded(calls[how]) if issubclass(w.category, EmptySelectionWarning)]
    assert seen and all(w.filename == __file__ for w in seen), [(w.filename, w.lineno) for w in seen]


def test_lpboosts_cap_warning_at_the_callers_line():
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((40, 5)), np.r_[np.ones(5), -np.ones(35)]
    seen = _recorded(lambda: LPBoost(nu=0.9).fit(X, y))
    assert [w.filename for w in seen if "smallest feasible cap" in str(w.message)] == [__file__]


def test_caller_stacklevel_counts_the_frames_to_the_first_outside_the_libraries():
    # called from here (outside the libraries), level 1 is this function itself
    assert caller_stacklevel() == 1
    seen = _recorded(lambda: warn("from a test", RuntimeWarning))
    assert [(w.filename, w.category) for w in seen] == [(__file__, RuntimeWarning)]
