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


def grouped_synthetic():
    """The synthetic sets one job writes (datasets.synthetic_one_job): every set of datasets.synthetic and the
    draws chapters 3 and 4 use; none when each set has a job of its own."""
    if not config["datasets"].get("synthetic_one_job"):
        return []
    draws = []
    for section in ("chapter3", "chapter4"):
        cfg = config.get(section, {})
        n = cfg.get("draws", {}).get("n", 1)
        draws += [draw_name(d, k) for d in cfg.get("datasets", []) if d in _REGISTRY for k in range(1, n)]
    return list(dict.fromkeys([*SYNTHETIC, *draws]))


if grouped_synthetic():

    # every synthetic set in one job (seconds of work each, a second of start-up saved per set); the same
    # files, byte for byte, as the dataset rule's jobs (the same seed per set)
    rule synthetic_datasets:
        output:
            **{name: f"results/datasets/{name}.npz" for name in grouped_synthetic()},
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
            seeds={name: derive_seed(config["seed"], "dataset", name) for name in grouped_synthetic()},
        script:
            "../scripts/make_dataset.py"

    ruleorder: synthetic_datasets > dataset


FINAL_OUTPUTS.extend(
    expand(
        "results/datasets/{dataset}.npz",
        dataset=[*SYNTHETIC, *config["datasets"]["csv"]],
    )
)
