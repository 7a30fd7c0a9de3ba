# The two commands of the README's quick start, and a few more.
#   make workflow   install (once) and run the quick workflow: every figure under figures/
#   make test       install (once) and run the test suite
# Everything is installed into .venv from pyproject.toml; PYTHON picks the interpreter (>= 3.11).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
CORES  ?= 2

.PHONY: install sysdeps workflow thesis test test-slow lint report bench clean

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

report: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) --report report.html

bench: $(STAMP)
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf results logs figures/*.png figures/*.csv figures/*.md .snakemake
