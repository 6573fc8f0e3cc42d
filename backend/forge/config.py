"""Settings read from the environment, once, by the composition root.

Invariants:
    - Every variable read here is listed in `.env.example` with a comment.
    - Defaults run the embedded product: a SQLite file under `./var/`, the offline model, the local
      research corpus, http://127.0.0.1:8000.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from forge.core.accounts.auth_mode import AuthRefusal, parse_auth_setting
from forge.core.accounts.login_throttle import LoginThrottlePolicy
from forge.core.accounts.user_limits import UserLimits
from forge.core.curation.curation_settings import CurationChange, check_change
from forge.core.llm.effort import EffortPolicy, parse_effort
from forge.db.engine import DEFAULT_MAX_OVERFLOW, DEFAULT_POOL_SIZE

DEFAULT_DATA_DIR = "var"


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a `.env` file (comments and blanks ignored; quotes stripped); {} if absent."""
    if not path.is_file():
        return {}
    values: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip().removeprefix("export ").strip()] = value.strip().strip("'\"")
    return values


def environment_with_dotenv(cwd: Path | None = None) -> dict[str, str]:
    """The process environment over `.env` in the working directory: real variables win."""
    return {**read_env_file((cwd or Path.cwd()) / ".env"), **os.environ}


def _number(name: str, raw: str | None, kind: type[int] | type[float]) -> int | float | None:
    if raw is None or not raw.strip():
        return None
    try:
        return kind(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw!r}") from None


