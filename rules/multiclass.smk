# Multi-class: randSel, BaHSIC and FoHSIC with the one-hot label kernel (KTA or nested-CV model selection,
# Gaussian SVM)
# against a one-vs-rest l1-logistic baseline on the four-class expression sets glioma and tox_171 (figM_1),
# every method inside the same stratified outer folds.


validate(config["multiclass"], schema="../schemas/multiclass.schema.yaml")

MC = config["multiclass"]
# the (method, model selection, outer fold) of every fold of a data set; the baseline has its own inner CV
# ("cv") only
MC_MEMBERS = [
    (m, s, k)
    for m in MC["methods"]
    for s in (["cv"] if m == "ovr_l1_logistic" else MC["model_selection"])
    for k in range(MC["outer_folds"])
]
# one fold file per (data set, method, model selection, outer fold)
MC_FOLDS = [f"results/multiclass/folds/{d}/{m}/{s}/fold{k}.json" for d in MC["datasets"] for m, s, k in MC_MEMBERS]


wildcard_constraints:
    mc_method="|".join(MC["methods"]),
    mc_msel="cv|kta",
    mc_fold="[0-9]+",


if MC["group_jobs"]:
    # one job per data set: every (method, model selection, outer fold) on it, each written apart as below

    rule mc_fold:
        input:
            "results/datasets/{dataset}.npz",
        output:
            result=[f"results/multiclass/folds/{{dataset}}/{m}/{s}/fold{k}.json" for m, s, k in MC_MEMBERS],
            timing=[f"results/multiclass/folds/{{dataset}}/{m}/{s}/fold{k}.timing.json" for m, s, k in MC_MEMBERS],
        log:
            "logs/multiclass/folds/{dataset}.log",
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=mem_of("mc_fold"),
            runtime=runtime_of("mc_fold"),
        params:
            # the job's folds, in the order of its outputs, with the seeds one job per fold derives
            members=lambda wc: [
                {
                    "method": m,
                    "model_selection": s,
                    "fold": k,
                    "params": MC["selectors"][m],
                    "seed": multiclass_seeds(config["seed"], wc.dataset, m, k).selector,
                    "inner_seed": multiclass_seeds(config["seed"], wc.dataset, m, k).inner,
                }
                for m, s, k in MC_MEMBERS
            ],
            outer_folds=MC["outer_folds"],
            widths=MC["widths"],
            kta=MC["kta"],
            cv=MC["cv"],
            svm_C=MC["svm_C"],
            folds_seed=lambda wc: multiclass_seeds(config["seed"], wc.dataset, "", 0).outer,
        script:
            "../scripts/evaluate_multiclass_fold.py"

else:
    # one job per (data set, method, model selection, outer fold)

    rule mc_fold:
        input:
            "results/datasets/{dataset}.npz",
        output:
            result="results/multiclass/folds/{dataset}/{mc_method}/{mc_msel}/fold{mc_fold}.json",
            timing="results/multiclass/folds/{dataset}/{mc_method}/{mc_msel}/fold{mc_fold}.timing.json",
        log:
            "logs/multiclass/folds/{dataset}/{mc_method}/{mc_msel}/fold{mc_fold}.log",
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=mem_of("mc_fold"),
            runtime=runtime_of("mc_fold"),
        params:
            method=lambda wc: wc.mc_method,
            model_selection=lambda wc: wc.mc_msel,
            fold=lambda wc: int(wc.mc_fold),
            outer_folds=MC["outer_folds"],
            params=lambda wc: MC["selectors"][wc.mc_method],
            widths=MC["widths"],
            kta=MC["kta"],
            cv=MC["cv"],
            svm_C=MC["svm_C"],
            folds_seed=lambda wc: multiclass_seeds(config["seed"], wc.dataset, "", 0).outer,
            seed=lambda wc: multiclass_seeds(config["seed"], wc.dataset, wc.mc_method, wc.mc_fold).selector,
            inner_seed=lambda wc: multiclass_seeds(config["seed"], wc.dataset, wc.mc_method, wc.mc_fold).inner,
        script:
            "../scripts/evaluate_multiclass_fold.py"


rule mc_figM_1:
    input:
        MC_FOLDS,
    output:
        png=report(figure("figM_1"), caption="../report/figM_1.rst", category="Multi-class"),
        csv="figures/figM_1.csv",
        md="figures/figM_1.md",
    log:
        "logs/multiclass/figM_1.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    script:
        "../scripts/plot_multiclass_comparison.py"


FINAL_OUTPUTS.extend([figure("figM_1"), "figures/figM_1.csv", "figures/figM_1.md"])
