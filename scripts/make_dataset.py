"""Generate one registered synthetic data set into the .npz format."""

import logging
import sys

sys.stderr = open(snakemake.log[0], "w")
logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")

from fscompbio.datasets import make_dataset, save_dataset  # noqa: E402

ds = make_dataset(snakemake.wildcards.dataset, random_state=snakemake.params.seed)
save_dataset(ds, snakemake.output[0])
logging.info("%s: X %s, %d relevant, task %s, seed %d", ds.name, ds.X.shape, ds.relevant.size, ds.task,
             snakemake.params.seed)