def curation_change_from_env(env: Mapping[str, str]) -> CurationChange:
    """FORGE_CURATION_* and FORGE_NAVIGATION_* over the built-in budgets (unset = the default)."""
    names: dict[str, type[int] | type[float]] = {
        "CURATION_CONTEXT_TOKENS": int,
        "CURATION_CARRY_TOKENS": int,
        "CURATION_LAMBDA_TOKENS": float,
        "CURATION_REDUNDANCY_WEIGHT": float,
        "NAVIGATION_MAX_STEPS": int,
        "NAVIGATION_MAX_EDGES": int,
        "NAVIGATION_MAX_TOKENS": int,
        "NAVIGATION_LAMBDA_TOKENS": float,
        "NAVIGATION_LAMBDA_EDGE": float,
    }
    values = {name: _number(f"FORGE_{name}", env.get(f"FORGE_{name}"), kind) for name, kind in names.items()}
    change = CurationChange(**{k.lower().removeprefix("curation_"): v for k, v in values.items()})  # type: ignore[arg-type]
    refusal = check_change(change)
    if refusal is not None:
        raise ValueError(f"FORGE_CURATION_* / FORGE_NAVIGATION_*: {refusal}")
    return change


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str
    host: str = "127.0.0.1"
    port: int = 8000
    model: str = ""  # "" = offline unless a key is configured (see model_routing.default_generator)
    research: str = "local"
    max_iterations: int = 50
    cors_origins: tuple[str, ...] = ()
    log_level: str = "info"
    anthropic_api_key: str | None = None
    anthropic_base_url: str | None = None
    anthropic_context_1m: bool = False
    web_search_max_uses: int = 5
    web_fetch_max_uses: int = 3  # FORGE_WEB_FETCH_MAX_USES: server web fetches per call (with web search)
    openai_api_key: str | None = None
    openai_base_url: str | None = None
    openai_context_window: int | None = None
    verifier_model: str = ""
    budget_tokens: int | None = None
    budget_usd: float | None = None
    budget_web_searches: int | None = None  # FORGE_BUDGET_WEB_SEARCHES: server web searches per session
    offline_step_delay_ms: int = 0
    data_dir: Path = Path(DEFAULT_DATA_DIR)
    db_pool_size: int = DEFAULT_POOL_SIZE
    db_max_overflow: int = DEFAULT_MAX_OVERFLOW
    run_lease_seconds: float = 15.0
    runner: str = "inprocess"  # FORGE_RUNNER: "inprocess", or "workers" (PostgreSQL: runs are jobs for `forge worker`)
    # FORGE_RUN_PROCESSES: sessions run in this many child processes of `forge serve` (0: in the
    # server's own process); None ("auto", unset) lets `forge serve` pick from the machine's cores.
    run_processes: int | None = 0
    queue_lease_seconds: float = 3600.0  # how long a queued run counts as running before a worker claims it
    worker_concurrency: int = 4  # sessions one `forge worker` runs at once
    worker_heartbeat_seconds: float = 1.0  # a worker's heartbeat to the task engine
    worker_stalled_seconds: float = 5.0  # a worker silent this long is dead: its jobs are retried elsewhere
    engine_concurrency: int = 24  # engine model calls in flight at once (BISO: one per domain, 18-30 domains)
    # FORGE_LOCAL_CONCURRENCY: engine calls in flight against a local server (OPENAI_BASE_URL not
    # OpenAI's) when FORGE_ENGINE_CONCURRENCY is unset; 1 suits a one-slot llama.cpp server.
    local_concurrency: int = 1
    engine_concurrency_set: bool = False  # FORGE_ENGINE_CONCURRENCY was given explicitly
    model_timeout_s: float | None = None  # FORGE_MODEL_TIMEOUT_S: one model call's limit (None: 600 s)
    hypotheses_per_domain: int = 3
    allowed_hosts: tuple[str, ...] = ()  # () = the default for the bind address (api.trusted_hosts)
    public_url: str | None = None
    log_format: str = "text"  # or "json": one JSON object per line (logging_setup)
    search_profile: str = "interactive"  # SEARCH at SYNTHESIZE: interactive (fewer calls) or research
    search_depth: int = 0  # SEARCH rounds per session round; 0: the profile's (interactive 1, research 2)
    searxng_url: str | None = None  # FORGE_RESEARCH=searxng: the instance (JSON format enabled)
    brave_api_key: str | None = None
    brave_base_url: str = "https://api.search.brave.com"
    tavily_api_key: str | None = None
    tavily_base_url: str = "https://api.tavily.com"
    research_timeout_seconds: float = 10.0
    effort: EffortPolicy = field(default_factory=EffortPolicy)  # FORGE_EFFORT: `high`, or `synthesize=max,engine=low`
    # FORGE_STRUCTURED_OUTPUT for OpenAI-compatible servers: json_schema (response_format), tools
    # (forced tool call), or auto (json_schema, falling back to tools when the server refuses it).
    openai_structured_output: str = "auto"
    prices_file: Path | None = None  # FORGE_PRICES_FILE: per-deployment prices over genai-prices' data
    # FORGE_EMBEDDER: "model" (all-MiniLM-L6-v2 run with onnxruntime: meaning) or "hashed" (spelling
    # only, no model: a tiny machine, or tests that do not check meaning)
    embedder: str = "model"

    @property
    def anthropic_web_search(self) -> bool:
        """FORGE_RESEARCH=anthropic (or its older name `web`): Anthropic's server-side web search."""
        return self.research in ("anthropic", "web")

    auth: str = ""  # FORGE_AUTH: "on", "off", or "" (off on loopback, refused elsewhere: core.auth_mode)
    user_limits: UserLimits = field(default_factory=UserLimits)  # per-user limits (None = unlimited)
    curation: CurationChange = field(default_factory=CurationChange)  # FORGE_CURATION_* / FORGE_NAVIGATION_*
    login_throttle: LoginThrottlePolicy = field(default_factory=LoginThrottlePolicy)  # wrong passwords per window

    @property
    def model_cache_path(self) -> Path:
        """Where `forge doctor --refresh-models` caches the Models API's capabilities."""
        return self.data_dir / "model_capabilities.json"

    @property
    def hkg_path(self) -> Path:
        """Where `forge hkg ingest` keeps the hypergraph (JSONL); absent = the shipped demo is used."""
        return self.data_dir / "hkg" / "hypergraph.jsonl"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        data_dir = Path(env.get("FORGE_DATA_DIR", DEFAULT_DATA_DIR)).resolve()
        default_db = f"sqlite+aiosqlite:///{data_dir / 'forge.db'}"
        origins = tuple(o.strip() for o in env.get("FORGE_CORS_ORIGINS", "").split(",") if o.strip())
        hosts = tuple(h.strip() for h in env.get("FORGE_ALLOWED_HOSTS", "").split(",") if h.strip())
        return cls(
            database_url=env.get("DATABASE_URL") or default_db,
            host=env.get("HOST", "127.0.0.1"),
            port=int(env.get("PORT") or "8000"),
            model=env.get("FORGE_MODEL", ""),
            verifier_model=env.get("FORGE_VERIFIER_MODEL", ""),
            research=_research(env.get("FORGE_RESEARCH") or "local"),
            max_iterations=int(env.get("FORGE_MAX_ITERATIONS") or "50"),
            cors_origins=origins,
            log_level=env.get("LOG_LEVEL", "info"),
            anthropic_api_key=env.get("ANTHROPIC_API_KEY") or None,
            anthropic_base_url=env.get("ANTHROPIC_BASE_URL") or None,
            anthropic_context_1m=env.get("ANTHROPIC_CONTEXT_1M", "false").lower() in ("1", "true", "yes"),
            web_search_max_uses=int(env.get("FORGE_WEB_SEARCH_MAX_USES") or "5"),
            web_fetch_max_uses=int(env.get("FORGE_WEB_FETCH_MAX_USES") or "3"),
            openai_api_key=env.get("OPENAI_API_KEY") or None,
            openai_base_url=env.get("OPENAI_BASE_URL") or None,
            openai_context_window=int(env["OPENAI_CONTEXT_WINDOW"]) if env.get("OPENAI_CONTEXT_WINDOW") else None,
            budget_tokens=int(env["FORGE_BUDGET_TOKENS"]) if env.get("FORGE_BUDGET_TOKENS") else None,
            budget_usd=float(env["FORGE_BUDGET_USD"]) if env.get("FORGE_BUDGET_USD") else None,
            budget_web_searches=int(env["FORGE_BUDGET_WEB_SEARCHES"]) if env.get("FORGE_BUDGET_WEB_SEARCHES") else None,
            offline_step_delay_ms=max(0, int(env.get("FORGE_OFFLINE_STEP_DELAY_MS") or "0")),
            data_dir=data_dir,
            db_pool_size=max(1, int(env.get("FORGE_DB_POOL_SIZE") or DEFAULT_POOL_SIZE)),
            db_max_overflow=max(0, int(env.get("FORGE_DB_MAX_OVERFLOW") or DEFAULT_MAX_OVERFLOW)),
            run_lease_seconds=max(1.0, float(env.get("FORGE_RUN_LEASE_SECONDS") or "15")),
            runner=_runner(env.get("FORGE_RUNNER") or "inprocess", env.get("DATABASE_URL") or default_db),
            run_processes=_run_processes(env.get("FORGE_RUN_PROCESSES") or "auto", env.get("FORGE_RUNNER") or ""),
            queue_lease_seconds=max(1.0, float(env.get("FORGE_QUEUE_LEASE_SECONDS") or "3600")),
            worker_concurrency=max(1, int(env.get("FORGE_WORKER_CONCURRENCY") or "4")),
            worker_heartbeat_seconds=max(0.1, float(env.get("FORGE_WORKER_HEARTBEAT_SECONDS") or "1")),
            worker_stalled_seconds=max(0.5, float(env.get("FORGE_WORKER_STALLED_SECONDS") or "5")),
            engine_concurrency=max(1, int(env.get("FORGE_ENGINE_CONCURRENCY") or "24")),
            local_concurrency=max(1, int(env.get("FORGE_LOCAL_CONCURRENCY") or "1")),
            engine_concurrency_set=bool(env.get("FORGE_ENGINE_CONCURRENCY")),
            model_timeout_s=_positive_float("FORGE_MODEL_TIMEOUT_S", env.get("FORGE_MODEL_TIMEOUT_S")),
            hypotheses_per_domain=min(10, max(1, int(env.get("FORGE_HYPOTHESES_PER_DOMAIN") or "3"))),
            allowed_hosts=hosts,
            public_url=env.get("FORGE_PUBLIC_URL") or None,
            log_format=(env.get("FORGE_LOG_FORMAT") or "text").lower(),
            search_profile=_search_profile(env.get("FORGE_SEARCH_PROFILE") or "interactive"),
            search_depth=min(5, max(0, int(env.get("FORGE_SEARCH_DEPTH") or "0"))),
            searxng_url=env.get("FORGE_SEARXNG_URL") or None,
            brave_api_key=env.get("BRAVE_SEARCH_API_KEY") or None,
            brave_base_url=env.get("FORGE_BRAVE_URL") or "https://api.search.brave.com",
            tavily_api_key=env.get("TAVILY_API_KEY") or None,
            tavily_base_url=env.get("FORGE_TAVILY_URL") or "https://api.tavily.com",
            effort=parse_effort(env.get("FORGE_EFFORT", "")),
            openai_structured_output=_structured_output(env.get("FORGE_STRUCTURED_OUTPUT") or "auto"),
            prices_file=Path(env["FORGE_PRICES_FILE"]) if env.get("FORGE_PRICES_FILE") else None,
            research_timeout_seconds=max(0.1, float(env.get("FORGE_RESEARCH_TIMEOUT_S") or "10")),
            auth=_auth_setting(env.get("FORGE_AUTH")),
            embedder=_embedder(env.get("FORGE_EMBEDDER") or "model"),
            curation=curation_change_from_env(env),
            login_throttle=LoginThrottlePolicy(
                max_failures=max(1, int(env.get("FORGE_LOGIN_MAX_FAILURES") or "5")),
                window_seconds=max(1.0, float(env.get("FORGE_LOGIN_WINDOW_SECONDS") or "900")),
            ),
            user_limits=UserLimits(
                max_running_sessions=_optional_int(
                    "FORGE_USER_MAX_RUNNING_SESSIONS", env.get("FORGE_USER_MAX_RUNNING_SESSIONS")
                ),
                max_sessions_per_hour=_optional_int(
                    "FORGE_USER_SESSIONS_PER_HOUR", env.get("FORGE_USER_SESSIONS_PER_HOUR")
                ),
                monthly_spend_usd=_optional_float(
                    "FORGE_USER_MONTHLY_SPEND_USD", env.get("FORGE_USER_MONTHLY_SPEND_USD")
                ),
            ),
        )

    @property
    def database_kind(self) -> str:
        return "postgresql" if self.database_url.startswith("postgresql") else "sqlite"


