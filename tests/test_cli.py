"""The fscompbio command on users' data: select, evaluate, encode; help, progress, atomic outputs."""

import io
import json
import os
import stat
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from fscompbio.cli import SUBCOMMANDS, main
from fscompbio.datasets import load_csv_dataset, load_dataset, make_dataset
from fscompbio.evaluation import (fold_seeds, make_selector, multiclass_fold, outer_splits, regression_fold,
                                  regression_seeds, regression_splits, run_outer_fold)
from fscompbio.model_selection import KTASelect, NestedCVRegressionSelect
from fscompbio.seeding import derive_seed
from fscompbio.sequences import cleavage_windows, encode_windows, encoding_feature_names, read_signal_peptides

SEQ_A = "MKWVTFISLLLLFSSAYSRGVFRRDTHKSEIAHRFKDLGEEHFKGLVLIAFSQYLQQ"  # 57 residues
SEQ_B = "MALWMRLLPLLALLALWGPDPAAAFVNQHLCGSHLVEALYLVCGERGFFYTPKTRRE"
SEQ_C = "MKLLAVLALAGAQAMKLLAVLALAGAQAMKLLAVLALAGAQAMKLLAVLALAGAQA"


def _write_csv(path, X, labels, names, ids=None):
    df = pd.DataFrame(X, columns=names)
    df.insert(0, "label", labels)
    df.insert(0, "sample_id", ids if ids is not None else [f"s{i}" for i in range(len(labels))])
    df.to_csv(path, index=False, float_format="%.6f")
    return path


