"""The figure index of docs/reproduction.md: every figure and table of the default target -> rule -> script ->
function.

    python -m tools.figure_index            rewrite the table in docs/reproduction.md (`make figure-index`)
    python -m tools.figure_index --check    exit 1 when docs/reproduction.md's table is not the generated one

What it reads:

1. The jobs of ``snakemake --dry-run --forceall`` of the default config (``config.yaml``, in a scratch
   working directory): each job's rule and output files. The ids are the stems of the PNG and CSV files
   under ``figures/`` (``fig3_3``, ``table3_2``, ``chapter3_<name>`` for your own data sets, ...).
2. The rule files (``Snakefile``, ``rules/*.smk``): the ``script:`` of every rule. A rule named by an
   f-string in a loop (``name: f"ch3_{_fig}"``) matches every job name it generates.
3. The scripts, by ``ast``: the functions they import from ``fscompbio.plots`` and call (the package-level
   helpers ``save_figure`` and ``table_markdown`` left out), and the table builders (a name with "table")
   they call from other ``fscompbio`` modules; a script that calls none of them gets the ``fscompbio``
   functions it calls (``fscompbio.io`` and ``fscompbio.joblog`` aside). When one script makes several ids
   and some of its functions name an id (``plot_fig2_2`` for ``fig2_2``), only those are listed for that id.

The table is written between the two marker comments of docs/reproduction.md (DOC, MARKERS), its links
relative to that page; tests/test_figure_index.py fails when it differs from the generated one.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tools import readme_blocks

REPO = Path(__file__).resolve().parents[1]
#: the page that holds the index (section "Where each figure is made")
DOC = REPO / "docs" / "reproduction.md"
MARKERS = ("<!-- figure-index:start -->", "<!-- figure-index:end -->")
#: package-level writers of fscompbio.plots: called by most scripts, they draw nothing themselves
HELPERS = {"save_figure", "table_markdown", "apply_style"}
#: an output directly under figures/; its stem is a figure or table id when one of them is a PNG or CSV file
#: (the Markdown copies of the tables are listed beside)
FIGURE_FILE = re.compile(r"^figures/([^/]+)\.(png|csv|md)$")
ID_EXTENSIONS = ("png", "csv")


@dataclass(frozen=True)
class Row:
    id: str
    files: tuple[str, ...]  # extensions, e.g. ("png", "csv", "md")
    rule: str
    rule_file: str  # relative to the repository, e.g. "rules/chapter3.smk"
    script: str  # relative to the repository, e.g. "scripts/plot_selection_panels.py"
    functions: tuple[str, ...]  # dotted, relative to fscompbio: "plots.selection_panels.plot_method_panels"


# --------------------------------------------------------------------------
# 1. the jobs of the default target
# --------------------------------------------------------------------------
def dry_run(workdir=None, configfile=REPO / "config.yaml"):
    """The text of ``snakemake --dry-run --forceall`` of ``configfile`` (in ``workdir``, or a scratch one)."""
    with tempfile.TemporaryDirectory() as scratch:
        workdir = Path(workdir or scratch)
        cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
               "--configfile", str(configfile), "--dry-run", "--forceall", "--cores", "1"]
        run = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{run.stderr[-3000:]}")
    return run.stdout


def parse_jobs(text):
    """(rule, output files) of every job printed by a dry run."""
    jobs, rule = [], None
    for line in text.splitlines():
        m = re.match(r"^(?:local)?rule (\w+):$", line)
        if m:
            rule = m.group(1)
        elif rule is not None and line.startswith("    output: "):
            jobs.append((rule, line.split(": ", 1)[1].split(", ")))
            rule = None
    return jobs


def figure_outputs(jobs):
    """id -> (rule, extensions) of every figure and table (PNG or CSV under figures/) of the jobs."""
    found = {}
    for rule, outputs in jobs:
        for path in outputs:
            m = FIGURE_FILE.match(path)
            if m:
                rules, exts = found.setdefault(m.group(1), (set(), []))
                rules.add(rule)
                exts.append(m.group(2))
    ids = {}
    for fig, (rules, exts) in found.items():
        if not set(exts) & set(ID_EXTENSIONS):
            continue
        if len(rules) != 1:
            raise ValueError(f"figures/{fig}.* is made by several rules: {sorted(rules)}")
        ids[fig] = (rules.pop(), tuple(sorted(set(exts), key=["png", "csv", "md"].index)))
    return ids


# --------------------------------------------------------------------------
# 2. the script of every rule
# --------------------------------------------------------------------------
def rule_scripts(repo=REPO):
    """[(rule-name regex, rules file, script)] of every rule of the workflow with a ``script:``."""
    found = []
    for path in [repo / "Snakefile", *sorted((repo / "rules").glob("*.smk"))]:
        text = path.read_text()
        for m in re.finditer(r"^( *)rule(?: (\w+))?:\n((?:\1 {4}.*\n|\n)+)", text, flags=re.M):
            name, body = m.group(2), m.group(3)
            if name is None:  # rule: name: f"ch3_{_fig}" (one rule per data set)
                template = re.search(r'name:\s*\n\s*f?"([^"]+)"', body).group(1)
                pattern = "".join(".+" if part.startswith("{") else re.escape(part)
                                  for part in re.split(r"(\{[^}]*\})", template) if part)
            else:
                pattern = re.escape(name)
            script = re.search(r'^\s*script:\s*"([^"]+)"', body, flags=re.M)
            if script:
                rel = (path.parent / script.group(1)).resolve().relative_to(repo.resolve())
                found.append((pattern, path.relative_to(repo).as_posix(), rel.as_posix()))
    return found


def script_of(rule, scripts):
    """(rules file, script) of a job's rule: its own name first, then the rule named by an f-string whose
    template matches it with the most fixed characters (``ch3_summaries`` is ``{_short}_summaries``'s, not
    ``ch3_{_fig}``'s)."""
    exact = [(f, s) for p, f, s in scripts if p == re.escape(rule)]
    fixed = {p: len(re.sub(r"\\(.)", r"\1", p.replace(".+", ""))) for p, _, _ in scripts}
    found = [(fixed[p], f, s) for p, f, s in scripts if re.fullmatch(p, rule)]
    best = max((n for n, _, _ in found), default=None)
    matches = exact or [(f, s) for n, f, s in found if n == best]
    if len(matches) != 1:
        raise ValueError(f"rule {rule}: {len(matches)} rule definitions with a script match it: {matches}")
    return matches[0]


# --------------------------------------------------------------------------
# 3. the functions a script calls
# --------------------------------------------------------------------------
def called_functions(script):
    """The plotting and table functions ``script`` imports from fscompbio and calls, in the order of the calls."""
    tree = ast.parse(Path(script).read_text())
    imported = {}  # local name -> (dotted name relative to fscompbio, a plotting or table function?)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("fscompbio."):
            module = node.module.removeprefix("fscompbio.")
            for alias in node.names:
                plots = module == "plots" or module.startswith("plots.")
                if plots and alias.name in HELPERS:
                    continue
                drawing = plots or "table" in alias.name.lower()
                imported[alias.asname or alias.name] = (f"{module}.{alias.name}", drawing)
    calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)),
                   key=lambda n: (n.lineno, n.col_offset))
    called = [imported[c.func.id] for c in calls if c.func.id in imported]
    drawing = [name for name, d in called if d]
    # no plotting or table function (e.g. the environment's record): the fscompbio functions it calls,
    # I/O and the job log aside
    return tuple(dict.fromkeys(drawing or [name for name, _ in called if not name.startswith(("io.", "joblog."))]))