RUNNERS = ("inprocess", "workers")


def _runner(value: str, database_url: str) -> str:
    runner = value.strip().lower()
    if runner not in RUNNERS:
        raise ValueError(f"FORGE_RUNNER must be one of {', '.join(RUNNERS)}; got {value!r}")
    if runner == "workers" and not database_url.startswith("postgresql"):
        raise ValueError(
            "FORGE_RUNNER=workers needs PostgreSQL (DATABASE_URL=postgresql+asyncpg://...): "
            "the embedded SQLite database runs sessions in the server process (FORGE_RUNNER=inprocess)"
        )
    return runner


MAX_AUTO_RUN_PROCESSES = 4


def _run_processes(value: str, runner: str) -> int | None:
    text = value.strip().lower()
    if text == "auto":
        return None
    try:
        count = int(text)
    except ValueError:
        raise ValueError(
            f"FORGE_RUN_PROCESSES must be 'auto' or a whole number of processes (0-64); got {value!r}"
        ) from None
    if not 0 <= count <= 64:
        raise ValueError(f"FORGE_RUN_PROCESSES must be between 0 and 64 (0: runs in the server's process); got {count}")
    if count > 0 and runner.strip().lower() == "workers":
        raise ValueError(
            "FORGE_RUN_PROCESSES and FORGE_RUNNER=workers are two ways to run sessions outside the API process; "
            "with workers, set FORGE_RUN_PROCESSES=0 and scale `forge worker` instead"
        )
    return count


