# The two commands of the README's quick start, and a few more.
#   make workflow   install (once) and run the quick workflow: every figure under figures/
#   make test       install (once) and run the test suite
#   make lock       refresh requirements/lock.txt (newest releases) and the conda environment from it
#   make test-latest   the tests in a separate environment with the newest releases (.venv-latest)
#   make estimate   time a stratified sample of the thesis config's jobs; projected CPU-hours per stage
#   make figure-index   regenerate docs/reproduction.md's table of where each figure is made
#   make claims-by-scale   regenerate docs/reproduction.md's claims at the quick and the thesis config's scale
#   make docs      the documentation site (docs/_build/html): API reference, user guide, executed examples
# Everything is installed into .venv from the lock file requirements/lock.txt (exact versions and hashes of
# every package, the extras included), then the package itself from this tree; PYTHON picks the interpreter
# (>= 3.11, checked first). pyproject.toml keeps lower bounds only, for a plain `pip install` of the library
# (numpy, scipy, scikit-learn, pandas, joblib); its extras (lp, hsiclasso, cleavage, workflow) are in the lock.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
LOCK   := requirements/lock.txt
CORES  ?= 2

.PHONY: docs install install-slurm sysdeps workflow thesis thesis-figures test test-slow test-latest lock envs lint fmt-check figure-index claims-by-scale report bench estimate ci-slurm clean

install: $(STAMP)

# graphviz's `dot` renders the workflow's own rule graph (figures/workflow_rulegraph.png): installed with apt-get when
# missing and we are root on Debian/Ubuntu; otherwise install graphviz with your package manager.
sysdeps:
	@command -v dot >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz >/dev/null; \
	  else \
	    echo "graphviz (the 'dot' command) is needed for the workflow's rule graph: install it, e.g. 'sudo apt-get install graphviz'" >&2; exit 1; \
	  fi; }

# The SLURM executor plugin is part of the locked environment: kept as a name for older instructions.
install-slurm: $(STAMP)

# A new .venv whenever the lock or pyproject.toml changes, so that it holds exactly the locked packages.
$(STAMP): $(LOCK) pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo "fscompbio needs Python >= 3.11; PYTHON=$(PYTHON) is $$($(PYTHON) --version 2>/dev/null || echo 'not found'):" \
	    "run e.g. make install PYTHON=python3.11" >&2; exit 1; }
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	$(BIN)/python -m pip check
	$(BIN)/python -m fscompbio.environment compare --strict $(LOCK)
	touch $(STAMP)

# Refresh the lock to the newest releases that pyproject.toml allows (every extra; Python >= 3.11 on every
# platform, one version of each package where one fits all), then the conda environment from it. uv
# resolves; it is installed into .venv-lock, apart from the study's environment.
lock:
	$(PYTHON) -m venv .venv-lock
	.venv-lock/bin/python -m pip install --quiet "uv>=0.9"
	.venv-lock/bin/uv pip compile pyproject.toml requirements/build.in --all-extras --universal \
	  --fork-strategy fewest --python-version 3.11 --generate-hashes --upgrade \
	  --custom-compile-command "make lock" --output-file $(LOCK)
	$(MAKE) envs

# The conda environment of every rule (profiles/slurm-conda), generated from the lock.
envs: $(STAMP)
	$(BIN)/python -m fscompbio.environment conda-env $(LOCK) > envs/study.yaml.tmp
	mv envs/study.yaml.tmp envs/study.yaml

# The documentation site: Sphinx with numpydoc (the API reference from the docstrings), the user guide and the
# sphinx-gallery examples (examples/plot_*.py, run on every build, about 2 minutes), warnings as errors, into
# docs/_build/html. Sphinx and its extensions (docs/requirements.txt) go into .venv-docs, which sees the locked
# environment .venv through a path file, so the study's environment stays exactly the lock.
DOCS_VENV := .venv-docs
DOCS_STAMP := $(DOCS_VENV)/.installed-stamp

