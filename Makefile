# Knowledge Forge — `make run` sets everything up and serves the product; `make test` runs every test.
PYTHON ?= python3
VENV   := backend/.venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint fmt typecheck migrate setup bench clean

setup: $(STAMP)

$(STAMP): backend/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e 'backend[dev]'
	touch $(STAMP)

run: setup migrate
	$(BIN)/forge serve

migrate: setup
	$(BIN)/forge migrate

test: setup
	bash scripts/ensure_postgres.sh
	$(MAKE) lint typecheck
	cd backend && .venv/bin/python -m pytest -q

lint: setup
	cd backend && .venv/bin/ruff check forge tests && .venv/bin/ruff format --check forge tests
	cd backend && .venv/bin/lint-imports

fmt: setup
	cd backend && .venv/bin/ruff format forge tests && .venv/bin/ruff check --fix forge tests

typecheck: setup
	cd backend && .venv/bin/mypy

bench: setup
	$(BIN)/python bench/bench_offline_session.py

clean:
	rm -rf $(VENV) var out
