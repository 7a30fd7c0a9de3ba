"""The thesis config's projected CPU-hours per stage (bench/thesis_cost.md), from the measurements in this folder.

Run from the repository root (reads JSON only, takes a second):

    .venv/bin/python bench/thesis_cost/project.py

Each stage starts from its projection by a complete timing of the config (``BASE``: one job per stratum timed
with bench/estimate_thesis_cost.py, 2026-11-22/23, ``estimate_ch3_ch4.json``, ``estimate_multiclass*.json``,
``estimate_regression_single_jobs.json``, chapter 5 run whole; the few strata not timed then estimated), and the
strata whose code has become faster since are replaced by their new cost, never scaling the fixed part of a job:

- chapter 3, stability selection: a fixed part (the intercept of the stratum's 25/50-subsample line: model
  selection, SVMs) + 11 selector fits (the outer one, 10 inner ones) x 1,000 subsamples x the CPU ms per
  subsample measured in-process on a 90% training fold: l1-logistic by the working set on the five real sets
  (stability_logistic.json), the lasso by LARS on the four wide sets (stability_lpboost_lasso.json), LPBoost
  on the six 300 x 200 sets (the mean over the sets of stability_ms_per_subsample.json, scaled by the speed-ups
  of column generation measured side by side: stability_lpboost_lasso.json, then bench/bench_lpboost_stability.py);
- FoHSIC (chapter 4, multi-class figure): bench/bench_hsic_candidates.py's whole-fit ratios on the per-step slope;
- strata re-timed with bench/estimate_thesis_cost.py (estimate_regression_hsic_rfe.json: BaHSIC, Gaussian RFE,
  local learning; estimate_ch4_randsel.json: chapter 4's randSel, estimated before; estimate_ch5_paper.json:
  chapter 5's SF + RFE and SF + randSel folds and the randSel paper's table, never timed before).
"""

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load(name):
    """The timed (not skipped) results of one bench/estimate_thesis_cost.py --json file of this folder."""
    return [r for r in json.loads((HERE / f"{name}.json").read_text())["results"] if not r.get("skipped")]


def fixed_part(r):
    """The intercept of a stratum's line through its two reduced-size timings (CPU s): the part no selector
    speed-up touches."""
    (v1, _, c1, _), (v2, _, c2, _) = r["reduced"]["points"][:2]
    slope = (c2 - c1) / (v2 - v1)
    return max(c1 - slope * v1, 0.0)


# CPU-hours per stage of the complete timing the projection starts from (as published then, rounded to 0.1).
# Chapter 3: its 36 strata as timed, stability selection modelled per data set with LPBoost's column generation
# and LARS (recomputed below stratum by stratum: 11.47). Chapter 4: FoHSIC, BaHSIC, Gaussian RFE on 4 of its 6
# shapes and figure P.1's expected contributions timed (1.97), randSel (1.4), Gaussian RFE on colon and AML/ALL
# (0.2) and the rest of figures 4.3 and P.1 (0.1) estimated: 3.67, so chapter 4 may be 0.07 above the figure
# printed. Chapter 5: the whole run of its 360 jobs (job wall times, 2 at a time: upper bounds). Regression and
# multi-class: every stratum timed (2.93, 2.94). The randSel paper's table: estimated (replaced whole below).
# Spine (data sets, chapter 2 figures, tables): seconds each.
CH5_WHOLE_RUN_SECONDS = 14256.0  # 360 jobs; SF + RFE 4,930 s over 20 jobs, SF + randSel 2,580 over 40
BASE = {"chapter 3": 11.5, "chapter 4": 3.6, "chapter 5": CH5_WHOLE_RUN_SECONDS / 3600, "regression": 2.9,
        "multi-class": 2.9, "randSel paper": 1.5, "spine": 0.05}
CH4_RANDSEL_ESTIMATED = 1.4  # in chapter 4's base: selector fits x 11 + 6 s per job, replaced by its timing

SYNTHETIC = ["xor", "nonlinear_weston", "linear_weston", "fake_class", "linear_zhang_feature_noise",
             "linear_zhang_sample_noise"]
SHAPE_TO_SET = {"72x7129": "allaml", "102x5966": "prostate_ge", "62x2000": "colon", "30x5547": "tb_blood_gambia",
                "136x424": "tb_serum_metabolomics"}
