"""The software of this run: results/environment.json, and figures/environment.csv for the report."""

import logging

from fscompbio.joblog import start_job_log

start_job_log(snakemake.log[0])

import pandas as pd  # noqa: E402

from fscompbio.environment import environment_record, read_lock  # noqa: E402
from fscompbio.io import atomic_path, write_json  # noqa: E402

record = environment_record(snakemake.input.lock)
write_json(record, snakemake.output.json)
locked = {name: version for name, (version, _) in read_lock(snakemake.input.lock).items()}
rows = [("python", record["python"]["version"], "", "key")]
rows += [(b["internal_api"], b["version"], "", f"BLAS ({b['user_api']}, {b['architecture']})") for b in record["blas"]]
key = set(record["key_packages"])
for name, version in sorted(record["packages"].items(), key=lambda kv: (kv[0] not in key, kv[0])):
    rows.append((name, version, locked.get(name, ""), "key" if name in key else ""))
table = pd.DataFrame(rows, columns=["package", "installed", "locked", "role"])
with atomic_path(snakemake.output.csv) as tmp:
    table.to_csv(tmp, index=False)
lock = record["lock"]
if lock["matches"]:
    logging.info("every installed package has its locked version (%s, sha256 %s)", lock["file"], lock["sha256"][:12])
else:
    logging.warning("%d package(s) differ from %s: %s", len(lock["differences"]), lock["file"], lock["differences"])
