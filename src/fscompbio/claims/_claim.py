"""A claim and how it is evaluated: under each reading of what the study left unstated (:mod:`.readings`), on
the draws of the synthetic sets, with the thesis' own protocol as the headline."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pandas as pd

from ..datasets import DATASETS, draw_name, split_draw
from ._core import FAILS, HOLDS, NOT_EVALUATED, PARTLY, STAND_IN, NotEvaluable, Verdict
from .readings import READINGS, apply_readings

@dataclass(frozen=True)
class Assessment:
    """A claim's verdicts on a run: the headline (every reading at its default) and each reading option's."""

    headline: Verdict
    #: ``((reading id, option), verdict)`` for every option of every reading the claim depends on
    by_reading: tuple[tuple[tuple[str, str], Verdict], ...] = ()

    @property
    def by_reading_text(self):
        """``"width_grid=relative: fails; width_grid=absolute: holds"``."""
        return "; ".join(f"{r}={o}: {v.verdict}" for (r, o), v in self.by_reading)

    @property
    def robust(self):
        """``yes``: no reading option changes the verdict (or the claim depends on none); ``no``: one does;
        ``untested``: none that was evaluated does, but some option has no tables in this run."""
        if self.headline.verdict == NOT_EVALUATED:
            return ""
        verdicts = [v.verdict for _, v in self.by_reading]
        if any(v not in (NOT_EVALUATED, self.headline.verdict) for v in verdicts):
            return "no"
        return "untested" if NOT_EVALUATED in verdicts else "yes"


@dataclass(frozen=True)
class Claim:
    """One message of the study, read as a test on the run's tables.

    ``tables`` are needed (absent: ``not evaluated``); ``optional`` tables are passed when present.
    ``stand_in``: the claim is read on public data that replace the thesis' own (its TB tasks), so
    ``holds`` is reported as ``consistent on a stand-in``. ``readings``: the ids of the study's unstated
    choices (:data:`.readings.READINGS`) the verdict depends on; the claim is evaluated under each of their
    options, the defaults giving the headline. ``diagnosis``: why the claim does not hold where it does not
    (words; the numbers are the run's, in the verdicts). Where the words name an outcome of the run (which
    method is ahead, on which data set, under which reading), the diagnosis is a function of the tables and of
    the verdicts under each reading option, as the test is of the tables, so that it describes the run it is
    printed beside (:meth:`explain` says what it is given); its typed words are the mechanism.
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
    readings: tuple[str, ...] = ()
    diagnosis: str | Callable[..., str] = ""

    def evaluate(self, tables: Mapping[str, pd.DataFrame], options: Mapping[str, str] | None = None) -> Verdict:
        """The verdict on ``tables`` with every reading at its default (or as ``options`` set it).

        A chapter-3/4 table ``<chapter>/<set>`` may come with further draws ``<chapter>/<set>_draw<k>``
        (:func:`fscompbio.datasets.draw_name`). The claim is evaluated on each draw that all its drawn tables
        have. Draws run with draw 0's protocol (its number of outer folds) are pooled: the verdict is the
        majority's (``holds`` in more than half, ``fails`` in more than half, ``partly`` otherwise). Draws
        run with another protocol are replications: their agreement is reported beside the verdict, never
        pooled into it (a statistic over 2 folds is not the one over 10).
        """
        missing = [k for k in self.tables if k not in tables]
        if missing:
            return Verdict(NOT_EVALUATED, f"not made by this run: {', '.join(missing)}")
        try:
            tables = apply_readings(tables, self.readings, options or {})
        except NotEvaluable as exc:
            return Verdict(NOT_EVALUATED, str(exc))
        keys = [k for k in (*self.tables, *self.optional) if k in tables]
        results = {}  # draw -> (protocol, verdict)
        for k in _common_draws(tables, keys):
            given = {key: tables[_draw_key(key, k)] for key in keys}
            try:
                results[k] = (_protocol(given), self.test(given))
            except NotEvaluable as exc:
                if k == 0:
                    return Verdict(NOT_EVALUATED, str(exc))
        result = _headline(results)
        if self.stand_in and result.verdict == HOLDS:
            return Verdict(STAND_IN, result.numbers, result.draws, result.replication)
        return result

    def explain(self, tables: Mapping[str, pd.DataFrame], by_reading=()) -> str:
        """The diagnosis on ``tables``: its words, or those a computed diagnosis derives from draw 0's tables.

        A computed diagnosis is called with the tables every reading at its default, the verdicts under each
        reading option (``by_reading``, as :attr:`Assessment.by_reading`; the function sees
        ``{"width_grid=absolute": "holds", ...}``) and a function giving the tables under other options
        (``tables_under({"scales": "raw"})``, ``None`` where the run did not make them). Its text is prefixed
        "Draw 0:" when the run has further draws; "" when the tables lack what it reads.
        """
        if not callable(self.diagnosis):
            return self.diagnosis
        if any(k not in tables for k in self.tables):
            return ""
        keys = [k for k in (*self.tables, *self.optional) if k in tables]
        draw0 = {key: tables[key] for key in keys}

        def tables_under(options):
            try:
                return apply_readings(draw0, self.readings, options)
            except NotEvaluable:
                return None
        try:
            text = self.diagnosis(apply_readings(draw0, self.readings, {}),
                                  {f"{r}={o}": v.verdict for (r, o), v in by_reading}, tables_under)
        except NotEvaluable:
            return ""
        return f"Draw 0: {text}" if len(_common_draws(tables, keys)) > 1 else text

    def assess(self, tables: Mapping[str, pd.DataFrame]) -> Assessment:
        """The headline verdict and the verdict under each option of each reading the claim depends on (the
        other readings at their defaults)."""
        headline = self.evaluate(tables)
        by_reading = []
        for rid in self.readings:
            for option in READINGS[rid].options:
                v = headline if option == READINGS[rid].default else self.evaluate(tables, {rid: option})
                by_reading.append(((rid, option), v))
        return Assessment(headline, tuple(by_reading))


