# Chapter 5: cleavage-site prediction. Each approach x training protocol x CV scheme x fold (table P1,
# figure 5.3) and a learning curve per representation x fold (figure 5.5), one job each or grouped
# (chapter5.prediction.group, chapter5.learning_curve.group: the same files either way), figure 5.4
# (feature-label correlation, all windows vs support vectors), the two diagrams (figure 5.1 the architecture,
# figure 5.2 the representation), and the approach of best homology-aware CV accuracy trained on every shipped
# sequence (whatever chapter5.data.n_sequences says) as a model file for `fscompbio predict-cleavage`. Inputs
# come from rules/peptides.smk and rules/representation.smk; the sparse-filtering features of every CV fold are
# fitted on that fold's training windows only (ch5_sparse_filtering_fold). The approaches listed in
# chapter5.prediction.scales.raw also run on raw-scale windows (ch5_predict_raw): table P1's rows of scales = raw.

import math
import re
from pathlib import Path

from fscompbio.cleavage import APPROACH_REPRESENTATION, TABLE_ROWS

CH5_PRED = config["chapter5"]["prediction"]
CH5_LC = config["chapter5"]["learning_curve"]
CH5_TABLE_ROWS = list(TABLE_ROWS)  # every approach of table P1, in its order (fscompbio.cleavage)
CH5_SF_APPROACHES = [a for a in TABLE_ROWS if APPROACH_REPRESENTATION[a] == "sf"]
# which configuration made a figure, with its sizes (printed in the figures and tables)
CH5_LABEL_FORMAT = "{} config: {} sequences, {}-fold CV, sparse filtering {} features"
CH5_LABEL_ARGS = (
    "quick" if config["chapter5"]["data"]["n_sequences"] is not None else "thesis",
    config["chapter5"]["data"]["n_sequences"] or "all",
)
CH5_CONFIG_LABEL = CH5_LABEL_FORMAT.format(
    *CH5_LABEL_ARGS, CH5_PRED["n_folds"], config["chapter5"]["representation"]["n_features"]
)
# the learning curve (figure 5.5) has its own split: chapter5.learning_curve.n_folds
CH5_LC_CONFIG_LABEL = CH5_LABEL_FORMAT.format(
    *CH5_LABEL_ARGS, CH5_LC["n_folds"], config["chapter5"]["representation"]["n_features"]
)


wildcard_constraints:
    approach="|".join(CH5_TABLE_ROWS),
    sf_split="random|homology|learning_curve",
    protocol="|".join(CH5_PRED["protocols"]),
    cv="random|homology",
    representation="scales|onehot|sf",
    fold="[0-9]+",


# every (cv, protocol, approach) cell of table P1 that the config asks for
CH5_CELLS = [
    (cv, protocol, approach)
    for cv in ["random", "homology"]
    for protocol in CH5_PRED["protocols"]
    for approach in CH5_PRED["approaches"]
    if cv == "random" or approach in CH5_PRED["homology_approaches"]
]
CH5_FOLD_JSONS = [
    f"results/chapter5/predict/{cv}/{protocol}/{approach}/fold{fold}.json"
    for cv, protocol, approach in CH5_CELLS
    for fold in range(CH5_PRED["n_folds"])
]
CH5_FOLD_TIMINGS = [j.replace(".json", ".timing.json") for j in CH5_FOLD_JSONS]
# the cells also run on the raw scales (chapter5.prediction.scales.raw; none by default): the same cv x protocol
# x fold as the approach's standardised cells, with their seeds, under their own paths
CH5_RAW_APPROACHES = list((CH5_PRED.get("scales") or {}).get("raw") or [])
_ch5_raw_unknown = [a for a in CH5_RAW_APPROACHES if a not in CH5_PRED["approaches"]]
if _ch5_raw_unknown:
    raise ValueError(
        f"chapter5.prediction.scales.raw: {_ch5_raw_unknown} not among chapter5.prediction.approaches "
        f"{list(CH5_PRED['approaches'])}: an approach runs on raw scales beside its standardised cells"
    )
