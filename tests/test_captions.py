"""The report captions (report/*.rst) are static text: what a figure draws and how, which figure or table of
the study it redraws, and what the study says it shows. The numbers of a run and the verdicts live in the
claims table (figures/claims.csv and claims.md), computed from the run by ``fscompbio.claims``; a number
typed into a caption by hand goes stale at the next change of code or config.

The rule for numbers. A run of digits in a caption (``7``, ``0.81``, ``1,000``, ``5%``; digits glued to a
letter, an underscore or a dot, as in ``fig3_5``, ``x0``, ``HSIC1``, ``l1`` or ``A.3``, are part of a name,
not numbers) is allowed only in one of these forms:

1. a reference: after one of the words figure(s), section(s), eq./eqs./equation(s), table(s),
   algorithm(s), chapter(s), appendix, definition(s), proposition(s), theorem(s), page(s), p./pp. or
   task(s) and a space or a hyphen, a reference number (``3.5``, ``4.2.4``, ``A.3``, ``P1``; never starting
   with 0) or a list or range of them (``figures 3.9-3.13``, ``tasks 2-4``, ``chapter-3``);
2. a year of a citation: 19xx/20xx right after a capitalised name or ``et al.``, bracketed or not
   (``Weiner et al. 2012``, ``Athanasakis (2014)``), or closing a bracket after a comma (``(thesis, 2014)``);
3. a Jinja2 expression or statement (``{{ snakemake.config[...] }}``): the config's value, rendered when
   the report is made; the text of a string literal inside it is prose, under this same rule;
4. a formula, as an rST literal (````...````) or ``:math:`...```: whole numbers only (``n/2 + 1``,
   ``10^t``); a decimal or a percentage in a formula fails.

Anything else fails: a run's number typed in plain prose ("randSel recall 0.67, accuracy 0.81") fails, and
so does a number of the study, attributed or not ("the thesis reports KTA 6-10 times faster", "(thesis:
0.71)", "a data set of 523 features"): the study's numbers live in ``fscompbio.claims``, which sets each
beside the run's in the claims table, and a caption states the study's message in words. Captions carry no
verdict typed by hand either (reproduced, contradicts, confirms). A figure with claims in
``fscompbio.claims.CLAIMS`` ends with one sentence pointing to the claims table that names its id and every
one of its claims; no caption names a claim the registry does not have.

Besides: every caption a rule names exists, and every caption renders as ``snakemake --report`` renders it
(Jinja2 with the config as ``snakemake.config``, then reStructuredText) with the quick and the thesis config:
no undefined name, no tag left over, no paragraph swallowed, no docutils warning.
"""

import ast
import re
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest
import yaml
from docutils.core import publish_parts

REPO = Path(__file__).resolve().parents[1]
REPORT = REPO / "report"

#: captions that are not ours to police (report/claims.rst belongs to the claims table's rule)
NOT_OURS = {"claims"}

CAPTIONS = sorted(p.stem for p in REPORT.glob("*.rst") if p.stem not in NOT_OURS)

# ----------------------------------------------------------------------------------------------------
# which captions the rules name
# ----------------------------------------------------------------------------------------------------


def _study_panels():
    """STUDY_PANELS of rules/common.smk (data set -> figure id per chapter), read without Snakemake."""
    tree = ast.parse((REPO / "rules" / "common.smk").read_text())
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "STUDY_PANELS" for t in targets):
                return ast.literal_eval(node.value)
    raise AssertionError("rules/common.smk defines no STUDY_PANELS")


def referenced_captions():
    """Every caption file a rule (or the Snakefile's report directive) names, as paths under report/.

    The forms understood are those the rules use: ``caption="../report/<name>.rst"``,
    ``caption=caption("<name>")`` and ``caption=panel_caption(chapter, dataset)`` (the study figure's own
    caption of every STUDY_PANELS entry, and ``<chapter>_dataset.rst`` for your own data sets). Any other
    form fails, so that a new one is added here rather than missed.
    """
    names, unknown = set(), []
    for smk in sorted((REPO / "rules").glob("*.smk")):
        for line in smk.read_text().splitlines():
            code = line.split("#", 1)[0]
            for m in re.finditer(r"\bcaption=(.+)", code):
                arg = m.group(1)
                if lit := re.match(r'"\.\./report/([\w.-]+)\.rst"', arg):
                    names.add(lit.group(1))
                elif call := re.match(r'caption\("([\w.-]+)"\)', arg):
                    names.add(call.group(1))
                elif arg.startswith("panel_caption("):
                    for chapter, panels in _study_panels().items():
                        names.update(panels.values())
                        names.add(f"{chapter}_dataset")
                else:
                    unknown.append(f"{smk.name}: {line.strip()}")
    assert not unknown, f"caption forms this test does not understand: {unknown}"
    snakefile = (REPO / "Snakefile").read_text()
    names.update(re.findall(r'^report:\s*"report/([\w.-]+)\.rst"', snakefile, flags=re.M))
    return names


