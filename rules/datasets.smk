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


if GROUPED_SYNTHETIC:

    # every synthetic set in one job (seconds of work each, a second of start-up saved per set); the same
    # files, byte for byte, as the dataset rule's jobs (the same seed per set)
    rule synthetic_datasets:
        output:
            **{name: f"results/datasets/{name}.npz" for name in GROUPED_SYNTHETIC},
        log:
            "logs/datasets/synthetic.log",
        localrule: True
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=LOCAL_MEM_MB,
            runtime=LOCAL_RUNTIME,
        params:
            seeds={name: derive_seed(config["seed"], "dataset", name) for name in GROUPED_SYNTHETIC},
        script:
            "../scripts/make_dataset.py"

    ruleorder: synthetic_datasets > dataset


FINAL_OUTPUTS.extend(
    expand(
        "results/datasets/{dataset}.npz",
        dataset=[*SYNTHETIC, *config["datasets"]["csv"]],
    )
)
