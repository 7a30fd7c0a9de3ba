"""Sphinx configuration of the fscompbio documentation: numpydoc API reference, user guide, example gallery.

Build with ``make docs`` (warnings are errors; the gallery's examples run on every build).
"""

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))  # this tree's package, whatever the environment has installed
os.environ.setdefault("MPLBACKEND", "Agg")

import fscompbio  # noqa: E402

project = "fscompbio"
author = "The fscompbio developers"
copyright = "2026, The fscompbio developers"
release = version = fscompbio.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

# only the documentation's own pages: the Markdown notes beside them (deviations, claims) are linked, not built
source_suffix = {".rst": "restructuredtext"}
exclude_patterns = ["_build", "**.ipynb_checkpoints", "auto_examples/*.py", "auto_examples/*.ipynb",
                    "auto_examples/*.zip", "auto_examples/*.json", "auto_examples/*.md5"]
root_doc = "index"

autosummary_generate = True
templates_path = ["_templates"]  # a class page: its docstring and its own methods, no table of inherited ones
# scikit-learn's own methods (set_output, metadata routing, score, ...) are documented by scikit-learn
SKLEARN_METHODS = ("fit_transform get_feature_names_out get_metadata_routing get_params get_support "
                   "inverse_transform score set_output set_params").split()
autodoc_default_options = {
    "members": True,
    "inherited-members": False,
    "exclude-members": ",".join(SKLEARN_METHODS),
}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks = set()

intersphinx_mapping = {
    "python": ("https://docs.python.org/3", None),
    "numpy": ("https://numpy.org/doc/stable/", None),
    "sklearn": ("https://scikit-learn.org/stable/", None),
}
# offline builds (no network): intersphinx only warns, so it is off unless asked for
if os.environ.get("FSCOMPBIO_DOCS_INTERSPHINX") != "1":
    intersphinx_mapping = {}

sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "abort_on_example_error": True,
    "ignore_pattern": r"(__init__|_paths)\.py",
}

html_theme = "alabaster"
html_theme_options = {"description": "Feature Selection in Computational Biology, reproduced", "fixed_sidebar": True,
                      "page_width": "1240px", "body_max_width": "none"}
html_static_path = []


# A name with a trailing underscore (``ranking_``, ``n_features_in_``) written outside a literal is a
# reStructuredText link reference; in a docstring it is an attribute's name: escape it.
_LITERAL = re.compile(r"(``.*?``|`[^`]*`_?)")
_TRAILING = re.compile(r"\b([A-Za-z]\w*_)(?=[\s,.;:)\]]|$)")


def _escape_trailing_underscores(app, what, name, obj, options, lines):
    for i, line in enumerate(lines):
        if line.lstrip().startswith((">>>", "...")):  # doctest code: shown as written
            continue
        parts = _LITERAL.split(line)
        lines[i] = "".join(p if k % 2 else _TRAILING.sub(lambda m: m.group(1)[:-1] + "\\_", p)
                           for k, p in enumerate(parts))


def _skip_request_methods(app, what, name, obj, skip, options):
    # set_fit_request, set_transform_request, ...: scikit-learn's generated metadata-routing methods
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return skip


def setup(app):
    app.connect("autodoc-process-docstring", _escape_trailing_underscores, priority=100)
    app.connect("autodoc-skip-member", _skip_request_methods)