def test_every_caption_a_rule_names_exists():
    names = referenced_captions()
    assert {"fig2_1", "fig3_5", "fig4_14", "table_P1", "workflow", "chapter3_dataset"} <= names
    missing = sorted(n for n in names if not (REPORT / f"{n}.rst").is_file())
    assert not missing, f"captions named by a rule but missing under report/: {missing}"


# ----------------------------------------------------------------------------------------------------
# the rule for numbers (module docstring)
# ----------------------------------------------------------------------------------------------------

NUMBER = re.compile(r"(?<![\w.])[+-]?\d+(?:[.,]\d+)*%?")

_REF_WORDS = (
    r"figures?|figs?\.|sections?|eqs?\.|equations?|tables?|algorithms?|chapters?|appendix|appendices"
    r"|definitions?|propositions?|theorems?|pages?|pp?\.|tasks?"
)
_REF = r"(?:[A-Z]\.?)?[1-9]\d*(?:\.\d+)*[a-z]?"
REFERENCE = re.compile(
    rf"\b(?:{_REF_WORDS})[\s-]+{_REF}(?:\s*(?:-|–|,|\band\b|\bor\b|\bto\b|/)\s*{_REF})*", flags=re.I
)
CITATION_YEAR = re.compile(r"(?:\b[A-Z][\w'-]*|\bal\.)[,]?\s+\(?(?:19|20)\d\d[a-z]?\b|,\s*(?:19|20)\d\d[a-z]?\)")
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", flags=re.S)
FORMULA = re.compile(r"``.+?``|:math:`[^`]+`", flags=re.S)

VERDICT = re.compile(
    r"\b(?:(?:partly|partially|not)\s+)?reproduc(?:ed|es|ible)\b|\bcontradict\w*|\bconfirm(?:s|ed|ing)?\b",
    flags=re.I,
)
_ABBREVIATIONS = re.compile(r"\b(?:et al|e\.g|i\.e|eqs?|figs?|pp?|vs|cf|no|approx)\.", flags=re.I)


def _sentences(text):
    """(start, end) of each sentence; abbreviations such as "et al." or "eq." do not end one."""
    masked = _ABBREVIATIONS.sub(lambda m: m.group(0)[:-1] + "\0", text)
    bounds, start = [], 0
    for m in re.finditer(r"[.;!?](?=\s|$)|\n\s*\n", masked):
        bounds.append((start, m.end()))
        start = m.end()
    bounds.append((start, len(text)))
    return bounds


def typed_numbers(text):
    """The numbers of a caption in none of the allowed forms (module docstring). Returns a list of short
    excerpts, empty when the caption is clean."""
    problems = []
    for tag in JINJA.findall(text):  # the text of a Jinja2 string literal is prose, under the same rule
        for literal in re.findall(r'"([^"]*)"|\'([^\']*)\'', tag):
            problems += typed_numbers("".join(literal))
    text = JINJA.sub(lambda m: " " * len(m.group(0)), text)
    for m in FORMULA.finditer(text):
        bad = [n for n in NUMBER.findall(m.group(0)) if re.search(r"[.,]\d|%", n)]
        problems += [f"decimal or percentage in a formula: {m.group(0)!r}" for _ in bad[:1]]
    text = FORMULA.sub(lambda m: " " * len(m.group(0)), text)
    for pattern in (REFERENCE, CITATION_YEAR):
        text = pattern.sub(lambda m: " " * len(m.group(0)), text)
    for m in NUMBER.finditer(text):
        context = " ".join(text[max(0, m.start() - 40) : m.end() + 20].split())
        problems.append(f"{m.group(0)!r} in '...{context}...'")
    return problems


@pytest.mark.parametrize(
    "text",
    [
        "randSel recall 0.67, accuracy 0.81 with KTA.",
        "Quick config: nested CV 0.88-1.00, KTA 0.65-0.83 with 12-37 features.",
        "The thesis reports a precision of 0.71; here randSel reaches 0.30.",
        "The thesis reports 0.71 where we measured 0.30.",
        "(thesis: 0.71, this run 0.30)",
        "Measured with the thesis config (run of 2026-11-22/23): 78.7 +- 2.5%.",
        "the quick profile uses 2,000 partitions of 300-sample subsamples",
        "a Gaussian SVM on the 10 relevant features alone reaches 0.70 (3-fold).",
        "a formula with a run's value ``accuracy = 0.81``",
        "This thesis config reports accuracy 0.81.",
        'hidden in Jinja2: {{ "accuracy 0.81" if snakemake.config["seed"] else "" }}',
        "The thesis reports KTA 6-10 times faster than nested CV (table 3.2).",
        "The paper uses a subsample of 1,000 and 10,000 partitions.",
        "(thesis table 3.1: 148 and 152 samples)",
        "The thesis reports that on task 2 correlation is the most accurate (82.9) and the sparsest method.",
        "Features are selected with varying probability between 1 and 0.1 (thesis, 2014).",
        "its data set comprising 523 features, Golub et al. (1999)",
    ],
)
def test_the_rule_catches_a_number_typed_by_hand(text):
    assert typed_numbers(text)