CH5_RAW_CELLS = [(cv, protocol, approach) for cv, protocol, approach in CH5_CELLS if approach in CH5_RAW_APPROACHES]
CH5_RAW_PREDICT_STEM = "results/chapter5/predict_raw/{cv}/{protocol}/{approach}/fold{fold}"
CH5_RAW_FOLD_JSONS = [
    CH5_RAW_PREDICT_STEM.format(cv=cv, protocol=protocol, approach=approach, fold=fold) + ".json"
    for cv, protocol, approach in CH5_RAW_CELLS
    for fold in range(CH5_PRED["n_folds"])
]
CH5_RAW_FOLD_TIMINGS = [j.replace(".json", ".timing.json") for j in CH5_RAW_FOLD_JSONS]
# the settings of each approach: SVM grid, selectors, LPBoost-MKL
CH5_APPROACH_PARAMS = {
    key: CH5_PRED[key]
    for key in [
        "svm",
        "stability",
        "rfe",
        "randsel",
        "mkl",
        "max_sets",
        "select_max_per_class",
        "pseudocount",
        "combination",
    ]
}
# the settings of the cells on raw scales: the same, but the Gaussian SVM sees the scale values unscaled
CH5_RAW_APPROACH_PARAMS = {**CH5_APPROACH_PARAMS, "svm": {**CH5_APPROACH_PARAMS["svm"], "standardize": False}}


# the folds of each split (one per CV scheme, shared by every approach and protocol; figure 5.5 has its own)
CH5_SPLITS = {
    "random": (CH5_PRED["n_folds"], derive_seed(config["seed"], "chapter5", "folds", "random")),
    "homology": (CH5_PRED["n_folds"], derive_seed(config["seed"], "chapter5", "folds", "homology")),
    "learning_curve": (CH5_LC["n_folds"], derive_seed(config["seed"], "chapter5", "learning_curve_folds")),
}


# the sparse filter fitted on the training windows of one fold of a split
CH5_FOLD_SF = "results/representation/folds/{split}/fold{fold}.pkl"


# sparse filtering inside each fold: fitted (no labels) on the training windows of the fold only, so that
# no test window shapes the features the approaches are trained and scored on
rule ch5_sparse_filtering_fold:
    input:
        encoded="results/peptides/encoded.npz",
        homology=lambda wc: ("results/peptides/homology.npz" if wc.sf_split == "homology" else []),
    output:
        model="results/representation/folds/{sf_split}/fold{fold}.pkl",
        json="results/representation/folds/{sf_split}/fold{fold}.json",
        timing="results/representation/folds/{sf_split}/fold{fold}.timing.json",
    log:
        "logs/representation/folds/{sf_split}/fold{fold}.log",
    benchmark:
        "benchmarks/representation/folds/{sf_split}/fold{fold}.tsv"
    conda:
        "../envs/study.yaml"
    threads: config["chapter5"]["representation"]["blas_threads"]
    resources:
        mem_mb=mem_of("ch5_sparse_filtering"),
        runtime=runtime_of("ch5_sparse_filtering"),
    params:
        n_features=config["chapter5"]["representation"]["n_features"],
        max_iter=config["chapter5"]["representation"]["max_iter"],
        dtype=config["chapter5"]["representation"]["dtype"],
        batch_size=config["chapter5"]["representation"]["batch_size"],
        fit_max_samples=config["chapter5"]["representation"]["fit_max_samples"],
        blas_threads=config["chapter5"]["representation"]["blas_threads"],
        n_folds=lambda wc: CH5_SPLITS[wc.sf_split][0],
        folds_seed=lambda wc: CH5_SPLITS[wc.sf_split][1],
        seed=lambda wc: derive_seed(config["seed"], "chapter5", "sparse_filtering", wc.sf_split, wc.fold),
    script:
        "../scripts/learn_fold_sparse_filtering.py"


