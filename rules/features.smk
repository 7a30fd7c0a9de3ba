# Which features each method selected on a data set, by name: figures/{name}_features.csv (one row per
# feature x method x model selection of chapters 3 and 4, or of the regression folds: how many outer folds
# selected it, its mean rank, whether it is in the consensus set) and its heat map, for every data set of
# chapter3.datasets, chapter4.datasets and regression.folds.datasets.

FEATURE_DATASETS = feature_datasets()


rule features:
    input:
        dataset="results/datasets/{dataset}.npz",
        chapter3=feature_fold_files("chapter3"),
        chapter4=feature_fold_files("chapter4"),
        regression=feature_fold_files("regression"),
    output:
        csv=report(
            "figures/{dataset}_features.csv",
            caption="../report/features_table.rst",
            category="Selected features",
            subcategory="{dataset}",
        ),
        png=report(
            "figures/{dataset}_features.png",
            caption="../report/features_figure.rst",
            category="Selected features",
            subcategory="{dataset}",
        ),
    log:
        "logs/features/{dataset}.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        dataset=lambda wc: wc.dataset,
        sizes=lambda wc: " ".join(
            [
                *(
                    f"{CHAPTER_TITLES[c]}: {run_sizes(c, wc.dataset)}."
                    for c in ("chapter3", "chapter4")
                    if wc.dataset in config[c]["datasets"]
                ),
                *([f"Regression: {regression_fold_sizes()}"] if wc.dataset in regression_datasets() else []),
            ]
        ),
    script:
        "../scripts/tabulate_selected_features.py"


FINAL_OUTPUTS.extend(f"figures/{d}_features.{ext}" for d in FEATURE_DATASETS for ext in ("csv", "png"))


# your own data sets only (those of chapter3/chapter4.datasets that are not the study's): their panels and
# features tables, nothing else of the study
rule own_data:
    input:
        own_data_targets,
    localrule: True
