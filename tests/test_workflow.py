"""End-to-end: the real workflow on a tiny config in a temporary directory.

The tiny config is ``config.yaml`` overridden by every ``tests/workflow/*.yaml``
(one file per stage, merged in sorted order by Snakemake's ``--configfile``),
and by a user's own CSV (a string label column) added under ``datasets.csv``
and run through the chapter-3 and chapter-4 rules with no code change.
Each stage lists the outputs it must produce in ``EXPECTED`` below; the
content checks read the summaries behind the figures, so a figure that
silently loses its message fails here.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]
OVERRIDES = sorted((REPO / "tests" / "workflow").glob("*.yaml"))
SYNTHETIC = ["fake_class", "linear_zhang_feature_noise", "linear_zhang_sample_noise", "linear_weston",
             "nonlinear_weston", "xor"]

EXPECTED = {
    "spine": [
        "figures/table3_1.csv",
        "figures/table3_1.md",
        "figures/fig2_1.png",
        "figures/fig3_1.png",
        "figures/fig3_2.png",
        "figures/fig4_1.png",
        "figures/fig4_2.png",
        "results/datasets/xor.npz",
        "results/datasets/tb_serum_metabolomics.npz",
        "figures/table_A2.csv",
        "figures/table_A2.md",
    ],
    "chapter3": [
        "figures/fig2_2.png",
        "figures/fig2_3.png",
        "figures/fig2_4.png",
        *[f"figures/fig3_{i}.png" for i in range(3, 9)],
        "figures/chapter3_my_study.png",
        "figures/table3_2.csv",
        "figures/table3_2.md",
    ],
    "chapter4": [
        "figures/fig4_3.png",
        *[f"figures/fig4_{i}.png" for i in range(4, 10)],
        "figures/chapter4_my_study.png",
        "figures/figP_1.png",
    ],
    "features": [
        *[f"figures/{d}_features.{ext}" for d in [*SYNTHETIC, "my_study"] for ext in ("csv", "png")],
    ],
    "chapter5": [
        "figures/table_P1.csv",
        "figures/table_P1.md",
        "figures/fig5_1.png",
        "figures/fig5_2.png",
        "figures/fig5_3.png",
        "figures/fig5_4.png",
        "figures/fig5_5.png",
        "figures/fig5_5.csv",
        "figures/workflow_rulegraph.png",
        "results/chapter5/model/cleavage_model.pkl",
    ],
    "regression": [
        "figures/figR_2.png",
        "figures/figR_2.csv",
        "figures/figR_2.md",
    ],
    "multiclass": [
        "figures/figM_1.png",
        "figures/figM_1.csv",
        "figures/figM_1.md",
        "results/datasets/glioma.npz",
    ],
    "paper": [
        "figures/tableP_2.csv",
        "figures/tableP_2.md",
        "figures/figP_2.png",
    ],
    "environment": [
        "results/environment.json",
        "figures/environment.csv",
    ],
    "claims": [
        "figures/claims.csv",
        "figures/claims.md",
    ],
    "chapter5_data": [
        "results/peptides/windows.csv",
        "results/peptides/windows.json",
        "results/peptides/encoded.npz",
        "results/representation/sparse_filtering.npz",
        "results/representation/sparse_filtering.json",
        "results/peptides/homology.json",
    ],
}


def user_data(workdir):
    """A user's own study: a CSV with a patient id, a string label column and 12 genes (2 informative),
    and the config lines that add it under datasets.csv and to the chapter-3/4 data sets."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 12))
    status = np.where(X[:, 0] + 0.8 * X[:, 3] > 0, "sick", "well")
    df = pd.DataFrame(X, columns=[f"gene{j}" for j in range(12)]).round(4)
    df.insert(0, "status", status)
    df.insert(0, "patient", [f"p{i}" for i in range(60)])
    df.to_csv(workdir / "my_study.csv", index=False)
    sets = ", ".join([*SYNTHETIC, "my_study"])
    (workdir / "my_study.yaml").write_text(
        "datasets:\n  csv:\n    my_study:\n"
        f"      path: {workdir / 'my_study.csv'}\n"
        "      label_column: status\n      id_column: patient\n      positive_label: sick\n"
        f"chapter3:\n  datasets: [{sets}]\nchapter4:\n  datasets: [{sets}]\n"
    )
    return workdir / "my_study.yaml"


