"""Round 4 (2026-11-23): the thesis-config projection after the fast paths of this round, stratum by stratum.

Applies measured speed-ups to the part of each stratum's job time that the changed code takes (the slope of the
stratum's reduced-size line, or the selector fits), never to the fixed part:
- l1-logistic stability selection, working set, on the five real sets of chapter 3: fixed part + 11 fits x
  1,000 subsamples x its ms per subsample in stability_round4.json (measured side by side with liblinear on all
  features), as the synthetic strata were modelled; the lasso by LARS on the four wide sets the same way;
- LPBoost column generation: bench/bench_lpboost_stability.py's per-set ratios (one process, alternating), on
  the 300 x 200 sets (the real sets: not measured, left unchanged);
- FoHSIC: bench/bench_hsic_candidates.py's whole-fit ratios (30 steps: 5.7x on tox_171, 5.9x on prostate, 2.9x
  on XOR 300 x 200) on the per-step slope of every FoHSIC stratum of chapter 4 and the multi-class figure (the
  other wide sets take prostate's ratio);
- local-learning regression: bench/bench_local_learning.py's per-fit ratio at n = 300 (LOCAL_LEARNING below).
Run from the repository root: python report/thesis_projection/round4.py"""
import contextlib
import io
import json
import runpy

with contextlib.redirect_stdout(io.StringIO()):
    ch3 = runpy.run_path("report/thesis_projection/chapter3_model.py")
est = {}
for f in ("estimate_ch3_ch4", "estimate_multiclass", "estimate_multiclass_paper_round3"):
    for r in json.load(open(f"report/thesis_projection/{f}.json"))["results"]:
        if not r.get("skipped"):
            est[repr(r["stratum"])] = r
r4 = json.load(open("report/thesis_projection/stability_round4.json"))
shape2ds = {"72x7129": "allaml", "102x5966": "prostate_ge", "62x2000": "colon", "30x5547": "tb_blood_gambia",
            "136x424": "tb_serum_metabolomics"}
# bench/bench_lpboost_stability.py, 2026-11-23 (old / new ms per subsample, best of 3 alternating rounds)
LPBOOST = {"xor": 18.17 / 14.39, "nonlinear_weston": 16.16 / 13.38, "fake_class": 17.11 / 13.71,
           "linear_zhang_feature_noise": 15.67 / 13.12, "linear_zhang_sample_noise": 9.74 / 9.58,
           "linear_weston": 2.57 / 2.12}
FOHSIC_WIDE, FOHSIC_TOX, FOHSIC_SYN = 6.1 / 1.0, 13.2 / 2.3, 0.89 / 0.31  # bench/bench_hsic_candidates.py (c)
LOCAL_LEARNING = None  # set below when measured


def fixed_part(r):
    (v1, _, c1, _), (v2, _, c2, _) = r["reduced"]["points"][:2]
    slope = (c2 - c1) / (v2 - v1)
    return max(c1 - slope * v1, 0.0)


rows = []  # (stage, stratum, jobs, s/job round 3, s/job round 4)
for meth, shape, n, _, _, now in ch3["rows"]:
    new = now
    key = repr(["ch3_fold", ["ch3_method", meth], ["shape", shape]])
    if meth == "stabsel_logreg" and shape in shape2ds:
        # fixed part + 11 fits x 1,000 subsamples x the working set's ms per subsample (stability_round4.json)
        new = fixed_part(est[key]) + 11 * 1000 * r4[shape2ds[shape]]["logistic_working_set"] / 1e3
    elif meth == "stabsel_lasso" and shape2ds.get(shape) in ch3["lars_sets"]:
        # round 3 subtracted (coordinate descent - LARS) from a coordinate-descent job timed under load, which
        # left 120-270 s per job; modelled as the synthetic strata are: fixed part + 11 x 1,000 x LARS' ms per
        # subsample (stability_round3.json). Timed directly this round at 25/50 subsamples: 67 / 101 / 18 / 39 s.
        new = fixed_part(est[key]) + 11 * 1000 * ch3["r3"][shape2ds[shape]]["lasso_lars"] / 1e3
    elif meth == "stabsel_lpboost" and shape == "300x200":
        # the modelled stratum: fixed + 11 fits x 1,000 subsamples x the mean ms over the six sets
        fx = fixed_part(est[key])
        syn = ch3["syn"]
        ms_now = sum(ch3["lp_now"](d) for d in syn) / 6
        ms_new = sum(ch3["lp_now"](d) / LPBOOST[d] for d in syn) / 6
        new = fx + (now - fx) * ms_new / ms_now
    rows.append(("chapter 3", f"{meth} {shape}", n, now, new))
for key, r in est.items():
    st = r["stratum"]
    if st[0] not in ("ch4_fold", "mc_fold"):
        continue
    wc = dict(tuple(x) for x in st[1:])
    meth = wc.get("ch4_method") or wc.get("mc_method")
    if meth != "fohsic":
        continue
    shape = wc["shape"]
    ratio = FOHSIC_TOX if shape == "171x5748" else FOHSIC_SYN if shape == "300x200" else FOHSIC_WIDE
    fx = fixed_part(r) if r.get("reduced") else 3.0  # unreduced strata: ~3 s of SVMs and I/O
    new = fx + (r["cpu"] - fx) / ratio
    stage = "chapter 4" if st[0] == "ch4_fold" else "multi-class"
    rows.append((stage, f"fohsic {wc.get('mc_msel', '')} {shape}".replace("  ", " "), r["n_jobs"], r["cpu"], new))
