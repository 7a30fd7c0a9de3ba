# Chapter 3: linear rankings + {nested CV, greedy KTA} on the six synthetic sets (figures 3.3-3.8,
# table 3.2) and the consistency toy (figures 2.2-2.4). One job per (dataset, method, model selection,
# outer fold) writes a small JSON; per-dataset summaries feed the panel figures.
# The per-fold script is method-agnostic (fscompbio.evaluation.make_selector): chapter 4 can reuse it.


validate(config["chapter3"], schema="../schemas/chapter3.schema.yaml")

CH3 = config["chapter3"]
CH3_FIGURES = {
    "fake_class": "fig3_3",
    "linear_zhang_feature_noise": "fig3_4",
    "linear_zhang_sample_noise": "fig3_5",
    "linear_weston": "fig3_6",
    "nonlinear_weston": "fig3_7",
    "xor": "fig3_8",
}
CH3_MSEL = ["cv", "kta"]


wildcard_constraints:
    ch3_method="|".join(CH3["methods"]),
    ch3_msel="cv|kta",
    ch3_fold="[0-9]+",


CH3_FOLD_JSON = "results/chapter3/folds/{dataset}/{method}/{msel}/fold{fold}.json"


rule ch3_fold:
    input:
        "results/datasets/{dataset}.npz",
    output:
        "results/chapter3/folds/{dataset}/{ch3_method}/{ch3_msel}/fold{ch3_fold}.json",
    log:
        "logs/chapter3/folds/{dataset}/{ch3_method}/{ch3_msel}/fold{ch3_fold}.log",
    params:
        method=lambda wc: wc.ch3_method,
        selector=lambda wc: CH3["selectors"].get(wc.ch3_method, {}),
        model_selection=lambda wc: wc.ch3_msel,
        fold=lambda wc: int(wc.ch3_fold),
        outer_folds=CH3["outer_folds"],
        svm_C=CH3["svm_C"],
        widths=CH3["widths"],
        kta=CH3["kta"],
        cv=CH3["cv"],
        # folds shared by all methods; the selector's seed shared by CV and KTA (paired comparison)
        folds_seed=lambda wc: derive_seed(config["seed"], "chapter3", wc.dataset, "outer"),
        seed=lambda wc: derive_seed(config["seed"], "chapter3", wc.dataset, wc.ch3_method, wc.ch3_fold),
        inner_seed=lambda wc: derive_seed(config["seed"], "chapter3", wc.dataset, wc.ch3_method, wc.ch3_fold, "inner"),
    conda:
        "../envs/selection.yaml"
    script:
        "../scripts/ch3_fold.py"


rule ch3_summary:
    input:
        lambda wc: expand(
            CH3_FOLD_JSON,
            dataset=wc.dataset,
            method=CH3["methods"],
            msel=CH3_MSEL,
            fold=range(CH3["outer_folds"]),
        ),
    output:
        "results/chapter3/summary/{dataset}.csv",
    log:
        "logs/chapter3/summary/{dataset}.log",
    params:
        dataset=lambda wc: wc.dataset,
    conda:
        "../envs/selection.yaml"
    script:
        "../scripts/ch3_summary.py"


# one panel figure per data set (fig3_3 .. fig3_8), each with its own caption
for _dataset, _fig in CH3_FIGURES.items():

    rule:
        name:
            f"ch3_{_fig}"
        input:
            f"results/chapter3/summary/{_dataset}.csv",
        output:
            report(figure(_fig), caption=f"../report/{_fig}.rst", category="Chapter 3"),
        log:
            f"logs/chapter3/{_fig}.log",
        params:
            dataset=_dataset,
            methods=CH3["methods"],
        conda:
            "../envs/figures.yaml"
        script:
            "../scripts/ch3_panels.py"


rule ch3_table3_2:
    input:
        expand(
            CH3_FOLD_JSON,
            dataset=CH3["datasets"],
            method=CH3["methods"],
            msel=CH3_MSEL,
            fold=range(CH3["outer_folds"]),
        ),
    output:
        csv=report("figures/table3_2.csv", caption="../report/table3_2.rst", category="Chapter 3"),
        md="figures/table3_2.md",
    log:
        "logs/chapter3/table3_2.log",
    params:
        methods=[m for m in CH3["methods"] if m != "random"],
    conda:
        "../envs/figures.yaml"
    script:
        "../scripts/ch3_table3_2.py"


rule ch3_consistency_toy:
    output:
        fig2_2=report(figure("fig2_2"), caption="../report/fig2_2.rst", category="Chapter 2"),
        fig2_3=report(figure("fig2_3"), caption="../report/fig2_3.rst", category="Chapter 2"),
        fig2_4=report(figure("fig2_4"), caption="../report/fig2_4.rst", category="Chapter 2"),
        json="results/chapter3/consistency_toy.json",
    log:
        "logs/chapter3/consistency_toy.log",
    params:
        settings=CH3["consistency_toy"],
        seed=derive_seed(config["seed"], "chapter3", "consistency_toy"),
    conda:
        "../envs/figures.yaml"
    script:
        "../scripts/ch3_consistency_toy.py"


FINAL_OUTPUTS.extend(
    [figure(CH3_FIGURES[d]) for d in CH3["datasets"]]
    + ["figures/table3_2.csv", "figures/table3_2.md", figure("fig2_2"), figure("fig2_3"), figure("fig2_4")]
)
