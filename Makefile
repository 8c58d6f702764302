# One entry point per task. `make site` builds everything from a fresh clone;
# `make test` runs every test (what CI runs, through .ci/run).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
JOBS   ?= $(shell nproc)
export NO_MKDOCS_2_WARNING := 1

.PHONY: setup browser site serve model labs records check-records gpu-records report translations stamp-translation test lint bench clean

setup: $(VENV)/.installed  ## Python environment with the pinned requirements

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

browser:  ## Debian's Chromium, for the browser test (Playwright cannot download browsers here)
	@command -v chromium >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }

site: setup  ## execute what is stale on this machine's devices, then build both languages strictly
	PHASE25_EXECUTE=1 $(BIN)/mkdocs build --strict

serve: setup  ## live preview; stale CPU snippets are re-executed on each rebuild
	PHASE25_EXECUTE=1 $(BIN)/mkdocs serve

model: setup  ## retrain the grammar MiniGPT (deterministic, ~30 s) and rewrite its checkpoint
	$(BIN)/python scripts/train_minigpt.py

labs: setup  ## regenerate the lab notebooks from their code, prose and records
	$(BIN)/python scripts/labs.py build

records: setup  ## re-execute every CPU snippet and rewrite its record, on purpose
	$(BIN)/python scripts/snippets.py update -j$(JOBS)

check-model: setup  ## retrain the grammar MiniGPT (deterministic, ~30 s) and rewrite its checkpoint
	$(BIN)/python scripts/train_minigpt.py

labs: setup  ## regenerate the lab notebooks from their code, prose and records
	$(BIN)/python scripts/labs.py build

records: setup  ## re-execute CPU snippets into a scratch folder, diff against the records
	$(BIN)/python scripts/snippets.py check -j$(JOBS)

gpu-records:  ## on a CUDA machine (torch only, no venv needed): capture stale CUDA records
	$(PYTHON) scripts/snippets.py run --device cuda --require-device cuda -j$(JOBS)

report: setup  ## every (snippet, device) and the state of its record
	$(BIN)/python scripts/snippets.py report

translations: setup  ## parity and freshness of the Spanish pages
	$(BIN)/python scripts/translations.py check

stamp-translation:  ## mark PAGE (docs/es/...) as translating the current English page
	$(PYTHON) scripts/translations.py stamp $(PAGE)

test: setup browser  ## every test: lint, runner, rendering, parity, real builds, browser
	$(BIN)/ruff check scripts tests snippets
	$(BIN)/python -m pytest

lint: setup
	$(BIN)/ruff check scripts tests snippets

bench: setup  ## build and execution figures (not a test: numbers to read)
	$(BIN)/python scripts/bench.py

clean:
	rm -rf site build .pytest_cache