def snakemake(*args, cwd, extra=()):
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(cwd),
           "--configfile", str(REPO / "config.yaml"), *map(str, OVERRIDES), *map(str, extra), "--cores", "2", *args]
    # without a kernel choice of the machine's, so that the workflow's own (pin_cpu_kernels) is what runs
    from fscompbio.environment import KERNEL_VARIABLES

    env = {k: v for k, v in os.environ.items() if k not in KERNEL_VARIABLES}
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=1500, env=env)


@pytest.fixture(scope="module")
def workflow_run(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("workflow")
    run = snakemake(cwd=workdir, extra=[user_data(workdir)])
    assert run.returncode == 0, f"snakemake failed:\n{run.stdout[-3000:]}\n{run.stderr[-6000:]}"
    return workdir


def summary(workdir, chapter, dataset):
    return pd.read_csv(workdir / "results" / chapter / "summary" / f"{dataset}.csv").set_index(
        ["method", "model_selection"])


@pytest.mark.parametrize("stage", sorted(EXPECTED))
def test_workflow_produces_every_expected_output(workflow_run, stage):
    for rel in EXPECTED[stage]:
        path = workflow_run / rel
        assert path.is_file() and path.stat().st_size > 0, f"{stage}: missing {rel}"
        if path.suffix == ".png":
            assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{rel} is not a PNG"


def test_table3_1_has_the_six_sets(workflow_run):
    md = (workflow_run / "figures" / "table3_1.md").read_text()
    for label in ("Fake Class", "Linear Zhang - Feature Noise", "Non-Linear Weston", "Xor"):
        assert label in md


def test_figR_2_recovery_is_a_probability_that_rises_with_n(workflow_run):
    import pandas as pd

    t = pd.read_csv(workflow_run / "figures" / "figR_2.csv")
    assert set(t["method"]) == {"local_learning", "hsic_lasso"}
    assert t["probability"].between(0, 1).all()
    for method, g in t.groupby("method"):
        p = g.sort_values("n_samples")["probability"].to_numpy()
        assert p[-1] >= p[0], method
    # the local-learning selector finds all 4 relevant features of 204 with 200 samples
    ll = t[(t["method"] == "local_learning") & (t["n_samples"] == 200)]
    assert ll["probability"].iloc[0] == 1.0


def test_figM_1_accuracies_beat_the_largest_class(workflow_run):
    import pandas as pd

    t = pd.read_csv(workflow_run / "figures" / "figM_1.csv")
    assert set(t["method"]) == {"bahsic", "ovr_l1_logistic"}
    assert (t["dataset"] == "glioma").all() and (t["n_features"] == 4434).all()
    # four classes, the largest 15 of 50 samples: chance is at most 0.3
    assert (t["accuracy_mean"] > 0.35).all() and (t["accuracy_mean"] <= 1).all()
    assert (t["n_selected_mean"] >= 1).all() and (t["n_selected_mean"] < 4434).all()


def test_tableP_2_values(workflow_run):
    import pandas as pd

    t = pd.read_csv(workflow_run / "figures" / "tableP_2.csv").set_index("method")
    assert (t["n_reshuffles"] == 2).all() and (t["n_folds"] == 4).all()
    for q in ("accuracy_mean", "precision_mean", "recall_mean"):
        assert t[q].between(0, 1).all(), q
    # XOR: BaHSIC finds the interacting pair, the linear correlation filter cannot
    assert t.loc["bahsic", "recall_mean"] > t.loc["correlation", "recall_mean"]
    assert t.loc["bahsic", "accuracy_mean"] > t.loc["correlation", "accuracy_mean"]
    assert "± " in (workflow_run / "figures" / "tableP_2.md").read_text()


def test_claims_has_one_row_per_claim_with_a_verdict(workflow_run):
    """The claims rule evaluates every claim of fscompbio.claims on the tiny run's own tables."""
    from fscompbio.claims import CLAIMS, NOT_EVALUATED, VERDICTS

    table = pd.read_csv(workflow_run / "figures" / "claims.csv", keep_default_na=False)
    assert list(table["id"]) == [c.id for c in CLAIMS]
    assert set(table["verdict"]) <= set(VERDICTS), set(table["verdict"])
    # the tiny run makes the six synthetic sets of chapter 3: their claims are evaluated, not skipped
    verdicts = table.set_index("id")["verdict"]
    assert verdicts["kta_more_consistent"] != NOT_EVALUATED
    # over two draws of the synthetic sets (tests/workflow: draws.n = 2); draw 1 runs fewer outer folds, so it
    # is a replication beside the headline, never pooled into it
    rows = table.set_index("id")
    assert rows.loc["kta_more_consistent", "replication"].startswith("1 draw with ")
    assert rows.loc["kta_more_consistent", "draws"] == ""
    assert "Replications: Draw 1 (" in rows.loc["kta_more_consistent", "numbers"]
    assert rows.loc["kta_more_consistent", "verdict_by_reading"].startswith("width_grid=relative: ")
    assert (workflow_run / "results" / "chapter3" / "summary" / "xor_draw1.csv").is_file()
    assert "Verdicts: " in (workflow_run / "figures" / "claims.md").read_text()


def test_the_run_records_its_environment(workflow_run):
    from importlib import metadata

    from fscompbio.environment import compare_to_lock

    record = json.loads((workflow_run / "results" / "environment.json").read_text())
    for name in ("numpy", "scipy", "scikit-learn", "cvxpy", "highspy", "snakemake"):
        assert record["key_packages"][name] == metadata.version(name)
    assert record["lock"]["differences"] == compare_to_lock(REPO / "requirements" / "lock.txt")
    table = pd.read_csv(workflow_run / "figures" / "environment.csv", keep_default_na=False).set_index("package")
    assert table.loc["highspy", "installed"] == metadata.version("highspy")
    assert table.loc["highspy", "role"] == "key"
    # the jobs ran with the pinned kernels where this CPU can run them (else with OpenBLAS' own choice)
    from fscompbio.environment import pin_cpu_kernels

    pinned = pin_cpu_kernels({})  # the snakemake() runs have no kernel choice of their own
    if pinned:
        assert {b["architecture"] for b in record["blas"] if b["internal_api"] == "openblas"} == {
            pinned["OPENBLAS_CORETYPE"]}
        assert not set(record["numpy_simd"]["found"]) & set(pinned.get("NPY_DISABLE_CPU_FEATURES", "").split())


def test_second_run_has_nothing_to_do(workflow_run):
    run = snakemake("--dry-run", cwd=workflow_run, extra=[workflow_run / "my_study.yaml"])
    assert run.returncode == 0, run.stderr[-3000:]
    assert "Nothing to be done" in run.stdout + run.stderr


def _digests(root, patterns):
    files = sorted(p for pat in patterns for p in root.glob(pat) if not p.name.endswith(".timing.json"))
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in files}


