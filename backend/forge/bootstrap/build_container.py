"""`build_container`: the adapters chosen by Settings (or given by tests) wired into the services, in
the order that leaves nothing open when the configuration is wrong (the database is opened last)."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncEngine

from forge.agent.curate_request import DEFAULT_SETTINGS, LiveCurationSettings
from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_research
from forge.bootstrap.container import Container, SystemClock
from forge.bootstrap.model_roles import ModelRoles, engine_stages, model_roles
from forge.bootstrap.model_routing import Provider, RoleRoutes, engine_concurrency, resolve_routes, session_budget
from forge.config import Settings
from forge.core.curation.curation_settings import apply_change
from forge.core.explore.library_records import ShippedKnowledge
from forge.core.explore.suggested_domains import refuse_unexplorable
from forge.db.cross_process_write_lock import CrossProcessWriteLock, write_lock_path
from forge.db.engine import (
    SQLITE_BUSY_TIMEOUT_SECONDS,
    create_engine_for,
    create_query_session_factory,
    create_session_factory,
    is_sqlite,
    sqlite_database_file,
)
from forge.db.postgres_event_notifications import PostgresEventListener, asyncpg_dsn
from forge.db.postgres_live_relay import PostgresLiveRelay
from forge.db.run_job_queue import QueueProbe
from forge.db.unit_of_work import SqlAlchemyUnitOfWork
from forge.db.write_gate import WriteGate
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.observability.metrics import ForgeMetrics
from forge.ports import (
    Clock,
    Embedder,
    LanguageModel,
    PasswordHasher,
    ResearchProvider,
    RunEventSink,
    RunObserver,
    StructuredModel,
    UnitOfWork,
    UnitOfWorkFactory,
)
from forge.providers.hashed_embedder import HashedTextEmbedder
from forge.providers.library_prices import LIBRARY_PRICES
from forge.providers.password_hashing import Argon2PasswordHasher
from forge.providers.sentence_embedder import SentenceEmbedder
from forge.research.server_web_search import ServerWebSearchResearch
from forge.research.web_search import WebResearchWithFallback
from forge.run_processes.pool import RunProcessPool
from forge.services.account_service import AccountService
from forge.services.broadcast.event_log_source import EventLogSource
from forge.services.broadcast.session_broadcast import HEARTBEAT_SECONDS, SessionBroadcaster
from forge.services.hypothesis_memory_service import HypothesisMemory
from forge.services.runs.drive_phase_run import PhaseRunDriver, RunModels
from forge.services.runs.launcher import InProcessLauncher, QueueLauncher, RunLauncher
from forge.services.runs.queued_run import QueuedRunExecutor
from forge.services.runs.registry import RunRegistry
from forge.services.session_service import SessionService
from forge.services.stages.search_grounding import LazyHkgGrounding
from forge.services.stages.verify_claims import PriorArtResearch
from forge.services.user_usage import UserUsageService

log = logging.getLogger(__name__)


def _event_listener(
    settings: Settings, broadcaster: SessionBroadcaster, relay: PostgresLiveRelay
) -> PostgresEventListener:
    """Other API processes on the same PostgreSQL learn of this one's commits and live events (and
    vice versa); the live events this process relayed itself are skipped."""
    return PostgresEventListener(
        asyncpg_dsn(settings.database_url),
        broadcaster.committed_elsewhere,
        broadcaster.resync,
        on_live=broadcaster.publish_live,
        origin=relay.origin,
    )


def _write_gate(database_url: str) -> WriteGate:
    """SQLite's writers queued in this process, and with other processes' on a database file."""
    database = sqlite_database_file(database_url)
    if database is None:
        return WriteGate()
    return WriteGate(CrossProcessWriteLock(write_lock_path(database), patience_seconds=SQLITE_BUSY_TIMEOUT_SECONDS))


def _watched_metrics(runs: RunRegistry, broadcaster: SessionBroadcaster) -> ForgeMetrics:
    metrics = ForgeMetrics()
    metrics.watch(runs.active, lambda: broadcaster.stats().followers)
    return metrics


@dataclass(frozen=True, slots=True)
class _Database:
    """The configured database and its two kinds of unit of work (writing and read-only)."""

    engine: AsyncEngine
    uow_factory: UnitOfWorkFactory
    query_uow_factory: UnitOfWorkFactory
    single_process: bool  # SQLite: one writer at a time, no other API processes to hear from


def _open_database(settings: Settings) -> _Database:
    engine = create_engine_for(
        settings.database_url, pool_size=settings.db_pool_size, max_overflow=settings.db_max_overflow
    )
    factory, query_factory = create_session_factory(engine), create_query_session_factory(engine)
    single_process = is_sqlite(settings.database_url)
    gate = _write_gate(settings.database_url) if single_process else None

    def uow_factory() -> UnitOfWork:
        return SqlAlchemyUnitOfWork(factory, gate)

    def query_uow_factory() -> UnitOfWork:
        return SqlAlchemyUnitOfWork(query_factory, gate, query_only=True)

    return _Database(engine, uow_factory, query_uow_factory, single_process)


def _live_parts(
    settings: Settings, database: _Database, clock: Clock, heartbeat_seconds: float, relay_origin: str | None
) -> tuple[RunRegistry, SessionBroadcaster, ForgeMetrics, PostgresLiveRelay | None]:
    """What a running session reaches while it runs: this process's runs, the broadcaster of its
    events, the metrics that watch both and, on PostgreSQL, the relay of live events (text deltas,
    engine progress) to other processes' followers."""
    runs = RunRegistry(
        clock, lease_seconds=settings.run_lease_seconds, trust_other_processes=not database.single_process
    )
    broadcaster = SessionBroadcaster(EventLogSource(database.query_uow_factory), heartbeat_seconds=heartbeat_seconds)
    relay = (
        None
        if database.single_process
        else PostgresLiveRelay(asyncpg_dsn(settings.database_url), relay_origin or uuid.uuid4().hex)
    )
    return runs, broadcaster, _watched_metrics(runs, broadcaster), relay


