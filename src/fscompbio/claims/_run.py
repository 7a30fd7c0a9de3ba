"""A run's files -> tables -> every claim's verdicts -> ``figures/claims.csv`` and ``claims.md``; two runs'
verdicts side by side; the list of claims (docs/messages.md); the command line."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from ._core import FAILS, NOT_EVALUATED, PARTLY, STAND_IN, VERDICTS
from ._registry import CLAIMS
from .readings import READINGS, readings_markdown

#: the data files behind figures that have no CSV of their own: figure id -> file (relative to the run)
DATA_FILES = {
    "fig4_1": "results/spine/fig4_1.json",
    "fig4_3": "results/chapter4/randsel_history.npz",
    "figP_1": "results/chapter4/expected_contributions.npz",
    "figP_2": "results/paper/figP_2_randsel_history.npz",
    "fig5_5": "figures/fig5_5.csv",
    "table3_2": "figures/table3_2.csv",
    "table_P1": "figures/table_P1.csv",
    "figR_2": "figures/figR_2.csv",
    "figM_1": "figures/figM_1.csv",
    "tableP_2": "figures/tableP_2.csv",
}


def claim_inputs(final_outputs, chapter3_datasets=(), chapter4_datasets=(), premise_datasets=()):
    """The files the claims read in a run whose default targets are ``final_outputs``: the chapter-3/4
    summaries of the configured data sets, the premises of its synthetic sets
    (:func:`fscompbio.evaluation.oracle_accuracy`) and the data file of every figure or table the run makes."""
    made = set(final_outputs)
    files = [f"results/chapter3/summary/{d}.csv" for d in chapter3_datasets]
    files += [f"results/chapter4/summary/{d}.csv" for d in chapter4_datasets]
    files += [f"results/premises/{d}.json" for d in premise_datasets]
    files += [path for fig, path in DATA_FILES.items() if path in made or f"figures/{fig}.png" in made]
    return files


_KEYS = [
    (re.compile(r"results/(chapter[34])/summary/([a-z0-9_]+)\.csv$"), r"\1/\2"),
    (re.compile(r"results/premises/([a-z0-9_]+)\.json$"), r"premise/\1"),
    *[(re.compile(re.escape(path) + "$"), fig) for fig, path in DATA_FILES.items()],
]


def table_key(path):
    """The table name of a run's file (``results/chapter3/summary/xor.csv`` -> ``chapter3/xor``), or None."""
    text = Path(path).as_posix()
    for pattern, key in _KEYS:
        m = pattern.search(text)
        if m:
            return m.expand(key)
    return None


def _alignment_curves(record):
    sizes = record["sample_sizes"]
    return pd.DataFrame([{"curve": curve, "sample_size": n, "biased_mean": b, "unbiased_mean": u}
                         for curve, v in record["curves"].items()
                         for n, b, u in zip(sizes, v["biased_mean"], v["unbiased_mean"])])


def _history(arrays):
    c = np.asarray(arrays["contributions"], dtype=float)
    n_it, d = c.shape
    return pd.DataFrame({"iteration": np.repeat(np.arange(n_it), d), "feature": np.tile(np.arange(d), n_it),
                         "contribution": c.ravel(),
                         "relevant": np.tile(np.isin(np.arange(d), arrays["relevant"]), n_it)})


def _expected(arrays):
    c = np.asarray(arrays["contributions"], dtype=float)
    return pd.DataFrame({"feature": np.arange(c.size), "contribution": c,
                         "se": np.asarray(arrays["contribution_se"], dtype=float),
                         "relevant": np.isin(np.arange(c.size), arrays["relevant"])})


def _premise(record):
    """One row per oracle: its mean accuracy over the folds (and the folds' number, the draw's protocol)."""
    return pd.DataFrame([{"dataset": record["dataset"], "oracle": name, "accuracy_mean": float(np.mean(acc)),
                          "accuracy_min": float(np.min(acc)), "n_folds": record["n_folds"]}
                         for name, acc in record["accuracy"].items()])


