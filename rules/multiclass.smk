# Multi-class: randSel, BaHSIC and FoHSIC with the one-hot label kernel (KTA model selection, Gaussian SVM)
# against a one-vs-rest l1-logistic baseline on the four-class expression sets glioma and tox_171 (figM_1),
# every method inside the same stratified outer folds.


validate(config["multiclass"], schema="../schemas/multiclass.schema.yaml")

MC = config["multiclass"]


wildcard_constraints:
    mc_method="|".join(MC["methods"]),
    mc_fold="[0-9]+",


rule mc_fold:
    input:
        "results/datasets/{dataset}.npz",
    output:
        "results/multiclass/folds/{dataset}/{mc_method}/fold{mc_fold}.json",
    log:
        "logs/multiclass/folds/{dataset}/{mc_method}/fold{mc_fold}.log",
    params:
        method=lambda wc: wc.mc_method,
        fold=lambda wc: int(wc.mc_fold),
        outer_folds=MC["outer_folds"],
        params=lambda wc: MC["selectors"][wc.mc_method],
        widths=MC["widths"],
        kta=MC["kta"],
        svm_C=MC["svm_C"],
        folds_seed=lambda wc: derive_seed(config["seed"], "multiclass", wc.dataset, "outer"),
        seed=lambda wc: derive_seed(config["seed"], "multiclass", wc.dataset, wc.mc_method, wc.mc_fold),
        inner_seed=lambda wc: derive_seed(config["seed"], "multiclass", wc.dataset, wc.mc_method, wc.mc_fold, "inner"),
    conda:
        "../envs/selection.yaml"
    script:
        "../scripts/mc_fold.py"


rule mc_figM_1:
    input:
        expand(
            "results/multiclass/folds/{dataset}/{method}/fold{fold}.json",
            dataset=MC["datasets"],
            method=MC["methods"],
            fold=range(MC["outer_folds"]),
        ),
    output:
        png=report(figure("figM_1"), caption="../report/figM_1.rst", category="Multi-class"),
        csv="figures/figM_1.csv",
        md="figures/figM_1.md",
    log:
        "logs/multiclass/figM_1.log",
    conda:
        "../envs/figures.yaml"
    script:
        "../scripts/mc_figM_1.py"


FINAL_OUTPUTS.extend([figure("figM_1"), "figures/figM_1.csv", "figures/figM_1.md"])