@pytest.mark.parametrize(
    "text",
    [
        "Athanasakis (2014), thesis figure 3.5 (section 3.3.1, p. 41); eq. 2.8 and algorithm 3.",
        "thesis figures 3.10-3.12 and 4.11-4.13 use its TB tasks 2-4 (appendix A.4).",
        "Weiner et al. 2012 and Golub et al. (1999); Athanasakis, Shawe-Taylor & Fernandez-Reyes (2013).",
        "The thesis reports KTA several times faster than nested CV (table 3.2, p. 46).",
        "the config's {{ snakemake.config['chapter3']['outer_folds'] }} outer folds",
        "a Gaussian kernel ``exp(-gamma ||x - x'||^2)`` and subsets of ``n/2 + 1`` features",
        "The claims table, rows ``fig3_5``; HSIC1, l1-logistic, x0 and x1.",
    ],
)
def test_the_rule_allows_references_years_config_and_formulas(text):
    assert typed_numbers(text) == []


@pytest.mark.parametrize("name", CAPTIONS)
def test_caption_carries_no_typed_number(name):
    problems = typed_numbers((REPORT / f"{name}.rst").read_text())
    assert not problems, f"report/{name}.rst: numbers typed by hand:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("name", CAPTIONS)
def test_caption_carries_no_verdict(name):
    text = JINJA.sub(" ", (REPORT / f"{name}.rst").read_text())
    found = [m.group(0) for m in VERDICT.finditer(text)]
    assert not found, f"report/{name}.rst: a verdict typed by hand ({found}); the claims table computes them"


def _claims_by_figure():
    """figure or table id -> the ids of the claims of fscompbio.claims that concern it."""
    from fscompbio.claims import CLAIMS

    by_figure = {}
    for claim in CLAIMS:
        for fig in claim.figures:
            by_figure.setdefault(fig, []).append(claim.id)
    return by_figure


def _closing_sentence(text):
    text = " ".join(text.split())
    return [text[a:b] for a, b in _sentences(text) if text[a:b].strip()][-1]


@pytest.mark.parametrize("name", CAPTIONS)
def test_caption_points_to_its_rows_of_the_claims_table(name):
    """A figure with claims in fscompbio.claims ends with one sentence naming the claims table and every one
    of its claims (``claim_id``); no caption names a claim the registry does not have."""
    from fscompbio.claims import CLAIMS

    closing = _closing_sentence((REPORT / f"{name}.rst").read_text())
    by_figure = _claims_by_figure()
    ids = set(CAPTIONS) | set(by_figure)  # figure and table ids, not claims
    named = set()
    if "claims table" in closing:
        named = {x for x in re.findall(r"``([A-Za-z]\w*)``", closing) if x not in ids}
    unknown = named - {c.id for c in CLAIMS}
    assert not unknown, f"report/{name}.rst names claims fscompbio.claims does not have: {sorted(unknown)}"
    expected = set(by_figure.get(name, ()))
    if expected:
        assert "claims table" in closing and f"``{name}``" in closing, (
            f"report/{name}.rst does not end by pointing to the claims table's rows of ``{name}``: {closing!r}"
        )
        assert not expected - named, (
            f"report/{name}.rst: its closing sentence does not name the claims {sorted(expected - named)}"
        )


# ----------------------------------------------------------------------------------------------------
# rendering, as `snakemake --report` renders a caption
# ----------------------------------------------------------------------------------------------------

CONFIGS = {"quick": REPO / "config.yaml", "thesis": REPO / "config" / "thesis.yaml"}


@pytest.fixture(scope="module", params=sorted(CONFIGS))
def config(request):
    return yaml.safe_load(CONFIGS[request.param].read_text())


@pytest.mark.parametrize("name", CAPTIONS)
def test_caption_renders_with_the_config(name, config):
    # the environment of snakemake/report/__init__.py, stricter: an undefined name fails
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    rst = env.from_string((REPORT / f"{name}.rst").read_text()).render(snakemake=SimpleNamespace(config=config))
    assert not re.search(r"\{\{|\}\}|\{%|%\}", rst), f"report/{name}.rst: a Jinja2 tag is left after rendering"
    # a block tag at a line's end swallows its newline (trim_blocks): paragraphs must survive rendering
    source = (REPORT / f"{name}.rst").read_text()
    assert len(re.split(r"\n\s*\n", rst.strip())) == len(re.split(r"\n\s*\n", source.strip())), (
        f"report/{name}.rst: rendering joins paragraphs (a Jinja2 block tag ends a line?)"
    )
    html = publish_parts(rst, writer="html", settings_overrides={"halt_level": 2, "report_level": 5})["body"]
    assert html.strip()
