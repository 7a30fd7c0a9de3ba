# What the report says about the run itself: the software it used (results/environment.json: Python,
# platform, BLAS, every package's version and whether they are the lock file's; the same as a table in the
# report) and the workflow's own rule graph.
import glob

from fscompbio.environment import KEY_PACKAGES, installed_versions

_INSTALLED = installed_versions()


rule environment:
    input:
        lock=repo_path("requirements/lock.txt"),
    output:
        json="results/environment.json",
        csv=report("figures/environment.csv", caption="../report/environment.rst", category="Environment"),
    log:
        "logs/environment.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        # a changed version of a package that decides the numbers reruns the record
        versions={name: _INSTALLED.get(name) for name in KEY_PACKAGES},
    script:
        "../scripts/record_environment.py"


rule workflow_rulegraph:
    input:
        workflow.main_snakefile,
        sorted(glob.glob(os.path.join(workflow.basedir, "rules", "*.smk"))),
    output:
        report(
            figure("workflow_rulegraph"),
            caption=caption("workflow_rulegraph"),
            category="Workflow",
        ),
    log:
        "logs/report/workflow_rulegraph.log",
    localrule: True
    conda:
        "../envs/study.yaml"
    threads: 1
    resources:
        mem_mb=LOCAL_MEM_MB,
        runtime=LOCAL_RUNTIME,
    params:
        snakefile=lambda wildcards, input: input[0],
    script:
        "../scripts/plot_rule_graph.py"


FINAL_OUTPUTS.extend(["results/environment.json", "figures/environment.csv", figure("workflow_rulegraph")])