def test_rerun_gives_byte_identical_outputs(workflow_run):
    """Same config, same bytes: rerun random jobs (folds with bootstraps and inner CV, data sets, spine
    figures) and compare every output but the wall-clock *.timing.json files."""
    patterns = ["results/chapter3/folds/my_study/*/*.json", "results/chapter3/summary/my_study.csv",
                "figures/chapter3_my_study.png", "results/datasets/xor.npz", "figures/fig4_2.png",
                "figures/fig4_1.png", "figures/table3_1.csv",
                # the regression, multi-class and randSel-paper stages (their wall-clock times are apart too)
                "results/regression/recovery/*/*/*.json", "figures/figR_2.csv",
                "results/multiclass/folds/*/*/*/*.json", "figures/figM_1.csv",
                "results/paper/tableP_2/*/*.json", "figures/tableP_2.csv"]
    before = _digests(workflow_run, patterns)
    timing = workflow_run / "results/chapter3/folds/my_study/stabsel_lasso/folds0-1.timing.json"
    assert timing.is_file()
    targets = ["figures/chapter3_my_study.png", "results/datasets/xor.npz", "figures/fig4_2.png",
               "figures/fig4_1.png", "figures/table3_1.csv", "figures/figR_2.csv", "figures/figM_1.csv",
               "figures/tableP_2.csv"]
    # the quick config's grouped rules: every chapter-3 method in one fold job, every synthetic set in one job
    run = snakemake("--forcerun", "ch3_fold_group1", "ch3_summary", "ch3_chapter3_my_study", "dataset",
                    "synthetic_datasets", "fig4_1", "fig4_2",
                    "table3_1", "reg_recovery", "reg_figR_2", "mc_fold", "mc_figM_1", "paper_tableP_2_method",
                    "paper_tableP_2", "--", *targets, cwd=workflow_run, extra=[workflow_run / "my_study.yaml"])
    assert run.returncode == 0, run.stderr[-3000:]
    assert "ch3_fold" in run.stdout + run.stderr  # the folds really ran again
    after = _digests(workflow_run, patterns)
    # 2 fold jobs, summary, figure, 4 spine outputs; 2 + 2 recovery points, 4 multi-class folds, 2 paper methods
    # and their three tables
    assert len(before) >= 8 + 13 and after == before
    assert not [k for k in before if k.endswith(".csv") and "seconds" in (workflow_run / k).read_text()]


