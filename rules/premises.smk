# The premises of the synthetic sets (fscompbio.evaluation.oracle_accuracy): on the outer folds of the
# chapter-3 protocol, SVMs told which features are relevant (a Gaussian and a linear one on the relevant
# features, a Gaussian one on every feature). A message of the study about a synthetic set presumes that the
# set holds the signal it needs; the premise claims (fscompbio.claims) test that on our reading of the recipe.

# the synthetic sets of chapter 3 (draw 0); premise_datasets() adds their draws 1 .. n-1
PREMISE_SETS = [d for d in CH3["datasets"] if d in _REGISTRY]


if CH3["premises"]["group_jobs"]:
    # one job per synthetic set: the premise of each of its draws (chapter3.draws.n), each written apart

    rule premise:
        input:
            [f"results/datasets/{draw_name('{dataset}', k)}.npz" for k in range(CH3["draws"]["n"])],
        output:
            [f"results/premises/{draw_name('{dataset}', k)}.json" for k in range(CH3["draws"]["n"])],
        log:
            "logs/premises/{dataset}.log",
        wildcard_constraints:
            dataset="|".join(PREMISE_SETS),
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=LOCAL_MEM_MB,
            runtime=LOCAL_RUNTIME,
        params:
            outer_folds=CH3["outer_folds"],
            svm_C=CH3["svm_C"],
            # the job's draws, in the order of its inputs and outputs, each with its own folds and seeds
            members=lambda wc: [
                {
                    "dataset": d,
                    # chapter 3's outer folds (the same seed), the ones it runs
                    "folds_seed": derive_seed(config["seed"], "chapter3", d, "outer"),
                    "folds_run": folds_run("chapter3", d),
                    "seed": derive_seed(config["seed"], "premise", d),
                }
                for d in [draw_name(wc.dataset, k) for k in range(CH3["draws"]["n"])]
            ],
        script:
            "../scripts/premise.py"

else:
    # one job per draw of a synthetic set

    rule premise:
        input:
            "results/datasets/{dataset}.npz",
        output:
            "results/premises/{dataset}.json",
        log:
            "logs/premises/{dataset}.log",
        conda:
            "../envs/study.yaml"
        threads: 1
        resources:
            mem_mb=LOCAL_MEM_MB,
            runtime=LOCAL_RUNTIME,
        params:
            outer_folds=CH3["outer_folds"],
            # chapter 3's outer folds (the same seed), the ones it runs
            folds_seed=lambda wc: derive_seed(config["seed"], "chapter3", wc.dataset, "outer"),
            folds_run=lambda wc: folds_run("chapter3", wc.dataset),
            svm_C=CH3["svm_C"],
            seed=lambda wc: derive_seed(config["seed"], "premise", wc.dataset),
        script:
            "../scripts/premise.py"