def auto_run_processes(cpu_count: int | None, runner: str = "inprocess") -> int:
    """`forge serve`'s default: one run process per core (at most MAX_AUTO_RUN_PROCESSES); none on one
    core, where a child would only add a hop, and none with workers, which run the sessions."""
    cores = cpu_count or 1
    return 0 if cores < 2 or runner == "workers" else min(cores, MAX_AUTO_RUN_PROCESSES)


SEARCH_PROFILES = ("interactive", "research")


def _search_profile(value: str) -> str:
    profile = value.strip().lower()
    if profile not in SEARCH_PROFILES:
        raise ValueError(f"FORGE_SEARCH_PROFILE must be one of {', '.join(SEARCH_PROFILES)}; got {value!r}")
    return profile


EMBEDDERS = ("model", "hashed")


def _embedder(value: str) -> str:
    embedder = value.strip().lower()
    if embedder not in EMBEDDERS:
        raise ValueError(f"FORGE_EMBEDDER must be one of {', '.join(EMBEDDERS)}; got {value!r}")
    return embedder


RESEARCH_PROVIDERS = ("local", "anthropic", "searxng", "brave", "tavily")


def _research(value: str) -> str:
    research = value.strip().lower()
    if research == "web":  # the older name of Anthropic's server-side web search
        return "anthropic"
    if research not in RESEARCH_PROVIDERS:
        raise ValueError(f"FORGE_RESEARCH must be one of {', '.join(RESEARCH_PROVIDERS)}; got {value!r}")
    return research


STRUCTURED_OUTPUT_METHODS = ("auto", "json_schema", "tools")


def _structured_output(value: str) -> str:
    method = value.strip().lower()
    if method not in STRUCTURED_OUTPUT_METHODS:
        raise ValueError(
            f"FORGE_STRUCTURED_OUTPUT must be one of {', '.join(STRUCTURED_OUTPUT_METHODS)}; got {value!r}"
        )
    return method


def _auth_setting(raw: str | None) -> str:
    parsed = parse_auth_setting(raw)
    if isinstance(parsed, AuthRefusal):
        raise ValueError(parsed.message)
    return parsed


def _optional_int(name: str, value: str | None) -> int | None:
    """A non-negative whole number, or None when unset/blank (no limit)."""
    raw = (value or "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise ValueError(f"{name} must be a whole number >= 0 (or unset for no limit); got {raw!r}")
    return int(raw)


def _positive_float(name: str, value: str | None) -> float | None:
    """A number of seconds > 0, or None when unset/blank (the default applies)."""
    seconds = _number(name, value, float)
    if seconds is not None and not seconds > 0:
        raise ValueError(f"{name} must be a number of seconds > 0 (or unset for the default); got {value!r}")
    return seconds


def _optional_float(name: str, value: str | None) -> float | None:
    raw = (value or "").strip()
    if not raw:
        return None
    try:
        dollars = float(raw)
    except ValueError:
        dollars = -1.0
    if not dollars >= 0:  # also refuses nan
        raise ValueError(f"{name} must be a number of US dollars >= 0 (or unset for no cap); got {raw!r}")
    return dollars
