"""Chapter 5's messages and the randSel paper's table 1: cleavage sites of signal peptides, predicted from the
original physicochemical encoding or from features learned by sparse filtering (table P1, figures 5.3 and 5.5).

Every claim here depends on readings the texts leave open (:mod:`.readings`): the training set of the
classifiers (``training_set``), how the scales are scaled (``scales``) and what sparse filtering is fitted on
(``sf_fit``). Accuracies are those of sequence-grouped cross-validation (table P1's ``random`` rows); the
homology-aware rows are reported in the table, not read here.
"""

from __future__ import annotations


from ._claim import Claim
from ._core import NOT_EVALUATED, PAPER, THESIS, NotEvaluable, Verdict, fmt, grade, listed, need_rows

#: the rows of the paper's table 1, in its order
PAPER_ROWS = ["original", "stability", "rfe", "randsel", "randsel_mkl"]
SF_ROWS = ["stability", "rfe", "randsel", "randsel_mkl"]
SIGNALP = 72.9
#: the readings of every claim on table P1
P1 = ("training_set", "scales", "sf_fit")
#: the paper's rows in the words of a diagnosis (other rows: their names in table P1)
P1_WORDS = {"original": "the original representation", "stability": "SF + stability selection", "rfe": "SF + RFE",
            "randsel": "SF + randSel", "randsel_mkl": "SF + randSel & MKL"}
ORDINAL = ("first", "second", "third")


def _p1(t, values="accuracy_mean"):
    """approach x training set of the accuracy (%), sequence-grouped (random) CV (``values="accuracy_sd"``: the
    folds' standard deviation of it)."""
    s = t["table_P1"]
    s = s[s["cv"] == "random"]
    return s.pivot(index="approach", columns="protocol", values=values)


def _p1_words(t, approach):
    if approach in P1_WORDS:
        return P1_WORDS[approach]
    s = t["table_P1"]
    names = s.drop_duplicates("approach").set_index("approach")["method"] if "method" in s else {}
    return names.get(approach, approach)


def _p1_text(w, rows):
    return "; ".join(f"{p}: " + ", ".join(f"{r} {fmt(w.loc[r, p], 1)}" for r in rows) for p in w.columns)


def _learned_beats_original_p1(t):
    w = need_rows(_p1(t), ["original", *SF_ROWS], "table_P1")
    above = w.loc[SF_ROWS] >= w.loc["original"] + 1.0
    return Verdict(grade(bool(above.to_numpy().all()), bool(above.to_numpy().any())),
                   "accuracy (%), random CV, " + _p1_text(w, ["original", *SF_ROWS]) + " (paper: original 67.2, SF rows "
                   "71.5-75.3)")


#: table P1's (training set, scales) readings, in the words of a diagnosis
P1_CELLS = {("capped", "standardised"): "few windows of standardised scales",
            ("capped", "raw"): "few windows of raw scales",
            ("adequate", "standardised"): "adequate training data on standardised scales",
            ("adequate", "raw"): "adequate training data on raw scales"}


def _original_against_learned(tables_under):
    """``{(training set, scales): (original >= every sparse-filtering row, original within 2 of the paper's sd of
    its mean, the paper's mean)}`` for the readings the run made."""
    cells = {}
    for (ts, sc) in P1_CELLS:
        u = tables_under({"training_set": ts, "scales": sc, "comparison": "table"})
        if u is None:
            continue
        s = u["table_P1"]
        s = s[s["cv"] == "random"].drop_duplicates("approach").set_index("approach")
        if "original" not in s.index or not set(SF_ROWS) <= set(s.index):
            continue
        o = s.loc["original"]
        cells[(ts, sc)] = (bool((o["accuracy_mean"] >= s.loc[SF_ROWS, "accuracy_mean"]).all()),
                           bool(abs(o["accuracy_mean"] - o["paper_mean"]) <= 2 * o["paper_sd"]), o["paper_mean"])
    return cells