def _planted_csv(tmp_path, seed, n=120, d=30):
    """Linear Weston-like data, its 3 relevant features at random columns with gene-like names."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    y = np.where(X[:, 0] + X[:, 1] - X[:, 2] > 0, "tumour", "normal")
    perm = rng.permutation(d)
    names = [f"gene_{rng.integers(10**5)}_{j}" for j in range(d)]
    Xp = X[:, perm]  # column c of the file is original feature perm[c]
    relevant = {names[c] for c in range(d) if perm[c] < 3}
    return _write_csv(tmp_path / f"planted{seed}.csv", Xp, y, names), relevant


def test_make_dataset_and_select(tmp_path):
    npz = tmp_path / "weston.npz"
    assert main(["make-dataset", "linear_weston", "--seed", "3", "--output", str(npz)]) == 0
    assert load_dataset(npz).X.shape == (300, 200)
    out = tmp_path / "sel.json"
    assert main(["select", str(npz), "--method", "correlation", "--output", str(out)]) == 0
    res = json.loads(out.read_text())
    assert sorted(res["ranking"]) == list(range(1, 201))
    top10 = np.argsort(res["ranking"])[:10]
    assert np.mean(top10 < 10) >= 0.8  # the planted features lead the ranking
    assert set(res["selected_indices"]) and res["alignment"] > 0


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_select_names_the_planted_features(tmp_path, seed):
    csv, relevant = _planted_csv(tmp_path, seed)
    out = tmp_path / "sel.json"
    assert main(["select", str(csv), "--method", "correlation", "--top", "3", "--output", str(out)]) == 0
    res = json.loads(out.read_text())
    assert set(res["top_features"]) == relevant
    assert res["ranked_features"][:3] == res["top_features"]
    assert sorted(res["ranked_features"]) == sorted(res["feature_names"])
    assert relevant <= set(res["selected"])  # KTA keeps the three
    assert [res["feature_names"][j] for j in res["selected_indices"]] == res["selected"]


def test_select_a_fixed_number_of_features(tmp_path):
    csv, relevant = _planted_csv(tmp_path, 4)
    out = tmp_path / "sel.json"
    assert main(["select", str(csv), "--method", "correlation", "--n-features", "5", "--output", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["selected"] == res["ranked_features"][:5] and relevant <= set(res["selected"])
    # the width is the one of maximal alignment over the default grid on these five features
    ds_X = pd.read_csv(csv)[res["selected"]].to_numpy()
    y = np.where(pd.read_csv(csv)["label"] == "tumour", 1, -1)
    _, gammas, scores = KTASelect().alignment_table(ds_X, y, np.arange(1, 6))
    assert res["gamma"] == pytest.approx(gammas[-1, np.argmax(scores[-1])])
    assert res["alignment"] == pytest.approx(scores[-1].max())


def test_select_on_a_single_feature_and_with_constant_features(tmp_path, capsys):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(40)
    labels = np.where(x > 0, "b", "a")
    one = _write_csv(tmp_path / "one.csv", x[:, None], labels, ["only"])
    out = tmp_path / "one.json"
    assert main(["select", str(one), "--method", "correlation", "--output", str(out)]) == 0
    assert json.loads(out.read_text())["selected"] == ["only"]
    X = np.column_stack([np.full(40, 2.0), x, rng.standard_normal(40), np.zeros(40)])
    const = _write_csv(tmp_path / "const.csv", X, labels, ["flat", "signal", "noise", "zero"])
    out = tmp_path / "const.json"
    capsys.readouterr()
    assert main(["select", str(const), "--method", "correlation", "--output", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["ranked_features"][0] == "signal" and set(res["ranked_features"][2:]) == {"flat", "zero"}
    assert np.all(np.isfinite(res["scores"]))
    warning = capsys.readouterr().err.strip()
    assert warning == f"fscompbio: warning: {const}: 2 constant feature(s) ['flat', 'zero']: they carry no " \
                      "information about the labels"


@pytest.mark.parametrize("method, params", [("correlation", {}), ("stabsel_lasso", {"n_bootstraps": 5})])
def test_evaluate_runs_the_protocol_and_prints_the_fold_table(tmp_path, capsys, method, params):
    csv, relevant = _planted_csv(tmp_path, 5, n=90, d=20)
    out = tmp_path / "folds.json"
    argv = ["evaluate", str(csv), "--method", method, "--folds", "3", "--seed", "7", "--output", str(out)]
    assert main(argv + [f"--param={k}={v}" for k, v in params.items()]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[:4] == ["fold", "train", "test", "accuracy"] and len(table) == 5
    assert table[-1].startswith("mean accuracy")
    res = json.loads(out.read_text())
    # the same as the protocol runner called directly with the documented seeds
    df = pd.read_csv(csv)
    X, y = df.drop(columns=["sample_id", "label"]).to_numpy(), np.where(df["label"] == "tumour", 1, -1)
    # the workflow's seeds (fold_seeds): chapter 3 for these methods, the CSV's name without suffixes
    seeds = [fold_seeds(7, "chapter3", csv.name.split(".")[0], method, k) for k in range(3)]
    splits = outer_splits(y, 3, random_state=seeds[0].outer)
    for k, (train, test) in enumerate(splits):
        selector = make_selector(method, params, random_state=seeds[k].selector)
        ref = run_outer_fold(X, y, train, test, selector, kta=KTASelect())
        fold = res["folds"][k]
        assert fold["accuracy"] == ref["accuracy"] and fold["selected"] == ref["selected"]
        assert fold["selected_features"] == [res_name for res_name in df.columns[2:][ref["selected"]]]
        assert f"{ref['accuracy']:.3f}" in table[k + 1]
        assert len(relevant & set(fold["selected_features"])) >= 2  # of the 3 planted
    assert res["summary"]["accuracy_mean"] == pytest.approx(np.mean([f["accuracy"] for f in res["folds"]]))
    assert res["summary"]["accuracy_mean"] > 0.75 and res["params"] == params


def test_evaluate_with_nested_cv(tmp_path, capsys):
    csv, relevant = _planted_csv(tmp_path, 6, n=60, d=10)
    assert main(["evaluate", str(csv), "--method", "correlation", "--folds", "2", "--model-selection", "cv",
                 "--inner-folds", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 4 and "mean accuracy" in out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_select_by_randsels_own_test_names_the_planted_features(tmp_path, seed):
    csv, relevant = _planted_csv(tmp_path, seed)
    out = tmp_path / "sel.json"
    assert main(["select", str(csv), "--method", "randsel", "--model-selection", "own", "--seed", "3",
                 "--output", str(out)]) == 0
    res = json.loads(out.read_text())
    assert set(res["selected"]) == relevant and res["model_selection"] == "own"
    # the estimator's own test, fitted with the same seed, listed best-ranked first, with its p-values
    df = pd.read_csv(csv)
    X, y = df.drop(columns=["sample_id", "label"]).to_numpy(), np.where(df["label"] == "tumour", 1, -1)
    rs = make_selector("randsel", random_state=3).fit(X, y)
    assert sorted(res["selected_indices"]) == rs.selected_.tolist()
    assert res["selected_indices"] == sorted(res["selected_indices"], key=lambda j: res["ranking"][j])
    assert res["pvalues"] == pytest.approx(rs.pvalues_.tolist())
    assert max(res["pvalues"][j] for j in res["selected_indices"]) <= 0.05
    _, gammas, scores = KTASelect().alignment_table(X[:, rs.selected_], y, np.arange(1, 4))
    assert res["gamma"] == pytest.approx(gammas[-1, np.argmax(scores[-1])])


def test_own_model_needs_a_method_with_a_test_of_its_own(tmp_path, capsys):
    csv, _ = _planted_csv(tmp_path, 0, n=40, d=5)
    for command in ("select", "evaluate"):
        assert main([command, str(csv), "--method", "correlation", "--model-selection", "own"]) == 2
        assert capsys.readouterr().err.strip() == (
            f"fscompbio {command}: error: argument --model-selection: correlation only ranks the features; own "
            "needs a method that chooses them itself (randsel)")


@pytest.mark.filterwarnings("default::fscompbio.selection.EmptySelectionWarning")  # shown, as outside pytest
def test_an_empty_own_selection_is_a_console_warning_and_null_width(tmp_path, capsys):
    rng = np.random.default_rng(0)
    noise = _write_csv(tmp_path / "noise.csv", rng.standard_normal((60, 8)), rng.choice(["a", "b"], 60),
                       [f"g{j}" for j in range(8)])
    argv = ["select", str(noise), "--method", "randsel", "--seed", "1"]
    assert main(argv + ["--model-selection", "own"]) == 0
    captured = capsys.readouterr()
    res = json.loads(captured.out)  # strict JSON: no NaN
    assert res["selected"] == [] and res["gamma"] is None and res["sigma"] is None and res["alignment"] is None
    assert captured.err.startswith("fscompbio: warning: RandSel selected no feature: ")
    assert captured.err.rstrip().endswith("On the command line: --param n_features_to_select=K or --param alpha=A.")
    assert captured.err.count("\n") == 1 and ".py:" not in captured.err  # one line, no file of the library
    # ranked and chosen by KTA, the test's empty set is not used: no warning
    assert main(argv + ["--model-selection", "kta"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and json.loads(captured.out)["selected"]
    # evaluate: the empty folds' table rows (no width) and one warning that counts them
    assert main(["evaluate", str(noise), "--method", "randsel", "--model-selection", "own", "--folds", "3"]) == 0
    captured = capsys.readouterr()
    rows = captured.out.splitlines()[1:4]
    assert [row.split()[4:6] for row in rows] == [["0", "-"]] * 3
    assert captured.err == (f"fscompbio: warning: {noise}: randsel's test kept no feature in 3 of 3 folds (0, 1, 2), "
                            "which predict the training part's majority class; to keep more, --param alpha=A "
                            "(larger) or --param n_features_to_select=K\n")


def test_evaluate_with_randsels_own_model(tmp_path, capsys):
    csv, relevant = _planted_csv(tmp_path, 8, n=90, d=12)
    out = tmp_path / "folds.json"
    assert main(["evaluate", str(csv), "--method", "randsel", "--model-selection", "own", "--folds", "3",
                 "--output", str(out)]) == 0
    res = json.loads(out.read_text())
    df = pd.read_csv(csv)
    X, y = df.drop(columns=["sample_id", "label"]).to_numpy(), np.where(df["label"] == "tumour", 1, -1)
    seeds = [fold_seeds(0, "chapter4", csv.name.split(".")[0], "randsel", k) for k in range(3)]
    for k, (train, test) in enumerate(outer_splits(y, 3, random_state=seeds[0].outer)):
        ref = run_outer_fold(X, y, train, test, make_selector("randsel", random_state=seeds[k].selector),
                             model_selection="own")
        assert res["folds"][k]["selected"] == ref["selected"] and res["folds"][k]["accuracy"] == ref["accuracy"]
        chosen = set(res["folds"][k]["selected_features"])
        assert chosen <= relevant and len(chosen) >= 2  # the test keeps no noise, and 2 or 3 of 60 samples' 3
    assert res["model_selection"] == "own"


def test_json_on_stdout_is_only_json_with_an_lp_solver(tmp_path):
    """The LP solver's banner, printed by its C library once per process, goes to stderr, not into the JSON."""
    csv, _ = _planted_csv(tmp_path, 0, n=40, d=5)
    proc = subprocess.run([sys.executable, "-m", "fscompbio.cli", "select", str(csv), "--method", "stabsel_lpboost",
                           "--param", "n_bootstraps=3", "--model-selection", "none"],
                          capture_output=True, text=True, check=True)
    assert json.loads(proc.stdout)["method"] == "stabsel_lpboost"
    assert "HiGHS" in proc.stderr


