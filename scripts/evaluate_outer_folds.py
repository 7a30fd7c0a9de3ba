"""Outer folds of the chapter-3 protocol for one method (one fold, or folds_per_job of them). On each fold
the selector is fitted once on the training part; every model selection of the config reads that fit
(nested CV, greedy KTA, or the selector's own model) and a Gaussian SVM is tested on the held-out part
(thesis 2.5.1, algorithm 3, 4.2.4). Method-agnostic: the selector comes from make_selector, so chapter 4
reuses this script. Wall-clock timings go to their own file (output.timing), so the results
(output.json) of one config are byte-identical from run to run."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.evaluation import (  # noqa: E402
    absolute_gammas,
    make_selector,
    method_spec,
    outer_splits,
    run_outer_fold,
    split_timing,
)
from fscompbio.io import write_json  # noqa: E402
from fscompbio.model_selection import KTASelect, NestedCVSelect, OwnModelSelect  # noqa: E402

p = snakemake.params
ds = load_dataset(snakemake.input[0])
folds = outer_splits(ds.y, p.outer_folds, random_state=p.folds_seed)
spec = method_spec(p.method)
kta = KTASelect(**p.widths, max_sizes=p.kta["max_sizes"])
absolute = p.kta.get("absolute_grid")  # kta_abs: KTA on gamma = 10**t (chapter 3)
kta_abs = KTASelect(gammas=absolute_gammas(**absolute), max_sizes=p.kta["max_sizes"]) if absolute else None
own = OwnModelSelect(**p.widths)
relevant = ds.relevant if ds.relevant.size else None  # real data: no ground truth, no precision/recall
results, timings = [], []
for fold, seed, inner_seed in zip(p.folds, p.seeds, p.inner_seeds):
    if not 0 <= fold < len(folds):
        raise ValueError(f"fold {fold!r} out of range for outer_folds={p.outer_folds!r}")
    train, test = folds[fold]
    selector = make_selector(p.method, p.selector, random_state=seed)
    cv = NestedCVSelect(**p.widths, sizes=spec.cv_sizes or p.cv["sizes"], inner_folds=p.cv["inner_folds"],
                        C=p.svm_C, random_state=inner_seed)
    logging.info("%s: %d x %d, fold %d (%d train / %d test), %r, model selections %s", snakemake.input[0],
                 *ds.X.shape, fold, train.size, test.size, selector, p.model_selection)
    out = run_outer_fold(ds.X, ds.y, train, test, selector, model_selection=list(p.model_selection),
                         relevant=relevant, kta=kta, cv=cv, own=own, kta_abs=kta_abs, C=p.svm_C)
    res, tim = {}, {}
    for ms, r in out.items():
        logging.info("%s: accuracy %.3f with %d features (precision %s, recall %s), sigma %.3g; %.2f s (selection "
                     "%.2f s, model selection %.2f s)", ms, r["accuracy"], r["n_selected"], r["precision"],
                     r["recall"], r["sigma"], r["seconds_total"], r["seconds_selection"], r["seconds_model_selection"])
        res[ms], tim[ms] = split_timing(r)
    results.append({"fold": fold, "results": res})
    timings.append({"fold": fold, "timings": tim})
ident = {"dataset": snakemake.wildcards.dataset, "method": p.method}
write_json({**ident, "folds": results}, snakemake.output.json)
write_json({**ident, "folds": timings}, snakemake.output.timing)
