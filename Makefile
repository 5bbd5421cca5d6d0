# One command to open the course, one to test it.  Both create the environment (.venv) first.
#   make lab        - set up and open JupyterLab on the course's start page
#   make test       - set up and run the whole test suite (lint, unit tests, notebooks with nbval)
#   make lab-torch  - like make lab, with real PyTorch in .venv too (chapter 10's multi-process section,
#                     the exercises with `import torch`); on Linux without a GPU, add
#                     TORCH_INDEX=https://download.pytorch.org/whl/cpu for the CPU build (PyPI's is several GB)

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PORT   ?= 8888
# The learner needs the `lab` extra; the tests also need `test` and `torch` (the reference).
LAB_STAMP   := $(VENV)/.stamp-lab
TORCH_STAMP := $(VENV)/.stamp-torch
TEST_STAMP  := $(VENV)/.stamp-test
SITE_STAMP  := $(VENV)/.stamp-site
STAMP       := $(TEST_STAMP)
# make lab-torch TORCH_INDEX=url: install PyTorch (the version the torch extra pins) from that index first
TORCH_INDEX ?=
TORCH_REQ   := $(shell sed -n 's/^ *"\(torch==[^"]*\)".*/\1/p' pyproject.toml)

.PHONY: setup lab lab-torch test lint unit nbval check-exercises exercises notebooks bench grade fuzz test-e2e site test-site clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(LAB_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[lab]'
	@touch $@

$(TORCH_STAMP): pyproject.toml | $(BIN)/python
	$(if $(TORCH_INDEX),$(BIN)/python -m pip install --quiet '$(TORCH_REQ)' --index-url $(TORCH_INDEX))
	$(BIN)/python -m pip install --quiet -e '.[lab,torch]'
	@touch $@ $(LAB_STAMP)

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[lab,test,torch]'
	@touch $@ $(LAB_STAMP) $(TORCH_STAMP)

$(SITE_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[lab,site]'
	@touch $@

setup: $(TEST_STAMP)

# Jupyter refuses to run as root unless told to (containers, WSL and Codespaces often run as root)
ROOT_FLAG := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root,)

LAB := $(BIN)/jupyter lab $(ROOT_FLAG) --ServerApp.root_dir=. --port=$(PORT) notebooks/00_start.ipynb

lab: $(LAB_STAMP)
	$(LAB)

# the lab with real PyTorch installed too (the `torch` extra)
lab-torch: $(TORCH_STAMP)
	$(LAB)

test: $(STAMP) lint check-exercises
	$(BIN)/python -m pytest -q tests notebooks solutions --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg -p no:cacheprovider

lint: $(STAMP)
	$(BIN)/ruff check course_lib tests benchmarks website
	$(BIN)/lint-imports --no-cache

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

# make grade SUBMISSIONS=folder/of/notebooks [OUT=report]   (see course_lib/grading/README.md)
grade: $(STAMP)
	@test -n "$(SUBMISSIONS)" || { echo "usage: make grade SUBMISSIONS=folder [OUT=report]"; exit 2; }
	$(BIN)/python -m course_lib.grading grade $(SUBMISSIONS) --out $(or $(OUT),report)

# the long differential fuzzer against PyTorch (tests/fuzz): make fuzz N=5000 [SEED=0]
# prints the counts and writes each mismatch class's minimal program to fuzz-findings/findings.{json,md}
N    ?= 2000
SEED ?= 0
fuzz: $(STAMP)
	$(BIN)/python -m tests.fuzz -n $(N) --seed $(SEED) --out fuzz-findings

# end-to-end: JupyterLab + Notebook 7 in Debian's Chromium (apt-get install -y chromium), driven by Playwright;
# screenshots of every widget land in artifacts/e2e/ (failures: artifacts/e2e/failures/)
test-e2e: $(STAMP) site
	@command -v chromium >/dev/null 2>&1 || [ -n "$$E2E_CHROMIUM" ] || \
		{ echo "make test-e2e needs Chromium: apt-get install -y chromium (or set E2E_CHROMIUM)"; exit 1; }
	$(BIN)/python -m pytest -q tests/e2e --e2e -p no:cacheprovider

# the static website, from the committed notebooks (nothing is executed): _build/site/index.html
# (Sphinx + MyST-NB + Furo, see website/README.md); test-site checks it in Chromium, offline
site: $(SITE_STAMP)
	$(BIN)/python website/build.py

test-site: $(STAMP) site
	$(BIN)/python -m pytest -q tests/e2e/test_site.py --e2e -p no:cacheprovider

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache _build
