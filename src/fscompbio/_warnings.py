"""Warnings that point at the user's line, not at the library's wrappers.

An estimator's ``fit`` runs inside scikit-learn's wrappers (``_fit_context``, ``set_output``'s,
``fit_transform``, a ``Pipeline``'s steps), so a fixed ``stacklevel`` names a file of scikit-learn or of this
package as the warning's place, and which one depends on how the method was reached. :func:`warn` names
the first frame outside them (and joblib, which runs a ``Pipeline``'s steps) instead: the user's script,
notebook cell or test.
"""

import contextlib
import os
import sys
import warnings

import joblib
import sklearn

#: the folders whose frames a warning skips: this package's, scikit-learn's and joblib's (a ``Pipeline``'s steps)
_LIBRARY_DIRS = tuple(
    os.path.dirname(os.path.abspath(module.__file__)) + os.sep
    for module in (sys.modules[__package__], sklearn, joblib)
)


def caller_stacklevel():
    """The ``stacklevel`` of the first frame outside the libraries, seen from the caller.

    Level 1 is the function that calls this one; when every frame is inside the libraries, the outermost.
    """
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and os.path.abspath(frame.f_code.co_filename).startswith(_LIBRARY_DIRS):
        frame, level = frame.f_back, level + 1
    return level


def warn(message, category=UserWarning):
    """``warnings.warn(message, category)`` at the first frame outside this package, scikit-learn and joblib."""
    warnings.warn(message, category, stacklevel=caller_stacklevel())


class EmptySelectionWarning(UserWarning):
    """randSel's error-controlled set is empty: nothing passed the test at level ``alpha``."""


@contextlib.contextmanager
def selected_set_unused():
    """Silence :class:`EmptySelectionWarning` where a wrapper uses a selector's ranking or nested sets, not the
    set the selector chose itself: there its advice (set ``n_features_to_select``) would be about a set no one
    reads."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EmptySelectionWarning)
        yield
