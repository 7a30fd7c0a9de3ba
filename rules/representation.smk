# Chapter 5 representation: sparse filtering (thesis 5.2, appendix A.2), learned without labels on all encoded
# windows or on a random subsample of them (fit_max_samples), then applied to every window (the thesis learned
# 105,495 x 648 -> 1,500). Outputs consumed by rules/chapter5.smk:
#   results/representation/sparse_filtering.npz   X float32 (n_windows, n_features), y, groups, W, ...
#   results/representation/sparse_filtering.pkl   the fitted SparseFiltering (for the saved model)

CH5_REPR = config["chapter5"]["representation"]


rule ch5_sparse_filtering:
    input:
        "results/peptides/encoded.npz",
    output:
        npz="results/representation/sparse_filtering.npz",
        json="results/representation/sparse_filtering.json",
        timing="results/representation/sparse_filtering.timing.json",
        model="results/representation/sparse_filtering.pkl",
    log:
        "logs/representation/sparse_filtering.log",
    benchmark:
        "benchmarks/representation/sparse_filtering.tsv"
    conda:
        "../envs/study.yaml"
    threads: CH5_REPR["blas_threads"]
    resources:
        mem_mb=mem_of("ch5_sparse_filtering"),
        runtime=runtime_of("ch5_sparse_filtering"),
    params:
        n_features=CH5_REPR["n_features"],
        max_iter=CH5_REPR["max_iter"],
        dtype=CH5_REPR["dtype"],
        batch_size=CH5_REPR["batch_size"],
        fit_max_samples=CH5_REPR["fit_max_samples"],
        blas_threads=CH5_REPR["blas_threads"],
        seed=derive_seed(config["seed"], "chapter5", "sparse_filtering"),
    script:
        "../scripts/learn_sparse_filtering.py"


FINAL_OUTPUTS.extend(
    [
        "results/representation/sparse_filtering.json",
        "results/representation/sparse_filtering.npz",
    ]
)
