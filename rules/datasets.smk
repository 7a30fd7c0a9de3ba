# Data sets in the one .npz format: the synthetic sets (thesis appendix A.3; the 100- and 200-feature sets of
# "Principled Non-Linear Feature Selection"; the regression sets of Sun, Yao & Goodison 2015) and the CSV
# matrices named in config["datasets"]["csv"] (real data, or yours).


rule dataset:
    input:
        dataset_source,
    output:
        "results/datasets/{dataset}.npz",
    log:
        "logs/datasets/{dataset}.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        seed=lambda wc: derive_seed(config["seed"], "dataset", wc.dataset),
        csv=lambda wc: config["datasets"]["csv"].get(wc.dataset),
    script:
        "../scripts/make_dataset.py"


FINAL_OUTPUTS.extend(
    expand(
        "results/datasets/{dataset}.npz",
        dataset=[*SYNTHETIC, *config["datasets"]["csv"]],
    )
)