total3 = total4 = 0.0
by_stage = {}
for stage, name, n, a, b in rows:
    by_stage.setdefault(stage, [0.0, 0.0])
    by_stage[stage][0] += a * n / 3600
    by_stage[stage][1] += b * n / 3600
for stage, name, n, a, b in sorted(rows, key=lambda r: -(r[3] - r[4]) * r[2]):
    if (a - b) * n / 3600 >= 0.01:
        print(f"| {stage} | {name} | {n} | {a:.0f} | {b:.0f} | {(a - b) * n / 3600:.2f} |")
for stage, (a, b) in by_stage.items():
    print(f"{stage}: strata touched {a:.2f} -> {b:.2f} CPU-h (saved {a - b:.2f})")
print(f"saved in all: {sum(a - b for a, b in by_stage.values()):.2f} CPU-h")

# --- strata re-timed this round with scripts/estimate.py (estimate_round4_*.json), against their earlier timing
old = {}
for f in ("estimate_ch3_ch4", "estimate_multiclass", "estimate_multiclass_paper_round3",
          "estimate_regression_single_jobs", "estimate_ch5"):
    for r in json.load(open(f"report/thesis_projection/{f}.json"))["results"]:
        if not r.get("skipped"):
            old[repr(r["stratum"])] = r
retimed = {}  # stage -> [earlier CPU-h, now CPU-h]
for f in ("estimate_round4_regression_hsic_rfe", "estimate_round4_ch5_paper"):
    for r in json.load(open(f"report/thesis_projection/{f}.json"))["results"]:
        if r.get("skipped") or r["stratum"][0] == "ch5_predict":
            continue
        o = old.get(repr(r["stratum"]))
        if o is None and r["stratum"][0] != "paper_tableP_2_method":
            # Gaussian RFE on colon and AML/ALL: not timed before, estimated at 0.1 CPU-h each (round 2)
            earlier = 0.1
        elif o is None:
            continue  # the paper's table: never timed before (below)
        else:
            earlier = o["cpu"] * o["n_jobs"] / 3600
        acc = retimed.setdefault(r["stage"], [0.0, 0.0])
        acc[0] += earlier
        acc[1] += r["cpu"] * r["n_jobs"] / 3600
for stage, (a, b) in retimed.items():
    print(f"{stage}: re-timed strata {a:.2f} -> {b:.2f} CPU-h (saved {a - b:.2f})")
new5 = {tuple(map(tuple, r["stratum"][1:])): r for r in
        json.load(open("report/thesis_projection/estimate_round4_ch5_paper.json"))["results"] if not r.get("skipped")}
paper_now = sum(r["cpu"] * r["n_jobs"] for k, r in new5.items() if r["stratum"][0] == "paper_tableP_2_method") / 3600
paper_now += 0.05  # figure P.2 and randSel's history (3 jobs; round 2: < 0.05)


def ch5_job(approach, protocol):
    return new5[(("approach", approach), ("cv", "random"), ("protocol", protocol))]["cpu"]


# chapter 5, measured whole in round 3 (report/chapter5_measurements.md: job-seconds, 2 jobs at a time): SF + RFE
# 4,930 s over 20 jobs (random CV), SF + randSel 2,580 over 40 (random and homology-aware CV; the homology-aware
# jobs taken at the random ones' re-timed CPU); the other rows as measured then
ch5_then = 14256.0
rfe_now = 10 * (ch5_job("rfe", "paper") + ch5_job("rfe", "adequate"))
randsel_now = 2 * 10 * (ch5_job("randsel", "paper") + ch5_job("randsel", "adequate"))
ch5_now = ch5_then - 4930 - 2580 + rfe_now + randsel_now
print(f"chapter 5: SF + RFE 4930 -> {rfe_now:.0f} s, SF + randSel 2580 -> {randsel_now:.0f} s; "
      f"{ch5_then / 3600:.2f} -> {ch5_now / 3600:.2f} CPU-h")
round3 = {"chapter 3": 11.5, "chapter 4": 3.6, "chapter 5": ch5_then / 3600, "regression": 2.9,
          "multi-class": 2.9, "randSel paper": 1.5, "spine": 0.05}
now4 = dict(round3)
for stage, (a, b) in by_stage.items():
    now4[stage] -= a - b
for stage, (a, b) in retimed.items():
    key = {"regression (figure R.2)": "regression", "multi-class (figure M.1)": "multi-class"}.get(stage, stage)
    if key in now4 and key != "randSel paper" and not key.startswith("randSel paper"):
        now4[key] -= a - b  # the paper's table is replaced whole below
# chapter 4's randSel strata: estimated at 1.4 CPU-h in round 2 (selector fits x 11 + 6 s), timed this round
# (estimate_round4_ch4_randsel.json: the 300 x 200 stratum in full, the real sets at 250/500 of 5,000-10,000 subsets)
ch4_randsel = sum(r["cpu"] * r["n_jobs"] for r in json.load(open(
    "report/thesis_projection/estimate_round4_ch4_randsel.json"))["results"] if not r.get("skipped")) / 3600
print(f"chapter 4 randSel: 1.40 (estimated) -> {ch4_randsel:.2f} CPU-h (timed)")
now4["chapter 4"] -= 1.4 - ch4_randsel
now4["chapter 5"] = ch5_now / 3600
now4["randSel paper"] = paper_now
print("| stage | round 3 (CPU-h) | round 4 (CPU-h) |")
for stage in round3:
    print(f"| {stage} | {round3[stage]:.2f} | {now4[stage]:.2f} |")
t3, t4 = sum(round3.values()), sum(now4.values())
print(f"| total | {t3:.1f} | {t4:.1f} |  -> wall on 2 cores {t3 / 2:.1f} h -> {t4 / 2:.1f} h")