docs: $(STAMP) $(DOCS_STAMP)
	rm -rf docs/_build docs/generated docs/auto_examples
	MPLBACKEND=Agg $(DOCS_VENV)/bin/sphinx-build -W --keep-going -b html docs docs/_build/html
	@echo "open docs/_build/html/index.html"

$(DOCS_STAMP): docs/requirements.txt
	rm -rf $(DOCS_VENV)
	$(PYTHON) -m venv $(DOCS_VENV)
	site=$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'); \
	  docs_site=$$($(DOCS_VENV)/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'); \
	  echo "import site; site.addsitedir('$$site')" > "$$docs_site/study_env.pth"
	$(DOCS_VENV)/bin/python -m pip install --quiet -r docs/requirements.txt
	touch $(DOCS_STAMP)

# The tests against the newest releases, in a new environment (.venv-latest): prints which packages differ
# from the lock, then runs the default test suite. Run it before `make lock`, and whenever a dependency
# publishes a release.
test-latest: sysdeps
	rm -rf .venv-latest
	$(PYTHON) -m venv .venv-latest
	PIP_NO_CACHE_DIR=1 .venv-latest/bin/python -m pip install --quiet --upgrade pip
	PIP_NO_CACHE_DIR=1 .venv-latest/bin/python -m pip install --quiet --upgrade --upgrade-strategy eager -e ".[workflow,test,bench,slurm]"
	.venv-latest/bin/python -m fscompbio.environment compare $(LOCK)
	.venv-latest/bin/python -m pytest

workflow: $(STAMP) sysdeps
	$(BIN)/snakemake --cores $(CORES) --configfile config.yaml

thesis: $(STAMP) sysdeps
	$(BIN)/snakemake --cores $(CORES) --configfile config/thesis.yaml

# Every figure and table of the thesis config, redrawn from the archived run (archive/thesis/) without
# refitting anything, into thesis_figures/figures/, and compared byte for byte with the archive's report.
thesis-figures: $(STAMP) sysdeps
	$(BIN)/python -m tools.run_archive redraw --archive archive/thesis --workdir thesis_figures --cores $(CORES) --check

test: $(STAMP) sysdeps
	$(BIN)/python -m pytest

test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

lint: $(STAMP)
	$(BIN)/snakemake --lint
	$(BIN)/snakefmt --check .

# docs/reproduction.md's table of where each figure is made (id -> rule -> script -> function), regenerated from a dry
# run of the default config and the scripts' imports (tools/figure_index.py; tests/test_figure_index.py
# fails when it is out of date). A few seconds.
figure-index: $(STAMP)
	$(BIN)/python -m tools.figure_index

# docs/reproduction.md's claims table at both scales and docs/claims_by_scale.md, from the kept quick run
# (archive/quick/), the archive's claims and the diagnoses (docs/claims_by_scale.yaml); seconds. After a new
# quick run: `$(BIN)/python -m tools.claims_by_scale --quick figures/claims.csv`.
claims-by-scale: $(STAMP)
	$(BIN)/python -m tools.claims_by_scale

# The end-to-end SLURM test of CI (root on Debian/Ubuntu: installs and starts a one-node SLURM).
ci-slurm: install
	bash .ci/slurm_e2e.sh

report: $(STAMP)
	$(BIN)/snakemake --cores $(CORES) --report report.html

# Time a stratified sample of the thesis config's jobs (one per stratum, one thread each; about an
# hour) and print the projected CPU-hours per stage. ESTIMATE_ARGS="--rules ch3_fold" for a part.
estimate: $(STAMP)
	OMP_NUM_THREADS=1 $(BIN)/python bench/estimate_thesis_cost.py --configfile config/thesis.yaml $(ESTIMATE_ARGS)

bench: $(STAMP)
	@for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf results logs figures/*.png figures/*.csv figures/*.md .snakemake .venv-lock .venv-latest .venv-docs docs/_build docs/generated docs/auto_examples