def _refuse_unusable_research(settings: Settings, routes: RoleRoutes) -> None:
    if settings.anthropic_web_search and routes.generator.provider != Provider.ANTHROPIC:
        raise ValueError(
            "FORGE_RESEARCH=anthropic uses Anthropic's server-side web search: set FORGE_MODEL=anthropic:<model>, "
            "or use FORGE_RESEARCH=searxng|brave|tavily with any model"
        )


def _suggestion_refusal(roles: ModelRoles, knowledge: ShippedKnowledge) -> Callable[[Sequence[str]], str | None] | None:
    """The offline engine cannot describe a new domain: the explore review refuses, in plain words, a
    suggestion that shares nothing with the shipped library (one that does explores its closest domain)."""
    from forge.offline.offline_structured_model import OfflineStructuredModel

    if not isinstance(roles.structured, OfflineStructuredModel):
        return None
    return partial(refuse_unexplorable, library=knowledge.domains)


def _verify_web_search(
    settings: Settings, routes: RoleRoutes, roles: ModelRoles, local: ResearchProvider
) -> PriorArtResearch | None:
    """FORGE_RESEARCH=anthropic: VERIFY's prior-art queries go to the generator's server-side web search
    (the local corpus answers, with a warning, when a search fails). Web search APIs (SearXNG, Brave,
    Tavily) are already the session's research provider; with neither, the local corpus answers."""
    if not settings.anthropic_web_search or routes.generator.provider != Provider.ANTHROPIC:
        return None
    web = ServerWebSearchResearch(roles.model)
    return PriorArtResearch(WebResearchWithFallback(web, local), web)


def _query_renderer(roles: ModelRoles) -> StructuredModel | None:
    """The model that renders a research query in the corpus's language: the generator's structured
    output, when it is a model (the offline engine cannot translate; its results say so)."""
    from forge.offline.offline_structured_model import OfflineStructuredModel

    return None if isinstance(roles.structured, OfflineStructuredModel) else roles.structured


def build_embedder(settings: Settings) -> Embedder:
    """The meaning model by default; FORGE_EMBEDDER=hashed for spelling-only vectors with no model."""
    return HashedTextEmbedder() if settings.embedder == "hashed" else SentenceEmbedder()


