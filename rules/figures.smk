# The figures of the config's `spine` section (figures 2.1, 3.1, 3.2, 4.1 and 4.2) and the tables of the
# data sets (table 3.1, the synthetic sets' classes; table A.2, the real tasks).

THESIS_SETS = [
    "fake_class",
    "linear_zhang_feature_noise",
    "linear_zhang_sample_noise",
    "linear_weston",
    "nonlinear_weston",
    "xor",
]


rule table3_1:
    input:
        expand("results/datasets/{dataset}.npz", dataset=THESIS_SETS),
    output:
        csv=report("figures/table3_1.csv", caption="../report/table3_1.rst", category="Chapter 3"),
        md="figures/table3_1.md",
    log:
        "logs/figures/table3_1.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    script:
        "../scripts/tabulate_class_proportions.py"


# the real tasks of chapters 3 and 4 (datasets.csv entries used there)
REAL_TASKS = [
    d
    for d in dict.fromkeys(
        config.get("chapter3", {}).get("datasets", []) + config.get("chapter4", {}).get("datasets", [])
    )
    if d in config["datasets"]["csv"]
]


rule table_A2:
    input:
        npz=expand("results/datasets/{dataset}.npz", dataset=REAL_TASKS),
        csv=[repo_path(config["datasets"]["csv"][d]["path"]) for d in REAL_TASKS],
    output:
        csv=report("figures/table_A2.csv", caption="../report/table_A2.rst", category="Appendix"),
        md="figures/table_A2.md",
    log:
        "logs/figures/table_A2.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        names=REAL_TASKS,
        csv={d: config["datasets"]["csv"][d] for d in REAL_TASKS},
        paths={d: repo_path(config["datasets"]["csv"][d]["path"]) for d in REAL_TASKS},
    script:
        "../scripts/tabulate_real_datasets.py"


rule fig2_1:
    input:
        lambda wc: f"results/datasets/{config['spine']['fig2_1']['dataset']}.npz",
    output:
        report(figure("fig2_1"), caption="../report/fig2_1.rst", category="Chapter 2"),
    log:
        "logs/figures/fig2_1.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        settings=config["spine"]["fig2_1"],
    script:
        "../scripts/plot_lasso_path.py"


rule fig3_1:
    input:
        lambda wc: f"results/datasets/{config['spine']['fig3_1']['base']}.npz",
    output:
        report(figure("fig3_1"), caption="../report/fig3_1.rst", category="Chapter 3"),
    log:
        "logs/figures/fig3_1.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        settings=config["spine"]["fig3_1"],
        seed=derive_seed(config["seed"], "fig3_1"),
    script:
        "../scripts/plot_alignment_vs_width.py"


rule fig3_2:
    output:
        report(figure("fig3_2"), caption="../report/fig3_2.rst", category="Chapter 3"),
    log:
        "logs/figures/fig3_2.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    script:
        "../scripts/plot_classification_losses.py"


rule fig4_1:
    output:
        png=report(figure("fig4_1"), caption="../report/fig4_1.rst", category="Chapter 4"),
        json="results/spine/fig4_1.json",
    log:
        "logs/figures/fig4_1.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        settings=config["spine"]["fig4_1"],
        seed=derive_seed(config["seed"], "fig4_1"),
    script:
        "../scripts/plot_alignment_vs_sample_size.py"


rule fig4_2:
    output:
        report(figure("fig4_2"), caption="../report/fig4_2.rst", category="Chapter 4"),
    log:
        "logs/figures/fig4_2.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        settings=config["spine"]["fig4_2"],
        seed=derive_seed(config["seed"], "fig4_2"),
    script:
        "../scripts/plot_random_halves_alignment.py"


FINAL_OUTPUTS.extend(
    (["figures/table_A2.csv", "figures/table_A2.md"] if REAL_TASKS else [])
    + [
        "figures/table3_1.csv",
        "figures/table3_1.md",
        figure("fig2_1"),
        figure("fig3_1"),
        figure("fig3_2"),
        figure("fig4_1"),
        figure("fig4_2"),
    ]
)
