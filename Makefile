# The two commands of the README's quick start, and a few more.
#   make workflow   install (once) and run the quick workflow: every figure under figures/
#   make test       install (once) and run the test suite
# Everything is installed into .venv from pyproject.toml; PYTHON picks the interpreter (>= 3.11).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
CORES  ?= 2

.PHONY: install workflow thesis test test-slow lint report bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(STAMP)

workflow: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) --configfile config.yaml

thesis: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) --configfile config/thesis.yaml

test: $(STAMP)
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
