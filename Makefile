# One command to open the course, one to test it.  Both create the environment (.venv) first.
#   make lab    - set up and open JupyterLab on the course's start page
#   make test   - set up and run the whole test suite (lint, unit tests, notebooks with nbval)

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
EXTRAS ?= lab,test,torch
PORT   ?= 8888

.PHONY: setup lab test lint unit nbval check-exercises exercises notebooks bench grade test-e2e clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	@touch $(STAMP)

setup: $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab --ServerApp.root_dir=. --port=$(PORT) notebooks/00_start.ipynb

test: $(STAMP) lint check-exercises
	$(BIN)/python -m pytest -q tests notebooks solutions --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check course_lib tests benchmarks

unit: $(STAMP)
	$(BIN)/python -m pytest -q tests

nbval: $(STAMP)
	$(BIN)/python -m pytest -q notebooks solutions --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg

# exercises/ is generated from solutions/ (never edit it by hand)
exercises: $(STAMP)
	$(BIN)/python -m course_lib.grading.generate solutions exercises

check-exercises: $(STAMP)
	$(BIN)/python -m course_lib.grading.generate solutions exercises --check

# re-execute every notebook in place so that the committed outputs are current
notebooks: $(STAMP)
	$(BIN)/python -m course_lib.tools.execute notebooks solutions

bench: $(STAMP)
	$(BIN)/python -m benchmarks

grade: $(STAMP)
	$(BIN)/python -m course_lib.grading grade $(SUBMISSIONS) --out $(OUT)

test-e2e: $(STAMP)
	$(BIN)/python -m pytest -q tests/e2e --e2e

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