def _learned_beats_original_diagnosis(t, verdicts, tables_under):
    """Under each training set and scaling: whether the original representation is ahead of every learned row and
    within the paper's spread of its number; the learning curve's verdict; then the mechanism."""
    cells = _original_against_learned(tables_under)
    if not cells:
        raise NotEvaluable("table_P1: no training set and scaling with the original and every learned row")
    ahead = [P1_CELLS[c] for c, (a, _, _) in cells.items() if a]
    behind = [P1_CELLS[c] for c, (a, _, _) in cells.items() if not a]
    within = [P1_CELLS[c] for c, (_, w, _) in cells.items() if w]
    paper = fmt(next(iter(cells.values()))[2], 1)
    text = (f"The original scales with a Gaussian SVM are at least as accurate as every sparse-filtering row with "
            f"{listed(ahead)}" if ahead else "Some sparse-filtering row is more accurate than the original scales "
            "under every training set and scaling the run made")
    if ahead and behind:
        text += f", and below some learned row with {listed(behind)}"
    text += (f". The paper's {paper}% for the original representation is within its spread with {listed(within)}"
             if within else f". The paper's {paper}% for the original representation is matched by none of them")
    text += " (few windows: the capped reading, a hypothesis of ours)."
    curve = verdicts.get("comparison=equal_data")
    if curve and curve != NOT_EVALUATED:
        text += f" At equal training data on the learning curve (comparison=equal_data) the claim {curve}."
    if ahead:
        text += (" Where the original scales are ahead, the learned features carry no more than the scale values, "
                 "which are themselves a linear map of the residues' identities.")
    return text


def _learning_curve(t):
    """Sparse filtering against the original scales at each training size of figure 5.5.

    A size is a step of a protocol's curve (its k-th size), whatever its number of windows in a fold: the
    largest balanced size is every training positive, which differs by a window or two between folds."""
    c = t["fig5_5"]
    reps = set(c["representation"])
    if not {"sf", "scales"} <= reps:
        raise NotEvaluable("fig5_5: needs the sparse-filtering and the original (scales) representations")
    c = c[c["representation"].isin(["sf", "scales"])]
    order = c.sort_values(["max_train_per_class", "negatives_per_positive"], na_position="last", kind="stable")
    step = order.groupby(["representation", "fold", "protocol"], sort=False).cumcount().reindex(c.index)
    c = c.assign(step=step)

    def label(g):
        cap, ratio = g["max_train_per_class"].dropna(), g["negatives_per_positive"].dropna()
        if len(cap):
            lo, hi = cap.min(), cap.max()
            return f"{g['protocol'].iloc[0]} {lo:g}/class" if lo == hi else f"{g['protocol'].iloc[0]} {lo:g}-{hi:g}/class"
        return f"{g['protocol'].iloc[0]} {ratio.min():g}x neg" if len(ratio) else f"{g['protocol'].iloc[0]} all"

    keys = ["protocol", "step"]
    labels = {k: label(g) for k, g in c.groupby(keys, sort=False)}
    m = c.groupby([*keys, "representation"], sort=False)["accuracy"].mean().unstack()
    ahead = m["sf"] >= m["scales"]
    return Verdict(grade(bool(ahead.all()), bool(ahead.any())),
                   f"sparse filtering >= original at {int(ahead.sum())} of {len(ahead)} training sizes; mean accuracy "
                   "original/SF: " + ", ".join(f"{labels[k]} {fmt(r['scales'])}/{fmt(r['sf'])}" for k, r in m.iterrows()))


def _learned_beats_original(t):
    """Table P1's rows (reading ``comparison=table``) or the learning curve (``comparison=equal_data``)."""
    return _learned_beats_original_p1(t) if "table_P1" in t else _learning_curve(t)


def _randsel_best_selector(t):
    w = need_rows(_p1(t), ["randsel", "rfe", "stability"], "table_P1")
    order = (w.loc["randsel"] > w.loc["rfe"]) & (w.loc["rfe"] > w.loc["stability"])
    edge = w.loc["randsel"] >= w.loc[["rfe", "stability"]].max()
    return Verdict(grade(bool(order.all()), bool(edge.any())),
                   "accuracy (%), random CV, " + _p1_text(w, ["randsel", "rfe", "stability"])
                   + " (paper: 72.75, 71.81, 71.46)")


