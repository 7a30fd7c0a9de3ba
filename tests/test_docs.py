"""The documentation site's sources: every public estimator has an API page, and the gallery has its examples.
(`make docs` builds the site with warnings as errors and runs the examples.)"""

import ast
import inspect
import re
from pathlib import Path

import fscompbio.model_selection as model_selection
import fscompbio.pipelines as pipelines
import fscompbio.selection as selection

REPO = Path(__file__).resolve().parents[1]
API = (REPO / "docs" / "api.rst").read_text()


def _listed(module_name):
    """Names under the autosummary of ``.. currentmodule:: module_name``."""
    section = API.split(f".. currentmodule:: {module_name}", 1)[1].split(".. currentmodule::", 1)[0]
    return set(re.findall(r"^   (\w+)$", section, flags=re.M))


def test_every_public_estimator_has_an_api_page():
    classes = {n for n in selection.__all__ if inspect.isclass(getattr(selection, n))}
    assert classes <= _listed("fscompbio.selection")
    ms = {n for n in model_selection.__all__ if n[0].isupper()}
    assert ms <= _listed("fscompbio.model_selection")
    assert {"SelectThenSVM", "SelectThenSVR", "RandSelMKL"} <= _listed("fscompbio.pipelines")
    assert {n for n in pipelines.__all__ if n[0].isupper()} <= _listed("fscompbio.pipelines")


def test_the_gallery_has_at_least_six_examples_each_with_a_title_and_a_figure():
    examples = sorted((REPO / "examples").glob("plot_*.py"))
    assert len(examples) >= 6
    for path in examples:
        doc = ast.get_docstring(ast.parse(path.read_text()))
        title = doc.strip().splitlines()
        assert len(title) >= 2 and set(title[1]) == {"="}, f"{path.name}: the docstring starts with a title"
        assert "plt.subplots" in path.read_text(), f"{path.name} draws no figure"


def test_docs_requirements_are_pinned():
    lines = [ln for ln in (REPO / "docs" / "requirements.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert lines and all(re.fullmatch(r"[A-Za-z0-9_.-]+==[\w.]+", ln) for ln in lines), lines
