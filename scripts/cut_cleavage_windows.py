"""Chapter 5: read the signal peptides, cut the 12-residue cleavage windows, keep n_sequences of them."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0], fmt="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402

from fscompbio.io import atomic_path, write_json  # noqa: E402
from fscompbio.sequences import cleavage_windows, read_signal_peptides  # noqa: E402

p = snakemake.params
records = read_signal_peptides(snakemake.input.fasta, snakemake.input.tsv, nonstandard=p.nonstandard)
windows = cleavage_windows(records, prefix=p.prefix, before=p.before, after=p.after)
counts = {**{f"read_{k}": v for k, v in records.attrs["counts"].items()}, **windows.attrs["counts"]}
accessions = windows["accession"].unique()
if p.n_sequences is not None and p.n_sequences < accessions.size:
    keep = np.sort(np.random.default_rng(p.seed).choice(accessions.size, p.n_sequences, replace=False))
    windows = windows[windows["accession"].isin(accessions[keep])].reset_index(drop=True)
    logging.info("random subset of %d of %d sequences (seed %d)", p.n_sequences, accessions.size, p.seed)
# the window geometry travels with the windows (read by the encoding, the models and figure 5.2)
counts["geometry"] = {"prefix": int(p.prefix), "before": int(p.before), "after": int(p.after)}
counts["n_sequences_used"] = int(windows["accession"].nunique())
counts["n_windows"] = len(windows)
counts["n_positive_windows"] = int(windows["label"].sum())
# sanity check of the labels: residue -1 of the positive windows is mostly A, G or S (von Heijne's -1/-3 rule)
if p.before >= 1:
    minus1 = windows.loc[windows["label"] == 1, "window"].str[p.before - 1].value_counts(normalize=True)
    counts["positive_minus1_top5"] = {aa: round(float(f), 4) for aa, f in minus1.head(5).items()}
logging.info("windows: %s", counts)
with atomic_path(snakemake.output.csv) as tmp:
    windows.to_csv(tmp, index=False)
write_json(counts, snakemake.output.json)
