"""The study's messages as claims, evaluated on a run's own summary tables.

Each message of the thesis (Athanasakis 2014, *Feature Selection in Computational Biology*), the randSel
paper (Athanasakis, Shawe-Taylor & Fernandez-Reyes 2013, *Principled Non-Linear Feature Selection*, and its
early version) or another text that a figure or table of the default workflow reproduces is one
:class:`Claim`: an id, the figure/table ids it concerns, the study's sentence with its source (section or
figure), a reading with its thresholds stated, and a pure function from the run's tables to a
:class:`Verdict` (``holds`` / ``partly`` / ``fails``, and the numbers it used). :data:`CLAIMS` lists them in
the order of the study.

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

``python -m fscompbio.claims --markdown`` prints docs/messages.md (the list of claims);
``python -m fscompbio.claims RUN_DIR`` prints the verdicts of a finished run.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .datasets import DATASETS, draw_name, split_draw

__all__ = [
    "HOLDS",
    "PARTLY",
    "FAILS",
    "STAND_IN",
    "NOT_EVALUATED",
    "VERDICTS",
    "Verdict",
    "Claim",
    "CLAIMS",
    "DATA_FILES",
    "NotEvaluable",
    "claim_inputs",
    "table_key",
    "load_run",
    "evaluate_claims",
    "claims_table",
    "compare_claims",
    "read_claims",
    "comparison_markdown",
    "claims_markdown",
    "verdict_counts",
    "messages_markdown",
]

HOLDS, PARTLY, FAILS = "holds", "partly", "fails"
STAND_IN = "consistent on a stand-in"
NOT_EVALUATED = "not evaluated"
#: every verdict, in the order the counts are printed
VERDICTS = (HOLDS, STAND_IN, PARTLY, FAILS, NOT_EVALUATED)

THESIS = "Athanasakis (2014), Feature Selection in Computational Biology"
PAPER = "Athanasakis, Shawe-Taylor & Fernandez-Reyes (2013), Principled Non-Linear Feature Selection"
PAPER_EARLY = f"{PAPER} (early version)"
SUN = "Sun, Yao & Goodison (2015), Feature Selection for Nonlinear Regression and its Application to Cancer Research"

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

SHORT = {
    "correlation": "Corr",
    "stabsel_lasso": "SS-Lasso",
    "stabsel_logreg": "SS-LogReg",
    "stabsel_lpboost": "SS-LPBoost",
    "linear_rfe": "Lin-RFE",
    "random": "Rand",
    "randsel": "randSel",
    "gaussian_rfe": "RFE",
    "fohsic": "FoHSIC",
    "bahsic": "BaHSIC",
    "local_learning": "local learning",
    "hsic_lasso": "HSIC Lasso",
    "ovr_l1_logistic": "OvR l1-LogReg",
    "cv": "CV",
    "kta": "KTA",
    "kta_abs": "KTA (absolute grid)",
    "own": "own",
}
SYNTHETIC = ["fake_class", "linear_zhang_feature_noise", "linear_zhang_sample_noise", "linear_weston",
             "nonlinear_weston", "xor"]
#: the real tasks of figures 3.9-3.13 / 4.10-4.14 (public stand-ins for the thesis' TB tasks)
REAL = ["tb_serum_metabolomics", "allaml", "prostate_ge", "colon", "tb_blood_gambia"]
HSIC_VARIANTS = ["randsel", "fohsic", "bahsic"]
#: the rows of the paper's table 1, in its order
PAPER_ROWS = ["original", "stability", "rfe", "randsel", "randsel_mkl"]
SF_ROWS = ["stability", "rfe", "randsel", "randsel_mkl"]


class NotEvaluable(LookupError):
    """The tables are there but lack rows the claim needs (a method or model selection not run)."""


@dataclass(frozen=True)
class Verdict:
    """A claim's verdict and the numbers it rests on; ``draws``: the verdict on each draw of the synthetic
    sets it reads (draw 0 first), empty when it reads one draw."""

    verdict: str
    numbers: str
    draws: tuple[str, ...] = ()

    @property
    def draws_text(self):
        """``"holds in 2 of 3 draws"``, or ``""`` for one draw."""
        if len(self.draws) < 2:
            return ""
        return f"holds in {sum(d == HOLDS for d in self.draws)} of {len(self.draws)} draws"


@dataclass(frozen=True)
class Claim:
    """One message of the study, read as a test on the run's tables.

    ``tables`` are needed (absent: ``not evaluated``); ``optional`` tables are passed when present.
    ``stand_in``: the claim is read on public data that replace the thesis' own (its TB tasks), so
    ``holds`` is reported as ``consistent on a stand-in``.
    """

    id: str
    figures: tuple[str, ...]
    source: str
    quote: str
    reading: str
    tables: tuple[str, ...]
    test: Callable[[Mapping[str, pd.DataFrame]], Verdict]
    optional: tuple[str, ...] = ()
    stand_in: bool = False

    def evaluate(self, tables: Mapping[str, pd.DataFrame]) -> Verdict:
        """The verdict on ``tables``; over every draw present when the claim reads synthetic sets.

        A chapter-3/4 table ``<chapter>/<set>`` may come with further draws ``<chapter>/<set>_draw<k>``
        (:func:`fscompbio.datasets.draw_name`). The claim is then evaluated on each draw that all its drawn
        tables have, and the verdict is the majority's: ``holds`` when it holds in more than half of the
        draws, ``fails`` when it fails in more than half, ``partly`` otherwise; the numbers give each draw's.
        """
        missing = [k for k in self.tables if k not in tables]
        if missing:
            return Verdict(NOT_EVALUATED, f"not made by this run: {', '.join(missing)}")
        keys = [k for k in (*self.tables, *self.optional) if k in tables]
        results = []
        for k in _common_draws(tables, keys):
            given = {key: tables[_draw_key(key, k)] for key in keys}
            try:
                results.append(self.test(given))
            except NotEvaluable as exc:
                if k == 0:
                    return Verdict(NOT_EVALUATED, str(exc))
        result = results[0] if len(results) == 1 else _over_draws(results)
        if self.stand_in and result.verdict == HOLDS:
            return Verdict(STAND_IN, result.numbers, result.draws)
        return result


def _synthetic_set(key):
    """``(chapter, set)`` of a chapter-3/4 table of a synthetic set (``chapter3/xor``), else None."""
    chapter, _, name = key.partition("/")
    return (chapter, name) if chapter in ("chapter3", "chapter4") and name in DATASETS else None


def _draw_key(key, k):
    """The table name of draw ``k`` of ``key`` (``chapter3/xor`` -> ``chapter3/xor_draw2``); other tables
    (real data, figures' tables) have one draw, ``key`` itself."""
    drawn = _synthetic_set(key)
    return f"{drawn[0]}/{draw_name(drawn[1], k)}" if drawn else key


def _common_draws(tables, keys):
    """The draws 0, 1, ... that every chapter-3/4 table of a synthetic set among ``keys`` has (a draw that
    one of the synthetic sets lacks is not evaluated)."""
    available = {}  # (chapter, set) -> its draws beyond 0 among the tables
    for t in tables:
        chapter, _, name = t.partition("/")
        base, k = split_draw(name)
        if k:
            available.setdefault((chapter, base), set()).add(k)
    drawn = [available.get(pair, set()) for pair in map(_synthetic_set, keys) if pair]
    return [0, *sorted(set.intersection(*drawn) if drawn else ())]


def _over_draws(results):
    """One verdict from the verdicts of several draws (draw 0 first): the majority's."""
    verdicts = tuple(r.verdict for r in results)
    n = len(verdicts)
    overall = HOLDS if verdicts.count(HOLDS) * 2 > n else FAILS if verdicts.count(FAILS) * 2 > n else PARTLY
    each = ", ".join(f"draw {k} {v}" for k, v in enumerate(verdicts))
    numbers = " ".join(f"Draw {k}{' (the figure)' if k == 0 else ''}: {r.numbers}." for k, r in enumerate(results))
    draws_text = Verdict(overall, "", verdicts).draws_text
    return Verdict(overall, f"{draws_text} ({each}). {numbers}", verdicts)


# --------------------------------------------------------------------------
# helpers: pure, on the tables' own columns
# --------------------------------------------------------------------------
def _grade(full, part):
    return HOLDS if bool(full) else PARTLY if bool(part) else FAILS


def _short(name):
    return SHORT.get(name, name)


def _f(x, digits=2):
    return "nan" if pd.isna(x) else f"{x:.{digits}f}"


def _wide(t, col, methods=None, selections=None):
    """method x model selection of ``col`` (a chapter-3/4 summary); NotEvaluable when rows are missing."""
    w = t.pivot(index="method", columns="model_selection", values=col)
    if methods is not None:
        absent = [m for m in methods if m not in w.index]
        if absent:
            raise NotEvaluable(f"{t['dataset'].iloc[0]}: no rows for {', '.join(absent)}")
        w = w.loc[list(methods)]
    if selections is not None:
        absent = [s for s in selections if s not in w.columns]
        if absent:
            raise NotEvaluable(f"{t['dataset'].iloc[0]}: no {', '.join(_short(s) for s in absent)} model selection")
        w = w[list(selections)]
    return w


def _ranking_methods(t):
    """Chapter 3's ranking methods of a summary: every method but the random baseline."""
    return [m for m in dict.fromkeys(t["method"]) if m != "random"]


def _paired(t, col):
    """Ranking method x (cv, kta) of ``col``: the paired comparison of chapter 3."""
    w = _wide(t, col, selections=["cv", "kta"]).drop(index="random", errors="ignore").dropna()
    if w.empty:
        raise NotEvaluable(f"{t['dataset'].iloc[0]}: no method with both nested CV and KTA")
    return w


def _selections(t, methods):
    """The model selections (of nested CV and KTA) that every one of ``methods`` has in a summary."""
    present = [s for s in ("cv", "kta") if all(((t["method"] == m) & (t["model_selection"] == s)).any()
                                                for m in methods)]
    if not present:
        raise NotEvaluable(f"{t['dataset'].iloc[0]}: no model selection common to {', '.join(map(_short, methods))}")
    return present


def _pairs_text(w, digits=1):
    """'Corr 8.3/7.3, ...' (nested CV / KTA) of a paired frame."""
    return ", ".join(f"{_short(m)} {_f(r['cv'], digits)}/{_f(r['kta'], digits)}" for m, r in w.iterrows())


def _all_but_one(ok):
    """At least all but one of the boolean Series are true (all when there are fewer than 3)."""
    n = len(ok)
    return int(ok.sum()) >= (n - 1 if n >= 3 else n)


# --------------------------------------------------------------------------
# chapter 3: linear rankings, nested CV against KTA
# --------------------------------------------------------------------------
CHANCE_HALF_WIDTH = 0.15


def _at_chance(chapter):
    def test(t):
        s = t[f"{chapter}/fake_class"]
        acc = s["accuracy_mean"]
        inside = (acc - 0.5).abs() <= CHANCE_HALF_WIDTH
        share = inside.mean()
        return Verdict(_grade(inside.all(), share >= 0.8),
                       f"{int(inside.sum())} of {len(acc)} models within 0.5 +- {CHANCE_HALF_WIDTH}; accuracy "
                       f"{_f(acc.min())}-{_f(acc.max())}")
    return test


def _kta_more_consistent(t):
    frames = [_paired(t[f"chapter3/{d}"], "log_likelihood").assign(dataset=d) for d in SYNTHETIC]
    w = pd.concat(frames)
    lower = w["kta"] < w["cv"]
    per_set = lower.groupby(w["dataset"]).agg(["sum", "size"]).reindex(SYNTHETIC)
    share = lower.mean()
    return Verdict(_grade(share >= 0.8, share >= 0.5),
                   f"KTA below nested CV in {int(lower.sum())} of {len(lower)} pairs ("
                   + ", ".join(f"{d} {int(r['sum'])}/{int(r['size'])}" for d, r in per_set.iterrows()) + ")")


SPARSER_SETS = ["linear_zhang_feature_noise", "linear_zhang_sample_noise", "linear_weston", "nonlinear_weston"]


def _kta_sparser(datasets, chapter="chapter3"):
    def test(t):
        ok, parts = {}, []
        for d in datasets:
            w = _paired(t[f"{chapter}/{d}"], "n_selected_mean")
            sparser = w["kta"] < w["cv"]
            ok[d] = bool(_all_but_one(sparser))
            parts.append(f"{d} {int(sparser.sum())}/{len(sparser)} ({_pairs_text(w)})")
        n_ok = sum(ok.values())
        return Verdict(_grade(n_ok == len(datasets), n_ok >= len(datasets) / 2),
                       f"sets where KTA is sparser for all but <= 1 method: {n_ok} of {len(datasets)}; features "
                       "nested CV/KTA: " + "; ".join(parts))
    return test


def _feature_noise_kta_precision(t):
    w = _paired(t["chapter3/linear_zhang_feature_noise"], "precision_mean")
    above = w["kta"] > w["cv"]
    perfect = w["kta"] >= 0.95
    return Verdict(_grade((perfect & above).all(), above.mean() >= 0.5),
                   f"KTA precision >= 0.95 for {int(perfect.sum())} of {len(w)}, above nested CV for "
                   f"{int(above.sum())}; precision nested CV/KTA: {_pairs_text(w, 2)}")


def _sample_noise_kta_perfect(t):
    s = t["chapter3/linear_zhang_sample_noise"]
    three = ["correlation", "stabsel_logreg", "stabsel_lpboost"]
    prec = _wide(s, "precision_mean", three, ["kta"])["kta"]
    rec = _wide(s, "recall_mean", three, ["kta"])["kta"]
    both = (prec >= 0.95) & (rec >= 0.95)
    return Verdict(_grade(both.all(), (prec >= 0.95).sum() >= 2),
                   "KTA precision/recall: " + ", ".join(f"{_short(m)} {_f(prec[m])}/{_f(rec[m])}" for m in three))


def _linear_weston_too_sparse(grid="kta"):
    """Correlation and linear RFE with KTA (``grid``: the relative or the absolute width grid) on linear Weston."""
    def test(t):
        s = t["chapter3/linear_weston"]
        two = ["correlation", "linear_rfe"]
        n = _wide(s, "n_selected_mean", two, ["cv", grid])
        acc = _wide(s, "accuracy_mean", two, ["cv", grid])
        sparse = n[grid] <= 3
        loses = acc[grid] <= acc["cv"] - 0.05
        thesis = {"correlation": "1.3", "linear_rfe": "1.1"}
        return Verdict(_grade((sparse & loses).all(), (sparse | loses).any()),
                       "; ".join(f"{_short(m)}: {_short(grid)} {_f(n.loc[m, grid], 1)} features (thesis {thesis[m]}), "
                                 f"accuracy nested CV/{_short(grid)} {_f(acc.loc[m, 'cv'])}/{_f(acc.loc[m, grid])}"
                                 for m in two))
    return test


def _linear_weston_kta_precision(t):
    s = t["chapter3/linear_weston"]
    w = _wide(s, "precision_mean", _ranking_methods(s), ["kta"])["kta"]
    ok = w >= 0.95
    return Verdict(_grade(ok.all(), ok.mean() >= 0.5),
                   f"KTA precision >= 0.95 for {int(ok.sum())} of {len(ok)}: "
                   + ", ".join(f"{_short(m)} {_f(v)}" for m, v in w.items()))


def _nonlinear_weston_only_rfe(t):
    s = t["chapter3/nonlinear_weston"]
    rfe = _wide(s, "accuracy_mean", ["linear_rfe"], ["kta"]).iloc[0, 0]
    others = s[(s["method"] != "linear_rfe") & (s["method"] != "random")]
    if others.empty:
        raise NotEvaluable("nonlinear_weston: no ranking method besides linear RFE")
    top = others.loc[others["accuracy_mean"].idxmax()]
    rfe_ok, others_ok = rfe > 0.70, top["accuracy_mean"] <= 0.70
    return Verdict(_grade(rfe_ok and others_ok, rfe_ok or others_ok),
                   f"Lin-RFE with KTA {_f(rfe)} (> 0.70 needed); best other {_f(top['accuracy_mean'])} "
                   f"({_short(top['method'])}, {_short(top['model_selection'])}; <= 0.70 needed)")


def _xor_kta_beats_cv(t):
    s = t["chapter3/xor"]
    acc = _paired(s, "accuracy_mean")
    rec = _paired(s, "recall_mean").reindex(acc.index)
    better = acc["kta"] >= acc["cv"] + 0.05
    recall = rec["kta"] > rec["cv"]
    full = _all_but_one(better) and _all_but_one(recall)
    return Verdict(_grade(full, better.mean() >= 0.5 or recall.mean() >= 0.5),
                   f"KTA >= nested CV + 0.05 in accuracy for {int(better.sum())} of {len(better)}, higher recall for "
                   f"{int(recall.sum())}; accuracy nested CV/KTA: {_pairs_text(acc, 2)}; recall: {_pairs_text(rec, 2)}")


def _table3_2(t):
    s = t["table3_2"]
    ratio, thesis = s["fold_decrease_mean"], s["thesis_mean"]
    faster = ratio > 1
    half = ratio >= thesis / 2
    return Verdict(_grade((faster & half).all(), faster.all()),
                   ", ".join(f"{r['label']} {_f(r['fold_decrease_mean'], 1)}x (thesis {_f(r['thesis_mean'], 1)}x)"
                             for _, r in s.iterrows()))


def _real_kta_sparser(t):
    return _kta_sparser(REAL)(t)


def _microarray_too_sparse(t):
    s = t["chapter3/tb_blood_gambia"]
    n = _paired(s, "n_selected_mean")
    acc = _paired(s, "accuracy_mean").reindex(n.index)
    sparse = n["kta"] <= 3
    loses = acc["kta"] < acc["cv"]
    sparse_ok, loses_ok = bool(sparse.all()), loses.mean() > 0.5
    return Verdict(_grade(sparse_ok and loses_ok, sparse_ok or loses_ok),
                   f"KTA <= 3 features for {int(sparse.sum())} of {len(n)}, KTA less accurate than nested CV for "
                   f"{int(loses.sum())}; features nested CV/KTA: {_pairs_text(n)}; accuracy: {_pairs_text(acc, 2)}")


# --------------------------------------------------------------------------
# chapter 4: non-linear selection
# --------------------------------------------------------------------------
def _alignment_falls(t):
    c = t["fig4_1"].sort_values(["curve", "sample_size"])
    g = c.groupby("curve", sort=False)["biased_mean"]
    first, last = g.first(), g.last()
    monotone = g.apply(lambda v: bool((np.diff(v.to_numpy()) <= 0.005).all()))
    halves = last <= first / 2
    return Verdict(_grade((monotone & halves).all(), (last < first).all()),
                   "; ".join(f"{k}: {_f(first[k], 3)} -> {_f(last[k], 3)}" for k in first.index))


def _contributions_rise(t):
    parts, grades = [], []
    for key in ("fig4_3", "figP_2"):
        if key not in t:
            continue
        h = t[key]
        c = h.pivot(index="iteration", columns="feature", values="contribution")
        rel = sorted(h.loc[h["relevant"], "feature"].unique())
        first, last = c.iloc[0], c.iloc[-1]
        survive = bool(last[rel].notna().all())
        rise = survive and bool(last[rel].mean() >= 2 * first[rel].mean())
        top = survive and set(last.dropna().nlargest(len(rel)).index) == set(rel)
        met = int(survive) + int(rise) + int(top)
        grades.append(met)
        parts.append(f"{key}: relevant mean {_f(first[rel].mean(), 4)} -> {_f(last[rel].mean(), 4)} over "
                     f"{len(c)} iterations, survive {'yes' if survive else 'no'}, top at the end "
                     f"{'yes' if top else 'no'}")
    return Verdict(_grade(all(g == 3 for g in grades), any(g >= 1 for g in grades)), "; ".join(parts))


def _figP_1_separated(t):
    e = t["figP_1"]
    rel, irr = e[e["relevant"]], e[~e["relevant"]]
    low = rel.loc[rel["contribution"].idxmin()]
    high = irr.loc[irr["contribution"].idxmax()]
    gap = low["contribution"] - high["contribution"]
    se = float(np.hypot(low["se"], high["se"]))
    return Verdict(_grade(gap > 2 * se, gap > 0),
                   f"lowest relevant {_f(low['contribution'], 5)}, highest irrelevant {_f(high['contribution'], 5)} "
                   f"(gap {_f(gap, 5)}, 2 se of the gap {_f(2 * se, 5)})")


METHODS4 = ["randsel", "gaussian_rfe", "fohsic", "bahsic"]


def _per_selection(s, col, methods=METHODS4):
    """method x model selection (nested CV, KTA: those every method has) of ``col``."""
    return _wide(s, col, methods, _selections(s, methods))


def _feature_noise_randsel_precise(t):
    s = t["chapter4/linear_zhang_feature_noise"]
    p = _per_selection(s, "precision_mean")
    r = _per_selection(s, "recall_mean")
    highest = p.loc["randsel"] >= p.max() - 1e-9
    perfect = r.loc["randsel"] >= 0.95
    return Verdict(_grade((highest & perfect).all(), (highest | perfect).any()),
                   "; ".join(f"{_short(ms)}: randSel precision {_f(p.loc['randsel', ms])} (thesis 0.71), best "
                             f"{_short(p[ms].idxmax())} {_f(p[ms].max())}, randSel recall {_f(r.loc['randsel', ms])}"
                             for ms in p.columns))


def _sample_noise_fohsic(t):
    s = t["chapter4/linear_zhang_sample_noise"]
    n = _per_selection(s, "n_selected_mean")
    p = _per_selection(s, "precision_mean")
    others_n, others_p = n.drop(index="fohsic"), p.drop(index="fohsic")
    strict = (n.loc["fohsic"] < others_n.min() - 0.5) & (p.loc["fohsic"] > others_p.max() + 0.01)
    best = (n.loc["fohsic"] <= n.min()) | (p.loc["fohsic"] >= p.max())
    return Verdict(_grade(strict.all(), best.any()),
                   "; ".join(f"{_short(ms)}: FoHSIC {_f(n.loc['fohsic', ms], 1)} features, precision "
                             f"{_f(p.loc['fohsic', ms])}; fewest other {_f(others_n[ms].min(), 1)}, most precise "
                             f"other {_f(others_p[ms].max())}" for ms in n.columns))


def _linear_weston_hsic_precise(t):
    s = t["chapter4/linear_weston"]
    p = _wide(s, "precision_mean", HSIC_VARIANTS, _selections(s, HSIC_VARIANTS))
    cells = p >= 0.9
    full = bool(cells.to_numpy().all()) and bool((p.loc["randsel"] >= 0.95).all())
    return Verdict(_grade(full, cells.to_numpy().mean() >= 0.5),
                   "precision " + "; ".join(f"{_short(ms)}: " + ", ".join(f"{_short(m)} {_f(p.loc[m, ms])}"
                                                                           for m in p.index) for ms in p.columns))


def _nonlinear_weston_exceptional(t):
    s = t["chapter4/nonlinear_weston"]
    acc = _per_selection(s, "accuracy_mean")
    p = _per_selection(s, "precision_mean")
    r = _per_selection(s, "recall_mean")
    a_ok = bool((acc >= 0.9).to_numpy().all())
    p_ok = bool((p.loc[["randsel", "fohsic"]] >= 0.95).to_numpy().all())
    r_ok = bool((r.loc["gaussian_rfe"] >= r.max() - 0.01).all())
    met = a_ok + p_ok + r_ok
    return Verdict(_grade(met == 3, met >= 1),
                   f"accuracy {_f(acc.min().min())}-{_f(acc.max().max())} (>= 0.9 needed); precision randSel/FoHSIC "
                   + ", ".join(f"{_short(ms)} {_f(p.loc['randsel', ms])}/{_f(p.loc['fohsic', ms])}" for ms in p.columns)
                   + "; recall RFE/best " + ", ".join(f"{_short(ms)} {_f(r.loc['gaussian_rfe', ms])}/{_f(r[ms].max())}"
                                                      for ms in r.columns))


def _xor_fohsic_fails(t):
    s = t["chapter4/xor"]
    acc = _per_selection(s, "accuracy_mean")
    r = _per_selection(s, "recall_mean")
    fails = ((acc.loc["fohsic"] <= 0.65) & (r.loc["fohsic"] <= 0.5) & (acc.loc["randsel"] >= 0.8)).all()
    tied = ((acc.loc["randsel"] - acc.loc["bahsic"]).abs() <= 0.05) & ((r.loc["randsel"] - r.loc["bahsic"]).abs() <= 0.1)
    return Verdict(_grade(bool(fails) and bool(tied.all()), bool(fails) or bool(tied.any())),
                   "; ".join(f"{_short(ms)}: accuracy/recall FoHSIC {_f(acc.loc['fohsic', ms])}/{_f(r.loc['fohsic', ms])}"
                             f", randSel {_f(acc.loc['randsel', ms])}/{_f(r.loc['randsel', ms])}, BaHSIC "
                             f"{_f(acc.loc['bahsic', ms])}/{_f(r.loc['bahsic', ms])}" for ms in acc.columns))


RANDSEL_WINS = ["tb_serum_metabolomics", "allaml", "tb_blood_gambia"]


def _real_randsel_accurate(t):
    ok, parts = [], []
    for d in RANDSEL_WINS:
        acc = _per_selection(t[f"chapter4/{d}"], "accuracy_mean")
        win = acc.loc["randsel"] >= acc.max() - 0.02
        ok.extend(bool(v) for v in win)
        parts.append(f"{d}: " + ", ".join(f"{_short(ms)} randSel {_f(acc.loc['randsel', ms])}, best "
                                          f"{_short(acc[ms].idxmax())} {_f(acc[ms].max())}" for ms in acc.columns))
    return Verdict(_grade(all(ok), any(ok)), "; ".join(parts))


def _hsic_sparser_than_linear(t):
    ok, level, parts = [], [], []
    for d in REAL:
        s3, s4 = t[f"chapter3/{d}"], t[f"chapter4/{d}"]
        n3 = _wide(s3, "n_selected_mean", _ranking_methods(s3), ["cv"])["cv"]
        n4 = _wide(s4, "n_selected_mean", HSIC_VARIANTS, ["cv"])["cv"]
        a3 = _wide(s3, "accuracy_mean", _ranking_methods(s3), ["cv"])["cv"].max()
        a4 = _wide(s4, "accuracy_mean", HSIC_VARIANTS, ["cv"])["cv"].max()
        ok.append(bool(n4.mean() < n3.mean()))
        level.append(bool(abs(a4 - a3) <= 0.05))
        parts.append(f"{d} {_f(n4.mean(), 1)} vs {_f(n3.mean(), 1)} features, best accuracy {_f(a4)} vs {_f(a3)}")
    return Verdict(_grade(all(ok) and all(level), sum(ok) >= len(ok) / 2),
                   "nested CV, HSIC variants vs chapter 3's rankings: " + "; ".join(parts))


# --------------------------------------------------------------------------
# chapter 5 and the randSel paper's table 1: cleavage sites
# --------------------------------------------------------------------------
def _p1(t, protocol=None):
    """approach x protocol of the accuracy (%), sequence-grouped (random) CV."""
    s = t["table_P1"]
    s = s[s["cv"] == "random"]
    w = s.pivot(index="approach", columns="protocol", values="accuracy_mean")
    if protocol is not None:
        if protocol not in w.columns:
            raise NotEvaluable(f"table_P1: no {protocol!r} protocol")
        w = w[[protocol]]
    return w


def _need_rows(w, rows, where="table_P1"):
    absent = [r for r in rows if r not in w.index]
    if absent:
        raise NotEvaluable(f"{where}: no rows for {', '.join(absent)}")
    return w.loc[rows]


def _p1_text(w, rows):
    return "; ".join(f"{p}: " + ", ".join(f"{r} {_f(w.loc[r, p], 1)}" for r in rows) for p in w.columns)


def _learned_beats_original(t):
    w = _need_rows(_p1(t), ["original", *SF_ROWS])
    above = w.loc[SF_ROWS] >= w.loc["original"] + 1.0
    return Verdict(_grade(bool(above.to_numpy().all()), bool(above.to_numpy().any())),
                   "accuracy (%), random CV, " + _p1_text(w, ["original", *SF_ROWS]) + " (paper: original 67.2, SF rows "
                   "71.5-75.3)")


def _randsel_best_selector(t):
    w = _need_rows(_p1(t), ["randsel", "rfe", "stability"])
    order = (w.loc["randsel"] > w.loc["rfe"]) & (w.loc["rfe"] > w.loc["stability"])
    edge = w.loc["randsel"] >= w.loc[["rfe", "stability"]].max()
    return Verdict(_grade(bool(order.all()), bool(edge.any())),
                   "accuracy (%), random CV, " + _p1_text(w, ["randsel", "rfe", "stability"])
                   + " (paper: 72.75, 71.81, 71.46)")


def _mkl_improves(t):
    w = _need_rows(_p1(t), PAPER_ROWS)
    above = w.loc["randsel_mkl"] > w.loc["randsel"]
    best = w.loc["randsel_mkl"] >= w.max()
    return Verdict(_grade(bool((above & best).all()), bool(above.any())),
                   "accuracy (%), random CV, " + _p1_text(w, ["randsel_mkl", "randsel"])
                   + "; best of the paper's rows: " + ", ".join(f"{p} {w[p].idxmax()}" for p in w.columns)
                   + " (paper: 75.28 vs 72.75)")


def _p1_matches_paper(t):
    s = t["table_P1"]
    s = s[(s["cv"] == "random") & (s["protocol"] == "paper")].set_index("approach")
    s = _need_rows(s, PAPER_ROWS, "table_P1 (paper protocol)")
    within = (s["accuracy_mean"] - s["paper_mean"]).abs() <= 2 * s["paper_sd"]
    return Verdict(_grade(bool(within.all()), bool(within.any())),
                   f"{int(within.sum())} of {len(within)} rows within 2 sd of the paper: "
                   + ", ".join(f"{a} {_f(r['accuracy_mean'], 1)} vs {_f(r['paper_mean'], 1)} +- {_f(r['paper_sd'], 1)}"
                               for a, r in s.iterrows()))


SIGNALP = 72.9


def _beats_signalp(t):
    w = _p1(t)
    mkl = _need_rows(w, ["randsel_mkl"]).loc["randsel_mkl"]
    best = w.stack().idxmax()
    return Verdict(_grade(bool((mkl > SIGNALP).any()), bool((w > SIGNALP).to_numpy().any())),
                   "SF + randSel & MKL " + ", ".join(f"{p} {_f(v, 1)}" for p, v in mkl.items())
                   + f"; best row {best[0]} ({best[1]}) {_f(w.loc[best], 1)}; SignalP {SIGNALP}")


def _learning_curve(t):
    c = t["fig5_5"]
    reps = set(c["representation"])
    if not {"sf", "scales"} <= reps:
        raise NotEvaluable("fig5_5: needs the sparse-filtering and the original (scales) representations")
    size = c["protocol"] + " " + c["max_train_per_class"].map(lambda v: "" if pd.isna(v) else f"{v:g}/class") \
        + c["negatives_per_positive"].map(lambda v: "" if pd.isna(v) else f"{v:g}x neg")
    m = c.assign(size=size).groupby(["size", "representation"], sort=False)["accuracy"].mean().unstack()
    ahead = m["sf"] >= m["scales"]
    return Verdict(_grade(bool(ahead.all()), bool(ahead.any())),
                   f"sparse filtering >= original at {int(ahead.sum())} of {len(ahead)} training sizes; mean accuracy "
                   "original/SF: " + ", ".join(f"{k} {_f(r['scales'])}/{_f(r['sf'])}" for k, r in m.iterrows()))


# --------------------------------------------------------------------------
# the other texts: regression recovery, multi-class, the randSel paper's synthetic table
# --------------------------------------------------------------------------
def _recovery_at_largest_n(t):
    r = t["figR_2"]
    top = r[r["n_samples"] == r.groupby("dataset")["n_samples"].transform("max")]
    return top.pivot(index="dataset", columns="method", values="probability")


def _local_learning(t):
    w = _recovery_at_largest_n(t)
    w = _need_rows(w, ["additive", "nonadditive", "sine", "spiral"], "figR_2")
    if "local_learning" not in w.columns or len(w.columns) < 2:
        raise NotEvaluable("figR_2: needs the local-learning selector and another method")
    ll, others = w["local_learning"], w.drop(columns="local_learning").max(axis=1)
    ok = pd.Series({"spiral": ll["spiral"] >= 0.95, "additive": ll["additive"] >= others["additive"] - 0.1,
                    "nonadditive": ll["nonadditive"] >= others["nonadditive"] + 0.1,
                    "sine": ll["sine"] >= others["sine"] + 0.1})
    return Verdict(_grade(bool(ok.all()), int(ok.sum()) >= 2),
                   "at the largest n, local learning vs best other: "
                   + ", ".join(f"{d} {_f(ll[d])} vs {_f(others[d])}" for d in ok.index))


def _hsic_lasso(t):
    w = _need_rows(_recovery_at_largest_n(t), ["spiral", "sine"], "figR_2")
    if "hsic_lasso" not in w.columns:
        raise NotEvaluable("figR_2: no HSIC Lasso")
    spiral, sine = w.loc["spiral", "hsic_lasso"] >= 0.95, w.loc["sine", "hsic_lasso"] <= 0.5
    return Verdict(_grade(spiral and sine, spiral or sine),
                   f"HSIC Lasso at the largest n: spiral {_f(w.loc['spiral', 'hsic_lasso'])}, sine "
                   f"{_f(w.loc['sine', 'hsic_lasso'])}")


def _multiclass(t):
    m = t["figM_1"]
    h = m[m["method"].isin(HSIC_VARIANTS)]
    if h.empty:
        raise NotEvaluable("figM_1: no HSIC variant")
    ok = h["accuracy_mean"] >= 0.5
    return Verdict(_grade(bool(ok.all()), ok.mean() >= 0.5),
                   ", ".join(f"{r['dataset']} {_short(r['method'])} ({_short(r['model_selection'])}) "
                             f"{_f(r['accuracy_mean'])}" for _, r in h.iterrows()))


def _p2(t, dataset):
    s = t["tableP_2"]
    s = s[s["dataset"] == dataset].set_index("method")
    if s.empty:
        raise NotEvaluable(f"tableP_2: no {dataset}")
    return s


def _randsel_beats_fohsic_xor(t):
    s = _need_rows(_p2(t, "xor_100"), ["randsel", "fohsic"], "tableP_2 (xor_100)")
    a, f = s.loc["randsel", "accuracy_mean"], s.loc["fohsic", "accuracy_mean"]
    return Verdict(_grade(a >= f + 0.1, a > f),
                   f"XOR (2 of 100): randSel {_f(a)} ({_f(s.loc['randsel', 'n_selected_mean'], 1)} features, recall "
                   f"{_f(s.loc['randsel', 'recall_mean'])}), FoHSIC {_f(f)} ({_f(s.loc['fohsic', 'n_selected_mean'], 1)}"
                   f" features, recall {_f(s.loc['fohsic', 'recall_mean'])})")


def _p2_hsic_sparser(t):
    s = t["tableP_2"]
    hsic = s["method"].isin(HSIC_VARIANTS)
    if not hsic.any() or hsic.all():
        raise NotEvaluable("tableP_2: needs HSIC variants and other methods")
    m = s.groupby(["dataset", hsic.rename("hsic")], sort=False)["n_selected_mean"].mean().unstack()
    sparser = m[True] < m[False]
    return Verdict(_grade(sparser.mean() > 0.5, bool(sparser.any())),
                   f"HSIC variants sparser on {int(sparser.sum())} of {len(sparser)} sets; mean features HSIC/others: "
                   + ", ".join(f"{d} {_f(r[True], 1)}/{_f(r[False], 1)}" for d, r in m.iterrows()))


# --------------------------------------------------------------------------
# the registry
# --------------------------------------------------------------------------
def _ch(chapter, datasets):
    return tuple(f"{chapter}/{d}" for d in datasets)


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "ch3_fake_class_at_chance", ("fig3_3",), f"{THESIS}, section 3.3.1.1",
        "As such, the low performance of all methods on all fronts is to be expected.",
        f"On the fake class (permuted labels), every method and model selection has a mean test accuracy within "
        f"0.5 +- {CHANCE_HALF_WIDTH} (holds); at least 80% of them (partly).",
        _ch("chapter3", ["fake_class"]), _at_chance("chapter3")),
    Claim(
        "kta_more_consistent", ("fig3_3", "fig3_4", "fig3_5", "fig3_6", "fig3_7", "fig3_8"), f"{THESIS}, section 3.3.1.6",
        "Overall, KTA nearly universally improves the consistency of the recovered solutions, showing "
        "significantly smaller variance.",
        "Over the (data set, ranking method) pairs of the six synthetic sets (random baseline excluded), KTA's "
        "consistency log-likelihood (eq. 2.8, lower = more consistent) is below nested CV's in at least 80% of the "
        "pairs (holds), at least half (partly).",
        _ch("chapter3", SYNTHETIC), _kta_more_consistent),
    Claim(
        "kta_sparser_than_nested_cv", ("fig3_4", "fig3_5", "fig3_6", "fig3_7"), f"{THESIS}, section 3.4",
        "our experimental results on the synthetic benchmarks indicate substantially sparser models [...] the "
        "only case where the achieved sparsity of the two approaches was comparable was the XOR dataset.",
        "On each of the linear Zhang (feature, sample noise), linear and non-linear Weston sets, KTA models select "
        "fewer features on average than nested-CV models for all but at most one ranking method (random baseline "
        "excluded): on all four sets (holds), on at least two (partly).",
        _ch("chapter3", SPARSER_SETS), _kta_sparser(SPARSER_SETS)),
    Claim(
        "ch3_feature_noise_kta_perfect_precision", ("fig3_4",), f"{THESIS}, section 3.3.1.2",
        "The reliance on larger number of features, leads the cross-validation based variants to diminished "
        "precision, whereas the alignment-based models achieve perfect precision.",
        "On linear Zhang with feature noise, every ranking method's KTA precision is >= 0.95 and above its "
        "nested-CV precision (holds); KTA precision above nested CV's for at least half of them (partly).",
        _ch("chapter3", ["linear_zhang_feature_noise"]), _feature_noise_kta_precision),
    Claim(
        "ch3_sample_noise_three_perfect", ("fig3_5",), f"{THESIS}, section 3.3.1.3",
        "alignment produces sparser models, and in three cases, (correlation coefficients, l_1-logistic "
        "regression & LPBoost) produces models with perfect precision and recall.",
        "On linear Zhang with sample noise, correlation, l1-logistic and LPBoost stability selection with KTA "
        "each have precision and recall >= 0.95 (holds); at least two of them precision >= 0.95 (partly).",
        _ch("chapter3", ["linear_zhang_sample_noise"]), _sample_noise_kta_perfect),
    Claim(
        "ch3_linear_weston_kta_too_sparse", ("fig3_6",), f"{THESIS}, section 3.3.1.4",
        "correlation coefficients and linear RFE are sparser, producing models relying on 1.3 and 1.1 variables "
        "on average respectively. However, this comes at the cost of reduced accuracy.",
        "On linear Weston, correlation and linear RFE with KTA each select <= 3 features on average and lose >= "
        "0.05 accuracy against the same method with nested CV (holds); either happens for one of them (partly).",
        _ch("chapter3", ["linear_weston"]), _linear_weston_too_sparse()),
    Claim(
        "ch3_linear_weston_kta_too_sparse_absolute_grid", ("fig3_6",), f"{THESIS}, section 3.3.1.4",
        "correlation coefficients and linear RFE are sparser, producing models relying on 1.3 and 1.1 variables "
        "on average respectively. However, this comes at the cost of reduced accuracy.",
        "The same reading with KTA on an absolute width grid (gamma = 10^t over the config's range) instead of the "
        "grid relative to the median distance: the thesis states no grid, and the two readings can disagree. On "
        "linear Weston, correlation and linear RFE with absolute-grid KTA each select <= 3 features on average and "
        "lose >= 0.05 accuracy against nested CV (holds); either for one of them (partly).",
        _ch("chapter3", ["linear_weston"]), _linear_weston_too_sparse("kta_abs")),
    Claim(
        "ch3_linear_weston_kta_perfect_precision", ("fig3_6",), f"{THESIS}, section 3.3.1.4",
        "Once again, alignment leads to perfect precision, a feat that only LPBoost stability selection "
        "reproduced in the cross validation setting.",
        "On linear Weston, every ranking method's KTA precision is >= 0.95 (holds); at least half of them "
        "(partly).",
        _ch("chapter3", ["linear_weston"]), _linear_weston_kta_precision),
    Claim(
        "ch3_nonlinear_weston_only_rfe", ("fig3_7",), f"{THESIS}, section 3.4",
        "Linear RFE is also the only method to successfully identify part of the structure of the non-linear "
        "Weston dataset, which explains why it was the only method to achieve an accuracy surpassing 70 when "
        "combined with alignment.",
        "On non-linear Weston, linear RFE with KTA has accuracy > 0.70 and no other ranking method (either model "
        "selection) is above 0.70 (holds); one of the two (partly).",
        _ch("chapter3", ["nonlinear_weston"]), _nonlinear_weston_only_rfe),
    Claim(
        "ch3_xor_kta_beats_nested_cv", ("fig3_8",), f"{THESIS}, section 3.3.1.6",
        "The accuracy for the models relying on alignment is significantly higher than their nested cross "
        "validation counterparts. Using alignment contributes to improved recall",
        "On XOR, for all but at most one ranking method, KTA's accuracy is >= nested CV's + 0.05 and its recall "
        "higher (holds); either for at least half of the methods (partly).",
        _ch("chapter3", ["xor"]), _xor_kta_beats_cv),
    Claim(
        "table3_2_kta_faster", ("table3_2",), f"{THESIS}, section 3.3.1.6 and table 3.2",
        "All algorithms benefit substantially with the stability selection variants close to the 10-fold "
        "theoretical improvement in speed.",
        "Every method's fold decrease in time (nested CV / KTA) is > 1 and at least half the thesis' value "
        "(table 3.2: 6.05-9.97 with 10 inner folds, 1,000 bootstraps) (holds); > 1 for every method (partly).",
        ("table3_2",), _table3_2),
    Claim(
        "ch3_real_kta_sparser", ("fig3_9", "fig3_10", "fig3_11", "fig3_12", "fig3_13"), f"{THESIS}, section 3.3.2.2",
        "KTA based models are universally sparser, and tend exhibit lower variance than their cross validation "
        "derived counterparts",
        "On each real task, KTA models select fewer features than nested-CV models for all but at most one "
        "ranking method: on every task (holds), on at least half (partly).",
        _ch("chapter3", REAL), _real_kta_sparser, stand_in=True),
    Claim(
        "ch3_microarray_kta_too_sparse", ("fig3_13",), f"{THESIS}, section 3.3.2.5",
        "This task illustrates the negative effects of aggressive sparsity [...] On average, none of the models "
        "selected through alignment use more than three features.",
        "On the TB micro-array stand-in, every ranking method's KTA model has <= 3 features on average and KTA is "
        "less accurate than nested CV for more than half of the methods (holds); one of the two (partly).",
        _ch("chapter3", ["tb_blood_gambia"]), _microarray_too_sparse, stand_in=True),
    Claim(
        "alignment_falls_with_sample_size", ("fig4_1",), f"{THESIS}, figure 4.1 (section 4.1)",
        "The influence of self-interaction terms (the diagonal terms [...]) decreases for larger sample sizes, leading "
        "to the displayed drop here.",
        "For every curve, the biased mean alignment does not rise (by more than 0.005) from one sample size to the "
        "next and at the largest size is at most half its value at the smallest (holds); every curve ends below "
        "its start (partly).",
        ("fig4_1",), _alignment_falls),
    Claim(
        "randsel_relevant_contributions_rise", ("fig4_3", "figP_2"), f"{THESIS}, figure 4.3 (section 4.2.2)",
        "as more of the noise features are removed in latter iterations of the method, the expected "
        "contribution of the two relevant variables rises substantially, in contrast to the contribution of the "
        "other features.",
        "In randSel's history on XOR (and the paper's figure 2 run when made), the relevant features survive every "
        "cull, their mean contribution at the last iteration is >= 2x that at the first, and they are the top "
        "contributions at the last iteration: all three in every history (holds); at least one (partly).",
        ("fig4_3",), _contributions_rise, optional=("figP_2",)),
    Claim(
        "figP_1_relevant_separated", ("figP_1",), f"{PAPER}, figure 1 (section 3)",
        "The expected contribution of the eta-influential features, shown in red, are clearly separated from that "
        "of all irrelevant variables.",
        "On the d-dimensional XOR, the lowest relevant expected contribution exceeds the highest irrelevant one by "
        "more than 2 standard errors of the difference (holds); by any margin (partly).",
        ("figP_1",), _figP_1_separated),
    Claim(
        "ch4_fake_class_at_chance", ("fig4_4",), f"{THESIS}, section 4.3.1.1",
        "the generalization accuracy achieved by the different methods is not significantly different from "
        "choosing features at random",
        f"On the fake class, every method and model selection has a mean test accuracy within 0.5 +- "
        f"{CHANCE_HALF_WIDTH} (holds); at least 80% of them (partly).",
        _ch("chapter4", ["fake_class"]), _at_chance("chapter4")),
    Claim(
        "ch4_feature_noise_randsel_most_precise", ("fig4_5",), f"{THESIS}, section 4.3.1.2",
        "on average it achieves the highest precision of 0.71 and is the only method that achieved perfect recall.",
        "On linear Zhang with feature noise, under each model selection (nested CV, KTA), randSel's precision is the "
        "highest of the four methods and its recall >= 0.95 (holds); either under one model selection (partly).",
        _ch("chapter4", ["linear_zhang_feature_noise"]), _feature_noise_randsel_precise),
    Claim(
        "ch4_sample_noise_fohsic_wins", ("fig4_6",), f"{THESIS}, section 4.3.1.3",
        "In terms of precision and sparsity, FoHSIC is a clear winner",
        "On linear Zhang with sample noise, under each model selection FoHSIC selects at least 0.5 features fewer "
        "and is at least 0.01 more precise than every other method (holds); it is the sparsest or most precise, "
        "ties included, under one model selection (partly).",
        _ch("chapter4", ["linear_zhang_sample_noise"]), _sample_noise_fohsic),
    Claim(
        "ch4_linear_weston_hsic_precise", ("fig4_7",), f"{THESIS}, section 4.3.1.4",
        "the precision of all HSIC variants is further improved, with randSel achieving near perfect selection "
        "precision.",
        "On linear Weston, randSel, FoHSIC and BaHSIC have precision >= 0.9 under each model selection and randSel "
        ">= 0.95 (holds); at least half of these precisions >= 0.9 (partly).",
        _ch("chapter4", ["linear_weston"]), _linear_weston_hsic_precise),
    Claim(
        "ch4_nonlinear_weston_all_exceptional", ("fig4_8",), f"{THESIS}, section 4.3.1.5",
        "all algorithms perform exceptionally [...] RandSel and FoHSIC achieve perfect precision [...] Yet again, "
        "RFE achieves the highest recall",
        "On non-linear Weston: every method's accuracy >= 0.9 under each model selection; randSel's and FoHSIC's "
        "precision >= 0.95; RFE's recall the highest (within 0.01). All three (holds); one or two (partly).",
        _ch("chapter4", ["nonlinear_weston"]), _nonlinear_weston_exceptional),
    Claim(
        "ch4_xor_fohsic_fails", ("fig4_9",), f"{THESIS}, section 4.3.1.6",
        "FoHSIC is the only variant that fails catastrophically across the board, with randSel and BaHSIC being "
        "indistinguishable",
        "On XOR, under each model selection FoHSIC's accuracy <= 0.65 and recall <= 0.5 while randSel's accuracy "
        ">= 0.8; and randSel and BaHSIC within 0.05 accuracy and 0.1 recall of each other under each model "
        "selection. Both (holds); the first, or the tie under one model selection (partly).",
        _ch("chapter4", ["xor"]), _xor_fohsic_fails),
    Claim(
        "ch4_real_randsel_most_accurate", ("fig4_10", "fig4_11", "fig4_14"), f"{THESIS}, sections 4.3.2.1, 4.3.2.2, 4.3.2.5",
        "randSel being the winner in terms of generalization accuracy [task 1]; randSel is again the winner in "
        "terms of accuracy [task 2]; randSel surpasses the other methods in terms of accuracy [micro-array]",
        "On the stand-ins for TB task 1, task 2 and the micro-array task, randSel's accuracy is within 0.02 of the "
        "best of the four methods under each model selection: every task and model selection (holds); at least "
        "one (partly).",
        _ch("chapter4", RANDSEL_WINS), _real_randsel_accurate, stand_in=True),
    Claim(
        "hsic_sparser_than_linear_rankings", ("fig3_9", "fig3_13", "fig4_10", "fig4_14"), f"{THESIS}, section 4.4",
        "Comparing the results in this chapter with the cross validation results in section 3.3 there is no clear "
        "winner in terms of generalization performance, although the HSIC variants tend to produce sparser "
        "solutions on average.",
        "On each real task with nested CV, the mean number of features of randSel, FoHSIC and BaHSIC is below "
        "that of chapter 3's ranking methods and the two chapters' best accuracies are within 0.05: on every task "
        "(holds); sparser on at least half of the tasks (partly).",
        _ch("chapter3", REAL) + _ch("chapter4", REAL), _hsic_sparser_than_linear, stand_in=True),
    Claim(
        "learned_representation_beats_original", ("table_P1", "fig5_3"), f"{PAPER}, section 6.3 (thesis 5.5.1)",
        "Using the original feature representation with a non-linear SVM leads to a generalization accuracy of "
        "67.2%. This is substantially smaller than all the approaches that rely on the learned feature "
        "representation.",
        "With sequence-grouped CV, under every training protocol each sparse-filtering row of the paper's table "
        "(stability selection, RFE, randSel, randSel & MKL) is >= 1 point above the original representation "
        "(holds); some row under some protocol (partly).",
        ("table_P1",), _learned_beats_original),
    Claim(
        "randsel_best_selector_on_learned_features", ("table_P1", "fig5_3"), f"{PAPER}, section 6.3",
        "randSel has an edge over the two other methods, with RFE also performing slightly better than "
        "l1-regularized logistic regression-based stability selection.",
        "With sequence-grouped CV, under every protocol SF + randSel > SF + RFE > SF + stability selection "
        "(holds); SF + randSel at least as accurate as both others under one protocol (partly).",
        ("table_P1",), _randsel_best_selector),
    Claim(
        "mkl_improves_on_randsel", ("table_P1", "fig5_3"), f"{THESIS}, figure 5.3 (section 5.5.1)",
        "Combining randSel with MKL outperforms all other approaches.",
        "With sequence-grouped CV, under every protocol SF + randSel & MKL is more accurate than SF + randSel "
        "and the most accurate of the paper's five rows (holds); above SF + randSel under one protocol (partly).",
        ("table_P1",), _mkl_improves),
    Claim(
        "table_P1_matches_paper", ("table_P1",), f"{PAPER}, table 1 (section 6.3)",
        "Original Representation 67.20 +- 4.71; Sparse Filtering + Stab. Sel. 71.46 +- 2.93; + RFE 71.81 +- 2.79; "
        "+ RandSel 72.75 +- 2.85; + RandSel & MKL 75.28 +- 1.91",
        "Under the paper's protocol (balanced training windows) and sequence-grouped CV, each of the five rows "
        "lies within 2 of the paper's standard deviations of the paper's mean: all five (holds); at least one "
        "(partly).",
        ("table_P1",), _p1_matches_paper),
    Claim(
        "beats_signalp", ("table_P1",), f"{THESIS}, section 5.5.1",
        "It does appear however that the method proposed here outperforms SignalP's reported accuracy of 72.9% "
        "for eukaryotic sequences.",
        f"SF + randSel & MKL is above {SIGNALP}% under some protocol with sequence-grouped CV (holds); some other "
        f"approach of table P1 is (partly).",
        ("table_P1",), _beats_signalp),
    Claim(
        "learned_representation_at_equal_data", ("fig5_5",), f"{PAPER}, section 6.3",
        "This suggests that there are performance gains to be had in using a learned representation.",
        "On the learning curve, the sparse-filtering features' mean accuracy over folds is >= the original "
        "features' at every training size (holds); at some size (partly).",
        ("fig5_5",), _learning_curve),
    Claim(
        "local_learning_recovers", ("figR_2",), f"{SUN}, section 4.1",
        "It performs perfectly on the spiral data and comparably with SpAM on the additive data, and outperforms "
        "the four competing methods by a large margin in the other two datasets.",
        "At the largest sample size, local learning's probability of correct recovery is >= 0.95 on spiral, "
        "within 0.1 of the best other method on additive and >= 0.1 above every other method on non-additive and "
        "sine: all four (holds); at least two (partly).",
        ("figR_2",), _local_learning),
    Claim(
        "hsic_lasso_spiral_not_sine", ("figR_2",), f"{SUN}, section 4.1",
        "HSIC Lasso yields a perfect result on the complex spiral data, but fails on the sine data.",
        "At the largest sample size, HSIC Lasso's probability of correct recovery is >= 0.95 on spiral and "
        "<= 0.5 on sine (holds); one of the two (partly).",
        ("figR_2",), _hsic_lasso),
    Claim(
        "hsic_multiclass", ("figM_1",), f"{THESIS}, section 5.2",
        "The algorithm is readily applicable to domains that have some structure, such as the multi-class "
        "structure of the black box challenge. This, property is shared among all the HSIC-variants.",
        "On every multi-class set, every HSIC variant (randSel, BaHSIC, FoHSIC) with the one-hot label kernel "
        "reaches a mean accuracy >= 0.5, twice the chance of four balanced classes (holds); at least half of them "
        "(partly).",
        ("figM_1",), _multiclass),
    Claim(
        "tableP_2_randsel_beats_fohsic_on_xor", ("tableP_2",), f"{PAPER_EARLY}, discussion of the experiments",
        "the synthetic xor dataset already underlines one scenario where randsel outperforms forward greedy "
        "selection.",
        "On XOR (2 relevant of 100), randSel's accuracy is >= FoHSIC's + 0.1 (holds); above it (partly).",
        ("tableP_2",), _randsel_beats_fohsic_xor),
    Claim(
        "tableP_2_hsic_sparser", ("tableP_2",), f"{PAPER_EARLY}, discussion of the experiments",
        "the results indicate that the hsic-based variants (randsel, fohsic & bahsic) often recover sparser "
        "solutions compared to competing algorithms.",
        "The HSIC variants' mean number of features is below the other methods' mean on most of the synthetic "
        "sets (holds); on at least one (partly).",
        ("tableP_2",), _p2_hsic_sparser),
)


