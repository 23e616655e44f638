# Two commands from a fresh clone: `make demo` and `make test`. Both create .venv and install as needed.
# The compiled engine is cached once per user (~/.cache/unosim; NUMBA_CACHE_DIR overrides it), shared by
# make, the CLI, Python, notebooks and the tests.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
STUDY  ?= demo
export MPLBACKEND ?= Agg

.PHONY: install demo test test-fast fuzz bench bench-full lint study report clean shell notebooks

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(BIN)/python -m unosim study run analyses/studies/demo.toml --out data --force
	$(BIN)/python -m unosim analyze data/demo
	$(BIN)/python -m unosim report data/demo
	$(BIN)/python -m unosim tournament --variant classic --players 4 --policies random,greedy_points,keep_wilds \
		--games 2000 --seed 1 --out data --force --quiet

# The whole suite, slow statistical tests included, on both cores.
test: install
	$(BIN)/python -m pytest -n 2 -q

# Everything except tests marked slow (for local iteration).
test-fast: install
	$(BIN)/python -m pytest -n 2 -q -m "not slow"

# A long fuzz session (tests/test_fuzz.py) with a fresh seed; set UNOSIM_FUZZ_SEED to replay one.
fuzz: install
	UNOSIM_FUZZ_SEED=$${UNOSIM_FUZZ_SEED:-$$(date +%s)} UNOSIM_FUZZ_BUDGET=$${UNOSIM_FUZZ_BUDGET:-600} \
	UNOSIM_FUZZ_INVALID=$${UNOSIM_FUZZ_INVALID:-20000} $(BIN)/python -m pytest -q tests/test_fuzz.py -k random

# Throughput and memory as ratios to baselines of the same run (< 3 min once its engine builds are compiled),
# the kernel against bench/c_reference built with cc -O3 -march=native; results in data/bench-results.json.
bench: install
	$(BIN)/python -m bench

# The same plus the long runs: 1M-round simulate, 10M-game study and its analyses, no_mercy endings.
bench-full: install
	$(BIN)/python -m bench --full

lint: install
	$(BIN)/ruff check unosim bench analyses tests

study: install
	$(BIN)/python -m unosim study run analyses/studies/$(STUDY).toml --out data

report: install
	$(BIN)/python -m unosim analyze data/$(STUDY)
	$(BIN)/python -m unosim report data/$(STUDY)

# A bash shell with .venv active (`unosim`, `python`, `jupyter` on the PATH); `exit` leaves it. The
# venv is activated after ~/.bashrc, so version managers (pyenv …) cannot shadow it.
shell: install
	@printf '[ -f ~/.bashrc ] && . ~/.bashrc\n. "%s/activate"\n' "$(CURDIR)/$(BIN)" > $(VENV)/shellrc
	@echo "unosim's .venv is active in this shell; type 'exit' to leave it"
	@bash --rcfile $(VENV)/shellrc -i

# JupyterLab on the notebooks (jupytext .py files: right-click, "Open With > Jupytext Notebook").
notebooks: install
	$(BIN)/jupyter lab notebooks/

clean:
	rm -rf $(VENV) .pytest_cache
