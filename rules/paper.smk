# The randSel paper's remaining results ("Principled Non-Linear Feature Selection", Athanasakis, Shawe-Taylor
# & Fernandez-Reyes): its synthetic table on the 100-dimensional linear Weston, non-linear Weston and XOR sets
# (nested CV repeated over three reshuffles; tableP_2), and its figure 2 (randSel on 200-d XOR culling 12.5%
# of the features per iteration, subsample 100, 1,000 partitions; figP_2).


validate(config["paper"], schema="../schemas/paper.schema.yaml")

PAPER = config["paper"]
TP2 = PAPER["tableP_2"]


wildcard_constraints:
    p2_method="|".join(TP2["methods"]),
    p2_dataset="|".join(TP2["datasets"]),


if TP2["group_jobs"]:
    # one job per data set: every method of table P.2 on it, each written apart as below

    rule paper_tableP_2_method:
        input:
            "results/datasets/{p2_dataset}.npz",
        output:
            result=[f"results/paper/tableP_2/{{p2_dataset}}/{m}.json" for m in TP2["methods"]],
            timing=[f"results/paper/tableP_2/{{p2_dataset}}/{m}.timing.json" for m in TP2["methods"]],
        log:
            "logs/paper/tableP_2/{p2_dataset}.log",
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=mem_of("paper_tableP_2_method"),
            runtime=runtime_of("paper_tableP_2_method"),
        params:
            # the job's methods, in the order of its outputs
            members=[{"method": m, "selector": TP2["selectors"][m]} for m in TP2["methods"]],
            n_reshuffles=TP2["n_reshuffles"],
            outer_folds=TP2["outer_folds"],
            inner_folds=TP2["inner_folds"],
            sizes=TP2["sizes"],
            widths=TP2["widths"],
            svm_C=TP2["svm_C"],
            # the same reshuffles and folds for every method of a data set
            seed=lambda wc: derive_seed(config["seed"], "paper", "tableP_2", wc.p2_dataset),
        script:
            "../scripts/evaluate_reshuffled_cv.py"

else:
    # one job per (data set, method)

    rule paper_tableP_2_method:
        input:
            "results/datasets/{p2_dataset}.npz",
        output:
            result="results/paper/tableP_2/{p2_dataset}/{p2_method}.json",
            timing="results/paper/tableP_2/{p2_dataset}/{p2_method}.timing.json",
        log:
            "logs/paper/tableP_2/{p2_dataset}/{p2_method}.log",
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=mem_of("paper_tableP_2_method"),
            runtime=runtime_of("paper_tableP_2_method"),
        params:
            method=lambda wc: wc.p2_method,
            selector=lambda wc: TP2["selectors"][wc.p2_method],
            n_reshuffles=TP2["n_reshuffles"],
            outer_folds=TP2["outer_folds"],
            inner_folds=TP2["inner_folds"],
            sizes=TP2["sizes"],
            widths=TP2["widths"],
            svm_C=TP2["svm_C"],
            # the same reshuffles and folds for every method of a data set
            seed=lambda wc: derive_seed(config["seed"], "paper", "tableP_2", wc.p2_dataset),
        script:
            "../scripts/evaluate_reshuffled_cv.py"


rule paper_tableP_2:
    input:
        expand(
            "results/paper/tableP_2/{dataset}/{method}.json",
            dataset=TP2["datasets"],
            method=TP2["methods"],
        ),
    output:
        csv=report(
            "figures/tableP_2.csv",
            caption="../report/tableP_2.rst",
            category="randSel paper",
        ),
        md="figures/tableP_2.md",
    log:
        "logs/paper/tableP_2.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    script:
        "../scripts/tabulate_reshuffled_cv.py"


rule paper_randsel_history:
    input:
        lambda wc: f"results/datasets/{PAPER['figP_2']['dataset']}.npz",
    output:
        "results/paper/figP_2_randsel_history.npz",
    log:
        "logs/paper/figP_2_randsel_history.log",
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=mem_of("paper_randsel_history"),
        runtime=runtime_of("paper_randsel_history"),
    params:
        settings=PAPER["figP_2"],
        seed=derive_seed(config["seed"], "paper", "figP_2"),
    script:
        "../scripts/compute_randsel_history.py"


rule paper_figP_2:
    input:
        "results/paper/figP_2_randsel_history.npz",
    output:
        report(figure("figP_2"), caption="../report/figP_2.rst", category="randSel paper"),
    log:
        "logs/paper/figP_2.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        title=(
            f"randSel on {PAPER['figP_2']['dataset']}: culling "
            f"{100 * PAPER['figP_2']['cull_fraction']:g}% per iteration"
        ),
    script:
        "../scripts/plot_randsel_history.py"


FINAL_OUTPUTS.extend(["figures/tableP_2.csv", "figures/tableP_2.md", figure("figP_2")])
