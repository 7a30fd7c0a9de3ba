"""The study's claims (fscompbio.claims) evaluated on this run's summary tables: figures/claims.csv and
figures/claims.md (one row per claim: its figures, the study's sentence, the reading, the verdict and the
numbers it used)."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

from fscompbio.claims import claims_markdown, claims_table, load_run, verdict_counts  # noqa: E402
from fscompbio.io import atomic_path, write_text  # noqa: E402

tables = load_run(snakemake.input)
logging.info("tables: %s", ", ".join(sorted(tables)))
table = claims_table(tables)
logging.info("verdicts: %s", verdict_counts(table))
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
write_text(claims_markdown(table), snakemake.output.md)
