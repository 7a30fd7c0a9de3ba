# The outer folds of chapters 3 and 4: one rule, defined once for both chapters (ch3_fold, ch4_fold). One
# job per (dataset, method, group of outer folds) fits the selector once per fold, runs every model selection
# on that fit (nested CV, KTA, randSel's own set) and writes a small JSON and its wall-clock timing apart.
# The seeds are those of fscompbio.evaluation.fold_seeds, as `fscompbio evaluate` derives them.

for _chapter, _short in [("chapter3", "ch3"), ("chapter4", "ch4")]:
    # <chapter>/folds/{dataset}/{chN_method}/folds{chN_first}-{chN_last}
    _job = f"{_chapter}/folds/{{dataset}}/{{{_short}_method}}/folds{{{_short}_first}}-{{{_short}_last}}"

    rule:
        name:
            f"{_short}_fold"
        input:
            "results/datasets/{dataset}.npz",
        output:
            json=f"results/{_job}.json",
            timing=f"results/{_job}.timing.json",
        log:
            f"logs/{_job}.log",
        benchmark:
            f"benchmarks/{_job}.tsv"
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=mem_of(f"{_short}_fold"),
            runtime=runtime_of(f"{_short}_fold"),
        params:
            **fold_params(_chapter, _short),
        script:
            "../scripts/evaluate_outer_folds.py"
