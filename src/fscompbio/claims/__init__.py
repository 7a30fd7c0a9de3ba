"""The study's messages as claims, evaluated on a run's own summary tables.

Each message of the thesis (Athanasakis 2014, *Feature Selection in Computational Biology*), the randSel
paper (Athanasakis, Shawe-Taylor & Fernandez-Reyes 2013, *Principled Non-Linear Feature Selection*, and its
early version) or another text that a figure or table of the default workflow reproduces is one
:class:`Claim`: an id, the figure/table ids it concerns, the study's sentence with its source (section or
figure), a reading with its thresholds stated, a pure function from the run's tables to a :class:`Verdict`
(``holds`` / ``partly`` / ``fails``, and the numbers it used), the readings of the study's unstated choices
its verdict depends on (:data:`READINGS`), and where it does not hold a diagnosis. :data:`CLAIMS` lists them
in the order of the study, one module per chapter: :mod:`.chapter3`, :mod:`.chapter4`, :mod:`.chapter5`,
:mod:`.other_texts`. Each message is one claim, so the verdict counts count each message once.

The tables are pandas DataFrames keyed by name (:func:`table_key`):

- ``"chapter3/<dataset>"``, ``"chapter4/<dataset>"``: a data set's summary over outer folds
  (``results/chapter{3,4}/summary/<dataset>.csv``: one row per method and model selection);
- ``"table3_2"``, ``"table_P1"``, ``"fig5_5"``, ``"figR_2"``, ``"figM_1"``, ``"tableP_2"``: the CSV files
  of ``figures/``;
- ``"fig4_1"`` (``results/spine/fig4_1.json``), ``"fig4_3"`` / ``"figP_2"`` (randSel's contribution
  histories) and ``"figP_1"`` (expected contributions), turned into tables by :func:`load_run`.

A claim whose tables (or rows: a method or model selection the config does not run) are absent is
``not evaluated``; a claim on public data that stands in for one of the thesis' TB tasks can at most be
``consistent on a stand-in``. Nothing here holds a number of a run: the thresholds are the readings' own,
and the study's numbers are quoted from the study.

``python -m fscompbio.claims --markdown`` prints docs/messages.md (the list of claims and of the readings);
``python -m fscompbio.claims RUN_DIR`` prints the verdicts of a finished run.
"""

from __future__ import annotations

from pathlib import Path

from ._core import (
    CHANCE_HALF_WIDTH,
    FAILS,
    HOLDS,
    HSIC_VARIANTS,
    NOT_EVALUATED,
    PARTLY,
    REAL,
    SHORT,
    STAND_IN,
    SYNTHETIC,
    VERDICTS,
    NotEvaluable,
    Verdict,
)
from ._claim import Assessment, Claim
from ._registry import CLAIMS
from ._run import (
    DATA_FILES,
    _expected,  # noqa: F401  (tests build tables with them)
    _history,  # noqa: F401
    claim_inputs,
    claims_markdown,
    claims_table,
    compare_claims,
    comparison_markdown,
    evaluate_claims,
    load_run,
    main,
    messages_markdown,
    read_claims,
    table_key,
    verdict_counts,
)
from .chapter3 import SPARSER_SETS
from .chapter4 import RANDSEL_WINS
from .chapter5 import PAPER_ROWS, SF_ROWS, SIGNALP
from .readings import READINGS, Reading



def source_files():
    """The package's source files, sorted: a change to any of them reruns the workflow's claims rule."""
    return sorted(Path(__file__).parent.glob("*.py"))


__all__ = [
    "HOLDS", "PARTLY", "FAILS", "STAND_IN", "NOT_EVALUATED", "VERDICTS", "CHANCE_HALF_WIDTH", "SHORT",
    "SYNTHETIC", "REAL", "HSIC_VARIANTS", "SPARSER_SETS", "RANDSEL_WINS", "PAPER_ROWS", "SF_ROWS", "SIGNALP",
    "Verdict", "Assessment", "Claim", "Reading", "READINGS", "CLAIMS", "DATA_FILES", "NotEvaluable",
    "claim_inputs", "table_key", "load_run", "evaluate_claims", "claims_table", "compare_claims", "read_claims",
    "comparison_markdown", "claims_markdown", "verdict_counts", "messages_markdown", "source_files", "main",
]