LARS_SETS = {"allaml", "prostate_ge", "colon", "tb_blood_gambia"}  # config/thesis.yaml chapter3.dataset_selectors
LASSO_SYNTHETIC_MS = 2.1  # coordinate descent, ms per subsample on the 300 x 200 sets (1.6-2.7, in-process)
# bench/bench_lpboost_stability.py, 2026-11-23: previous / current solver, ms per subsample (best of 3 alternations)
LPBOOST = {"xor": 18.17 / 14.39, "nonlinear_weston": 16.16 / 13.38, "fake_class": 17.11 / 13.71,
           "linear_zhang_feature_noise": 15.67 / 13.12, "linear_zhang_sample_noise": 9.74 / 9.58,
           "linear_weston": 2.57 / 2.12}
# bench/bench_hsic_candidates.py (c), 2026-11-23: whole FoHSIC fits of 30 steps, previous / current CPU s
FOHSIC_WIDE, FOHSIC_TOX, FOHSIC_SYN = 6.1 / 1.0, 13.2 / 2.3, 0.89 / 0.31

ms = json.loads((HERE / "stability_ms_per_subsample.json").read_text())  # CPU ms per subsample, as timed
lp_lasso = json.loads((HERE / "stability_lpboost_lasso.json").read_text())
logistic = json.loads((HERE / "stability_logistic.json").read_text())


def lpboost_ms(d):
    """LPBoost's ms per subsample on data set d with column generation (16 learners per call, presolve off)."""
    return ms[f"{d}/lpboost"] * lp_lasso[d]["lpboost_now"] / lp_lasso[d]["lpboost_before"]


est = {}  # stratum -> its timing; a later file's replaces an earlier one's
for f in ("estimate_ch3_ch4", "estimate_multiclass", "estimate_multiclass_paper"):
    for r in load(f):
        est[repr(r["stratum"])] = r

# --- strata modelled: (stage, stratum, jobs, CPU s per job in the base, CPU s per job now)
rows = []
for r in load("estimate_ch3_ch4"):
    if r["stratum"][0] != "ch3_fold":
        continue
    wc = dict(tuple(x) for x in r["stratum"][1:])
    meth, shape, n = wc["ch3_method"], wc["shape"], r["n_jobs"]
    key = repr(r["stratum"])
    learner = {"stabsel_logreg": "logistic", "stabsel_lpboost": "lpboost", "stabsel_lasso": "lasso"}.get(meth)
    base = new = r["cpu"]
    if learner and shape == "300x200":  # one sampled set stands for six of very different cost: per data set
        fx = fixed_part(r)
        ms_base = {"lasso": LASSO_SYNTHETIC_MS, "logistic": sum(ms[f"{d}/logistic"] for d in SYNTHETIC) / 6,
                   "lpboost": sum(lpboost_ms(d) for d in SYNTHETIC) / 6}[learner]
        base = new = fx + 11 * 1000 * ms_base / 1e3
        if learner == "lpboost":  # column generation with predicted learners
            new = fx + (base - fx) * (sum(lpboost_ms(d) / LPBOOST[d] for d in SYNTHETIC) / 6) / ms_base
    elif learner == "lpboost":  # the real sets: the timed job less column generation's gain
        d = SHAPE_TO_SET[shape]
        base = new = r["cpu"] - 11 * 1000 * (ms[f"{d}/lpboost"] - lpboost_ms(d)) / 1e3
    elif learner == "logistic":  # the working set on the real sets
        d = SHAPE_TO_SET[shape]
        new = fixed_part(est[key]) + 11 * 1000 * logistic[d]["logistic_working_set"] / 1e3
    elif learner == "lasso" and SHAPE_TO_SET.get(shape) in LARS_SETS:
        d = SHAPE_TO_SET[shape]
        base = r["cpu"] - 11 * 1000 * (lp_lasso[d]["lasso_cd"] - lp_lasso[d]["lasso_lars"]) / 1e3
        new = fixed_part(est[key]) + 11 * 1000 * lp_lasso[d]["lasso_lars"] / 1e3
    rows.append(("chapter 3", f"{meth} {shape}", n, base, new))
for key, r in est.items():
    st = r["stratum"]
    if st[0] not in ("ch4_fold", "mc_fold"):
        continue
    wc = dict(tuple(x) for x in st[1:])
    if (wc.get("ch4_method") or wc.get("mc_method")) != "fohsic":
        continue
    shape = wc["shape"]
    ratio = FOHSIC_TOX if shape == "171x5748" else FOHSIC_SYN if shape == "300x200" else FOHSIC_WIDE
    fx = fixed_part(r) if r.get("reduced") else 3.0  # unreduced strata: ~3 s of SVMs and I/O
    stage = "chapter 4" if st[0] == "ch4_fold" else "multi-class"
    rows.append((stage, f"fohsic {wc.get('mc_msel', '')} {shape}".replace("  ", " "), r["n_jobs"], r["cpu"],
                 fx + (r["cpu"] - fx) / ratio))

