# Chapter 3: linear rankings + {nested CV, greedy KTA} on any data set by name (figures 3.3-3.8 on the
# six synthetic sets, 3.9-3.13 on the real tasks, "chapter3_<name>" on yours; table 3.2) and the
# consistency toy (figures 2.2-2.4). The fold jobs (ch3_fold, one per dataset, method and group of outer
# folds) are rules/folds.smk's, one rule for chapters 3 and 4; per-dataset summaries feed the panel figures.


validate(config["chapter3"], schema="../schemas/chapter3.schema.yaml")

CH3 = config["chapter3"]
check_dataset_names("chapter3", CH3["datasets"])
check_inner_selectors("chapter3")


wildcard_constraints:
    ch3_method="|".join(CH3["methods"]),
    ch3_first="[0-9]+",
    ch3_last="[0-9]+",


# the fold rule ch3_fold is rules/folds.smk's, shared with chapter 4


rule ch3_summary:
    input:
        lambda wc: fold_files("chapter3", "chapter3", wc.dataset),
    output:
        "results/chapter3/summary/{dataset}.csv",
    log:
        "logs/chapter3/summary/{dataset}.log",
    wildcard_constraints:
        dataset=ungrouped_dataset_pattern("chapter3"),
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        dataset=lambda wc: wc.dataset,
    script:
        "../scripts/summarise_outer_folds.py"


# one panel figure per data set (fig3_3 .. fig3_13, chapter3_<name>), each with its own caption
# (the study's data sets' panels are rules/summaries.smk's when summaries_one_job is set)
for _dataset in [d for d in CH3["datasets"] if d not in grouped_summaries("chapter3")]:
    _fig = panel_id("chapter3", _dataset)

    rule:
        name:
            f"ch3_{_fig}"
        input:
            f"results/chapter3/summary/{_dataset}.csv",
        output:
            report(figure(_fig), caption=panel_caption("chapter3", _dataset), category="Chapter 3"),
        log:
            f"logs/chapter3/{_fig}.log",
        localrule: True
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=LOCAL_MEM_MB,
            runtime=LOCAL_RUNTIME,
        params:
            dataset=_dataset,
            methods=CH3["methods"],
            model_selection=CH3["model_selection"],
            sizes=run_sizes("chapter3", _dataset),
        script:
            "../scripts/plot_selection_panels.py"


rule ch3_table3_2:
    input:
        # wall-clock timings of the synthetic sets (the thesis' table 3.2), or of every set if none
        [
            t
            for d in ([d for d in CH3["datasets"] if d in _REGISTRY] or CH3["datasets"])
            for t in fold_files("chapter3", "chapter3", d, suffix="timing.json")
        ],
    output:
        csv=report("figures/table3_2.csv", caption="../report/table3_2.rst", category="Chapter 3"),
        md="figures/table3_2.md",
    log:
        "logs/chapter3/table3_2.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        methods=[m for m in CH3["methods"] if m != "random"],
        sizes=run_sizes("chapter3"),
    script:
        "../scripts/tabulate_kta_speedup.py"


rule ch3_consistency_toy:
    output:
        fig2_2=report(figure("fig2_2"), caption="../report/fig2_2.rst", category="Chapter 2"),
        fig2_3=report(figure("fig2_3"), caption="../report/fig2_3.rst", category="Chapter 2"),
        fig2_4=report(figure("fig2_4"), caption="../report/fig2_4.rst", category="Chapter 2"),
        json="results/chapter3/consistency_toy.json",
    log:
        "logs/chapter3/consistency_toy.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        settings=CH3["consistency_toy"],
        seed=derive_seed(config["seed"], "chapter3", "consistency_toy"),
    script:
        "../scripts/plot_consistency_toy.py"


FINAL_OUTPUTS.extend(
    [figure(panel_id("chapter3", d)) for d in CH3["datasets"]]
    + ["figures/table3_2.csv", "figures/table3_2.md", figure("fig2_2"), figure("fig2_3"), figure("fig2_4")]
)
