"""The archived thesis run's CPU-hours with the lasso's fast paths applied (bench/bench_fast_paths.py (d), (e)).

Reads the CPU time every job of the archived thesis run measured itself (``archive/thesis/parts/*.json``,
``times.job_cpu_s``; the totals of ``archive/thesis/TIMES.md``) and replaces, in the jobs of stability selection
with the lasso, the selector's part by that part divided by the ratio measured for its fold shape. The part
no speed-up touches, a job's fixed cost (start-up, model selection, SVMs), is taken as the mean CPU time of
the correlation jobs of the same data set (chapter 3) or of the same table (the randSel paper), whose
selector costs milliseconds. Prints the stage totals before and after, per data set where it changes.

Run from the repository root (reads JSON only): ``.venv/bin/python bench/thesis_cost/long_poles_projection.py``.
Snakemake's own scheduling is not in the jobs' times: whole quick runs measured 1.0-1.3 CPU-s of it per job
(the Snakemake process's CPU time less its jobs'), about 0.6-0.75 CPU-hours over the thesis run's 2,101 jobs.
"""

import collections
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: CPU ratio reference / fast path of the lasso's stability selection per data set (bench/README.md, measured
#: 2026-11-26): coordinate descent called directly (d) on the 300 x 200 sets (XOR's fold), TB serum and the
#: randSel paper's 300 x 100 sets (xor_100's fold); LARS with a bounded path (e) on the four micro-arrays.
RATIOS = {"synthetic 300 x 200": 1.19, "tb_serum_metabolomics": 1.11, "allaml": 1.29, "prostate_ge": 1.14,
          "colon": 1.12, "tb_blood_gambia": 1.57, "paper 300 x 100": 2.43}
REAL = ("tb_serum_metabolomics", "allaml", "prostate_ge", "colon", "tb_blood_gambia")


def jobs():
    for path in sorted((ROOT / "archive" / "thesis" / "parts").glob("*.json")):
        for job in json.loads(path.read_text()).get("jobs", []):
            if isinstance(job, dict) and (job.get("times") or {}).get("job_cpu_s") is not None:
                yield path.stem, job["rule"], job["outputs"][0], float(job["times"]["job_cpu_s"])


def main():
    stage = collections.Counter()
    lasso = collections.defaultdict(list)  # group -> CPU s of its stabsel_lasso jobs
    fixed = collections.defaultdict(list)  # group -> CPU s of its correlation jobs
    for part, rule, out, cpu in jobs():
        stage[part] += cpu
        parts = out.split("/")
        if rule == "ch3_fold":
            name, method = parts[3], parts[4]
            group = name if name in REAL else "synthetic 300 x 200"
        elif rule == "paper_tableP_2_method":
            group, method = "paper 300 x 100", parts[4].removesuffix(".json")
        else:
            continue
        if method == "stabsel_lasso":
            lasso[group].append((part, cpu))
        elif method == "correlation":
            fixed[group].append(cpu)
    saved = collections.Counter()
    print(f"{'lasso stability selection':32s} {'jobs':>5s} {'CPU s':>8s} {'fixed s/job':>11s} {'ratio':>6s} {'new CPU s':>9s}")
    for group, rows in sorted(lasso.items()):
        f = sum(fixed[group]) / len(fixed[group])
        before = sum(c for _, c in rows)
        after = sum(min(c, f) + max(c - f, 0.0) / RATIOS[group] for _, c in rows)
        for part, c in rows:
            saved[part] += c - (min(c, f) + max(c - f, 0.0) / RATIOS[group])
        print(f"{group:32s} {len(rows):5d} {before:8.0f} {f:11.1f} {RATIOS[group]:6.2f} {after:9.0f}")
    print(f"\n{'stage':16s} {'CPU-h archived':>14s} {'CPU-h with the fast paths':>26s}")
    for part in sorted(stage):
        print(f"{part:16s} {stage[part] / 3600:14.2f} {(stage[part] - saved[part]) / 3600:26.2f}")
    total, new = sum(stage.values()) / 3600, (sum(stage.values()) - sum(saved.values())) / 3600
    print(f"{'all jobs':16s} {total:14.2f} {new:26.2f}   (saved {total - new:.2f} CPU-h)")


if __name__ == "__main__":
    main()