def _randsel_best_diagnosis(t, verdicts, tables_under):
    """randSel's place among the three selectors under each training set, against the folds' spread."""
    rows = ["randsel", "rfe", "stability"]
    w = need_rows(_p1(t), rows, "table_P1")
    sd = need_rows(_p1(t, "accuracy_sd"), rows, "table_P1")
    parts = []
    for p in w.columns:
        order = list(w[p].sort_values(ascending=False, kind="stable").index)
        rival = order[1] if order[0] == "randsel" else order[0]
        gap = abs(w.loc["randsel", p] - w.loc[rival, p])
        size = "less" if gap < max(sd.loc["randsel", p], sd.loc[rival, p]) else "more"
        parts.append(f"with the {p} training set SF + randSel is {ORDINAL[order.index('randsel')]} of the three "
                     f"selectors, {'ahead of' if order[0] == 'randsel' else 'behind'} {P1_WORDS[rival]} by {size} "
                     f"than their folds' standard deviation, and SF + RFE is "
                     f"{'above' if w.loc['rfe', p] > w.loc['stability', p] else 'not above'} SF + stability selection")
    return ("On the learned features, " + "; ".join(parts) + " (table P1). The paper's own differences between the "
            "three rows are smaller than its standard deviations, so their order is not a property of the learned "
            "features that other sequences or folds must keep.")


def _mkl_improves(t):
    w = need_rows(_p1(t), PAPER_ROWS, "table_P1")
    above = w.loc["randsel_mkl"] > w.loc["randsel"]
    best = w.loc["randsel_mkl"] >= w.max()
    return Verdict(grade(bool((above & best).all()), bool(above.any())),
                   "accuracy (%), random CV, " + _p1_text(w, ["randsel_mkl", "randsel"])
                   + "; best of the paper's rows: " + ", ".join(f"{p} {w[p].idxmax()}" for p in w.columns)
                   + " (paper: 75.28 vs 72.75)")


def _p1_within_paper(t):
    """The paper's rows of table P1 (sequence-grouped CV) and, per row, whether its accuracy is within 2 of the
    paper's standard deviations of the paper's mean."""
    s = t["table_P1"]
    s = need_rows(s[s["cv"] == "random"].set_index("approach"), PAPER_ROWS, "table_P1")
    return s, (s["accuracy_mean"] - s["paper_mean"]).abs() <= 2 * s["paper_sd"]


def _p1_matches_paper(t):
    s, within = _p1_within_paper(t)
    return Verdict(grade(bool(within.all()), bool(within.any())),
                   f"{int(within.sum())} of {len(within)} rows within 2 sd of the paper: "
                   + ", ".join(f"{a} {fmt(r['accuracy_mean'], 1)} vs {fmt(r['paper_mean'], 1)} +- {fmt(r['paper_sd'], 1)}"
                               for a, r in s.iterrows()))


def _mkl_diagnosis(t, verdicts, tables_under):
    """Where the ensemble stands against SF + randSel and which row is the most accurate, under each training set."""
    w = need_rows(_p1(t), PAPER_ROWS, "table_P1")
    parts = [f"with the {p} training set the multiple-kernel ensemble is "
             f"{'below' if w.loc['randsel_mkl', p] < w.loc['randsel', p] else 'not below'} SF + randSel and "
             f"{P1_WORDS[w[p].idxmax()]} is the most accurate of the paper's rows" for p in w.columns]
    text = "; ".join(parts)
    return (text[0].upper() + text[1:] + ". The ensemble's weak learners train on class-balanced subsamples, fewer "
            "windows than the single SVM sees.")


def _p1_matches_diagnosis(t, verdicts, tables_under):
    """The rows within the paper's spread and those outside it."""
    s, within = _p1_within_paper(t)
    inside = [P1_WORDS[a] for a in PAPER_ROWS if within[a]]
    below = [P1_WORDS[a] for a in PAPER_ROWS if not within[a] and s.loc[a, "accuracy_mean"] < s.loc[a, "paper_mean"]]
    above = [P1_WORDS[a] for a in PAPER_ROWS if not within[a] and s.loc[a, "accuracy_mean"] > s.loc[a, "paper_mean"]]
    parts = [f"{listed(inside)} come{'s' if len(inside) == 1 else ''} within the paper's spread"] if inside else []
    parts += [f"{listed(below)} fall{'s' if len(below) == 1 else ''} below it"] if below else []
    parts += [f"{listed(above)} {'is' if len(above) == 1 else 'are'} above it"] if above else []
    text = "; ".join(parts)
    text = text[0].upper() + text[1:] + "."
    if not within[SF_ROWS].all():
        text += (" Sparse filtering learned on our public UniProt set (the paper's PrediSi set is not available) does "
                 "not give the paper's learned features.")
    return text


def _beats_signalp(t):
    w = _p1(t)
    mkl = need_rows(w, ["randsel_mkl"], "table_P1").loc["randsel_mkl"]
    best = w.stack().idxmax()
    return Verdict(grade(bool((mkl > SIGNALP).any()), bool((w > SIGNALP).to_numpy().any())),
                   "SF + randSel & MKL " + ", ".join(f"{p} {fmt(v, 1)}" for p, v in mkl.items())
                   + f"; best row {best[0]} ({best[1]}) {fmt(w.loc[best], 1)}; SignalP {SIGNALP}")