def _names_id(function, fig):
    return re.search(rf"(^|_){re.escape(fig.lower())}($|_)", function.rsplit(".", 1)[-1].lower()) is not None


# --------------------------------------------------------------------------
# the rows and the table
# --------------------------------------------------------------------------
def _sort_key(fig):
    group = 0 if fig.startswith("fig") else 1 if fig.startswith("table") else 2
    return group, [(0, int(t), "") if t.isdigit() else (1, 0, t) for t in re.split(r"(\d+)", fig) if t]


def index_rows(jobs, repo=REPO):
    """One Row per figure or table id of the jobs, in the order of the study (figures, tables, the rest)."""
    scripts = rule_scripts(repo)
    outputs = figure_outputs(jobs)
    made = {}
    for fig, (rule, _) in outputs.items():
        made.setdefault(script_of(rule, scripts)[1], []).append(fig)
    rows = []
    for fig in sorted(outputs, key=_sort_key):
        rule, exts = outputs[fig]
        rule_file, script = script_of(rule, scripts)
        functions = called_functions(repo / script)
        if len(made[script]) > 1:  # one script, several ids: the functions named after this one, if any
            functions = tuple(f for f in functions if _names_id(f, fig)) or functions
        rows.append(Row(fig, exts, rule, rule_file, script, functions))
    return rows


def render(rows, base="../"):
    """The Markdown table (no trailing newline) of ``rows``; its links are ``base`` + the repository path (``../``:
    relative to :data:`DOC`, one folder down)."""
    lines = ["| Id | Files | Rule | Script | Functions (in `fscompbio`) |", "| --- | --- | --- | --- | --- |"]
    for r in rows:
        rule_file = r.rule_file.rsplit("/", 1)[-1]
        functions = ", ".join(f"`{f}`" for f in r.functions) or "-"
        lines.append(f"| `{r.id}` | {', '.join(r.files)} | `{r.rule}` ([{rule_file}]({base}{r.rule_file})) | "
                     f"[{r.script.rsplit('/', 1)[-1]}]({base}{r.script}) | {functions} |")
    return "\n".join(lines)


def index_table(text):
    """The text between the index's markers in ``text`` (docs/reproduction.md), without the blank lines around it."""
    return readme_blocks.block(text, MARKERS, "docs/reproduction.md")


def with_table(text, table):
    """``text`` (docs/reproduction.md) with ``table`` between its markers."""
    return readme_blocks.with_block(text, MARKERS, table, "docs/reproduction.md")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when docs/reproduction.md's table is out of date")
    args = parser.parse_args(argv)
    table = render(index_rows(parse_jobs(dry_run())))
    text = DOC.read_text()
    if args.check:
        if index_table(text) != table:
            print("docs/reproduction.md's figure index is out of date: run `make figure-index`", file=sys.stderr)
            return 1
        return 0
    new = with_table(text, table)
    if new != text:
        DOC.write_text(new)
    print(f"docs/reproduction.md: {len(table.splitlines()) - 2} figures and tables indexed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