def load_run(paths: Iterable) -> dict[str, pd.DataFrame]:
    """The tables of a run's files (see :func:`table_key`); files of no known table are left out."""
    tables = {}
    for path in paths:
        key = table_key(path)
        if key is None:
            continue
        if key.startswith("premise/"):
            tables[key] = _premise(json.loads(Path(path).read_text()))
        elif key == "fig4_1":
            tables[key] = _alignment_curves(json.loads(Path(path).read_text()))
        elif key in ("fig4_3", "figP_2"):
            with np.load(path) as arrays:
                tables[key] = _history(arrays)
        elif key == "figP_1":
            with np.load(path) as arrays:
                tables[key] = _expected(arrays)
        else:
            tables[key] = pd.read_csv(path)
    return tables


def evaluate_claims(tables: Mapping[str, pd.DataFrame], claims=None):
    """Every claim's :class:`~fscompbio.claims.Assessment` on ``tables``: ``[(claim, assessment), ...]``."""
    return [(c, c.assess(tables)) for c in (CLAIMS if claims is None else claims)]


def claims_table(tables: Mapping[str, pd.DataFrame], claims=None) -> pd.DataFrame:
    """One row per claim.

    Columns: id, figures, source, quote, reading; ``verdict``: the headline (every reading at its default,
    the draws of draw 0's protocol); ``draws``: "holds in k of n draws" when several draws of that protocol
    are pooled; ``replication``: the draws of another protocol, never pooled; ``readings``: the readings the
    claim depends on; ``verdict_by_reading``: the verdict under each option of each; ``robust``: yes / no /
    untested; ``diagnosis``: why the claim does not hold, where it does not (partly or fails); stand_in;
    numbers.
    """
    rows = []
    for c, a in evaluate_claims(tables, claims):
        v = a.headline
        rows.append({"id": c.id, "figures": " ".join(c.figures), "source": c.source, "quote": c.quote,
                     "reading": c.reading, "verdict": v.verdict, "draws": v.draws_text, "replication": v.replication,
                     "readings": " ".join(c.readings), "verdict_by_reading": a.by_reading_text, "robust": a.robust,
                     "diagnosis": c.explain(tables, a.by_reading) if v.verdict in (PARTLY, FAILS) else "",
                     "stand_in": c.stand_in, "numbers": v.numbers})
    return pd.DataFrame(rows)


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def verdict_counts(table: pd.DataFrame) -> dict[str, int]:
    counts = table["verdict"].value_counts()
    return {v: int(counts.get(v, 0)) for v in VERDICTS}


def _text(r, key):
    value = r.get(key, "")
    return value if isinstance(value, str) else ""


def verdict_cell(r):
    """A row's headline verdict with its pooled draws and replications, as one Markdown cell."""
    extra = [t for t in (_text(r, "draws"), _text(r, "replication") and f"replications: {_text(r, 'replication')}") if t]
    return f"**{r['verdict']}**" + (f" ({_cell('; '.join(extra))})" if extra else "")