def _beats_signalp_diagnosis(t, verdicts, tables_under):
    """Which rows pass SignalP's accuracy, if any, and whether the paper's own approach is among them."""
    w = _p1(t).stack()
    passing = w[w > SIGNALP]
    best = w.idxmax()
    best_words = f"{_p1_words(t, best[0])} ({best[1]} training set)"
    if len(passing) == 0:
        text = f"No approach of table P1 passes SignalP's accuracy; the most accurate is {best_words}"
    else:
        own = "randsel_mkl" in passing.index.get_level_values(0)
        text = (f"SignalP's accuracy is passed by {len(passing)} of table P1's rows, the most accurate {best_words}, "
                + ("the paper's own approach among them" if own else "not by the paper's own approach"))
    if best[0].startswith("original"):
        text += ": see learned_representation_beats_original"
    return text + ". SignalP's figure is on its own test set, not ours."


CLAIMS: tuple[Claim, ...] = (
    Claim(
        "learned_representation_beats_original", ("table_P1", "fig5_3", "fig5_5"), f"{PAPER}, section 6.3 (thesis 5.5.1)",
        "Using the original feature representation with a non-linear SVM leads to a generalization accuracy of "
        "67.2%. This is substantially smaller than all the approaches that rely on the learned feature "
        "representation. [...] This suggests that there are performance gains to be had in using a learned "
        "representation.",
        "With sequence-grouped CV, each sparse-filtering row of the paper's table (stability selection, RFE, "
        "randSel, randSel & MKL) is >= 1 point above the original representation (holds); some row is (partly). "
        "Under the reading `comparison=equal_data`: on figure 5.5's learning curve the sparse-filtering features' "
        "mean accuracy over folds is >= the original features' at every training size (holds); at some size "
        "(partly).",
        ("table_P1",), _learned_beats_original, optional=("fig5_5",), readings=(*P1, "comparison"),
        diagnosis=_learned_beats_original_diagnosis,
    ),
    Claim(
        "randsel_best_selector_on_learned_features", ("table_P1", "fig5_3"), f"{PAPER}, section 6.3",
        "randSel has an edge over the two other methods, with RFE also performing slightly better than "
        "l1-regularized logistic regression-based stability selection.",
        "With sequence-grouped CV, SF + randSel > SF + RFE > SF + stability selection (holds); SF + randSel at "
        "least as accurate as both others (partly).",
        ("table_P1",), _randsel_best_selector, readings=P1, diagnosis=_randsel_best_diagnosis,
    ),
    Claim(
        "mkl_improves_on_randsel", ("table_P1", "fig5_3"), f"{THESIS}, figure 5.3 (section 5.5.1)",
        "Combining randSel with MKL outperforms all other approaches.",
        "With sequence-grouped CV, SF + randSel & MKL is more accurate than SF + randSel and the most accurate of "
        "the paper's five rows (holds); above SF + randSel (partly).",
        ("table_P1",), _mkl_improves, readings=P1, diagnosis=_mkl_diagnosis,
    ),
    Claim(
        "table_P1_matches_paper", ("table_P1",), f"{PAPER}, table 1 (section 6.3)",
        "Original Representation 67.20 +- 4.71; Sparse Filtering + Stab. Sel. 71.46 +- 2.93; + RFE 71.81 +- 2.79; "
        "+ RandSel 72.75 +- 2.85; + RandSel & MKL 75.28 +- 1.91",
        "With sequence-grouped CV, each of the five rows lies within 2 of the paper's standard deviations of "
        "the paper's mean: all five (holds); at least one (partly).",
        ("table_P1",), _p1_matches_paper, readings=P1, diagnosis=_p1_matches_diagnosis,
    ),
    Claim(
        "beats_signalp", ("table_P1",), f"{THESIS}, section 5.5.1",
        "It does appear however that the method proposed here outperforms SignalP's reported accuracy of 72.9% "
        "for eukaryotic sequences.",
        f"SF + randSel & MKL is above {SIGNALP}% with sequence-grouped CV (holds); some other approach of table P1 "
        f"is (partly).",
        ("table_P1",), _beats_signalp, readings=P1, diagnosis=_beats_signalp_diagnosis,
    ),
)