def _synthetic_set(key):
    """``(chapter, set)`` of a chapter-3/4 table or a premise of a synthetic set (``chapter3/xor``,
    ``premise/xor``), else None."""
    chapter, _, name = key.partition("/")
    return (chapter, name) if chapter in ("chapter3", "chapter4", "premise") and name in DATASETS else None


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


def _protocol(given):
    """The protocol of one draw's tables: the numbers of outer folds of its chapter-3/4 summaries of
    synthetic sets (``()`` when it reads none)."""
    folds = set()
    for key, t in given.items():
        if _synthetic_set(key) and "n_folds" in t.columns:
            folds.update(int(v) for v in t["n_folds"].dropna().unique())
    return tuple(sorted(folds))


def _protocol_text(protocol):
    return "/".join(map(str, protocol)) + " outer folds" if protocol else "one protocol"


def _majority(verdicts):
    n = len(verdicts)
    return HOLDS if verdicts.count(HOLDS) * 2 > n else FAILS if verdicts.count(FAILS) * 2 > n else PARTLY


def _headline(results):
    """One verdict from ``{draw: (protocol, verdict)}``: draws with draw 0's protocol pooled by majority,
    the others reported as replications."""
    protocol0 = results[0][0]
    same = [k for k in results if results[k][0] == protocol0]
    other = [k for k in results if results[k][0] != protocol0]
    if len(same) == 1:
        head = results[0][1]
    else:
        verdicts = tuple(results[k][1].verdict for k in same)
        each = ", ".join(f"draw {k} {results[k][1].verdict}" for k in same)
        numbers = " ".join(f"Draw {k}{' (the figure)' if k == 0 else ''}: {results[k][1].numbers}." for k in same)
        overall = _majority(verdicts)
        head = Verdict(overall, f"{Verdict(overall, '', verdicts).draws_text} ({each}). {numbers}", verdicts)
    if not other:
        return head
    groups = {}
    for k in other:
        groups.setdefault(results[k][0], []).append(k)
    texts, numbers = [], []
    for protocol, ks in groups.items():
        verdicts = [results[k][1].verdict for k in ks]
        texts.append(f"{len(ks)} draw{'s' if len(ks) > 1 else ''} with {_protocol_text(protocol)}: holds in "
                     f"{verdicts.count(HOLDS)} of {len(ks)} ({', '.join(verdicts)})")
        numbers += [f"Draw {k} ({_protocol_text(protocol)}): {results[k][1].numbers}." for k in ks]
    first = f"Draw 0 ({_protocol_text(protocol0)}): " if len(same) == 1 else ""
    return Verdict(head.verdict, f"{first}{head.numbers}. Replications: " + " ".join(numbers), head.draws,
                   "; ".join(texts))


