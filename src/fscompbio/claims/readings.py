"""The study's unstated or ambiguous choices, as named readings.

Where the thesis (Athanasakis 2014) or the randSel paper (Athanasakis, Shawe-Taylor & Fernandez-Reyes 2013)
leaves a choice unstated (a width grid, a training set, a scaling, a statistic), every option a careful
reader could defend is a *reading*. A claim names the readings its verdict depends on
(:attr:`fscompbio.claims.Claim.readings`); the claims are evaluated under each option, the default giving
the headline verdict, and a claim is *robust* when no option changes it.

A reading acts on the run's tables: :attr:`Reading.apply` maps ``(option, tables)`` to the tables a claim
sees under that option (the rows of a width grid, the protocol of a training set, the column of a
statistic), or raises :class:`~fscompbio.claims.NotEvaluable` when the run made no table for the option
(e.g. raw scales when the run standardised them): the claim is then *not evaluated* under that option, and
its robustness *untested*.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pandas as pd

from ._core import NotEvaluable


@dataclass(frozen=True)
class Reading:
    """One unstated choice: what it chooses, the passage it reads (or ``"unstated"``), its options with what
    each means (the default first), and how an option acts on the tables."""

    id: str
    choice: str
    passage: str
    options: Mapping[str, str]
    default: str
    apply: Callable[[str, dict], dict]
    #: who proposes an option that is a hypothesis of ours, not a reading of the text: option -> why
    hypotheses: Mapping[str, str] = None

    def __post_init__(self):
        if self.default not in self.options:
            raise ValueError(f"reading {self.id}: default {self.default!r} is not one of its options")


def _each(tables, prefix, fn):
    """``tables`` with ``fn(key, table)`` applied to every table whose key starts with ``prefix``."""
    return {k: (fn(k, t) if k.startswith(prefix) else t) for k, t in tables.items()}


# --------------------------------------------------------------------------
# chapter 3: KTA's width grid
# --------------------------------------------------------------------------
def _width_grid(option, tables):
    def rows(key, t):
        ms = t["model_selection"]
        if option == "relative":
            return t[ms != "kta_abs"]
        if (ms == "kta").any() and not (ms == "kta_abs").any():
            raise NotEvaluable(f"{key}: no KTA on the absolute width grid (model selection kta_abs) in this run")
        return t[ms != "kta"].assign(model_selection=ms[ms != "kta"].replace("kta_abs", "kta"))
    return _each(tables, "chapter3/", rows)


# --------------------------------------------------------------------------
# chapter 3: the consistency statistic
# --------------------------------------------------------------------------
CONSISTENCY_COLUMNS = {"variance": "mean_variance", "eq_2_8": "log_likelihood"}


def _consistency(option, tables):
    column = CONSISTENCY_COLUMNS[option]

    def stat(key, t):
        if column not in t.columns:
            raise NotEvaluable(f"{key}: no {column} column")
        return t.assign(consistency=t[column])
    return _each(tables, "chapter3/", stat)


# --------------------------------------------------------------------------
# chapter 5: the training set, the scales, sparse filtering's fit
# --------------------------------------------------------------------------
#: training-set option -> the protocol names of table P1 and figure 5.5 that run it
TRAINING_PROTOCOLS = {"adequate": ("adequate",), "capped": ("capped", "paper"), "all_windows": ("all_windows",)}


def _training_set(option, tables):
    names = TRAINING_PROTOCOLS[option]
    out = dict(tables)
    if "table_P1" in tables:
        t = tables["table_P1"]
        keep = t["protocol"].isin(names)
        if not keep.any():
            raise NotEvaluable(f"table_P1: no rows trained on the {option.replace('_', ' ')} reading of the training "
                               "set in this run")
        out["table_P1"] = t[keep].assign(protocol=option)
    return out


def _column_option(column, option, made, what):
    """A reading read off a column of chapter 5's tables: rows whose ``column`` is ``option``; a table without
    the column was made with ``made`` only."""
    def apply(tables):
        out = dict(tables)
        for key in ("table_P1", "fig5_5"):
            if key not in tables:
                continue
            t = tables[key]
            if column in t.columns:
                keep = t[column] == option
                if not keep.any():
                    raise NotEvaluable(f"{key}: no rows with {what} = {option} in this run")
                out[key] = t[keep]
            elif option != made:
                raise NotEvaluable(f"{key}: this run made {what} = {made} only")
        return out
    return apply


def _scales(option, tables):
    """Table P1's rows on ``option``'s scales (its ``scales`` column; a table without one was made on standardised
    scales only). Under raw scales, an approach the run made on standardised scales only (those on sparse
    filtering's features, fitted on the standardised scales) keeps its standardised rows: the reading concerns
    the original representation (chapter5.prediction.scales.raw), and the claims compare it with them. Figure
    5.5 (standardised only) is left out under raw scales; with no raw row in table P1 the option is not
    evaluable."""
    out = dict(tables)
    if "table_P1" in tables:
        t = tables["table_P1"]
        scales = t["scales"] if "scales" in t.columns else pd.Series("standardised", index=t.index)
        mine = scales == option
        if not mine.any():
            raise NotEvaluable(f"table_P1: no rows with scales = {option} in this run"
                               + (" (chapter5.prediction.scales.raw lists no approach)" if option == "raw" else ""))
        if option != "standardised":
            mine |= (scales == "standardised") & ~t["approach"].isin(set(t.loc[mine, "approach"]))
        out["table_P1"] = t[mine]
    if "fig5_5" in tables:
        c = tables["fig5_5"]
        made = c["scales"] == option if "scales" in c.columns else pd.Series(option == "standardised", index=c.index)
        if made.any():
            out["fig5_5"] = c[made]
        elif "table_P1" in out:
            del out["fig5_5"]  # the learning curve was not made on these scales
        else:
            raise NotEvaluable(f"fig5_5: no rows with scales = {option} in this run")
    return out


def _sf_fit(option, tables):
    return _column_option("sf_fit", option, "subsample", "sparse filtering's fit")(tables)


# --------------------------------------------------------------------------
# chapter 5: how the learned representation is compared with the original
# --------------------------------------------------------------------------
def _comparison(option, tables):
    drop = "fig5_5" if option == "table" else "table_P1"
    keep = "table_P1" if option == "table" else "fig5_5"
    if keep not in tables:
        raise NotEvaluable(f"{keep}: not made by this run")
    return {k: t for k, t in tables.items() if k != drop}


# --------------------------------------------------------------------------
# Sun, Yao & Goodison (2015): which methods "the four competing methods" are
# --------------------------------------------------------------------------
#: the methods figure R.2 runs that Sun, Yao & Goodison compare local learning with (their four are HSIC Lasso,
#: SpAM, RGS and HMKL, section 4.1; only HSIC Lasso is implemented here)
SUN_COMPETITORS = ("hsic_lasso",)


def _competitors(option, tables):
    if option == "figure" or "figR_2" not in tables:
        return dict(tables)
    r = tables["figR_2"]
    keep = r["method"].isin(("local_learning", *SUN_COMPETITORS))
    if not r.loc[keep, "method"].isin(SUN_COMPETITORS).any():
        raise NotEvaluable(f"figR_2: none of the paper's competitors ({', '.join(SUN_COMPETITORS)}) in this run")
    return {**tables, "figR_2": r[keep]}


READINGS: dict[str, Reading] = {r.id: r for r in (
    Reading(
        "width_grid", "the grid of Gaussian widths over which KTA (thesis algorithm 3) picks the width of maximum "
        "alignment at each prefix, in chapter 3",
        "unstated (thesis section 3.2: the width is chosen by maximum alignment; no grid is given)",
        {"relative": "widths relative to the median pairwise distance of the selected features (the config's "
                     "grid), re-scaled as the prefix grows",
         "absolute": "one fixed grid gamma = 10^t over the config's range, the same for every prefix"},
        "relative", _width_grid),
    Reading(
        "consistency", "the statistic behind \"more consistent\" in chapter 3",
        "thesis section 3.3.1.6: \"showing significantly smaller variance\"; section 2.5.2 defines both the mean "
        "variance of the selection indicators and the log-likelihood of eq. 2.8",
        {"variance": "the mean variance of the features' selection indicators over the outer folds (lower = "
                     "more consistent): the statistic the sentence names",
         "eq_2_8": "the consistency log-likelihood of eq. 2.8 (lower = more consistent); it rewards larger "
                   "consistently selected sets"},
        "variance", _consistency),
    Reading(
        "training_set", "the windows chapter 5's classifiers are trained on",
        "thesis section 5.5: a chunking SVM trained on all ~100,000 windows, ~5,100 support vectors per fold; "
        "the paper's \"balanced subsamples\" concern the selectors",
        {"adequate": "every training positive and 5 negatives per positive (an affordable reading of all the "
                     "windows)",
         "all_windows": "every training window, as the thesis says",
         "capped": "at most 1,000 windows per class"},
        "adequate", _training_set,
        hypotheses={"capped": "ours, not the study's: neither text states a cap; a starved training set is our "
                              "explanation of the paper's 67.2% for the original representation"}),
    Reading(
        "scales", "the physicochemical scales that encode a residue in chapter 5",
        "the randSel paper, section 6.3: \"the raw physicochemical properties\"; thesis 5.4.1 lists the 54 "
        "scales without saying how they are scaled",
        {"standardised": "each scale standardised over the 20 residues (mean 0, sd 1)",
         "raw": "each scale's values as published, reaching the Gaussian SVM's kernel unscaled (scaling the "
                "columns over the training windows instead would give back the standardised rows), for the "
                "approaches the run made on raw scales (chapter5.prediction.scales.raw: the original "
                "representation); the rows on sparse filtering's features stay on the standardised scales it "
                "was fitted on"},
        "standardised", _scales),
    Reading(
        "sf_fit", "the windows sparse filtering is fitted on in chapter 5",
        "unstated (thesis 5.2 and appendix A.2 fit sparse filtering on \"the data\")",
        {"subsample": "a random subsample of each fold's training windows (10,000 in the thesis config), the "
                      "fit applied to all",
         "all": "every training window of the fold"},
        "subsample", _sf_fit),
    Reading(
        "comparison", "how the learned representation is compared with the original one in chapter 5",
        "the randSel paper, section 6.3 compares table 1's rows; each row trains on what its approach affords",
        {"table": "table P1's rows, under the training-set reading",
         "equal_data": "at equal training data: figure 5.5's learning curve, original and sparse-filtering "
                       "features at each training size"},
        "table", _comparison),
    Reading(
        "competitors", "the methods local learning is compared with in figure R.2",
        "Sun, Yao & Goodison (2015), section 4.1: \"outperforms the four competing methods\" (HSIC Lasso, SpAM, "
        "RGS and HMKL); the figure here runs HSIC Lasso beside this study's BaHSIC and randSel",
        {"figure": "every other method of the figure: HSIC Lasso, BaHSIC and randSel",
         "paper": "the paper's competitors that the figure runs: HSIC Lasso"},
        "figure", _competitors),
)}


def apply_readings(tables: Mapping[str, pd.DataFrame], reading_ids, options: Mapping[str, str]) -> dict:
    """``tables`` as a claim that depends on ``reading_ids`` sees them: each reading at ``options[id]`` or its
    default. A ``ValueError`` names an unknown reading or option."""
    out = dict(tables)
    for rid in reading_ids:
        if rid not in READINGS:
            raise ValueError(f"unknown reading {rid!r}; known: {', '.join(READINGS)}")
        reading = READINGS[rid]
        option = options.get(rid, reading.default)
        if option not in reading.options:
            raise ValueError(f"reading {rid}: unknown option {option!r}; options: {', '.join(reading.options)}")
        out = reading.apply(option, out)
    unknown = set(options) - set(reading_ids)
    if unknown:
        raise ValueError(f"options for readings the claim does not depend on: {', '.join(sorted(unknown))}")
    return out


def readings_markdown() -> str:
    """docs/readings.md's table: every reading, its passage, its options (the default marked)."""
    lines = ["| reading | the choice | the passage it reads | options (default first) |", "| --- | --- | --- | --- |"]
    for r in READINGS.values():
        opts = [f"**{r.default}**: {r.options[r.default]}"]
        for o, text in r.options.items():
            if o != r.default:
                hyp = (r.hypotheses or {}).get(o)
                opts.append(f"{o}: {text}" + (f" (a hypothesis, {hyp})" if hyp else ""))
        lines.append(f"| `{r.id}` | {r.choice} | {r.passage} | " + "<br>".join(opts) + " |")
    return "\n".join(lines) + "\n"
