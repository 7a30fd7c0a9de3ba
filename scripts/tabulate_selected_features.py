"""The features table of one data set (figures/{name}_features.csv) and its heat map: for every method and
model selection of chapters 3 and 4 (or of the regression folds), how many outer folds selected each feature (by
name), its mean rank and whether it is in the consensus set (selected in at least half of the folds)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.datasets import load_dataset  # noqa: E402
from fscompbio.evaluation import CONSENSUS_RULE, feature_table, method_spec  # noqa: E402
from fscompbio.io import atomic_path, read_json  # noqa: E402
from fscompbio.plots import save_figure  # noqa: E402
from fscompbio.plots.datasets import LABELS  # noqa: E402
from fscompbio.plots.selected_features import MAX_FEATURES, plot_selection_frequency  # noqa: E402

p = snakemake.params
ds = load_dataset(snakemake.input.dataset)
jobs = [(chapter, read_json(path)) for chapter, paths in (("chapter3", snakemake.input.chapter3),
                                                          ("chapter4", snakemake.input.chapter4),
                                                          ("regression", snakemake.input.regression))
        for path in paths]
table = feature_table(jobs, ds.feature_names, relevant=ds.relevant if ds.relevant.size else None)
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False, float_format="%.6g")
n_listed = table["feature"].nunique() if not table.empty else 0
logging.info("%s: %d rows, %d distinct features selected at least once of %d; consensus: %s", p.dataset,
             len(table), n_listed, ds.n_features, CONSENSUS_RULE)
labels = {m: method_spec(m).label or m for m in table["method"].unique()} if not table.empty else {}
footer = (f"{min(n_listed, MAX_FEATURES)} of the {n_listed} features selected at least once (of {ds.n_features}), "
          f"the most often selected first; dot: consensus, {CONSENSUS_RULE}. {p.sizes}")
fig = plot_selection_frequency(table, title=f"Selected features: {LABELS.get(p.dataset, p.dataset)}", labels=labels,
                               footer=footer)
save_figure(fig, snakemake.output.png)
