# The two commands of the README's quick start, and a few more.
#   make workflow   install (once) and run the quick workflow: every figure under figures/
#   make test       install (once) and run the test suite
#   make install-slurm   add snakemake-executor-plugin-slurm (for profiles/slurm*)
#   make estimate   time a stratified sample of the thesis config's jobs; projected CPU-hours per stage
# Everything is installed into .venv from pyproject.toml; PYTHON picks the interpreter (>= 3.11).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
CORES  ?= 2

.PHONY: install install-slurm sysdeps workflow thesis test test-slow lint fmt-check report bench estimate ci-slurm clean

install: $(STAMP)

# graphviz's `dot` renders the workflow's own rule graph (figure 5.1): installed with apt-get when
# missing and we are root on Debian/Ubuntu; otherwise install graphviz with your package manager.
sysdeps:
	@command -v dot >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null; \
	  else \
	    echo "graphviz (the 'dot' command) is needed for figure 5.1: install it, e.g. 'sudo apt-get install graphviz'" >&2; exit 1; \
	  fi; }

# The SLURM executor plugin (the optional dependency `slurm` of pyproject.toml).
install-slurm: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test,slurm]"

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,bench]"
	touch $(STAMP)

workflow: $(STAMP) sysdeps
	$(BIN)/snakemake --cores $(CORES) --configfile config.yaml

thesis: $(STAMP) sysdeps
	$(BIN)/snakemake --cores $(CORES) --configfile config/thesis.yaml

test: $(STAMP) sysdeps
	$(BIN)/python -m pytest

test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

lint: $(STAMP)
	$(BIN)/snakemake --lint
	$(BIN)/snakefmt --check .

# The end-to-end SLURM test of CI (root on Debian/Ubuntu: installs and starts a one-node SLURM).
ci-slurm: install-slurm
	bash .ci/slurm_e2e.sh

report: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) --report report.html

# Time a stratified sample of the thesis config's jobs (one per stratum, one thread each; about an
# hour) and print the projected CPU-hours per stage. ESTIMATE_ARGS="--rules ch3_fold" for a part.
estimate: $(STAMP)
	OMP_NUM_THREADS=1 $(BIN)/python scripts/estimate.py --configfile config/thesis.yaml $(ESTIMATE_ARGS)

bench: $(STAMP)
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf results logs figures/*.png figures/*.csv figures/*.md .snakemake
