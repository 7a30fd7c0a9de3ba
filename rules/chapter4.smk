# Chapter 4: non-linear selection (randSel, Gaussian SVM-RFE, FoHSIC, BaHSIC) with the chapter-3 protocol
# on any data set by name (figures 4.4-4.9 on the six synthetic sets, 4.10-4.14 on the real tasks,
# "chapter4_<name>" on yours; the per-fold, summary and panel scripts are chapter 3's, shared as they
# are), with nested CV, greedy KTA and randSel's own selected set (thesis 4.2.4) as model selections;
# randSel's contributions per iteration (figure 4.3) and figure 1 of "Principled Non-Linear Feature
# Selection" (Athanasakis, Shawe-Taylor & Fernandez-Reyes 2013; figP_1).


validate(config["chapter4"], schema="../schemas/chapter4.schema.yaml")

CH4 = config["chapter4"]
check_dataset_names("chapter4", CH4["datasets"])
check_inner_selectors("chapter4")


wildcard_constraints:
    ch4_method="|".join(CH4["methods"]),
    ch4_first="[0-9]+",
    ch4_last="[0-9]+",


# the fold rule ch4_fold is rules/folds.smk's, shared with chapter 3


rule ch4_summary:
    input:
        lambda wc: fold_files("chapter4", "chapter4", wc.dataset),
    output:
        "results/chapter4/summary/{dataset}.csv",
    log:
        "logs/chapter4/summary/{dataset}.log",
    wildcard_constraints:
        dataset=ungrouped_dataset_pattern("chapter4"),
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


# one panel figure per data set (fig4_4 .. fig4_14, chapter4_<name>), each with its own caption
# (the study's data sets' panels are rules/summaries.smk's when summaries_one_job is set)
for _dataset in [d for d in CH4["datasets"] if d not in grouped_summaries("chapter4")]:
    _fig = panel_id("chapter4", _dataset)

    rule:
        name:
            f"ch4_{_fig}"
        input:
            f"results/chapter4/summary/{_dataset}.csv",
        output:
            report(figure(_fig), caption=panel_caption("chapter4", _dataset), category="Chapter 4"),
        log:
            f"logs/chapter4/{_fig}.log",
        localrule: True
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=LOCAL_MEM_MB,
            runtime=LOCAL_RUNTIME,
        params:
            dataset=_dataset,
            methods=CH4["methods"],
            model_selection=CH4["model_selection"],
            sizes=run_sizes("chapter4", _dataset),
        script:
            "../scripts/plot_selection_panels.py"


rule ch4_randsel_history:
    input:
        lambda wc: f"results/datasets/{CH4['fig4_3']['dataset']}.npz",
    output:
        "results/chapter4/randsel_history.npz",
    log:
        "logs/chapter4/randsel_history.log",
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=mem_of("ch4_randsel_history"),
        runtime=runtime_of("ch4_randsel_history"),
    params:
        settings=CH4["fig4_3"],
        seed=derive_seed(config["seed"], "chapter4", "fig4_3"),
    script:
        "../scripts/compute_randsel_history.py"


rule ch4_fig4_3:
    input:
        "results/chapter4/randsel_history.npz",
    output:
        report(figure("fig4_3"), caption="../report/fig4_3.rst", category="Chapter 4"),
    log:
        "logs/chapter4/fig4_3.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        title=f"randSel on {CH4['fig4_3']['dataset']}",
    script:
        "../scripts/plot_randsel_history.py"


rule ch4_expected_contributions:
    input:
        lambda wc: f"results/datasets/{CH4['figP_1']['dataset']}.npz",
    output:
        "results/chapter4/expected_contributions.npz",
    log:
        "logs/chapter4/expected_contributions.log",
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=mem_of("ch4_expected_contributions"),
        runtime=runtime_of("ch4_expected_contributions"),
    params:
        settings=CH4["figP_1"],
        seed=derive_seed(config["seed"], "chapter4", "figP_1"),
    script:
        "../scripts/compute_expected_contributions.py"


rule ch4_figP_1:
    input:
        "results/chapter4/expected_contributions.npz",
    output:
        report(figure("figP_1"), caption="../report/figP_1.rst", category="Chapter 4"),
    log:
        "logs/chapter4/figP_1.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    script:
        "../scripts/plot_expected_contributions.py"


FINAL_OUTPUTS.extend([figure(panel_id("chapter4", d)) for d in CH4["datasets"]] + [figure("fig4_3"), figure("figP_1")])