def _planted_task_csv(tmp_path, seed, task, n=150, d=12):
    """Three classes decided by two features, or a real-valued label of two (one through a sine), at random
    columns."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    if task == "multiclass":
        scores = np.column_stack([X[:, 0], X[:, 1], -(X[:, 0] + X[:, 1])])
        y = np.array(["alpha", "beta", "gamma"])[np.argmax(scores, axis=1)]
    else:
        y = X[:, 0] + 2 * np.sin(X[:, 1]) + 0.1 * rng.standard_normal(n)
    perm = rng.permutation(d)
    names = [f"f{rng.integers(10**5)}_{j}" for j in range(d)]
    relevant = {names[c] for c in range(d) if perm[c] < 2}
    return _write_csv(tmp_path / f"{task}{seed}.csv", X[:, perm], y, names), relevant


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("task, method, model_selection", [
    ("multiclass", "randsel", "kta"), ("multiclass", "randsel", "own"), ("multiclass", "bahsic", "kta"),
    ("multiclass", "fohsic", "kta"), ("regression", "randsel", "kta"), ("regression", "randsel", "own"),
    ("regression", "bahsic", "kta"), ("regression", "hsic_lasso", "kta"), ("regression", "local_learning", "kta"),
])
def test_select_finds_the_planted_features_of_several_classes_or_a_real_valued_label(
        tmp_path, task, method, model_selection, seed):
    csv, relevant = _planted_task_csv(tmp_path, seed, task)
    out = tmp_path / "sel.json"
    assert main(["select", str(csv), "--method", method, "--model-selection", model_selection, "--top", "2",
                 "--output", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["task"] == task and set(res["top_features"]) == relevant and set(res["selected"]) == relevant


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_real_valued_label_of_whole_numbers_is_not_taken_for_classes(tmp_path, seed):
    """A score written as 151.0, 75.0, ...: real-valued for the CSV's reader, and so for the selector and KTA,
    whose inference would otherwise see a hundred-odd classes and choose the narrowest width on every feature."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((150, 10))
    y = np.round(150 + 40 * X[:, 0] + 60 * np.sin(X[:, 1])).astype(float)
    csv = _write_csv(tmp_path / "score.csv", X, y, [f"m{j}" for j in range(10)])
    out = tmp_path / "sel.json"
    assert main(["select", str(csv), "--method", "bahsic", "--output", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["task"] == "regression" and sorted(res["selected"]) == ["m0", "m1"]


def test_a_score_written_as_integers_needs_task_regression(tmp_path, capsys):
    """Integers with many values read as classes; the error names the option that reads them as a score."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((90, 6))
    y = np.round(150 + 40 * X[:, 0] + 60 * np.sin(X[:, 1])).astype(int)
    csv = _write_csv(tmp_path / "score.csv", X, y, [f"m{j}" for j in range(6)])
    assert main(["evaluate", str(csv), "--method", "bahsic", "--folds", "3"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"fscompbio: error: {csv}: label ") and err.endswith(
        "each class needs at least 3 (for a real-valued target, add --task regression)")
    out = tmp_path / "folds.json"
    assert main(["evaluate", str(csv), "--method", "bahsic", "--folds", "3", "--task", "regression",
                 "--model-selection", "kta", "--output", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["task"] == "regression" and all(sorted(f["selected_features"]) == ["m0", "m1"] for f in res["folds"])
    assert res["summary"]["r2_mean"] > 0.9


def test_the_wrong_method_or_command_for_several_classes_or_a_real_valued_label(tmp_path, capsys):
    multi, _ = _planted_task_csv(tmp_path, 0, "multiclass", n=40)
    real, _ = _planted_task_csv(tmp_path, 0, "regression", n=40)
    assert main(["select", str(multi), "--method", "correlation"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"fscompbio select: error: argument --method: correlation needs two classes; {multi} has several classes, "
        "for which the methods are randsel, bahsic, fohsic")
    assert main(["select", str(real), "--method", "randsel", "--positive-label", "a"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"fscompbio select: error: argument --positive-label: {real} has a real-valued label, not two classes")
    assert main(["evaluate", str(real), "--method", "fohsic", "--folds", "2"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"fscompbio evaluate: error: argument --method: fohsic needs two classes; {real} has a real-valued label, "
        "for which the methods are local_learning, hsic_lasso, bahsic, randsel")
    assert main(["evaluate", str(multi), "--method", "randsel", "--folds", "2", "--model-selection", "own"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"fscompbio evaluate: error: argument --model-selection: own is for two classes; {multi} has several (kta "
        "or cv)")


@pytest.mark.parametrize("method, model_selection", [("randsel", "kta"), ("randsel", "own"), ("bahsic", "kta"),
                                                    ("local_learning", "kta"), ("bahsic", None),
                                                    ("hsic_lasso", "cv")])
def test_evaluate_a_real_valued_label_tests_kernel_ridge_regression_on_each_fold(tmp_path, capsys, method,
                                                                                 model_selection):
    """A label of two features (one through a sine) at random columns: every fold keeps both, kernel ridge on them
    explains most of the held-out variance, and each fold is regression_fold with the seeds of regression_seeds."""
    csv, relevant = _planted_task_csv(tmp_path, 6, "regression", n=120, d=10)
    out = tmp_path / "folds.json"
    chosen = ["--model-selection", model_selection] if model_selection else []  # default for a real label: cv
    assert main(["evaluate", str(csv), "--method", method, *chosen, "--folds", "3", "--inner-folds", "4",
                 "--seed", "5", "--output", str(out)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0].split()[3] == "r2" and len(table) == 5 and table[-1].startswith("mean R^2")
    res = json.loads(out.read_text())
    assert res["task"] == "regression" and res["chapter"] == "regression"
    assert res["model_selection"] == (model_selection or "cv")
    ds = load_csv_dataset(csv)
    name = csv.name.split(".")[0]
    splits = regression_splits(ds.n_samples, 3, random_state=derive_seed(5, "regression", name, "outer"))
    names = [str(n) for n in ds.feature_names]
    for k, (train, test) in enumerate(splits):
        seeds = regression_seeds(5, name, method, k)
        ref = regression_fold(ds.X, ds.y, train, test, make_selector(method, {}, random_state=seeds.selector),
                              model_selection=model_selection or "cv", feature_names=names,
                              cv=NestedCVRegressionSelect(inner_folds=4, random_state=seeds.inner))
        fold = res["folds"][k]
        assert fold["selected"] == ref["selected"] and fold["r2"] == ref["r2"] and fold["alpha"] == ref["alpha"]
        assert set(fold["selected_features"]) == relevant
        assert fold["rmse"] < 0.15 * fold["mean_rmse"]  # the label's sd is about 1.8, its noise 0.1
    assert res["summary"]["r2_mean"] > 0.97 and "accuracy_mean" not in res["summary"]


@pytest.mark.parametrize("method", ["randsel", "bahsic"])
def test_evaluate_several_classes_runs_the_workflows_multiclass_folds(tmp_path, capsys, method):
    csv, relevant = _planted_task_csv(tmp_path, 4, "multiclass", n=120, d=10)
    out = tmp_path / "folds.json"
    assert main(["evaluate", str(csv), "--method", method, "--folds", "3", "--seed", "5", "--output", str(out)]) == 0
    table = capsys.readouterr().out.splitlines()
    assert len(table) == 5 and table[-1].startswith("mean accuracy")
    res = json.loads(out.read_text())
    assert res["task"] == "multiclass" and res["chapter"] == "multiclass"
    # the folds and seeds of the workflow's multiclass stage (figure figM_1) for a data set of this name
    ds = load_csv_dataset(csv)
    name = csv.name.split(".")[0]
    splits = outer_splits(ds.y, 3, random_state=derive_seed(5, "multiclass", name, "outer"))
    for k, (train, test) in enumerate(splits):
        ref = multiclass_fold(ds.X, ds.y, train, test, method, widths={"n_widths": 7, "low": -1.0, "high": 1.0},
                              kta={"max_sizes": None}, random_state=derive_seed(5, "multiclass", name, method, k),
                              inner_seed=derive_seed(5, "multiclass", name, method, k, "inner"))
        fold = res["folds"][k]
        assert fold["selected"] == ref["selected"] and fold["accuracy"] == ref["accuracy"]
        assert relevant <= set(fold["selected_features"])
    assert res["summary"]["accuracy_mean"] > 0.8  # three balanced-ish classes: chance is about 1/3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_standardize_for_features_of_different_scales(tmp_path, capsys, seed):
    """Three relevant features measured at sds 1,000, 1 and 0.001 among noise at random scales: without
    --standardize the command warns (naming the extreme features) and the Gaussian SVM follows the largest
    feature; with it, every fold is the protocol on the training part's scaled data, and far more accurate."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((120, 12))
    y = np.where(X[:, 0] + X[:, 1] - X[:, 2] > 0, "case", "control")
    scales = 10.0 ** rng.uniform(-2, 2, 12)
    scales[:3] = 1e3, 1.0, 1e-3
    csv = _write_csv(tmp_path / "scales.csv", X * scales, y, [f"m{j}" for j in range(12)])
    accuracy = {}
    for flag in ([], ["--standardize"]):
        out = tmp_path / f"folds{len(flag)}.json"
        assert main(["evaluate", str(csv), "--method", "correlation", "--folds", "3", "--output", str(out)] + flag) == 0
        err = capsys.readouterr().err
        res = json.loads(out.read_text())
        accuracy[bool(flag)] = res["summary"]["accuracy_mean"]
        assert res["settings"]["standardize"] is bool(flag)
        if flag:
            assert err == ""
        else:
            assert err.startswith(f"fscompbio: warning: {csv}: the features' standard deviations range from ")
            assert "(m2) to " in err and "(m0), over 1,000 times: the Gaussian kernels' distances follow the largest" in err
    assert accuracy[True] >= 0.85 and accuracy[True] >= accuracy[False] + 0.1, accuracy
    df = pd.read_csv(csv)
    Xf, yf = df.drop(columns=["sample_id", "label"]).to_numpy(), np.where(df["label"] == "control", 1, -1)
    seeds = [fold_seeds(0, "chapter3", "scales", "correlation", k) for k in range(3)]
    for k, (train, test) in enumerate(outer_splits(yf, 3, random_state=seeds[0].outer)):
        ref = run_outer_fold(Xf, yf, train, test, make_selector("correlation", random_state=seeds[k].selector),
                             standardize=True)
        assert json.loads((tmp_path / "folds1.json").read_text())["folds"][k]["accuracy"] == ref["accuracy"]


def test_progress_bar_only_on_a_terminal(tmp_path, capsys, monkeypatch):
    csv, _ = _planted_csv(tmp_path, 7, n=40, d=5)
    argv = ["evaluate", str(csv), "--method", "correlation", "--folds", "2"]
    assert main(argv) == 0
    assert capsys.readouterr().err == ""  # not a terminal: silent

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    term = Terminal()
    monkeypatch.setattr("sys.stderr", term)
    assert main(argv) == 0
    assert "correlation folds:" in term.getvalue() and "0/2 [" in term.getvalue()  # tqdm's bar


def _write_peptides(tmp_path, extra=""):
    fasta = tmp_path / "sp.fasta"
    fasta.write_text(f">P1\n{SEQ_A}\n>sp|P2|TEST_HUMAN a UniProt header\n{SEQ_B.lower()}\n>P3\n{SEQ_C}\n"
                     f">P4\nMKWVTF\n{extra}")
    tsv = tmp_path / "sp.tsv"
    tsv.write_text("Accession\tCleavage_Site\nP1\t18\nP2\t24\nP3\t20\nP4\t3\n")
    return fasta, tsv


def test_encode_windows_and_encodings(tmp_path, capsys):
    fasta, tsv = _write_peptides(tmp_path)
    out, win = tmp_path / "o" / "enc.npz", tmp_path / "o" / "win.csv"
    out.parent.mkdir()
    assert main(["encode", str(fasta), str(tsv), "--output", str(out), "--windows", str(win)]) == 0
    captured = capsys.readouterr()
    assert "dropped 1 of 4 sequences: 1 shorter than --prefix 50" in captured.err  # P4, said once
    assert captured.out.startswith(f"{out}: 117 windows of 3 sequences x 648 features")
    z = np.load(out)
    windows = pd.read_csv(win)
    ref = cleavage_windows(read_signal_peptides(fasta, tsv))
    assert windows["window"].tolist() == ref["window"].tolist()  # lower-case P2 upper-cased
    np.testing.assert_array_equal(z["X"], encode_windows(ref).astype(np.float32))
    assert z["X"].shape == (117, 648) and z["X"].dtype == np.float32
    assert z["y"].sum() == 3 and np.bincount(z["groups"]).tolist() == [39, 39, 39]
    assert z["accessions"].tolist() == ["P1", "P2", "P3"]
    assert z["feature_names"].tolist() == encoding_feature_names()
    assert z["target"][z["y"] == 1].tolist() == [19, 25, 21]  # the first residue after each cleavage site


def test_encode_window_options(tmp_path):
    fasta, tsv = _write_peptides(tmp_path)
    out = tmp_path / "enc.npz"
    assert main(["encode", str(fasta), str(tsv), "--output", str(out), "--prefix", "30", "--before", "3",
                 "--after", "1"]) == 0
    z = np.load(out)
    assert z["X"].shape == (3 * (30 - 3 - 1), 5 * 54)
    assert z["feature_names"][0] == "-3:" + encoding_feature_names()[0].split(":")[1]


@pytest.mark.parametrize("command", [c.name for c in SUBCOMMANDS])
def test_help_shows_an_example(command, capsys):
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert f"usage: fscompbio {command}" in out
    assert f"example:\n  fscompbio {command}" in out


def test_top_level_help_lists_every_subcommand_with_an_example(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for c in SUBCOMMANDS:
        assert c.name in out and c.example in out


def test_output_is_atomic_and_readable(tmp_path, monkeypatch):
    """A failure while writing leaves neither the file nor a temporary; a success has the usual mode."""
    csv, _ = _planted_csv(tmp_path, 8, n=30, d=5)
    out = tmp_path / "res" / "sel.json"
    out.parent.mkdir()

    def broken_dump(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("json.dumps", broken_dump)
    assert main(["select", str(csv), "--method", "correlation", "--output", str(out)]) == 1
    assert not out.exists() and list(out.parent.iterdir()) == []
    monkeypatch.undo()
    old = os.umask(0o022)
    try:
        assert main(["select", str(csv), "--method", "correlation", "--output", str(out)]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644 and json.loads(out.read_text())["method"] == "correlation"
    assert [p.name for p in out.parent.iterdir()] == ["sel.json"]


def test_list_names_methods_and_datasets(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "randsel" in out and "bahsic" in out and "xor" in out


def test_make_dataset_is_reproducible(tmp_path):
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    assert main(["make-dataset", "xor", "--seed", "4", "--n-samples", "50", "--output", str(a)]) == 0
    assert main(["make-dataset", "xor", "--seed", "4", "--n-samples", "50", "--output", str(b)]) == 0
    np.testing.assert_array_equal(load_dataset(a).X, make_dataset("xor", random_state=4, n_samples=50).X)
    np.testing.assert_array_equal(load_dataset(a).X, load_dataset(b).X)


def test_the_docs_example_of_evaluate_is_what_the_command_prints(capsys, monkeypatch):
    """docs/command_line.md shows `fscompbio evaluate` on colon: every line it shows is what the command prints today
    (the wall-clock column aside), so the example cannot go stale."""
    import re
    from pathlib import Path

    repo = Path(__file__).resolve().parents[1]
    page = (repo / "docs" / "command_line.md").read_text()
    block = re.search(r"\$ fscompbio evaluate (.+?)\n(.*?)\n\s*```", page, re.S)
    assert block, "docs/command_line.md has no `$ fscompbio evaluate` example"
    argv = block[1].split()
    shown = [line.strip() for line in block[2].splitlines() if line.strip() and line.strip() != "..."]
    monkeypatch.chdir(repo)
    assert main(["evaluate", *argv]) == 0
    printed = [line.strip() for line in capsys.readouterr().out.splitlines() if line.strip()]

    def comparable(line):
        line = line.rstrip(" .").replace("...", "").strip()
        cells = line.split()
        if cells and cells[0].isdigit() and len(cells) > 6:  # a fold row: drop the wall-clock seconds column
            del cells[6]
        return " ".join(cells)

    printed = [comparable(line) for line in printed]
    for line in shown:
        want = comparable(line)
        assert any(p.startswith(want) for p in printed), \
            f"docs/command_line.md line not printed: {line!r}\nprinted: {printed}"


def test_version_is_the_package_metadata_version(capsys):
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"fscompbio {version('fscompbio')}\n"


@pytest.mark.parametrize("command", ["select", "make-dataset", "encode", "predict-cleavage"])
def test_output_into_a_missing_folder_fails_before_any_work(tmp_path, capsys, monkeypatch, command):
    """One line naming the output and the folder; nothing created; no work done (no data read, no model
    trained: the default model's training would fail the test)."""
    import fscompbio.cleavage._default as default

    monkeypatch.setattr(default, "train_default_model", lambda *a, **k: pytest.fail("trained before the check"))
    csv, _ = _planted_csv(tmp_path, 9, n=30, d=5)
    fasta, tsv = _write_peptides(tmp_path)
    out = tmp_path / "missing" / "deeper" / "out.x"
    argv = {"select": ["select", str(csv), "--method", "correlation"],
            "make-dataset": ["make-dataset", "xor"],
            "encode": ["encode", str(fasta), str(tsv)],
            "predict-cleavage": ["predict-cleavage", str(fasta)]}[command]
    before = sorted(tmp_path.rglob("*"))
    assert main(argv + ["--output", str(out)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"fscompbio: error: {out}: folder {out.parent} does not exist; create it first (mkdir -p {out.parent})"]
    assert sorted(tmp_path.rglob("*")) == before