# the cells of table P1 run in one ch5_predict job: chapter5.prediction.group names the dimensions run together
# (protocol, fold); none (the default) = one job per cv x protocol x approach x fold. Every cell keeps its own
# output files, seed and timing whatever the grouping, so the results are the same files with the same bytes.
CH5_GROUP = CH5_PRED["group"]
CH5_GROUP_VALUES = {"protocol": list(CH5_PRED["protocols"]), "fold": list(range(CH5_PRED["n_folds"]))}
CH5_CELLS_PER_JOB = math.prod(len(CH5_GROUP_VALUES[d]) for d in CH5_GROUP)
CH5_PREDICT_STEM = "results/chapter5/predict/{cv}/{protocol}/{approach}/fold{fold}"


# one log and one benchmark per job: the path of its kept wildcards (today's per-cell path without grouping)
CH5_PREDICT_JOB = ch5_job_path(
    [("cv", "{cv}"), ("protocol", "{protocol}"), ("approach", "{approach}"), ("fold", "fold{fold}")], CH5_GROUP
)


rule ch5_predict:
    input:
        encoded="results/peptides/encoded.npz",
        sf=lambda wc: [c["sf"] for c in ch5_predict_cells(wc) if c["sf"]],
        homology=lambda wc: ("results/peptides/homology.npz" if wc.cv == "homology" else []),
    output:
        npz=ch5_predict_outputs(".npz"),
        json=ch5_predict_outputs(".json"),
        timing=ch5_predict_outputs(".timing.json"),
    log:
        f"logs/chapter5/predict/{CH5_PREDICT_JOB}.log",
    benchmark:
        f"benchmarks/chapter5/predict/{CH5_PREDICT_JOB}.tsv"
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=mem_of("ch5_predict"),
        runtime=runtime_of("ch5_predict"),
    params:
        approach=lambda wc: wc.approach,
        cv=lambda wc: wc.cv,
        approach_params=CH5_APPROACH_PARAMS,
        n_folds=CH5_PRED["n_folds"],
        # one fold split per CV scheme, shared by every approach and protocol
        folds_seed=lambda wc: CH5_SPLITS[wc.cv][1],
        cells=ch5_predict_cells,
    script:
        "../scripts/evaluate_cleavage_fold.py"


# table P1's cells on raw scales (chapter5.prediction.scales.raw): the approaches of the 648 scale values on the
# windows encoded by each scale's published values, with the grouping, settings and seeds of ch5_predict
if CH5_RAW_APPROACHES:

    rule ch5_predict_raw:
        input:
            encoded="results/peptides/encoded_raw.npz",
            homology=lambda wc: ("results/peptides/homology.npz" if wc.cv == "homology" else []),
        output:
            npz=ch5_predict_outputs(".npz", CH5_RAW_PREDICT_STEM),
            json=ch5_predict_outputs(".json", CH5_RAW_PREDICT_STEM),
            timing=ch5_predict_outputs(".timing.json", CH5_RAW_PREDICT_STEM),
        log:
            f"logs/chapter5/predict_raw/{CH5_PREDICT_JOB}.log",
        benchmark:
            f"benchmarks/chapter5/predict_raw/{CH5_PREDICT_JOB}.tsv"
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=mem_of("ch5_predict"),
            runtime=runtime_of("ch5_predict"),
        params:
            approach=lambda wc: wc.approach,
            cv=lambda wc: wc.cv,
            scales="raw",
            # the published values reach the Gaussian kernel: the SVM's own scaling of every column over the training
            # windows is an affine map per column, like the standardisation over the residues, and would give back
            # the standardised cells exactly (the quick config's 12 original cells, measured 2026-11-26)
            approach_params=CH5_RAW_APPROACH_PARAMS,
            n_folds=CH5_PRED["n_folds"],
            folds_seed=lambda wc: CH5_SPLITS[wc.cv][1],
            cells=ch5_predict_raw_cells,
        script:
            "../scripts/evaluate_cleavage_fold.py"


