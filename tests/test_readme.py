"""README.md is a landing page: at most 200 lines, and every relative link in it (and in the Markdown pages of
docs/ that took its long sections) points to a file of the repository; every `make` target it names exists; its
Python examples run as written."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
#: the pages the README's long sections moved to
PAGES = ["reproduction.md", "own_data.md", "cluster.md", "library.md", "command_line.md", "environment.md"]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def relative_links(text):
    """The targets of the Markdown links of ``text`` that are paths (web addresses and anchors left out),
    without their ``#fragment``."""
    return [t.split("#", 1)[0] for t in LINK.findall(text)
            if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


def test_readme_is_at_most_200_lines():
    n = len(README.read_text().splitlines())
    assert n <= 200, f"README.md has {n} lines: move detail into docs/"


@pytest.mark.parametrize("page", [README] + [REPO / "docs" / p for p in PAGES], ids=lambda p: p.name)
def test_every_relative_link_points_to_a_file(page):
    links = relative_links(page.read_text())
    if page == README:
        assert {f"docs/{p}" for p in PAGES} <= set(links), "the README links every page of its long sections"
    missing = [t for t in links if not (page.parent / t).exists()]
    assert not missing, f"{page.relative_to(REPO)}: links to missing files: {missing}"


def test_every_make_target_the_readme_names_exists():
    targets = set(re.findall(r"^([a-z][a-z-]*):", (REPO / "Makefile").read_text(), re.M))
    named = set(re.findall(r"(?:^|`)make ([a-z][a-z-]*)", README.read_text(), re.M))  # in code only
    assert {"workflow", "test", "thesis-figures"} <= named
    assert not named - targets, f"README.md names make targets the Makefile lacks: {sorted(named - targets)}"


def test_the_link_finder_reads_paths_and_skips_addresses():
    text = "[a](docs/x.md) [b](https://x.org) [c](#top) [d](../LICENSE#l2)"
    assert relative_links(text) == ["docs/x.md", "../LICENSE"]


#: what the README's examples must give on breast cancer, checked after they run as written (``_last``: the value
#: of the last line, the cross-validated accuracy of the randSel pipeline)
README_CHECKS = """
assert 1 <= kta.n_features_ <= X.shape[1] and set(kta.get_feature_names_out()) <= set(X.columns)
assert rs.selected_.size >= 1 and (rs.pvalues_[rs.selected_] <= rs.alpha).all()
assert _last >= 0.93, _last
"""


def test_the_readme_python_blocks_run_as_written(tmp_path):
    """The library section's examples, run one after the other as a newcomer pastes them, on breast cancer: KTA
    model selection chooses named features, randSel selects a non-empty set at its level, and its pipeline's
    10-fold accuracy is at least 0.93."""
    import ast

    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) >= 2, "the README's library section shows KTA model selection and randSel"
    tree = ast.parse("\n".join(blocks))
    last = tree.body[-1]
    assert isinstance(last, ast.Expr), "the last line of the examples shows a value (the pipeline's accuracy)"
    tree.body[-1] = ast.Assign(targets=[ast.Name("_last", ast.Store())], value=last.value, lineno=last.lineno)
    script = tmp_path / "readme_examples.py"
    script.write_text(ast.unparse(ast.fix_missing_locations(tree)) + "\n" + README_CHECKS)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, f"README.md's Python examples fail:\n{done.stderr[-3000:]}"
