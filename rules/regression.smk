# Regression: the local-learning selector of Sun, Yao & Goodison (2015), "Feature Selection for Nonlinear
# Regression and its Application to Cancer Research", against HSIC Lasso (pyHSICLasso), BaHSIC and randSel
# with a Gaussian label kernel: probability of correct recovery versus sample size (its figure 2, figR_2).
# Your own data sets with a real-valued label (regression.folds.datasets): the outer folds of chapters 3 and 4
# with Gaussian kernel ridge regression in place of the SVM, a panel figure and a features table each.


validate(config["regression"], schema="../schemas/regression.schema.yaml")

REG = config["regression"]["figR_2"]


wildcard_constraints:
    reg_method="|".join(REG["methods"]),
    reg_dataset="|".join(REG["datasets"]),
    reg_n="[0-9]+",


# (method, sample size) of every point of figR_2 on one data set, in the order of a grouped job's outputs
REG_POINTS = [(m, n) for m in REG["methods"] for n in REG["sample_sizes"]]


if REG["group_jobs"]:
    # one job per data set: every (method, sample size) point of figR_2 on it, each written apart as below

    rule reg_recovery:
        output:
            result=[f"results/regression/recovery/{{reg_dataset}}/{m}/n{n}.json" for m, n in REG_POINTS],
            timing=[f"results/regression/recovery/{{reg_dataset}}/{m}/n{n}.timing.json" for m, n in REG_POINTS],
        log:
            "logs/regression/recovery/{reg_dataset}.log",
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=mem_of("reg_recovery"),
            runtime=runtime_of("reg_recovery"),
        params:
            dataset=lambda wc: wc.reg_dataset,
            # the job's points, in the order of its outputs
            members=[
                {"method": m, "n_samples": n, "selector": config["regression"]["selectors"][m]} for m, n in REG_POINTS
            ],
            n_repeats=REG["n_repeats"],
            n_irrelevant=REG["n_irrelevant"],
            # the same draws for every method (the seed does not depend on the method)
            seed=derive_seed(config["seed"], "regression", "figR_2"),
        script:
            "../scripts/evaluate_recovery.py"

else:
    # one job per (data set, method, sample size)

    rule reg_recovery:
        output:
            result="results/regression/recovery/{reg_dataset}/{reg_method}/n{reg_n}.json",
            timing="results/regression/recovery/{reg_dataset}/{reg_method}/n{reg_n}.timing.json",
        log:
            "logs/regression/recovery/{reg_dataset}/{reg_method}/n{reg_n}.log",
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=mem_of("reg_recovery"),
            runtime=runtime_of("reg_recovery"),
        params:
            dataset=lambda wc: wc.reg_dataset,
            method=lambda wc: wc.reg_method,
            n_samples=lambda wc: int(wc.reg_n),
            n_repeats=REG["n_repeats"],
            n_irrelevant=REG["n_irrelevant"],
            selector=lambda wc: config["regression"]["selectors"][wc.reg_method],
            # the same draws for every method (the seed does not depend on the method)
            seed=derive_seed(config["seed"], "regression", "figR_2"),
        script:
            "../scripts/evaluate_recovery.py"


rule reg_figR_2:
    input:
        expand(
            "results/regression/recovery/{dataset}/{method}/n{n}.json",
            dataset=REG["datasets"],
            method=REG["methods"],
            n=REG["sample_sizes"],
        ),
    output:
        png=report(figure("figR_2"), caption="../report/figR_2.rst", category="Regression"),
        csv="figures/figR_2.csv",
        md="figures/figR_2.md",
    log:
        "logs/regression/figR_2.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        n_irrelevant=REG["n_irrelevant"],
    script:
        "../scripts/plot_recovery_curves.py"


FINAL_OUTPUTS.extend([figure("figR_2"), "figures/figR_2.csv", "figures/figR_2.md"])


REG_FOLDS = config["regression"]["folds"]


# one job per (data set, method): every outer fold, each model selection reading the same selector fit
rule reg_fold:
    input:
        "results/datasets/{dataset}.npz",
    output:
        json="results/regression/folds/{dataset}/{reg_fold_method}.json",
        timing="results/regression/folds/{dataset}/{reg_fold_method}.timing.json",
    log:
        "logs/regression/folds/{dataset}/{reg_fold_method}.log",
    benchmark:
        "benchmarks/regression/folds/{dataset}/{reg_fold_method}.tsv"
    wildcard_constraints:
        reg_fold_method="|".join(REG_FOLDS["methods"]),
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=mem_of("reg_fold"),
        runtime=runtime_of("reg_fold"),
    params:
        **regression_fold_params(),
    script:
        "../scripts/evaluate_regression_folds.py"


rule reg_summary:
    input:
        lambda wc: [f"results/regression/folds/{wc.dataset}/{m}.json" for m in REG_FOLDS["methods"]],
    output:
        csv="results/regression/summary/{dataset}.csv",
        png=report(
            "figures/regression_{dataset}.png",
            caption="../report/regression_dataset.rst",
            category="Regression",
            subcategory="{dataset}",
        ),
    log:
        "logs/regression/summary/{dataset}.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        dataset=lambda wc: wc.dataset,
        methods=REG_FOLDS["methods"],
        sizes=lambda wc: regression_fold_sizes(),
    script:
        "../scripts/summarise_regression_folds.py"


FINAL_OUTPUTS.extend(f"figures/regression_{d}.png" for d in REG_FOLDS["datasets"])
