# Feature Selection in Computational Biology: the reproduction workflow.
# All mathematics lives in the fscompbio package; the rules here only wire files together.
from snakemake.utils import min_version

min_version("9.0")


configfile: "config.yaml"


report: "report/workflow.rst"


include: "rules/scheduling.smk"
include: "rules/common.smk"
include: "rules/resources.smk"
include: "rules/report.smk"


wildcard_constraints:
    dataset="[a-z0-9_]+",


include: "rules/datasets.smk"
include: "rules/figures.smk"
include: "rules/peptides.smk"
include: "rules/representation.smk"
include: "rules/chapter5.smk"
include: "rules/chapter3.smk"
include: "rules/premises.smk"
include: "rules/chapter4.smk"
include: "rules/folds.smk"
include: "rules/summaries.smk"
include: "rules/features.smk"
include: "rules/regression.smk"
include: "rules/multiclass.smk"
include: "rules/paper.smk"
include: "rules/claims.smk"


rule all:
    default_target: True
    input:
        final_outputs(),
    localrule: True