def build_container(
    settings: Settings,
    *,
    model: LanguageModel | None = None,
    research: ResearchProvider | None = None,
    clock: Clock | None = None,
    new_id: Callable[[], UUID] = uuid.uuid4,
    verifier: LanguageModel | None = None,
    structured: StructuredModel | None = None,
    verifier_structured: StructuredModel | None = None,
    heartbeat_seconds: float = HEARTBEAT_SECONDS,
    embedder: Embedder | None = None,
    password_hasher: PasswordHasher | None = None,
    run_sink: RunEventSink | None = None,
    run_observer: RunObserver | None = None,
    relay_origin: str | None = None,
) -> Container:
    """The app's parts. With a `model` given (tests), engine stages run only when `structured` is
    given too: a scripted conversation must not be consumed by the engine's calls. VERIFY runs at
    VALIDATE with `verifier_structured` (built from the verifier route when the models are built here).
    With FORGE_RUN_PROCESSES > 0 and the models built here, runs go to a RunProcessPool instead of this
    process's step loop; a run process passes `run_sink` and `run_observer` (its socket to the
    server) and the server's `relay_origin`."""
    routes = resolve_routes(settings)
    _refuse_unusable_research(settings, routes)
    knowledge = load_shipped_knowledge(KNOWLEDGE_DIR)  # once; a malformed file fails before anything is opened
    roles = model_roles(settings, routes, knowledge, model, verifier, structured, verifier_structured)
    memory_embedder = embedder or build_embedder(settings)
    # One retrieval for research, memory and the hypergraph's node matching (below).
    research = research or build_research(settings, _query_renderer(roles), memory_embedder)
    clock = clock or SystemClock()
    database = _open_database(settings)  # last: a configuration error leaves nothing open
    runs, broadcaster, metrics, relay = _live_parts(settings, database, clock, heartbeat_seconds, relay_origin)
    # One hypergraph for SEARCH's grounding and the path navigator; one live curation snapshot for
    # every runner (FORGE_CURATION_* at start, the admin API while running).
    hkg = LazyHkgGrounding(settings.hkg_path, knowledge, memory_embedder)  # matched by the same meaning model
    curation = LiveCurationSettings(apply_change(DEFAULT_SETTINGS, settings.curation))
    driver = PhaseRunDriver(
        database.uow_factory,
        run_sink or broadcaster,
        runs,
        RunModels(roles.model, roles.verifier, research, roles.relevance_judge),
        clock,
        new_id,
        settings.max_iterations,
        session_budget(settings, routes, LIBRARY_PRICES),
        run_observer or metrics,
        engine_stages(
            settings,
            roles,
            knowledge,
            database.uow_factory,
            clock,
            hkg,
            engine_concurrency(settings, routes),
            prior_art=_verify_web_search(settings, routes, roles, research),
        ),
        triz=knowledge.triz,
        curation=curation,
        hkg=hkg,
        live_relay=relay,
        queries=database.query_uow_factory,
    )
    memory = HypothesisMemory(memory_embedder, new_id)
    workers = settings.runner == "workers"
    pool = _run_process_pool(
        settings, driver, broadcaster, metrics, built_models=model is None, child=run_sink is not None, relay=relay
    )
    launcher: RunLauncher = (
        QueueLauncher(clock, settings.queue_lease_seconds)
        if workers
        else InProcessLauncher(runs, pool if pool is not None else driver)
    )
    service = SessionService(
        database.uow_factory, broadcaster, runs, launcher, clock, new_id, roles.model.label, memory,
        queries=database.query_uow_factory, refuse_suggestions=_suggestion_refusal(roles, knowledge),
    )  # fmt: skip
    return Container(
        settings,
        database.engine,
        service,
        runs,
        roles.model,
        research,
        database.uow_factory,
        roles.verifier,
        broadcaster,
        knowledge,
        metrics,
        memory,
        AccountService(database.uow_factory, password_hasher or Argon2PasswordHasher(), clock, new_id),
        UserUsageService(database.uow_factory, runs, clock, settings.user_limits),
        # a run process has no followers: other processes' events are nothing to it
        None if relay is None or run_sink is not None else _event_listener(settings, broadcaster, relay),
        curation,
        QueueProbe(database.engine, settings.worker_stalled_seconds) if workers else None,
        None
        if database.single_process
        else QueuedRunExecutor(database.uow_factory, broadcaster, runs, driver, clock, settings.queue_lease_seconds),
        grounding=hkg,
        memory_embedder=None
        if run_sink is not None
        else memory_embedder,  # a run process serves no memory: no warm load
        live_relay=relay,
        driver=driver,
        run_processes=pool,
    )


def _run_process_pool(
    settings: Settings,
    driver: PhaseRunDriver,
    broadcaster: SessionBroadcaster,
    metrics: ForgeMetrics,
    *,
    built_models: bool,
    child: bool,
    relay: PostgresLiveRelay | None,
) -> RunProcessPool | None:
    """FORGE_RUN_PROCESSES > 0: runs in child processes. Never in a child itself, with workers, or
    with models given (tests' scripted models cannot be handed to another process)."""
    count = settings.run_processes or 0
    if count == 0 or child or not built_models or settings.runner == "workers":
        return None
    origin = None if relay is None else relay.origin
    return RunProcessPool(settings, count, broadcaster, metrics, driver.fail, relay_origin=origin)
