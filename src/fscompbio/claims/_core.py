"""The verdicts, the texts cited, the method names, and the helpers the claims' tests share.

Nothing here knows a chapter: the claims live in :mod:`.chapter3`, :mod:`.chapter4`, :mod:`.chapter5` and
:mod:`.other_texts`, a claim and its evaluation in :mod:`._claim`, the readings in :mod:`.readings`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..evaluation import METHODS

HOLDS, PARTLY, FAILS = "holds", "partly", "fails"
STAND_IN = "consistent on a stand-in"
NOT_EVALUATED = "not evaluated"
#: every verdict, in the order the counts are printed
VERDICTS = (HOLDS, STAND_IN, PARTLY, FAILS, NOT_EVALUATED)

THESIS = "Athanasakis (2014), Feature Selection in Computational Biology"
PAPER = "Athanasakis, Shawe-Taylor & Fernandez-Reyes (2013), Principled Non-Linear Feature Selection"
PAPER_EARLY = f"{PAPER} (early version)"
SUN = "Sun, Yao & Goodison (2015), Feature Selection for Nonlinear Regression and its Application to Cancer Research"

#: the short name of every method and model selection in the numbers: the methods' own labels (the method
#: registry, :data:`fscompbio.evaluation._methods.METHODS`), then the model selections and the baselines
SHORT = {
    **{name: spec.label for name, spec in METHODS.items()},
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
#: the synthetic sets in the words of a diagnosis
SYNTHETIC_WORDS = {"fake_class": "the fake class", "linear_zhang_feature_noise": "linear Zhang with feature noise",
                   "linear_zhang_sample_noise": "linear Zhang with sample noise", "linear_weston": "linear Weston",
                   "nonlinear_weston": "non-linear Weston", "xor": "XOR"}
#: the real tasks in the words of a diagnosis
REAL_WORDS = {"tb_serum_metabolomics": "the TB serum stand-in", "allaml": "the leukaemia micro-array",
              "prostate_ge": "the prostate micro-array", "colon": "the colon micro-array",
              "tb_blood_gambia": "the TB micro-array stand-in"}
#: the model selections in the words of a diagnosis
SELECTION_WORDS = {"cv": "nested CV", "kta": "KTA", "kta_abs": "KTA on the absolute grid"}


class NotEvaluable(LookupError):
    """The tables are there but lack rows the claim needs (a method or model selection not run)."""


@dataclass(frozen=True)
class Verdict:
    """A claim's verdict and the numbers it rests on.

    ``draws``: the verdict on each draw pooled into it (draw 0 first; empty when one draw decides it).
    ``replication``: the agreement of draws run with another protocol (fewer outer folds), which are never
    pooled into the verdict: ``"2 draws with 2 outer folds: holds in 0 of 2 (fails, partly)"``.
    """

    verdict: str
    numbers: str
    draws: tuple[str, ...] = ()
    replication: str = ""

    @property
    def draws_text(self):
        """``"holds in 2 of 3 draws"``, or ``""`` for one draw."""
        if len(self.draws) < 2:
            return ""
        return f"holds in {sum(d == HOLDS for d in self.draws)} of {len(self.draws)} draws"


# --------------------------------------------------------------------------
# helpers for the claims' tests: pure, on the tables' own columns
# --------------------------------------------------------------------------
def grade(full, part):
    return HOLDS if bool(full) else PARTLY if bool(part) else FAILS


def short(name):
    return SHORT.get(name, name)


def listed(items):
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    items = list(items)
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def under(verdicts, verdict):
    """The reading options (``"width_grid=absolute"``) under which a claim's verdict is ``verdict``, from the
    ``{"reading=option": verdict}`` a computed diagnosis is given."""
    return [k for k, v in verdicts.items() if v == verdict]


def holding_readings(verdicts):
    """A computed diagnosis' sentence on the reading options under which the claim holds (or, none holding, those
    the run did not evaluate), from its ``{"reading=option": verdict}``."""
    held = under(verdicts, HOLDS) + under(verdicts, STAND_IN)
    if held:
        return f" Under {listed(held)} the message holds."
    untested = under(verdicts, NOT_EVALUATED)
    return " No reading option makes it hold" + (f" ({listed(untested)} not evaluated)." if untested else ".")


def fmt(x, digits=2):
    return "nan" if pd.isna(x) else f"{x:.{digits}f}"


def wide(t, col, methods=None, selections=None):
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
            raise NotEvaluable(f"{t['dataset'].iloc[0]}: no {', '.join(short(s) for s in absent)} model selection")
        w = w[list(selections)]
    return w


def ranking_methods(t):
    """Chapter 3's ranking methods of a summary: every method but the random baseline."""
    return [m for m in dict.fromkeys(t["method"]) if m != "random"]


def paired(t, col):
    """Ranking method x (cv, kta) of ``col``: the paired comparison of chapter 3."""
    w = wide(t, col, selections=["cv", "kta"]).drop(index="random", errors="ignore").dropna()
    if w.empty:
        raise NotEvaluable(f"{t['dataset'].iloc[0]}: no method with both nested CV and KTA")
    return w


def selections_of(t, methods):
    """The model selections (of nested CV and KTA) that every one of ``methods`` has in a summary."""
    present = [s for s in ("cv", "kta") if all(((t["method"] == m) & (t["model_selection"] == s)).any()
                                                for m in methods)]
    if not present:
        raise NotEvaluable(f"{t['dataset'].iloc[0]}: no model selection common to {', '.join(map(short, methods))}")
    return present


def pairs_text(w, digits=1):
    """'Corr 8.3/7.3, ...' (nested CV / KTA) of a paired frame."""
    return ", ".join(f"{short(m)} {fmt(r['cv'], digits)}/{fmt(r['kta'], digits)}" for m, r in w.iterrows())


def all_but_one(ok):
    """At least all but one of the boolean Series are true (all when there are fewer than 3)."""
    n = len(ok)
    return int(ok.sum()) >= (n - 1 if n >= 3 else n)


def need_rows(w, rows, where):
    absent = [r for r in rows if r not in w.index]
    if absent:
        raise NotEvaluable(f"{where}: no rows for {', '.join(absent)}")
    return w.loc[rows]


def chapter_tables(chapter, datasets):
    return tuple(f"{chapter}/{d}" for d in datasets)


CHANCE_HALF_WIDTH = 0.15


def at_chance(chapter):
    """Every method and model selection of the fake class within 0.5 +- :data:`CHANCE_HALF_WIDTH`."""
    def test(t):
        s = t[f"{chapter}/fake_class"]
        acc = s["accuracy_mean"]
        inside = (acc - 0.5).abs() <= CHANCE_HALF_WIDTH
        share = inside.mean()
        return Verdict(grade(inside.all(), share >= 0.8),
                       f"{int(inside.sum())} of {len(acc)} models within 0.5 +- {CHANCE_HALF_WIDTH}; accuracy "
                       f"{fmt(acc.min())}-{fmt(acc.max())}")
    return test