# the in-fold sparse filters table P1 used (their sizes are printed under it)
CH5_SF_FOLD_JSONS = sorted(
    {
        CH5_FOLD_SF.format(split=cv, fold=fold).replace(".pkl", ".json")
        for cv, protocol, approach in CH5_CELLS
        if approach in CH5_SF_APPROACHES
        for fold in range(CH5_PRED["n_folds"])
    }
)


rule ch5_table_P1:
    input:
        # the standardised cells, then those on raw scales (each fold's record says which)
        folds=CH5_FOLD_JSONS + CH5_RAW_FOLD_JSONS,
        timings=CH5_FOLD_TIMINGS + CH5_RAW_FOLD_TIMINGS,
        sf=CH5_SF_FOLD_JSONS,
        homology="results/peptides/homology.json",
    output:
        csv=report("figures/table_P1.csv", caption=caption("table_P1"), category="Chapter 5"),
        md="figures/table_P1.md",
        timing="results/chapter5/table_P1.timing.csv",
    log:
        "logs/chapter5/table_P1.log",
    benchmark:
        "benchmarks/chapter5/table_P1.tsv"
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        config_label=CH5_CONFIG_LABEL,
    script:
        "../scripts/tabulate_cleavage_accuracy.py"


rule ch5_fig5_3:
    input:
        "figures/table_P1.csv",
    output:
        report(figure("fig5_3"), caption=caption("fig5_3"), category="Chapter 5"),
    log:
        "logs/chapter5/fig5_3.log",
    benchmark:
        "benchmarks/chapter5/fig5_3.tsv"
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        windows_per_sequence=39,
        config_label=CH5_CONFIG_LABEL,
    script:
        "../scripts/plot_cleavage_accuracy.py"


# the cells of figure 5.5 run in one ch5_learning_curve job: chapter5.learning_curve.group (representation,
# fold); none (the default) = one job per representation x fold, each cell with its own seed and files
CH5_LC_GROUP = CH5_LC["group"]
CH5_LC_GROUP_VALUES = {"representation": list(CH5_LC["representations"]), "fold": list(range(CH5_LC["n_folds"]))}
CH5_LC_CELLS_PER_JOB = math.prod(len(CH5_LC_GROUP_VALUES[d]) for d in CH5_LC_GROUP)
CH5_LC_STEM = "results/chapter5/learning_curve/{representation}/fold{fold}"
CH5_LC_JOB = ch5_job_path([("representation", "{representation}"), ("fold", "fold{fold}")], CH5_LC_GROUP) or "all"


rule ch5_learning_curve:
    input:
        encoded="results/peptides/encoded.npz",
        sf=lambda wc: [c["sf"] for c in ch5_learning_curve_cells(wc) if c["sf"]],
    output:
        json=ch5_job_files(f"{CH5_LC_STEM}.json", CH5_LC_GROUP, CH5_LC_GROUP_VALUES),
        timing=ch5_job_files(f"{CH5_LC_STEM}.timing.json", CH5_LC_GROUP, CH5_LC_GROUP_VALUES),
    log:
        f"logs/chapter5/learning_curve/{CH5_LC_JOB}.log",
    benchmark:
        f"benchmarks/chapter5/learning_curve/{CH5_LC_JOB}.tsv"
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=mem_of("ch5_learning_curve"),
        runtime=runtime_of("ch5_learning_curve"),
    params:
        n_folds=CH5_LC["n_folds"],
        per_class=CH5_LC["per_class"],
        negatives_per_positive=CH5_LC["negatives_per_positive"],
        C=CH5_PRED["svm"]["C"],
        gamma=CH5_PRED["svm"]["gamma"],
        folds_seed=CH5_SPLITS["learning_curve"][1],
        cells=ch5_learning_curve_cells,
    script:
        "../scripts/evaluate_learning_curve_fold.py"