print("Modelled strata whose cost changed by 0.01 CPU-h or more (CPU s per job):")
print("| stage | stratum | jobs | base s/job | now s/job | CPU-h saved |")
for stage, name, n, a, b in sorted(rows, key=lambda r: -(r[3] - r[4]) * r[2]):
    if (a - b) * n / 3600 >= 0.01:
        print(f"| {stage} | {name} | {n} | {a:.0f} | {b:.0f} | {(a - b) * n / 3600:.2f} |")
now = dict(BASE)
modelled = {}
for stage, _, n, a, b in rows:
    acc = modelled.setdefault(stage, [0.0, 0.0])
    acc[0] += a * n / 3600
    acc[1] += b * n / 3600
for stage, (a, b) in modelled.items():
    print(f"{stage}: modelled strata {a:.2f} -> {b:.2f} CPU-h")
    now[stage] -= a - b

# --- strata re-timed with bench/estimate_thesis_cost.py, against their timing in the base
earlier = {}
for f in ("estimate_ch3_ch4", "estimate_multiclass", "estimate_multiclass_paper", "estimate_regression_single_jobs"):
    for r in load(f):
        earlier[repr(r["stratum"])] = r
STAGE = {"regression (figure R.2)": "regression", "multi-class (figure M.1)": "multi-class"}
retimed = {}
for r in load("estimate_regression_hsic_rfe"):
    o = earlier.get(repr(r["stratum"]))
    # Gaussian RFE on colon and AML/ALL were not timed in the base: estimated at 0.1 CPU-h each
    before = 0.1 if o is None else o["cpu"] * o["n_jobs"] / 3600
    acc = retimed.setdefault(STAGE.get(r["stage"], r["stage"]), [0.0, 0.0])
    acc[0] += before
    acc[1] += r["cpu"] * r["n_jobs"] / 3600
for stage, (a, b) in retimed.items():
    print(f"{stage}: re-timed strata {a:.2f} -> {b:.2f} CPU-h")
    now[stage] -= a - b
ch4_randsel = sum(r["cpu"] * r["n_jobs"] for r in load("estimate_ch4_randsel")) / 3600
print(f"chapter 4: randSel {CH4_RANDSEL_ESTIMATED:.2f} (estimated) -> {ch4_randsel:.2f} CPU-h (timed)")
now["chapter 4"] -= CH4_RANDSEL_ESTIMATED - ch4_randsel

# chapter 5: the whole run with its SF + RFE (20 jobs, random CV) and SF + randSel (40 jobs; the homology-aware
# ones at the random ones' CPU) replaced by their re-timed folds; the randSel paper's table timed whole
ch5 = {tuple(map(tuple, r["stratum"][1:])): r for r in load("estimate_ch5_paper")}


def ch5_job(approach, protocol):
    return ch5[(("approach", approach), ("cv", "random"), ("protocol", protocol))]["cpu"]


rfe = 10 * (ch5_job("rfe", "paper") + ch5_job("rfe", "adequate"))
randsel = 2 * 10 * (ch5_job("randsel", "paper") + ch5_job("randsel", "adequate"))
now["chapter 5"] = (CH5_WHOLE_RUN_SECONDS - 4930 - 2580 + rfe + randsel) / 3600
print(f"chapter 5: SF + RFE 4930 -> {rfe:.0f} job-s, SF + randSel 2580 -> {randsel:.0f} job-s")
paper = sum(r["cpu"] * r["n_jobs"] for r in load("estimate_ch5_paper") if r["stratum"][0] == "paper_tableP_2_method") / 3600
now["randSel paper"] = paper + 0.05  # + figure P.2 and randSel's history (3 jobs, seconds each)

# cross-check: chapter 3's 330 stability-selection jobs timed directly at 25/50 subsamples (one sampled set for
# the six 300 x 200 ones) instead of modelled per data set
direct = sum(r["cpu"] * r["n_jobs"] for r in load("estimate_stability_fohsic") if r["stratum"][0] == "ch3_fold")
stab_model = sum(b * n for stage, name, n, _, b in rows if name.startswith("stabsel")) / 3600

print("\n| stage | CPU-h |")
for stage, value in now.items():
    print(f"| {stage} | {value:.2f} |")
total = sum(now.values())
print(f"| total | {total:.1f} |  wall on 2 cores {total / 2:.1f} h, on 4 cores {total / 4:.1f} h")
print(f"chapter 3's stability selection: modelled {stab_model:.2f} CPU-h, timed directly {direct / 3600:.2f}; "
      f"total with it timed directly {total - stab_model + direct / 3600:.1f} CPU-h")
