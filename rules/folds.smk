# The outer folds of chapters 3 and 4: one rule, defined once for both chapters (ch3_fold, ch4_fold). One
# job per (dataset, method, group of outer folds) fits the selector once per fold, runs every model selection
# on that fit (nested CV, KTA, randSel's own set) and writes a small JSON and its wall-clock timing apart.
# The methods of a group of the chapter's method_groups run in one job instead (a rule of their own,
# ch3_fold_group1, ...), each method writing the same files, byte for byte, as its own job would.
# The seeds are those of fscompbio.evaluation.fold_seeds, as `fscompbio evaluate` derives them.

for _chapter, _short in [("chapter3", "ch3"), ("chapter4", "ch4")]:
    _folds = f"folds{{{_short}_first}}-{{{_short}_last}}"

    if single_methods(_chapter):
        # <chapter>/folds/{dataset}/{chN_method}/folds{chN_first}-{chN_last}
        _job = f"{_chapter}/folds/{{dataset}}/{{{_short}_method}}/{_folds}"

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
            wildcard_constraints:
                **{f"{_short}_method": "|".join(single_methods(_chapter))},
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

    for _i, _methods in enumerate(method_groups(_chapter), start=1):
        _dir = f"{_chapter}/folds/{{dataset}}"
        register_fold_group_cost(f"{_short}_fold_group{_i}", _short, _methods)

        rule:
            name:
                f"{_short}_fold_group{_i}"
            input:
                "results/datasets/{dataset}.npz",
            output:
                **{f"json_{m}": f"results/{_dir}/{m}/{_folds}.json" for m in _methods},
                **{f"timing_{m}": f"results/{_dir}/{m}/{_folds}.timing.json" for m in _methods},
            log:
                f"logs/{_dir}/{'+'.join(_methods)}/{_folds}.log",
            benchmark:
                f"benchmarks/{_dir}/{'+'.join(_methods)}/{_folds}.tsv"
            conda:
                "../envs/study.yaml"
            threads: 1
            resources:
                mem_mb=mem_of(f"{_short}_fold_group{_i}"),
                runtime=runtime_of(f"{_short}_fold_group{_i}"),
            params:
                **fold_params(_chapter, _short, _methods),
            script:
                "../scripts/evaluate_outer_folds.py"