rule ch5_fig5_5:
    input:
        expand(
            "results/chapter5/learning_curve/{representation}/fold{fold}.json",
            representation=CH5_LC["representations"],
            fold=range(CH5_LC["n_folds"]),
        ),
    output:
        png=report(figure("fig5_5"), caption=caption("fig5_5"), category="Chapter 5"),
        csv="figures/fig5_5.csv",
    log:
        "logs/chapter5/fig5_5.log",
    benchmark:
        "benchmarks/chapter5/fig5_5.tsv"
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        config_label=CH5_LC_CONFIG_LABEL,
    script:
        "../scripts/plot_learning_curve.py"


# figure 5.4's numbers: an SVM on a balanced sample of the sparse-filtering windows, the correlation of each
# learned feature with the label on all windows and on the support vectors (a cluster job at the thesis' sizes)
rule ch5_sv_correlations:
    input:
        "results/representation/sparse_filtering.npz",
    output:
        "results/chapter5/fig5_4.npz",
    log:
        "logs/chapter5/sv_correlations.log",
    benchmark:
        "benchmarks/chapter5/sv_correlations.tsv"
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=mem_of("ch5_sv_correlations"),
        runtime=runtime_of("ch5_sv_correlations"),
    params:
        max_per_class=CH5_PRED["fig5_4_max_per_class"],
        C=CH5_PRED["svm"]["C"],
        gamma=CH5_PRED["svm"]["gamma"],
        seed=derive_seed(config["seed"], "chapter5", "fig5_4"),
    script:
        "../scripts/sv_correlations.py"


rule ch5_fig5_4:
    input:
        npz="results/chapter5/fig5_4.npz",
        sf="results/representation/sparse_filtering.json",
    output:
        report(figure("fig5_4"), caption=caption("fig5_4"), category="Chapter 5"),
    log:
        "logs/chapter5/fig5_4.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    script:
        "../scripts/plot_feature_label_correlation.py"


rule ch5_fig5_1:
    output:
        report(figure("fig5_1"), caption=caption("fig5_1"), category="Chapter 5"),
    log:
        "logs/chapter5/fig5_1.log",
    benchmark:
        "benchmarks/chapter5/fig5_1.tsv"
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        kind="architecture",
    script:
        "../scripts/plot_cleavage_diagrams.py"


rule ch5_fig5_2:
    input:
        windows="results/peptides/windows.csv",
        windows_json="results/peptides/windows.json",
        sf="results/representation/sparse_filtering.json",
    output:
        report(figure("fig5_2"), caption=caption("fig5_2"), category="Chapter 5"),
    log:
        "logs/chapter5/fig5_2.log",
    benchmark:
        "benchmarks/chapter5/fig5_2.tsv"
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        kind="representation",
    script:
        "../scripts/plot_cleavage_diagrams.py"


# the saved model is trained on every shipped sequence: the evaluation's own windows when it uses them all,
# else the windows and encodings of all sequences (same geometry, same scripts as rules/peptides.smk)
CH5_ALL_SEQUENCES = config["chapter5"]["data"]["n_sequences"] is None
CH5_MODEL_DATA = "results/peptides" if CH5_ALL_SEQUENCES else "results/chapter5/model/data"


# candidate windows of every shipped sequence (the model's training data)
CH5_ALL_WINDOWS = sum(
    line.startswith(">") for line in Path(repo_path(config["chapter5"]["data"]["fasta"])).read_text().splitlines()
) * (config["chapter5"]["data"]["prefix"] - config["chapter5"]["data"]["before"] - config["chapter5"]["data"]["after"])


# the model's costs: windows and encodings as rules/resources.smk models them, at every sequence's windows; the
# fit at least what it measured on every sequence (2026-11-24: original_combined, all positives + 5x negatives,
# 17,094 windows: peak 1,925 MB, 43-65 s on the shared 2-core machine), or the config's model of it if larger
CH5_ALL_SCALE = CH5_ALL_WINDOWS / CH5_THESIS_WINDOWS
CH5_ALL_DATA_MB = CH5_ALL_WINDOWS * 648 * 4 / 2**20  # the encoded windows of every sequence (float32)
CH5_MODEL_COSTS = {
    "ch5_model_windows": lambda wc: (60 * CH5_ALL_SCALE, CH5_BASE_MB + 2 * CH5_ALL_DATA_MB),
    "ch5_model_encode": lambda wc: (60 * CH5_ALL_SCALE, CH5_BASE_MB + 3 * CH5_ALL_DATA_MB),
    "ch5_model": lambda wc: tuple(max(a, b) for a, b in zip(COSTS["ch5_model"](wc), (120, 1925))),
}


