# Two commands from a fresh clone: `make demo` and `make test`. Both create .venv and install as needed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
STUDY  ?= demo
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache
export MPLBACKEND ?= Agg

.PHONY: install demo test test-fast bench bench-full lint study report clean

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

# The whole suite, slow statistical tests included, on both cores.
test: install
	$(BIN)/python -m pytest -n 2 -q

# Everything except tests marked slow (for local iteration).
test-fast: install
	$(BIN)/python -m pytest -n 2 -q -m "not slow"

# Throughput and memory as ratios to baselines of the same run (< 3 min); results in data/bench-results.json.
bench: install
	$(BIN)/python -m unosim.bench

# The same plus the long runs: 1M-round simulate, 10M-game study and its analyses, no_mercy endings.
bench-full: install
	$(BIN)/python -m unosim.bench --full

lint: install
	$(BIN)/ruff check unosim analyses tests

study: install
	$(BIN)/python -m unosim study run analyses/studies/$(STUDY).toml --out data

report: install
	$(BIN)/python -m unosim analyze data/$(STUDY)
	$(BIN)/python -m unosim report data/$(STUDY)

clean:
	rm -rf $(VENV) .numba_cache .pytest_cache
