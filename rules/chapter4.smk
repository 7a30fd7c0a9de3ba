# Chapter 4: non-linear selection (randSel, Gaussian SVM-RFE, FoHSIC, BaHSIC) with the chapter-3 protocol
# on the six synthetic sets (figures 4.4-4.9; the per-fold, summary and panel scripts of chapter 3 are
# reused as they are), randSel's contributions per iteration (figure 4.3) and seed 004's figure 1.


validate(config["chapter4"], schema="../schemas/chapter4.schema.yaml")

CH4 = config["chapter4"]
CH4_FIGURES = {
    "fake_class": "fig4_4",
    "linear_zhang_feature_noise": "fig4_5",
    "linear_zhang_sample_noise": "fig4_6",
    "linear_weston": "fig4_7",
    "nonlinear_weston": "fig4_8",
    "xor": "fig4_9",
}


wildcard_constraints:
    ch4_method="|".join(CH4["methods"]),
    ch4_msel="cv|kta",
    ch4_fold="[0-9]+",


CH4_FOLD_JSON = "results/chapter4/folds/{dataset}/{method}/{msel}/fold{fold}.json"


rule ch4_fold:
    input:
        "results/datasets/{dataset}.npz",
    output:
        "results/chapter4/folds/{dataset}/{ch4_method}/{ch4_msel}/fold{ch4_fold}.json",
    log:
        "logs/chapter4/folds/{dataset}/{ch4_method}/{ch4_msel}/fold{ch4_fold}.log",
    params:
        method=lambda wc: wc.ch4_method,
        selector=lambda wc: CH4["selectors"].get(wc.ch4_method, {}),
        model_selection=lambda wc: wc.ch4_msel,
        fold=lambda wc: int(wc.ch4_fold),
        outer_folds=CH4["outer_folds"],
        svm_C=CH4["svm_C"],
        widths=CH4["widths"],
        kta=CH4["kta"],
        cv=CH4["cv"],
        # the same outer folds as chapter 3 (same data set, same seed keys), so the chapters compare
        folds_seed=lambda wc: derive_seed(config["seed"], "chapter3", wc.dataset, "outer"),
        seed=lambda wc: derive_seed(config["seed"], "chapter4", wc.dataset, wc.ch4_method, wc.ch4_fold),
        inner_seed=lambda wc: derive_seed(config["seed"], "chapter4", wc.dataset, wc.ch4_method, wc.ch4_fold, "inner"),
    conda:
        "../envs/selection.yaml"
    script:
        "../scripts/ch3_fold.py"


rule ch4_summary:
    input:
        lambda wc: expand(
            CH4_FOLD_JSON,
            dataset=wc.dataset,
            method=CH4["methods"],
            msel=CH4["model_selection"],
            fold=range(CH4["outer_folds"]),
        ),
    output:
        "results/chapter4/summary/{dataset}.csv",
    log:
        "logs/chapter4/summary/{dataset}.log",
    params:
        dataset=lambda wc: wc.dataset,
    conda:
        "../envs/selection.yaml"
    script:
        "../scripts/ch3_summary.py"


# one panel figure per data set (fig4_4 .. fig4_9), each with its own caption
for _dataset, _fig in CH4_FIGURES.items():

    rule:
        name:
            f"ch4_{_fig}"
        input:
            f"results/chapter4/summary/{_dataset}.csv",
        output:
            report(figure(_fig), caption=f"../report/{_fig}.rst", category="Chapter 4"),
        log:
            f"logs/chapter4/{_fig}.log",
        params:
            dataset=_dataset,
            methods=CH4["methods"],
        conda:
            "../envs/figures.yaml"
        script:
            "../scripts/ch3_panels.py"


rule ch4_randsel_history:
    input:
        lambda wc: f"results/datasets/{CH4['fig4_3']['dataset']}.npz",
    output:
        "results/chapter4/randsel_history.npz",
    log:
        "logs/chapter4/randsel_history.log",
    params:
        settings=CH4["fig4_3"],
        seed=derive_seed(config["seed"], "chapter4", "fig4_3"),
    conda:
        "../envs/selection.yaml"
    script:
        "../scripts/ch4_randsel_history.py"


rule ch4_fig4_3:
    input:
        "results/chapter4/randsel_history.npz",
    output:
        report(figure("fig4_3"), caption="../report/fig4_3.rst", category="Chapter 4"),
    log:
        "logs/chapter4/fig4_3.log",
    params:
        title=f"randSel on {CH4['fig4_3']['dataset']}",
    conda:
        "../envs/figures.yaml"
    script:
        "../scripts/ch4_fig4_3.py"


rule ch4_expected_contributions:
    input:
        lambda wc: f"results/datasets/{CH4['figP_1']['dataset']}.npz",
    output:
        "results/chapter4/expected_contributions.npz",
    log:
        "logs/chapter4/expected_contributions.log",
    params:
        settings=CH4["figP_1"],
        seed=derive_seed(config["seed"], "chapter4", "figP_1"),
    conda:
        "../envs/selection.yaml"
    script:
        "../scripts/ch4_expected_contributions.py"


rule ch4_figP_1:
    input:
        "results/chapter4/expected_contributions.npz",
    output:
        report(figure("figP_1"), caption="../report/figP_1.rst", category="Chapter 4"),
    log:
        "logs/chapter4/figP_1.log",
    conda:
        "../envs/figures.yaml"
    script:
        "../scripts/ch4_figP_1.py"


FINAL_OUTPUTS.extend([figure(CH4_FIGURES[d]) for d in CH4["datasets"]] + [figure("fig4_3"), figure("figP_1")])