rule ch5_model_windows:
    input:
        fasta=repo_path(config["chapter5"]["data"]["fasta"]),
        tsv=repo_path(config["chapter5"]["data"]["tsv"]),
    output:
        csv="results/chapter5/model/data/windows.csv",
        json="results/chapter5/model/data/windows.json",
    log:
        "logs/chapter5/model_windows.log",
    benchmark:
        "benchmarks/chapter5/model_windows.tsv"
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=lambda wc, attempt: memory_mb(CH5_MODEL_COSTS["ch5_model_windows"](wc)[1], attempt),
        runtime=lambda wc, attempt: runtime_minutes(CH5_MODEL_COSTS["ch5_model_windows"](wc)[0], attempt),
    params:
        nonstandard=config["chapter5"]["data"]["nonstandard"],
        n_sequences=None,  # every sequence
        prefix=config["chapter5"]["data"]["prefix"],
        before=config["chapter5"]["data"]["before"],
        after=config["chapter5"]["data"]["after"],
        seed=derive_seed(config["seed"], "chapter5", "sequences"),
    script:
        "../scripts/cut_cleavage_windows.py"


rule ch5_model_encode:
    input:
        windows="results/chapter5/model/data/windows.csv",
        json="results/chapter5/model/data/windows.json",
        scales=repo_path(config["chapter5"]["data"]["scales"]),
    output:
        "results/chapter5/model/data/encoded.npz",
    log:
        "logs/chapter5/model_encode.log",
    benchmark:
        "benchmarks/chapter5/model_encode.tsv"
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=lambda wc, attempt: memory_mb(CH5_MODEL_COSTS["ch5_model_encode"](wc)[1], attempt),
        runtime=lambda wc, attempt: runtime_minutes(CH5_MODEL_COSTS["ch5_model_encode"](wc)[0], attempt),
    script:
        "../scripts/encode_windows.py"


rule ch5_model:
    input:
        table="figures/table_P1.csv",
        encoded=f"{CH5_MODEL_DATA}/encoded.npz",
        scales=repo_path(config["chapter5"]["data"]["scales"]),
    output:
        model="results/chapter5/model/cleavage_model.pkl",
        json="results/chapter5/model/cleavage_model.json",
        timing="results/chapter5/model/cleavage_model.timing.json",
    log:
        "logs/chapter5/model.log",
    benchmark:
        "benchmarks/chapter5/model.tsv"
    conda:
        "../envs/study.yaml"
    threads: config["chapter5"]["representation"]["blas_threads"]
    resources:
        mem_mb=lambda wc, attempt: memory_mb(CH5_MODEL_COSTS["ch5_model"](wc)[1], attempt),
        runtime=lambda wc, attempt: runtime_minutes(CH5_MODEL_COSTS["ch5_model"](wc)[0], attempt),
    params:
        approach_params=CH5_APPROACH_PARAMS,
        protocols=CH5_PRED["protocols"],
        model=CH5_PRED["model"],
        representation=config["chapter5"]["representation"],
        config_label=CH5_CONFIG_LABEL,
        seed=derive_seed(config["seed"], "chapter5", "model"),
    script:
        "../scripts/train_cleavage_model.py"


FINAL_OUTPUTS.extend(
    [
        "figures/table_P1.csv",
        "figures/table_P1.md",
        figure("fig5_1"),
        figure("fig5_2"),
        figure("fig5_3"),
        figure("fig5_4"),
        figure("fig5_5"),
        "results/chapter5/model/cleavage_model.pkl",
        "results/chapter5/model/cleavage_model.json",
    ]
)