def test_changed_seed_changes_the_results(workflow_run, tmp_path):
    """A different master seed gives other folds and bootstraps, hence another summary."""
    user = user_data(tmp_path)
    target = "results/chapter3/summary/my_study.csv"
    run = snakemake("--config", "seed=7", "--", target, cwd=tmp_path, extra=[user])
    assert run.returncode == 0, run.stderr[-3000:]
    assert (tmp_path / target).read_bytes() != (workflow_run / target).read_bytes()


def test_changed_seed_changes_the_claims_numbers_with_no_edit(workflow_run, tmp_path):
    """The numbers a reader sees come from the run: the chapter-4 targets of another seed give the claims
    other numbers (and the same claims), with no file edited."""
    from fscompbio.claims import CLAIMS, NOT_EVALUATED, claims_table, load_run

    user = user_data(tmp_path)
    targets = [f"results/chapter4/summary/{d}{s}.csv" for d in SYNTHETIC for s in ("", "_draw1")]
    run = snakemake("--config", "seed=7", "--", *targets, cwd=tmp_path, extra=[user])
    assert run.returncode == 0, run.stderr[-3000:]
    chapter4 = [c for c in CLAIMS if c.tables and all(k in {f"chapter4/{d}" for d in SYNTHETIC} for k in c.tables)]
    ours = claims_table(load_run(tmp_path / t for t in targets), chapter4).set_index("id")
    theirs = claims_table(load_run(workflow_run / t for t in targets), chapter4).set_index("id")
    # the tiny run has two of the four methods: the claims that need the others are not evaluated in either
    evaluated = theirs.index[theirs["verdict"] != NOT_EVALUATED]
    assert "ch4_fake_class_at_chance" in evaluated
    assert (ours.loc[evaluated, "replication"] != "").all()  # two draws each: draw 1 a replication
    assert (ours.loc[evaluated, "numbers"] != theirs.loc[evaluated, "numbers"]).all(), theirs.loc[evaluated]


# --------------------------------------------------------------------------
# content: the messages of the figures, read from the summaries behind them
# --------------------------------------------------------------------------
def _all_summaries(workdir):
    for chapter in ("chapter3", "chapter4"):
        for dataset in [*SYNTHETIC, "my_study"]:
            yield chapter, dataset, summary(workdir, chapter, dataset)


def test_every_rate_lies_in_the_unit_interval_and_ranges_hold_the_mean(workflow_run):
    for chapter, dataset, df in _all_summaries(workflow_run):
        for q in ("accuracy", "precision", "recall"):
            cols = [f"{q}_min", f"{q}_mean", f"{q}_max"]
            v = df[cols].to_numpy(dtype=float)
            if q != "accuracy" and dataset == "my_study":
                assert np.isnan(v).all(), f"{chapter}/{dataset}: {q} without ground truth"
                continue
            assert np.all((v >= 0) & (v <= 1)), f"{chapter}/{dataset} {q}: {v}"
            assert np.all(v[:, 0] <= v[:, 1] + 1e-12) and np.all(v[:, 1] <= v[:, 2] + 1e-12)
        assert (df["n_selected_min"] >= 0).all()
        others = df.drop(index="own", level="model_selection", errors="ignore")
        assert (others["n_selected_min"] >= 1).all()  # only an own model may be empty