# --------------------------------------------------------------------------
# the run's files -> tables -> verdicts
# --------------------------------------------------------------------------
def claim_inputs(final_outputs, chapter3_datasets=(), chapter4_datasets=()):
    """The files the claims read in a run whose default targets are ``final_outputs``: the chapter-3/4
    summaries of the configured data sets and the data file of every figure or table the run makes."""
    made = set(final_outputs)
    files = [f"results/chapter3/summary/{d}.csv" for d in chapter3_datasets]
    files += [f"results/chapter4/summary/{d}.csv" for d in chapter4_datasets]
    files += [path for fig, path in DATA_FILES.items() if path in made or f"figures/{fig}.png" in made]
    return files


_KEYS = [
    (re.compile(r"results/(chapter[34])/summary/([a-z0-9_]+)\.csv$"), r"\1/\2"),
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


def load_run(paths: Iterable) -> dict[str, pd.DataFrame]:
    """The tables of a run's files (see :func:`table_key`); files of no known table are left out."""
    tables = {}
    for path in paths:
        key = table_key(path)
        if key is None:
            continue
        if key == "fig4_1":
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


def evaluate_claims(tables: Mapping[str, pd.DataFrame], claims=CLAIMS) -> list[tuple[Claim, Verdict]]:
    """Every claim's verdict on ``tables``."""
    return [(c, c.evaluate(tables)) for c in claims]


def claims_table(tables: Mapping[str, pd.DataFrame], claims=CLAIMS) -> pd.DataFrame:
    """One row per claim: id, figures, source, quote, reading, verdict, draws ("holds in k of n draws", or
    empty for a claim read on one draw), stand_in, numbers."""
    return pd.DataFrame([{"id": c.id, "figures": " ".join(c.figures), "source": c.source, "quote": c.quote,
                          "reading": c.reading, "verdict": v.verdict, "draws": v.draws_text,
                          "stand_in": c.stand_in, "numbers": v.numbers}
                         for c, v in evaluate_claims(tables, claims)])


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def verdict_counts(table: pd.DataFrame) -> dict[str, int]:
    counts = table["verdict"].value_counts()
    return {v: int(counts.get(v, 0)) for v in VERDICTS}


def claims_markdown(table: pd.DataFrame, title="The study's claims, evaluated on this run") -> str:
    """The verdicts of :func:`claims_table` as Markdown, with the counts at the end."""
    lines = [f"# {title}", "",
             "Computed by `fscompbio.claims` from this run's summary tables (docs/messages.md lists the claims). "
             "*Stand-in*: public data replace the thesis' TB task, so a claim there can at most be "
             f"\"{STAND_IN}\". A claim on synthetic sets is evaluated on every draw of them the run made (the "
             "config's `draws`; draw 0 is the one the figures show): its verdict is the majority's, and it says in "
             "how many draws it holds.", "",
             "| claim | figures | the study | reading | verdict | numbers |", "| --- | --- | --- | --- | --- | --- |"]
    for _, r in table.iterrows():
        figs = r["figures"].replace(" ", ", ") + (" (stand-in)" if r["stand_in"] else "")
        draws = f" ({r['draws']})" if isinstance(r.get("draws"), str) and r["draws"] else ""
        lines.append(f"| `{r['id']}` | {_cell(figs)} | \"{_cell(r['quote'])}\" ({_cell(r['source'])}) | "
                     f"{_cell(r['reading'])} | **{r['verdict']}**{draws} | {_cell(r['numbers'])} |")
    counts = verdict_counts(table)
    lines += ["", "Verdicts: " + ", ".join(f"{v} {n}" for v, n in counts.items()) + f" (of {len(table)} claims)."]
    return "\n".join(lines) + "\n"


CLAIM_COLUMNS = ("id", "figures", "verdict", "draws", "numbers")


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
    return table


def compare_claims(first: pd.DataFrame, second: pd.DataFrame) -> pd.DataFrame:
    """Two runs' verdicts side by side, one row per claim of either (in the first's order, then the second's).

    Columns: id, figures, verdict_1, draws_1, numbers_1, verdict_2, draws_2, numbers_2, ``evaluated``: both
    runs evaluated the claim (neither says *not evaluated*, neither lacks it), and ``changed``: evaluated and
    their verdicts differ.
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
            row[f"draws_{k}"] = t.loc[i, "draws"] if present else ""
            row[f"numbers_{k}"] = t.loc[i, "numbers"] if present else ""
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
        draws = r[f"draws_{k}"]
        return f"**{r[f'verdict_{k}']}**" + (f" ({_cell(draws)})" if isinstance(draws, str) and draws else "")

    for _, r in table.iterrows():
        lines.append(f"| `{r['id']}` | {_cell(r['figures']).replace(' ', ', ')} | {verdict(r, '1')} | "
                     f"{verdict(r, '2')} | {'**yes**' if r['changed'] else ''} | {_cell(r['numbers_1'])} | "
                     f"{_cell(r['numbers_2'])} |")
    lines += ["", f"Evaluated in both runs: {int(table['evaluated'].sum())} of {len(table)} claims; verdict changed: "
              f"{int(table['changed'].sum())}"
              + (f" ({', '.join(f'`{i}`' for i in table['id'][table['changed']])})" if table["changed"].any() else "")
              + "."]
    return "\n".join(lines) + "\n"


def messages_markdown(claims=CLAIMS) -> str:
    """docs/messages.md: the claims of the registry, with their figures and the study's sentences."""
    lines = [
        "# The study's messages, as computed claims",
        "",
        "Which of the study's messages a figure reproduces is computed, not typed. The study is the thesis "
        "(Athanasakis 2014, *Feature Selection in Computational Biology*) and the randSel paper (Athanasakis, "
        "Shawe-Taylor & Fernandez-Reyes 2013, *Principled Non-Linear Feature Selection*, and its early version); "
        "figure figR_2 follows Sun, Yao & Goodison (2015). Each message is a claim in `fscompbio.claims` "
        "(`CLAIMS`): the study's sentence, a reading with its thresholds, and a function of the run's summary "
        "tables. The workflow's `claims` rule (rules/claims.smk) writes every run's verdicts, with the numbers "
        "they rest on, to `figures/claims.md` and `figures/claims.csv`: *holds*, *partly*, *fails*; "
        f"*{STAND_IN}* where public data replace the thesis' TB tasks; *{NOT_EVALUATED}* where the config did "
        "not make the tables a claim needs. The thesis evaluates one draw of each synthetic set; the workflow "
        "draws each several times (`draws` in chapters 3 and 4 of the config) and a claim on them says in how "
        "many draws it holds, the majority deciding its verdict.",
        "",
        "This page is generated from the registry (`python -m fscompbio.claims --markdown > docs/messages.md`); "
        "tests/test_claims.py checks that it is up to date. The readings are in `figures/claims.md`.",
        "",
        "| claim | figures | the study's sentence |",
        "| --- | --- | --- |",
    ]
    for c in claims:
        figs = ", ".join(c.figures) + (" (stand-in data)" if c.stand_in else "")
        lines.append(f"| `{c.id}` | {_cell(figs)} | \"{_cell(c.quote)}\" ({_cell(c.source)}) |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description="The study's claims: list them, evaluate a finished run, or "
                                                 "set two runs' verdicts side by side.")
    parser.add_argument("run", nargs="?", help="a run's working directory (with results/ and figures/)")
    parser.add_argument("--markdown", action="store_true", help="print docs/messages.md (the list of claims)")
    parser.add_argument("--compare", nargs=2, metavar="CLAIMS_CSV",
                        help="two runs' figures/claims.csv: print their verdicts side by side")
    parser.add_argument("--names", nargs=2, metavar="NAME", default=("first run", "second run"),
                        help="the two runs' names in --compare's table (e.g. 'quick config' 'thesis config')")
    args = parser.parse_args(argv)
    if args.markdown:
        sys.stdout.write(messages_markdown())
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
    paths = [p for p in root.glob("results/chapter[34]/summary/*.csv")] + [root / p for p in DATA_FILES.values()]
    sys.stdout.write(claims_markdown(claims_table(load_run(p for p in paths if p.is_file()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
