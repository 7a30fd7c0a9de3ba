# Synthetic data sets (thesis appendix A.3, seeds 002 and 003) in the one .npz format.


rule dataset:
    output:
        "results/datasets/{dataset}.npz",
    log:
        "logs/datasets/{dataset}.log",
    params:
        seed=lambda wc: derive_seed(config["seed"], "dataset", wc.dataset),
    conda:
        "../envs/datasets.yaml"
    script:
        "../scripts/make_dataset.py"


FINAL_OUTPUTS.extend(expand("results/datasets/{dataset}.npz", dataset=SYNTHETIC))
