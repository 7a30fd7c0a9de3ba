# The premises of the synthetic sets (fscompbio.evaluation.oracle_accuracy): on the outer folds of the
# chapter-3 protocol, SVMs told which features are relevant (a Gaussian and a linear one on the relevant
# features, a Gaussian one on every feature). A message of the study about a synthetic set presumes that the
# set holds the signal it needs; the premise claims (fscompbio.claims) test that on our reading of the recipe.


rule premise:
    input:
        "results/datasets/{dataset}.npz",
    output:
        "results/premises/{dataset}.json",
    log:
        "logs/premises/{dataset}.log",
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        outer_folds=CH3["outer_folds"],
        # chapter 3's outer folds (the same seed), the ones it runs
        folds_seed=lambda wc: derive_seed(config["seed"], "chapter3", wc.dataset, "outer"),
        folds_run=lambda wc: folds_run("chapter3", wc.dataset),
        svm_C=CH3["svm_C"],
        seed=lambda wc: derive_seed(config["seed"], "premise", wc.dataset),
    script:
        "../scripts/premise.py"
