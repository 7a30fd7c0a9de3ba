"""Chapter 5: homology clusters of the sequences' prefixes (single linkage at a prefix identity)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0], fmt="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from fscompbio.io import write_json, write_npz  # noqa: E402
from fscompbio.sequences import homology_clusters  # noqa: E402

p = snakemake.params
windows = pd.read_csv(snakemake.input.windows, dtype={"accession": str, "window": str})
codes, accessions = pd.factorize(windows["accession"])  # the groups of results/peptides/encoded.npz
# the prefix of each sequence: its windows overlap, so the first window and the last residue of each next one
first = windows.groupby(codes, sort=True)["window"].agg(lambda w: w.iloc[0] + "".join(s[-1] for s in w.iloc[1:]))
prefixes = first.to_numpy().astype(str)
clusters = homology_clusters(prefixes, identity=p.identity, max_shift=p.max_shift)
sizes = np.bincount(clusters)
summary = {"n_sequences": int(prefixes.size), "n_clusters": int(sizes.size), "largest": int(sizes.max()),
           "n_singletons": int(np.sum(sizes == 1)), "identity": p.identity, "max_shift": p.max_shift,
           "sequences_with_a_homologue": int(np.sum(sizes[clusters] > 1))}
logging.info("homology clusters: %s", summary)
write_npz(snakemake.output.npz, clusters=clusters, accessions=np.asarray(accessions, dtype=str))
write_json(summary, snakemake.output.json)