def test_fake_class_accuracy_is_chance(workflow_run):
    """Permuted labels: every method's test accuracy over the 300 samples lies within chance bounds."""
    for chapter in ("chapter3", "chapter4"):
        acc = summary(workflow_run, chapter, "fake_class")["accuracy_mean"]
        assert acc.between(0.4, 0.6).all(), f"{chapter}: {acc.to_dict()}"


def test_linear_sets_are_learned(workflow_run):
    """Linear Weston: the relevant features are found (precision) and the classes separated; linear Zhang
    (sample noise) is learned above chance."""
    df = summary(workflow_run, "chapter3", "linear_weston")
    relative = df.drop(index="kta_abs", level="model_selection")
    assert (relative["accuracy_mean"] > 0.9).all(), relative["accuracy_mean"].to_dict()
    assert df.loc[("correlation", "kta"), "precision_mean"] > 0.8
    # KTA on the absolute grid: the thesis' "aggressive sparsity" (about one feature, at a cost in accuracy)
    assert df.loc[("correlation", "kta_abs"), "n_selected_mean"] <= 3
    assert df.loc[("correlation", "kta_abs"), "precision_mean"] == 1.0
    zs = summary(workflow_run, "chapter3", "linear_zhang_sample_noise")
    assert zs["accuracy_mean"].max() > 0.6


def test_nonlinear_weston_randsel_is_precise(workflow_run):
    """Thesis 4.3.1.5: randSel's selections on non-linear Weston are (near) perfectly precise."""
    df = summary(workflow_run, "chapter4", "nonlinear_weston")
    for msel in ("kta", "own"):
        assert df.loc[("randsel", msel), "precision_mean"] > 0.8, df.loc["randsel"].to_dict()
        assert df.loc[("randsel", msel), "accuracy_mean"] > 0.85


def test_own_model_only_for_randsel(workflow_run):
    df = summary(workflow_run, "chapter4", "xor")
    assert ("randsel", "own") in df.index and ("bahsic", "own") not in df.index


def test_user_data_is_learned(workflow_run):
    """The user's CSV (string labels, 2 informative genes of 12) is learned well above chance."""
    for chapter in ("chapter3", "chapter4"):
        df = summary(workflow_run, chapter, "my_study")
        assert df["accuracy_mean"].max() > 0.75, df["accuracy_mean"].to_dict()


def test_features_tables_name_the_features(workflow_run):
    """figures/my_study_features.csv names the CSV's genes; the per-fold JSON names them beside the indices."""
    table = pd.read_csv(workflow_run / "figures" / "my_study_features.csv")
    assert set(table["feature"]) <= {f"gene{j}" for j in range(12)} and set(table["chapter"]) == {"chapter3", "chapter4"}
    assert table["relevant"].isna().all() and table["selection_frequency"].between(0, 1).all()
    fold = json.loads((workflow_run / "results/chapter3/folds/my_study/correlation/folds0-1.json").read_text())
    for res in fold["folds"][0]["results"].values():
        assert res["selected_names"] == [f"gene{j}" for j in res["selected"]]


def test_table3_2_kta_is_faster_than_nested_cv(workflow_run):
    """KTA fits the ranking once per outer fold, nested CV once more per inner fold: where the fit costs (stability
    selection) KTA is faster; a ranking that costs nothing (correlation) leaves nested CV its SVM fits only."""
    table = pd.read_csv(workflow_run / "figures" / "table3_2.csv").set_index("method")
    assert (table["fold_decrease_mean"] > 0).all() and (table["n_pairs"] > 0).all(), table.to_dict("records")
    assert table.loc["stabsel_lasso", "fold_decrease_mean"] > 1, table.to_dict("records")
    md = (workflow_run / "figures" / "table3_2.md").read_text()
    assert "quick config" in md


