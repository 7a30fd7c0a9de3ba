# Chapter 5 prediction and figures: the five approaches of seed 004 table 1, one job per
# approach x sequence-wise fold, then table_P1, fig5_3 (accuracy by approach), fig5_4
# (feature-label correlation, all windows vs support vectors) and fig5_1 (this workflow's rule graph).
# Inputs come from rules/peptides.smk and rules/representation.smk.

import glob

CH5_PRED = config["chapter5"]["prediction"]
CH5_APPROACHES = ["original", "stability", "rfe", "randsel", "randsel_mkl"]


wildcard_constraints:
    approach="|".join(CH5_APPROACHES),
    fold="[0-9]+",


# the 648 encoded values for the original representation, sparse-filtering features otherwise
CH5_INPUT = {
    a: "results/peptides/encoded.npz" if a == "original" else "results/representation/sparse_filtering.npz"
    for a in CH5_APPROACHES
}
# the settings of each approach: its selector, the SVM, and (randsel_mkl) LPBoost-MKL
CH5_SELECTOR = {"stability": "stability", "rfe": "rfe", "randsel": "randsel", "randsel_mkl": "randsel"}
CH5_APPROACH_PARAMS = {
    a: {
        "svm": CH5_PRED["svm"],
        **({"selector": CH5_PRED[CH5_SELECTOR[a]]} if a in CH5_SELECTOR else {}),
        **({"mkl": CH5_PRED["mkl"], "max_sets": CH5_PRED["max_sets"]} if a == "randsel_mkl" else {}),
    }
    for a in CH5_APPROACHES
}


rule ch5_predict:
    input:
        lambda wc: CH5_INPUT[wc.approach],
    output:
        npz="results/chapter5/predict/{approach}/fold{fold}.npz",
        json="results/chapter5/predict/{approach}/fold{fold}.json",
    log:
        "logs/chapter5/predict/{approach}/fold{fold}.log",
    params:
        approach=lambda wc: wc.approach,
        approach_params=lambda wc: CH5_APPROACH_PARAMS[wc.approach],
        n_folds=CH5_PRED["n_folds"],
        max_train_per_class=CH5_PRED["max_train_per_class"],
        folds_seed=derive_seed(config["seed"], "chapter5", "folds"),
        seed=lambda wc: derive_seed(config["seed"], "chapter5", wc.approach, wc.fold),
    conda:
        "../envs/prediction.yaml"
    script:
        "../scripts/ch5_predict_fold.py"


rule ch5_table_P1:
    input:
        expand(
            "results/chapter5/predict/{approach}/fold{fold}.json",
            approach=CH5_PRED["approaches"],
            fold=range(CH5_PRED["n_folds"]),
        ),
    output:
        csv=report("figures/table_P1.csv", caption=caption("table_P1"), category="Chapter 5"),
        md="figures/table_P1.md",
    log:
        "logs/chapter5/table_P1.log",
    conda:
        "../envs/figures.yaml"
    script:
        "../scripts/ch5_figures_table_P1.py"


rule ch5_fig5_3:
    input:
        "figures/table_P1.csv",
    output:
        report(figure("fig5_3"), caption=caption("fig5_3"), category="Chapter 5"),
    log:
        "logs/chapter5/fig5_3.log",
    params:
        windows_per_sequence=39,
    conda:
        "../envs/figures.yaml"
    script:
        "../scripts/ch5_figures_fig5_3.py"


rule ch5_fig5_4:
    input:
        "results/representation/sparse_filtering.npz",
    output:
        png=report(figure("fig5_4"), caption=caption("fig5_4"), category="Chapter 5"),
        npz="results/chapter5/fig5_4.npz",
    log:
        "logs/chapter5/fig5_4.log",
    params:
        max_per_class=CH5_PRED["fig5_4_max_per_class"],
        C=CH5_PRED["svm"]["C"],
        gamma=CH5_PRED["svm"]["gamma"],
        seed=derive_seed(config["seed"], "chapter5", "fig5_4"),
    conda:
        "../envs/figures.yaml"
    script:
        "../scripts/ch5_figures_fig5_4.py"


rule ch5_fig5_1:
    input:
        workflow.main_snakefile,
        sorted(glob.glob(os.path.join(workflow.basedir, "rules", "*.smk"))),
    output:
        report(figure("fig5_1"), caption=caption("fig5_1"), category="Chapter 5"),
    log:
        "logs/chapter5/fig5_1.log",
    params:
        snakefile=lambda wildcards, input: input[0],
    conda:
        "../envs/figures.yaml"
    script:
        "../scripts/ch5_figures_fig5_1.py"


FINAL_OUTPUTS.extend(
    [
        "figures/table_P1.csv",
        "figures/table_P1.md",
        figure("fig5_3"),
        figure("fig5_4"),
        figure("fig5_1"),
    ]
)
