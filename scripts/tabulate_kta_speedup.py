"""Table 3.2: fold decrease in time when KTA replaces nested CV, mean +- sd per method over the
paired (data set, outer fold) runs; read from the wall-clock timing files of the fold jobs."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import pandas as pd  # noqa: E402

from fscompbio.evaluation import method_spec  # noqa: E402
from fscompbio.io import atomic_path, read_json, write_text  # noqa: E402
from fscompbio.plots.kta_speedup import table3_2, table3_2_markdown  # noqa: E402

keep = set(snakemake.params.methods)
rows = []
for path in snakemake.input:
    job = read_json(path)
    if job["method"] not in keep:
        continue
    for fold in job["folds"]:
        for msel, t in fold["timings"].items():
            rows.append({"dataset": job["dataset"], "method": job["method"], "fold": fold["fold"],
                         "model_selection": msel, "seconds_total": t["seconds_total"]})
table = table3_2(pd.DataFrame(rows), labels={m: method_spec(m).label or m for m in keep})
order = [m for m in snakemake.params.methods if m in set(table["method"])]
table = table.set_index("method").loc[order].reset_index()
for r in table.itertuples(index=False):
    logging.info("%s: %.2f +- %.2f (%d pairs)", r.method, r.fold_decrease_mean, r.fold_decrease_sd, r.n_pairs)
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False, float_format="%.4g")
write_text(table3_2_markdown(table, note=snakemake.params.sizes), snakemake.output.md)