def test_table_a2_lists_the_real_tasks(workflow_run):
    df = pd.read_csv(workflow_run / "figures" / "table_A2.csv").set_index("task")
    assert df.loc["my_study", "samples"] == 60 and df.loc["my_study", "features"] == 12
    classes = df.loc["my_study", "classes"]  # e.g. "sick 29 (+1), well 31"
    assert "(+1)" in classes and classes.index("sick") < classes.index("(+1)") < classes.index("well")
    assert sum(int(w) for w in classes.replace("(+1)", "").replace(",", " ").split() if w.isdigit()) == 60


def test_lint_reports_nothing():
    run = subprocess.run([sys.executable, "-m", "snakemake", "--lint", "-s", str(REPO / "Snakefile")],
                         cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Lints for" not in run.stdout + run.stderr, run.stdout + run.stderr


def test_bad_config_is_rejected_with_the_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: -3\n")
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(tmp_path),
           "--configfile", str(bad), "--dry-run"]
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert run.returncode != 0
    assert "seed" in run.stdout + run.stderr


def test_archive_redraws_the_report_without_refitting(workflow_run, tmp_path):
    """The archive of a run (its small results, benchmarks and figures) redraws every figure and table byte
    for byte in a fresh directory, with the fitting rules left out of the DAG: no fold is fitted again."""
    sys.path.insert(0, str(REPO))
    from tools.run_archive import collect, redraw, times

    archive = tmp_path / "archive"
    manifest = collect(workflow_run, [REPO / "config.yaml", *OVERRIDES, workflow_run / "my_study.yaml"], archive,
                       "all")
    assert manifest["n_jobs_not_run"] == 0 and manifest["jobs"] and manifest["report"]
    # the small results and what the drawing rules read; not the fitted models nor the large matrices
    assert not [f for f in manifest["files"] if f.endswith(".pkl")]
    assert {"results/environment.json", "results/chapter5/fig5_4.npz"} <= set(manifest["files"])
    assert "results/representation/sparse_filtering.npz" not in manifest["files"]
    # every timed job measured its own CPU time: more than nothing, at most its 2 threads for its wall time
    # (the benchmark's, which also counts Snakemake's start-up of the job)
    timed = [j["times"] for j in manifest["jobs"] if j["times"]]
    assert timed and all(0 < t["job_cpu_s"] <= 2 * t["s"] + 0.5 for t in timed)
    assert sum(p.stat().st_size for p in archive.rglob("*") if p.is_file()) < 20 * 2**20
    assert redraw(archive, tmp_path / "redraw", cores=2) == []
    redrawn = tmp_path / "redraw"
    assert not (redrawn / "logs" / "chapter3" / "folds").exists() and not list(redrawn.rglob("*.pkl"))
    assert "Drawn by commit" in (redrawn / "figures" / "PROVENANCE.md").read_text()
    stages = times(archive)
    assert "| chapter3 |" in stages and "| chapter4 |" in stages
    # results a changed config value would compute again are not that config's: collect refuses them
    changed = tmp_path / "changed.yaml"
    changed.write_text("spine:\n  fig2_1:\n    n_alphas: 7\n")
    with pytest.raises(ValueError, match="not up to date .* figures/fig2_1.png"):
        collect(workflow_run, [REPO / "config.yaml", *OVERRIDES, workflow_run / "my_study.yaml", changed],
                tmp_path / "archive2", "all")


def test_sparse_filtering_does_not_depend_on_the_cores(workflow_run, tmp_path):
    """L-BFGS amplifies the summation order of a threaded matrix product into different features: the fit's
    BLAS threads come from the config, so ``--cores 1`` learns the same features as the run's ``--cores 2``."""
    target = "results/representation/sparse_filtering.npz"
    (tmp_path / "results" / "peptides").mkdir(parents=True)
    shutil.copyfile(workflow_run / "results" / "peptides" / "encoded.npz",
                    tmp_path / "results" / "peptides" / "encoded.npz")
    cmd = [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(tmp_path),
           "--configfile", str(REPO / "config.yaml"), *map(str, OVERRIDES), "--cores", "1",
           "--allowed-rules", "ch5_sparse_filtering", "--", target]
    run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    mine, theirs = np.load(tmp_path / target), np.load(workflow_run / target)
    assert np.array_equal(mine["W"], theirs["W"]) and np.array_equal(mine["X"], theirs["X"])
