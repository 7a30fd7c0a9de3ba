"""docs/reproduction.md's figure index (section "Where each figure is made") is the generated one, and it names
every figure and table of the default target; the scripts and plot modules are named by what they do.

The default target's ids come from one ``snakemake --dry-run --forceall`` of ``config.yaml``: the stems of
the PNG and CSV files under ``figures/`` among the jobs' outputs (the per-data-set panels included). The
same dry run feeds the generator (tools/figure_index.py), so the test runs it once (a few seconds).
"""

import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # tools/ is not part of the installed package
    sys.path.insert(0, str(REPO))

from tools import figure_index  # noqa: E402


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory):
    return figure_index.dry_run(tmp_path_factory.mktemp("figure_index"))


def _index_rows():
    """The index's rows as lists of cells (the header and separator left out)."""
    table = figure_index.index_table(figure_index.DOC.read_text())
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table.splitlines()]
    return rows[2:]


def test_the_index_is_the_generated_one(dry_run):
    expected = figure_index.render(figure_index.index_rows(figure_index.parse_jobs(dry_run)))
    actual = figure_index.index_table(figure_index.DOC.read_text())
    assert actual == expected, "docs/reproduction.md's figure index is out of date: run `make figure-index`"


def test_every_figure_and_table_of_the_default_target_is_in_the_table(dry_run):
    # read from the dry run here, apart from the generator: every output line of every job
    outputs = [o for line in dry_run.splitlines() if line.startswith("    output: ")
               for o in line.split(": ", 1)[1].split(", ")]
    ids = {m.group(1) for o in outputs if (m := re.fullmatch(r"figures/([^/]+)\.(?:png|csv)", o))}
    assert {"fig2_1", "fig3_3", "fig4_14", "fig5_5", "figM_1", "figP_2", "figR_2", "table3_2", "table_P1"} <= ids
    listed = [row[0].strip("`") for row in _index_rows()]
    assert len(listed) == len(set(listed)), "an id is listed twice"
    assert not ids - set(listed), f"missing from the figure index: {sorted(ids - set(listed))}"
    assert not set(listed) - ids, f"not made by the default target: {sorted(set(listed) - ids)}"


def test_every_row_names_an_existing_rule_file_script_and_function():
    rows = _index_rows()
    assert rows
    for row in rows:
        fig, _, rule, script, functions = row
        for link in re.findall(r"\]\(([^)]+)\)", rule + script):
            assert (figure_index.DOC.parent / link).is_file(), f"{fig}: {link} does not exist"
        assert script.startswith("[") and "scripts/" in script, f"{fig}: no script"
        assert functions != "-" or fig == "environment", f"{fig}: the script calls no plotting or table function"


def test_the_generator_reads_a_rule_named_in_a_loop(tmp_path):
    # a panel of your own data set: rule ch3_chapter3_<name> (name: f"ch3_{_fig}") runs the panel script
    scripts = figure_index.rule_scripts()
    assert figure_index.script_of("ch3_chapter3_my_study", scripts) == (
        "rules/chapter3.smk",
        "scripts/plot_selection_panels.py",
    )
    rows = figure_index.index_rows([("ch3_chapter3_my_study", ["figures/chapter3_my_study.png"])])
    assert [(r.id, r.rule, r.functions) for r in rows] == [
        ("chapter3_my_study", "ch3_chapter3_my_study", ("plots.selection_panels.dataset_panels",))
    ]


def test_the_most_specific_loop_rule_names_the_script():
    # ch3_summaries (name: f"{_short}_summaries") also matches the panels' f"ch3_{_fig}": the template with
    # more fixed characters wins
    scripts = figure_index.rule_scripts()
    for rule in ("ch3_summaries", "ch4_summaries"):
        assert figure_index.script_of(rule, scripts) == ("rules/summaries.smk", "scripts/summarise_chapter.py")
    assert figure_index.script_of("ch4_fig4_9", scripts) == ("rules/chapter4.smk", "scripts/plot_selection_panels.py")


def test_the_update_keeps_the_text_around_the_markers():
    start, end = figure_index.MARKERS
    text = f"before\n{start}\nold\n{end}\nafter\n"
    new = figure_index.with_table(text, "| a |\n| --- |")
    assert new == f"before\n{start}\n| a |\n| --- |\n{end}\nafter\n"
    assert figure_index.index_table(new) == "| a |\n| --- |"


CHAPTER_NAME = re.compile(r"^(ch\d|chapter\d|mc_|reg_|paper_|spine|fig[0-9a-z]+_\d|table_?[0-9a-z]+_?\d)", re.I)


def test_scripts_and_plot_modules_are_named_by_what_they_do():
    scripts = [p.stem for p in (REPO / "scripts").glob("*.py")]
    modules = [p.stem for p in (REPO / "src" / "fscompbio" / "plots").glob("*.py")]
    assert not [n for n in scripts + modules if CHAPTER_NAME.match(n)]


def test_every_script_is_run_by_a_rule():
    # scripts/ holds the workflow's Snakemake scripts only (tools/ and bench/ hold the command-line ones)
    run = {s for _, _, s in figure_index.rule_scripts()}
    scripts = {p.relative_to(REPO).as_posix() for p in (REPO / "scripts").glob("*.py")}
    assert not scripts - run, f"scripts no rule runs: {sorted(scripts - run)}"
    assert not run - scripts, f"rules run missing scripts: {sorted(run - scripts)}"
