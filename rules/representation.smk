# Chapter 5 representation: sparse filtering (thesis 5.2, appendix A.2) learned on all encoded
# windows, without labels, as in the thesis (105,495 x 648 -> 1,500). Output consumed by rules/chapter5.smk:
#   results/representation/sparse_filtering.npz   X float32 (n_windows, n_features), y, groups, W, ...

CH5_REPR = config["chapter5"]["representation"]


rule ch5_sparse_filtering:
    input:
        "results/peptides/encoded.npz",
    output:
        npz="results/representation/sparse_filtering.npz",
        json="results/representation/sparse_filtering.json",
    log:
        "logs/representation/sparse_filtering.log",
    params:
        n_features=CH5_REPR["n_features"],
        max_iter=CH5_REPR["max_iter"],
        dtype=CH5_REPR["dtype"],
        batch_size=CH5_REPR["batch_size"],
        seed=derive_seed(config["seed"], "chapter5", "sparse_filtering"),
    threads: 2
    conda:
        "../envs/sequences.yaml"
    script:
        "../scripts/ch5_sparse_filtering.py"


FINAL_OUTPUTS.extend(["results/representation/sparse_filtering.json", "results/representation/sparse_filtering.npz"])
