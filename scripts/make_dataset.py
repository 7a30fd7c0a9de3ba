"""Write one data set in the .npz format: a registered synthetic set, or a configured CSV matrix."""

import logging
import sys

sys.stderr = open(snakemake.log[0], "w")
logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")

from fscompbio.datasets import load_csv_dataset, make_dataset, save_dataset  # noqa: E402

name = snakemake.wildcards.dataset
csv = snakemake.params.csv
if csv:
    ds = load_csv_dataset(snakemake.input[0], label_column=csv["label_column"], id_column=csv["id_column"],
                          positive_label=csv["positive_label"], task=csv["task"], name=name)
else:
    ds = make_dataset(name, random_state=snakemake.params.seed)
save_dataset(ds, snakemake.output[0])
logging.info("%s: X %s, %d relevant, task %s", ds.name, ds.X.shape, ds.relevant.size, ds.task)
