"""Chapter 3 before/after per stratum: timed strata, with the three 300 x 200 stability strata modelled per data set
(fixed part of the 25/50-subsample line + 11 fits x 1,000 subsamples x the mean ms per subsample over the six sets).
Third column ("now", this round): LPBoost column generation with 16 learners per round (the after ms per subsample
scaled by the now/before ratio measured side by side in stability_round3.json) and the lasso by LARS on the four
sets of the thesis config's dataset_selectors (the stratum's time less 11 fits x 1,000 subsamples x the measured
coordinate-descent - LARS difference per subsample).
Run from the repository root: python report/thesis_projection/chapter3_model.py"""
import json
from collections import defaultdict
a = json.load(open('report/thesis_projection/estimate_ch3_ch4.json'))
pb = json.load(open('report/thesis_projection/stability_ms_per_subsample_before.json')); pa = json.load(open('report/thesis_projection/stability_ms_per_subsample_after.json'))
syn = ["xor", "nonlinear_weston", "linear_weston", "fake_class", "linear_zhang_feature_noise", "linear_zhang_sample_noise"]
shape2ds = {"72x7129": "allaml", "102x5966": "prostate_ge", "62x2000": "colon", "30x5547": "tb_blood_gambia", "136x424": "tb_serum_metabolomics"}
r3 = json.load(open('report/thesis_projection/stability_round3.json'))
lars_sets = {"allaml", "prostate_ge", "colon", "tb_blood_gambia"}  # config/thesis.yaml chapter3.dataset_selectors
def lp_now(d):  # the after-round ms per subsample, scaled by this round's measured speed-up
    return pa[f"{d}/lpboost"] * r3[d]["lpboost_now"] / r3[d]["lpboost_before"]
lasso_syn_ms = 2.1  # /tmp/nlw.py: 1.6-2.7 ms per subsample on the synthetic sets
after = before = now = 0.0
rows = []
for r in a["results"]:
    if r.get("skipped") or r["stratum"][0] != "ch3_fold":
        continue
    meth = dict(tuple(x) for x in r["stratum"][1:])["ch3_method"]
    shape = dict(tuple(x) for x in r["stratum"][1:])["shape"]
    cpu_a = r["cpu"]; n = r["n_jobs"]
    learner = {"stabsel_logreg": "logistic", "stabsel_lpboost": "lpboost", "stabsel_lasso": "lasso"}.get(meth)
    if learner and shape == "300x200":  # one sampled set stands for six of very different cost: model it
        (v1, w1, c1, _), (v2, w2, c2, _) = r["reduced"]["points"]
        slope = (c2 - c1) / (v2 - v1); fixed = max(c1 - slope * v1, 0.5 * c1)
        ms_a = lasso_syn_ms if learner == "lasso" else sum(pa[f"{d}/{learner}"] for d in syn) / 6
        ms_b = lasso_syn_ms if learner == "lasso" else sum(pb[f"{d}/{learner}"] for d in syn) / 6
        ms_n = sum(lp_now(d) for d in syn) / 6 if learner == "lpboost" else ms_a
        cpu_a = fixed + 11 * 1000 * ms_a / 1e3
        cpu_b = fixed + 11 * 1000 * ms_b / 1e3
        cpu_n = fixed + 11 * 1000 * ms_n / 1e3
    elif learner in ("logistic", "lpboost"):
        d = shape2ds[shape]
        cpu_b = cpu_a + 11 * 1000 * (pb[f"{d}/{learner}"] - pa[f"{d}/{learner}"]) / 1e3
        cpu_n = cpu_a - (11 * 1000 * (pa[f"{d}/lpboost"] - lp_now(d)) / 1e3 if learner == "lpboost" else 0.0)
    elif learner == "lasso" and shape2ds.get(shape) in lars_sets:
        d = shape2ds[shape]
        cpu_b = cpu_a
        cpu_n = cpu_a - 11 * 1000 * (r3[d]["lasso_cd"] - r3[d]["lasso_lars"]) / 1e3
    else:
        cpu_b = cpu_n = cpu_a
    after += cpu_a * n; before += cpu_b * n; now += cpu_n * n
    rows.append((meth, shape, n, cpu_b, cpu_a, cpu_n))
for m, s, n, b, a_, n_ in sorted(rows, key=lambda r: -r[5] * r[2]):
    print(f"| {m} | {s} | {n} | {b:.0f} | {a_:.0f} | {n_:.0f} | {b*n/3600:.2f} | {a_*n/3600:.2f} | {n_*n/3600:.2f} |")
print("chapter 3 before", before / 3600, "after", after / 3600, "now", now / 3600)
