"""Table P1: cleavage-site accuracy by approach, training protocol and CV scheme, mean +- sd over folds,
beside the paper's table 1."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import pandas as pd  # noqa: E402

from fscompbio.io import atomic_path, read_json, write_text  # noqa: E402
from fscompbio.plots import table_markdown  # noqa: E402
from fscompbio.plots.cleavage import PAPER_CITATION, table_P1, table_P1_wide  # noqa: E402

records = [read_json(path) for path in snakemake.input.folds]
table = table_P1(records)
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
sf = [read_json(path) for path in snakemake.input.sf]  # the in-fold sparse filters
hom = read_json(snakemake.input.homology)
sf_note = "No approach uses sparse filtering."
if sf:
    fit, iters = [s["n_fit_windows"] for s in sf], [s["n_iter"] for s in sf]
    sf_note = (f"Sparse filtering: fitted in each fold on its training windows only ({len(sf)} fits), "
               f"{sf[0]['n_features']} features on {min(fit)}-{max(fit)} windows, {min(iters)}-{max(iters)} L-BFGS "
               "iterations.")
notes = [
    f"Table P1 ({snakemake.params.config_label}). Cleavage-site accuracy (%), mean ± sd (folds), beside "
    f"{PAPER_CITATION}.",
    f"{sf_note} Homology-aware CV: {hom['n_clusters']} clusters of {hom['n_sequences']} sequences at "
    f">= {100 * hom['identity']:.0f}% prefix identity (largest {hom['largest']}); every inner split (SVM tuning, "
    "held-out sequences, selected sizes) by cluster too.",
]
if "scales" in table.columns:  # some rows on raw scales
    raw = ", ".join(dict.fromkeys(table.loc[table["scales"] == "raw", "method"]))
    notes.append(f"Scales: every row on the 54 scales standardised over the 20 residues, and rows marked \"raw "
                 f"scales\" ({raw}) on each scale's published values, unscaled by the SVM too "
                 "(chapter5.prediction.scales.raw), with the seeds of their standardised cells.")
notes.append("")
write_text("\n".join(notes) + "\n" + table_markdown(table_P1_wide(table)), snakemake.output.md)
# wall-clock time per cell, kept apart from the results (timings differ between runs)
rows = []
for rec, path in zip(records, snakemake.input.timings):
    rows.append({k: rec[k] for k in ("approach", "protocol", "cv", "fold")}
                | {"scales": rec.get("scales", "standardised")} | read_json(path))
timing = pd.DataFrame(rows).groupby(["approach", "protocol", "cv", "scales"], sort=False)["seconds"].agg(
    ["mean", "sum", "count"])
with atomic_path(snakemake.output.timing) as tmp:
    timing.round(1).to_csv(tmp)
logging.info("\n%s\n%s", table.to_string(), timing.to_string())
