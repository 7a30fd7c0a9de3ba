# Chapter 5 data: signal-peptide sequences -> 12-residue cleavage windows -> 54-scale encodings
# (thesis 5.4.1). Outputs consumed by rules/representation.smk and rules/chapter5.smk:
#   results/peptides/windows.csv   accession, target, window, label (one row per window)
#   results/peptides/encoded.npz   X float32 (n_windows, 648), codes int8 (n_windows, 12), y {0,1}, groups
#                                  (sequence index), target (1-based target position), ...
#   results/peptides/encoded_raw.npz  the same windows by the scales' published values (scaling "raw"), made only
#                                  when chapter5.prediction.scales.raw lists an approach
#   results/peptides/homology.npz  clusters: the homology cluster of every sequence (homology-aware CV)


validate(config.setdefault("chapter5", {}), schema="../schemas/chapter5.schema.yaml")

CH5_DATA = config["chapter5"]["data"]


rule ch5_windows:
    input:
        fasta=repo_path(CH5_DATA["fasta"]),
        tsv=repo_path(CH5_DATA["tsv"]),
    output:
        csv="results/peptides/windows.csv",
        json="results/peptides/windows.json",
    log:
        "logs/peptides/windows.log",
    benchmark:
        "benchmarks/peptides/windows.tsv"
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=mem_of("ch5_windows"),
        runtime=runtime_of("ch5_windows"),
    params:
        nonstandard=CH5_DATA["nonstandard"],
        n_sequences=CH5_DATA["n_sequences"],
        prefix=CH5_DATA["prefix"],
        before=CH5_DATA["before"],
        after=CH5_DATA["after"],
        seed=derive_seed(config["seed"], "chapter5", "sequences"),
    script:
        "../scripts/cut_cleavage_windows.py"


rule ch5_encode:
    input:
        windows="results/peptides/windows.csv",
        json="results/peptides/windows.json",
        scales=repo_path(CH5_DATA["scales"]),
    output:
        "results/peptides/encoded.npz",
    log:
        "logs/peptides/encode.log",
    benchmark:
        "benchmarks/peptides/encode.tsv"
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=mem_of("ch5_encode"),
        runtime=runtime_of("ch5_encode"),
    script:
        "../scripts/encode_windows.py"


# the windows by each scale's values as published, not standardised (the randSel paper's "raw physicochemical
# properties"): the input of table P1's cells on raw scales (rules/chapter5.smk, ch5_predict_raw)
if (config["chapter5"]["prediction"].get("scales") or {}).get("raw"):

    rule ch5_encode_raw:
        input:
            windows="results/peptides/windows.csv",
            json="results/peptides/windows.json",
            scales=repo_path(CH5_DATA["scales"]),
        output:
            "results/peptides/encoded_raw.npz",
        log:
            "logs/peptides/encode_raw.log",
        benchmark:
            "benchmarks/peptides/encode_raw.tsv"
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=mem_of("ch5_encode"),
            runtime=runtime_of("ch5_encode"),
        params:
            scaling="raw",
        script:
            "../scripts/encode_windows.py"


rule ch5_homology:
    input:
        windows="results/peptides/windows.csv",
    output:
        npz="results/peptides/homology.npz",
        json="results/peptides/homology.json",
    log:
        "logs/peptides/homology.log",
    benchmark:
        "benchmarks/peptides/homology.tsv"
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=mem_of("ch5_homology"),
        runtime=runtime_of("ch5_homology"),
    params:
        identity=config["chapter5"]["homology"]["identity"],
        max_shift=config["chapter5"]["homology"]["max_shift"],
    script:
        "../scripts/cluster_homologous_sequences.py"


FINAL_OUTPUTS.extend(
    [
        "results/peptides/windows.json",
        "results/peptides/encoded.npz",
        "results/peptides/homology.json",
    ]
)
