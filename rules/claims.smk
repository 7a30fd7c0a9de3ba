# The study's verdicts, computed from this run: every message of the study that a figure or table
# reproduces is a claim in fscompbio.claims (the study's sentence, a reading with thresholds, a function of
# the summary tables); this rule evaluates them on whatever tables the config's stages made (the chapter-3/4
# summaries of its data sets, the premises of its synthetic sets and the data behind the figures of
# FINAL_OUTPUTS) and writes figures/claims.csv
# and figures/claims.md. Included after every stage, so FINAL_OUTPUTS is complete here.
import hashlib

import fscompbio.claims
from fscompbio.claims import claim_inputs

# every draw of the synthetic sets: draw 0 (the figures') and draws 1 .. n-1 (chapter{3,4}.draws)
CLAIM_INPUTS = claim_inputs(
    FINAL_OUTPUTS,
    [*CH3["datasets"], *draw_datasets("chapter3")],
    [*CH4["datasets"], *draw_datasets("chapter4")],
    premise_datasets(),
)


rule claims:
    input:
        CLAIM_INPUTS,
    output:
        csv=report("figures/claims.csv", caption="../report/claims.rst", category="Claims"),
        md="figures/claims.md",
    log:
        "logs/claims.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        # a changed claim (reading, threshold, function) reruns the verdicts
        claims=hashlib.sha256(b"".join(p.read_bytes() for p in fscompbio.claims.source_files())).hexdigest()[:16],
    script:
        "../scripts/evaluate_claims.py"


FINAL_OUTPUTS.extend(["figures/claims.csv", "figures/claims.md"])
