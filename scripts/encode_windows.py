"""Chapter 5: encode every window by the amino-acid scales (648 values for 12 x 54), standardised or (params.scaling
"raw") as published, and by residue codes."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0], fmt="%(asctime)s %(levelname)s %(message)s")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from fscompbio.io import read_json, write_npz  # noqa: E402
from fscompbio.sequences import encode_windows, encoding_feature_names, load_aa_scales, residue_codes  # noqa: E402

geometry = read_json(snakemake.input.json)["geometry"]
windows = pd.read_csv(snakemake.input.windows, dtype={"accession": str, "window": str})
scales = load_aa_scales(snakemake.input.scales)
# ch5_encode has no scaling parameter: standardised, its file unchanged; ch5_encode_raw's file says "raw" in it
scaling = getattr(snakemake.params, "scaling", "standardised")
X = encode_windows(windows, scales, scaling=scaling).astype(np.float32)
marked = {} if scaling == "standardised" else {"scaling": np.asarray(scaling)}
# groups: the sequence index of each window, in order of first appearance
codes, uniques = pd.factorize(windows["accession"])
write_npz(
    snakemake.output[0],
    X=X,
    codes=residue_codes(windows),  # residue index 0..19 per window position (weight matrix, one-hot)
    y=windows["label"].to_numpy(np.int64),
    groups=codes.astype(np.int64),
    target=windows["target"].to_numpy(np.int64),
    accessions=np.asarray(uniques, dtype=str),
    feature_names=np.asarray(encoding_feature_names(scales, before=geometry["before"], after=geometry["after"]), dtype=str),
    # the window geometry travels with the windows: residues before and after the site, and the prefix read
    prefix=np.int64(geometry["prefix"]),
    before=np.int64(geometry["before"]),
    after=np.int64(geometry["after"]),
    **marked,
)
logging.info("encoded %d windows of %d sequences into %d values each (%d scales, %s)", X.shape[0], len(uniques),
             X.shape[1], len(scales), scaling)