def claims_markdown(table: pd.DataFrame, title="The study's claims, evaluated on this run") -> str:
    """The verdicts of :func:`claims_table` as Markdown, with the counts at the end."""
    lines = [f"# {title}", "",
             "Computed by `fscompbio.claims` from this run's summary tables (docs/messages.md lists the claims, "
             "docs/readings.md the readings). *Stand-in*: public data replace the thesis' TB task, so a claim there "
             f"can at most be \"{STAND_IN}\". The verdict is the headline: every reading of what the study left "
             "unstated at its default, and the synthetic sets' draw 0 with the config's outer folds (draws with "
             "the same folds pooled by majority). Draws run with fewer folds are replications, reported beside it. "
             "*Robust*: no reading changes the verdict (*untested*: some reading's option was not run).", "",
             "| claim | figures | the study | reading | verdict | under each reading | robust | numbers | why it does "
             "not hold |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for _, r in table.iterrows():
        figs = r["figures"].replace(" ", ", ") + (" (stand-in)" if r["stand_in"] is True or r["stand_in"] == "True"
                                                  else "")
        lines.append(f"| `{r['id']}` | {_cell(figs)} | \"{_cell(r['quote'])}\" ({_cell(r['source'])}) | "
                     f"{_cell(r['reading'])} | {verdict_cell(r)} | {_cell(_text(r, 'verdict_by_reading'))} | "
                     f"{_text(r, 'robust')} | {_cell(r['numbers'])} | {_cell(_text(r, 'diagnosis'))} |")
    counts = verdict_counts(table)
    lines += ["", "Verdicts: " + ", ".join(f"{v} {n}" for v, n in counts.items())
              + f" (of {len(table)} claims, one per message of the study)."]
    return "\n".join(lines) + "\n"


CLAIM_COLUMNS = ("id", "figures", "verdict", "draws", "numbers")
#: columns a claims table of an older run may lack (read as empty)
OPTIONAL_COLUMNS = ("replication", "readings", "verdict_by_reading", "robust", "diagnosis")


def read_claims(path) -> pd.DataFrame:
    """A run's ``figures/claims.csv``; a ``ValueError`` names the file and the columns it lacks."""
    table = pd.read_csv(path, keep_default_na=False)
    missing = [c for c in CLAIM_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: not a claims table (written by the workflow's claims rule): "
                         f"no column {', '.join(map(repr, missing))}")
    duplicated = table["id"][table["id"].duplicated()].tolist()
    if duplicated:
        raise ValueError(f"{path}: claim {duplicated[0]!r} appears more than once")
    for c in OPTIONAL_COLUMNS:
        if c not in table.columns:
            table[c] = ""
    return table


def compare_claims(first: pd.DataFrame, second: pd.DataFrame) -> pd.DataFrame:
    """Two runs' verdicts side by side, one row per claim of either (in the first's order, then the second's).

    Columns: id, figures, and for each run ``k`` in 1, 2: verdict_k, draws_k, replication_k, robust_k,
    verdict_by_reading_k, diagnosis_k, numbers_k; ``evaluated``: both runs evaluated the claim (neither says *not evaluated*,
    neither lacks it), and ``changed``: evaluated and their verdicts differ.
    """
    a = first.set_index("id")
    b = second.set_index("id")
    ids = list(a.index) + [i for i in b.index if i not in a.index]
    rows = []
    for i in ids:
        row = {"id": i, "figures": (a if i in a.index else b).loc[i, "figures"]}
        for k, t in (("1", a), ("2", b)):
            present = i in t.index
            row[f"verdict_{k}"] = t.loc[i, "verdict"] if present else "absent"
            for col in ("draws", "replication", "robust", "verdict_by_reading", "diagnosis", "numbers"):
                value = t.loc[i, col] if present and col in t.columns else ""
                row[f"{col}_{k}"] = value if isinstance(value, str) else ""
        row["evaluated"] = all(row[f"verdict_{k}"] not in (NOT_EVALUATED, "absent") for k in "12")
        row["changed"] = bool(row["evaluated"] and row["verdict_1"] != row["verdict_2"])
        rows.append(row)
    return pd.DataFrame(rows)


def comparison_markdown(table: pd.DataFrame, names=("first run", "second run")) -> str:
    """:func:`compare_claims` as Markdown: every claim's two verdicts, changed verdicts marked, counts at the end."""
    n1, n2 = names
    lines = [f"# The study's claims: {n1} beside {n2}", "",
             "Computed by `fscompbio.claims --compare` from the two runs' `figures/claims.csv`. A claim *changes "
             "verdict* when both runs evaluated it and their verdicts differ; the numbers are each run's own.", "",
             f"| claim | figures | {_cell(n1)} | {_cell(n2)} | changes | numbers, {_cell(n1)} | numbers, {_cell(n2)} |",
             "| --- | --- | --- | --- | --- | --- | --- |"]

    def verdict(r, k):
        return verdict_cell({"verdict": r[f"verdict_{k}"], "draws": r[f"draws_{k}"],
                             "replication": r[f"replication_{k}"]})

    for _, r in table.iterrows():
        lines.append(f"| `{r['id']}` | {_cell(r['figures']).replace(' ', ', ')} | {verdict(r, '1')} | "
                     f"{verdict(r, '2')} | {'**yes**' if r['changed'] else ''} | {_cell(r['numbers_1'])} | "
                     f"{_cell(r['numbers_2'])} |")
    lines += ["", f"Evaluated in both runs: {int(table['evaluated'].sum())} of {len(table)} claims; verdict changed: "
              f"{int(table['changed'].sum())}"
              + (f" ({', '.join(f'`{i}`' for i in table['id'][table['changed']])})" if table["changed"].any() else "")
              + "."]
    return "\n".join(lines) + "\n"


def messages_markdown(claims=None) -> str:
    """docs/messages.md: the claims of the registry, with their figures, the study's sentences and the
    readings each depends on; then the readings."""
    claims = CLAIMS if claims is None else claims
    lines = [
        "# The study's messages, as computed claims",
        "",
        "Which of the study's messages a figure reproduces is computed, not typed. The study is the thesis "
        "(Athanasakis 2014, *Feature Selection in Computational Biology*) and the randSel paper (Athanasakis, "
        "Shawe-Taylor & Fernandez-Reyes 2013, *Principled Non-Linear Feature Selection*, and its early version); "
        "figure figR_2 follows Sun, Yao & Goodison (2015). Each message is one claim in `fscompbio.claims` "
        "(`CLAIMS`, one module per chapter): the study's sentence, a reading with its thresholds, a function of "
        "the run's summary tables, the readings of the study's unstated choices its verdict depends on, and, "
        "where it does not hold, a diagnosis: its mechanism in words, and what it says of the run (which method is "
        "ahead, on which data set, under which reading) computed from the same tables. The workflow's `claims` rule (rules/claims.smk) writes every run's "
        "verdicts, with the numbers they rest on, to `figures/claims.md` and `figures/claims.csv`: *holds*, "
        f"*partly*, *fails*; *{STAND_IN}* where public data replace the thesis' TB tasks; *{NOT_EVALUATED}* where "
        "the config did not make the tables a claim needs.",
        "",
        "The headline verdict is the thesis' own protocol: draw 0 of each synthetic set with the config's outer "
        "folds, every reading at its default. Further draws (`draws` in chapters 3 and 4 of the config) with the "
        "same folds are pooled by majority; draws with fewer folds are replications, reported beside the verdict "
        "and never pooled. Each claim is also evaluated under every option of its readings (below): *robust* "
        "when none changes the verdict.",
        "",
        "This page is generated from the registry (`python -m fscompbio.claims --markdown > docs/messages.md`); "
        "tests/test_claims.py checks that it is up to date.",
        "",
        "| claim | figures | the study's sentence | readings |",
        "| --- | --- | --- | --- |",
    ]
    for c in claims:
        figs = ", ".join(c.figures) + (" (stand-in data)" if c.stand_in else "")
        lines.append(f"| `{c.id}` | {_cell(figs)} | \"{_cell(c.quote)}\" ({_cell(c.source)}) | "
                     f"{', '.join(f'`{r}`' for r in c.readings)} |")
    lines += ["", "## The readings", "",
              "The study's unstated or ambiguous choices (`fscompbio.claims.READINGS`). An option marked as a "
              "hypothesis is ours, not a reading of the text.", "", readings_markdown().rstrip()]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m fscompbio.claims",
                                     description="The study's claims: list them, evaluate a finished run, or "
                                                 "set two runs' verdicts side by side.")
    parser.add_argument("run", nargs="?", help="a run's working directory (with results/ and figures/)")
    parser.add_argument("--markdown", action="store_true", help="print docs/messages.md (the list of claims)")
    parser.add_argument("--compare", nargs=2, metavar="CLAIMS_CSV",
                        help="two runs' figures/claims.csv: print their verdicts side by side")
    parser.add_argument("--names", nargs=2, metavar="NAME", default=("first run", "second run"),
                        help="the two runs' names in --compare's table (e.g. 'quick config' 'thesis config')")
    args = parser.parse_args(argv)
    if args.markdown:
        sys.stdout.write(messages_markdown(CLAIMS))
        return 0
    if args.compare:
        try:
            first, second = (read_claims(p) for p in args.compare)
        except (OSError, ValueError) as err:
            parser.error(str(err))
        sys.stdout.write(comparison_markdown(compare_claims(first, second), names=args.names))
        return 0
    if not args.run:
        parser.error("give a run directory, --compare or --markdown")
    root = Path(args.run)
    paths = [*root.glob("results/chapter[34]/summary/*.csv"), *root.glob("results/premises/*.json"),
             *(root / p for p in DATA_FILES.values())]
    sys.stdout.write(claims_markdown(claims_table(load_run(p for p in paths if p.is_file()))))
    return 0


__all__ = ["DATA_FILES", "READINGS", "claim_inputs", "table_key", "load_run", "evaluate_claims", "claims_table",
           "claims_markdown", "verdict_counts", "read_claims", "compare_claims", "comparison_markdown",
           "messages_markdown", "main"]
