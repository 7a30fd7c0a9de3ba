"""Aggregate the outer folds of one data set per (method, model selection): means, sds, ranges, mean
variance and the consistency log-likelihood of eq. 2.8 (the rows of figures 3.3-3.13 and 4.4-4.14)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from collections import defaultdict  # noqa: E402

import pandas as pd  # noqa: E402

from fscompbio.evaluation import aggregate_folds  # noqa: E402
from fscompbio.io import atomic_path, read_json  # noqa: E402

groups = defaultdict(list)
for path in snakemake.input:
    job = read_json(path)
    for fold in job["folds"]:
        for msel, r in fold["results"].items():
            groups[(job["method"], msel)].append({**r, "fold": fold["fold"]})
rows = []
for (method, msel), folds in groups.items():
    n_features = {f["n_features"] for f in folds}
    if len(n_features) != 1:
        raise ValueError(f"{snakemake.params.dataset}/{method}/{msel}: folds disagree on n_features {n_features}")
    agg = aggregate_folds(sorted(folds, key=lambda f: f["fold"]), n_features.pop())
    rows.append({"dataset": snakemake.params.dataset, "method": method, "model_selection": msel, **agg})
    logging.info("%s %s: accuracy %.3f, %.1f features, log-likelihood %.2f%s", method, msel, agg["accuracy_mean"],
                 agg["n_selected_mean"], agg["log_likelihood"], " (every feature selected)" if agg["union_is_all"] else "")
with atomic_path(snakemake.output[0]) as tmp:
    pd.DataFrame(rows).sort_values(["method", "model_selection"]).to_csv(tmp, index=False, float_format="%.6g")
