# The software a run used: results/environment.json (Python, platform, BLAS, every package's version and
# whether they are the lock file's), and the same as a table in the report.
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


FINAL_OUTPUTS.extend(["results/environment.json", "figures/environment.csv"])
