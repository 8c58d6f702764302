# One entry point per task; each recipe is one `python -m phase25` command (see README).
# `make site` builds everything from a fresh clone; `make test` runs every test (what CI runs, through .ci/run).
#
# A value given to a target (TORCH=, SHARD=, JOBS=, PAGE=, ... on the command line or in the environment, as the
# workflows give theirs) is data, never shell: it reaches each recipe in its environment and the recipe reads it
# quoted (written "$${TORCH}" here), never spliced into the recipe's text, where the shell would run what it
# holds; SHARDS, a list, becomes one single-quoted word per folder. A value typed on make's own command line is
# expanded by make itself ($(shell ...) included) before any recipe runs, so one that holds a '$' is refused below,
# before anything else (no value needs one). The workflows pass theirs in the environment, which make leaves as it
# is. tests/test_adversarial_values.py and test_adversarial_gaps.py try each. PYTHON is no value but the program to
# run: whoever sets it chooses what runs.
$(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(if $(findstring $$,$(value $(v))),\
  $(error $(v), typed on make's command line, holds a '$$', which make itself would expand: give it in the environment))))
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
NPROC  := $(shell nproc)
P25    := $(BIN)/python -m phase25
override UV := 0.9.9  # the installer setup uses, pinned like everything else (not a make variable to set)
shards  = $(foreach w,$(value SHARDS),'$(subst ','\'',$(w))')
export NO_MKDOCS_2_WARNING := 1
# A bare `make` lists the targets: the first target, setup, would start a 3.5 GB install.
.DEFAULT_GOAL := help

.PHONY: help setup browser site serve test check static lint format types model check-model labs records check-records report gpu-records \
        gpu-capture translations stamp-translation check-site torch-release upgrade upgrade-shards drift drift-shard drift-report merge unpack versions bench engines offline clean

help:  ## this list: every target and what it does (what a bare `make` prints)
	@awk -F ':.*## ' '/^[a-z][a-z-]*:.*## /{printf "  make %-18s %s\n", $$1, $$2}' Makefile

setup: $(VENV)/.installed  ## Python environment with the pinned requirements; phase25 importable

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	@# uv installs the pins: it downloads and unpacks torch's CUDA build (3.5 GB of wheels) in parallel, where
	@# pip does one file at a time. The pins are the only constraints: a machine-wide pip constraint (some build
	@# machines cap torch below the pin) would refuse them, and uv reads no pip configuration.
	PIP_CONSTRAINT=requirements.txt $(BIN)/pip install --quiet --disable-pip-version-check --no-compile 'uv==$(strip $(UV))'
	$(BIN)/uv pip install --quiet --no-config --python $(BIN)/python -r requirements.txt
	@# Byte-compiled on every core, as pip would on one (half of its time); like pip, a file that this
	@# Python cannot compile (torch ships one for 3.12 only) is skipped.
	$(BIN)/python -c "import compileall, sysconfig; compileall.compile_dir(sysconfig.get_paths()['purelib'], quiet=2, workers=0)"
	$(BIN)/python -c "import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()['purelib'], 'phase25.pth').write_text('$(CURDIR)/scripts\n')"
	touch $@

browser:  ## Debian's Chromium, for the browser tests (Playwright cannot download browsers here)
	@command -v chromium >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }

site: setup  ## execute what is stale, then build both languages strictly into site/
	PHASE25_EXECUTE=1 $(BIN)/mkdocs build --strict

serve: setup  ## live preview; stale CPU snippets are re-executed on each rebuild
	PHASE25_EXECUTE=1 $(BIN)/mkdocs serve

test: setup browser  ## every test: lint, format, types, runner, rendering, parity, records re-executed, builds, browser
	$(BIN)/ruff check scripts tests snippets
	$(BIN)/ruff format --check scripts tests
	$(BIN)/mypy
	$(BIN)/python -m pytest

check: setup  ## the fast loop (about 30 s): lint, format, types, and every test that is neither slow nor a browser's
	$(BIN)/ruff check scripts tests snippets
	$(BIN)/ruff format --check scripts tests
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n "$${JOBS:-$(NPROC)}" -m "not slow and not browser"

.PHONY: test-family
test-family: setup browser  ## one family of the suite alone (FAMILY=units, records, records-theory-03, site, site-browser or builds), as CI runs it
	$(BIN)/python -m pytest --family="$${FAMILY}"

static: setup  ## what every commit runs (pre-commit): ruff, the format check and mypy, no test
	$(BIN)/ruff check scripts tests snippets
	$(BIN)/ruff format --check scripts tests
	$(BIN)/mypy

lint: setup  ## ruff only
	$(BIN)/ruff check scripts tests snippets

format: setup  ## rewrite the package and the tests in the project's format (snippets and minigpt are left alone)
	$(BIN)/ruff format scripts tests

types: setup  ## mypy only
	$(BIN)/mypy

model: setup  ## retrain the grammar MiniGPT and rewrite its checkpoint
	$(P25) model

check-model: setup  ## retrain the grammar MiniGPT and compare with the committed checkpoint; writes nothing
	$(P25) model --check

labs: setup  ## regenerate the lab notebooks from their code, prose and records
	$(P25) labs build

records: setup  ## re-execute every CPU snippet in fresh interpreters, rewrite its record and the lab notebooks
	$(P25) update -j "$${JOBS:-$(NPROC)}"
	$(P25) labs build

check-records: setup  ## re-execute CPU snippets into a scratch folder; print each mismatch as a diff
	$(P25) check -j "$${JOBS:-$(NPROC)}"

report: setup  ## every (snippet, device) and the state of its record; non-zero if one is a problem
	$(P25) report

gpu-records:  ## on a CUDA machine (Python and torch only, no venv): capture the stale CUDA records
	PYTHONPATH=scripts $(PYTHON) -m phase25 run --device cuda --require-device cuda -j "$${JOBS:-$(NPROC)}"

unpack: setup  ## back here: check a capture's archive (ARCHIVE=cuda-records.tar.gz) record by record, then write it
	$(P25) unpack "$${ARCHIVE:-cuda-records.tar.gz}"

gpu-capture:  ## on a CUDA machine: capture into cuda-records.tar.gz (FORCE=1: every CUDA record)
	bash scripts/capture_gpu.sh cuda-records.tar.gz

torch-release: setup  ## the torch release to measure (VERSION=, default the newest) and whether it is newer
	@$(P25) upgrade latest "$${VERSION}"

upgrade: setup  ## carry torch TORCH=X.Y.Z through: pin, setup, every CPU record re-made, drift page, review list
	$(P25) upgrade pin "$${TORCH}"
	$(MAKE) setup
	$(P25) update -j "$${JOBS:-$(NPROC)}"
	$(P25) labs build
	$(P25) upgrade review "$${TORCH}"

upgrade-shards: setup  ## the same from a drift run's shards (SHARDS="dir ..."): their records become records/
	$(P25) upgrade pin "$${TORCH}"
	$(P25) merge $(shards)
	$(MAKE) setup
	$(P25) labs build
	$(P25) upgrade review "$${TORCH}"

drift: setup  ## run every CPU snippet under torch TORCH=X.Y.Z; write the drift report and its pages
	$(P25) upgrade drift "$${TORCH}" -j "$${JOBS:-$(NPROC)}"

drift-shard: setup  ## one machine's share (SHARD=i/n) of the drift run under TORCH=X.Y.Z (a CI matrix job)
	$(P25) upgrade shard "$${TORCH}" --shard "$${SHARD}" -j "$${JOBS:-$(NPROC)}"

drift-report: setup  ## merge the shards' records (SHARDS="dir ...", each run once) and write the drift report
	$(P25) upgrade report "$${TORCH}" $(shards)

merge: setup  ## merge records folders of shards (SHARDS="dir ...") into records/: every run once, or nothing
	$(P25) merge $(shards)

check-site: site  ## the reader's path on the built site: every link, anchor, id, download and reference
	$(P25) site-check

translations: setup  ## parity and freshness of the Spanish pages
	$(P25) translations check

stamp-translation: setup  ## mark PAGE (docs/es/...) as translating the current English page
	$(P25) translations stamp "$${PAGE}"

engines: setup  ## build the site with MkDocs and with ProperDocs (strict) and compare them page by page
	$(P25) engines

versions: setup  ## publish this release as latest and every release releases.toml records (PREVIOUS=X.Y: that one only) on gh-pages (mike)
	$(P25) versions --previous "$${PREVIOUS}"

offline: setup  ## the site as one zip readable from the disk (file://), both languages, search included
	$(P25) offline --output "$${OUTPUT:-site-offline.zip}"

bench: setup  ## build and execution figures (numbers to read, not a test)
	$(P25) bench

clean:  ## remove what builds and tests write (not the virtual environment)
	rm -rf site .pytest_cache .cache
