"""The composition root: the one place that builds adapters and wires them into services.

Invariants:
    - Nothing is built at import time; `build_container` does it, on demand, from Settings.
    - Tests build containers with their own adapters (a scripted model, a test database) through
      the same function's keyword overrides, never by patching globals.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from uuid import UUID

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from forge.agent.curate_request import DEFAULT_SETTINGS, LiveCurationSettings
from forge.build_adapters import KNOWLEDGE_DIR, build_model, build_research, build_structured_model
from forge.config import Settings
from forge.core.curation.curation_settings import apply_change
from forge.core.explore.library_records import ShippedKnowledge
from forge.core.search.plan import RuntimeProfile
from forge.core.session.spend import SpendBudget
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
from forge.db.run_job_queue import QueueDepth, QueueProbe
from forge.db.unit_of_work import SqlAlchemyUnitOfWork
from forge.db.write_gate import WriteGate
from forge.knowledge.load_concept_spaces import load_concept_spaces
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.model_routing import Provider, RoleRoutes, resolve_routes
from forge.observability.metrics import ForgeMetrics
from forge.offline.hashed_embedder import HashedTextEmbedder
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
from forge.providers.password_hashing import Argon2PasswordHasher
from forge.providers.static_embedder import StaticTextEmbedder
from forge.providers.token_counting import cl100k_encoding
from forge.run_processes.pool import RunProcessPool
from forge.services.account_service import AccountService
from forge.services.broadcast.event_log_source import EventLogSource
from forge.services.broadcast.session_broadcast import HEARTBEAT_SECONDS, SessionBroadcaster
from forge.services.hypothesis_memory_service import HypothesisMemory
from forge.services.hypothesis_queries import pool_reader
from forge.services.pattern_memory import PatternMemory
from forge.services.runs.drive_phase_run import PhaseRunDriver, RunModels
from forge.services.runs.launcher import InProcessLauncher, QueueLauncher, RunLauncher
from forge.services.runs.queued_run import QueuedRunExecutor
from forge.services.runs.registry import RunRegistry
from forge.services.session_service import SessionService
from forge.services.stages.engine_stages import EngineConfig, EngineStages
from forge.services.stages.search_grounding import LazyHkgGrounding
from forge.services.stages.supervision import Supervisor
from forge.services.stages.verify_claims import VerifyStage
from forge.services.user_usage import UserUsageService

log = logging.getLogger(__name__)
# The cyclic collector's thresholds for a serving process (set with the freeze in `warm_up`). Every
# step decodes and encodes the session's state, thousands of short-lived objects, so with CPython's
# (700, 10, 10) young collections ran ~900 times per 20 autopilot sessions, and the older ones walked
# the whole heap: 1.1 s of ~12.7 s CPU after the freeze (measured with gc.callbacks, in-process, SQLite).
# With young collections every 20,000 net allocations (each walks at most that many objects, ~1 ms):
# 0.28 s. The older generations keep their ratio, so a full collection still comes (every ~8M).
SERVING_GC_THRESHOLDS = (20_000, 20, 20)


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class Container:
    settings: Settings
    engine: AsyncEngine
    service: SessionService
    runs: RunRegistry
    model: LanguageModel
    research: ResearchProvider
    uow_factory: UnitOfWorkFactory
    verifier: LanguageModel
    broadcaster: SessionBroadcaster
    knowledge: ShippedKnowledge
    metrics: ForgeMetrics
    memory: HypothesisMemory
    accounts: AccountService
    usage: UserUsageService
    listener: PostgresEventListener | None = None
    curation: LiveCurationSettings = field(default_factory=LiveCurationSettings)  # read at every model call
    queue: QueueProbe | None = None  # FORGE_RUNNER=workers: the run queue (readiness, metrics)
    queued_runs: QueuedRunExecutor | None = None  # PostgreSQL: what `forge worker` runs for each job
    grounding: LazyHkgGrounding | None = None  # SEARCH's hypergraph, opened on first use (or by warm_up)
    memory_embedder: Embedder | None = None
    live_relay: PostgresLiveRelay | None = None
    driver: PhaseRunDriver | None = None  # the step loop (a run process of `forge serve` runs it itself)
    run_processes: RunProcessPool | None = None  # FORGE_RUN_PROCESSES: runs go to child processes
    warm_on_start: bool = False  # `forge serve` / `forge worker`: load the lazy parts before taking work

    async def queue_depth(self) -> QueueDepth | None:
        """The run queue now (None without workers); raises when it cannot be read."""
        return await self.queue.depth() if self.queue is not None else None

    async def start(self) -> None:
        """Open what needs the running loop: the run processes (they warm up meanwhile), PostgreSQL's
        LISTEN connection for other processes' events."""
        opening: list[Awaitable[None]] = []
        if self.run_processes is not None:
            opening.append(self.run_processes.start(warm=self.warm_on_start))
        if self.warm_on_start:
            opening.append(self.warm_up())
        await asyncio.gather(*opening)  # the children warm up while this process does
        if self.listener is not None:
            await self.listener.start()

    async def warm_up(self) -> None:
        """Load what the first model call would otherwise load on the event loop, where every stream
        of the server waits for it (the tokenizer alone took ~0.4 s, seen as the first phase's lag
        p99): the tokenizer and the memory's embedding table in a thread, then the hypergraph (not in
        a server whose runs are in run processes: they load their own, and it stays lazy here)."""
        started = time.perf_counter()
        await asyncio.to_thread(cl100k_encoding)
        if self.memory_embedder is not None:
            await self.memory_embedder.warm()
        if self.grounding is not None and self.run_processes is None:  # only runs walk the hypergraph
            await self.grounding.warm()
        # What is loaded now lives as long as the process: out of the cyclic collector's sight, a
        # full collection no longer rescans the shipped knowledge and the hypergraph (bench_load:
        # ~108 -> ~134 events/s in one pair of runs; the measurements on this machine are noisy).
        gc.freeze()
        gc.set_threshold(*SERVING_GC_THRESHOLDS)
        log.info(
            "warmed the tokenizer, the embedding table and the hypergraph in %.2f s", time.perf_counter() - started
        )

    async def database_ready(self) -> bool:
        try:
            async with self.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        except Exception:
            return False
        return True

    async def close(self) -> None:
        await self.runs.shutdown()  # cancels every run (a run process's run through its proxy)
        if self.run_processes is not None:
            await self.run_processes.close()
        if self.listener is not None:
            await self.listener.stop()
        if self.live_relay is not None:
            await self.live_relay.aclose()
        await self.broadcaster.close()
        close_research = getattr(self.research, "aclose", None)  # a web search API's HTTP client
        if close_research is not None:
            await close_research()
        await self.engine.dispose()


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
    if settings.anthropic_web_search and routes.generator.provider != Provider.ANTHROPIC:
        raise ValueError(
            "FORGE_RESEARCH=anthropic uses Anthropic's server-side web search: set FORGE_MODEL=anthropic:<model>, "
            "or use FORGE_RESEARCH=searxng|brave|tavily with any model"
        )
    knowledge = load_shipped_knowledge(KNOWLEDGE_DIR)  # once; a malformed file fails before anything is opened
    roles = _model_roles(settings, routes, knowledge, model, verifier, structured, verifier_structured)
    research = research or build_research(settings)
    clock = clock or SystemClock()
    # last: a configuration error leaves nothing open
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

    runs = RunRegistry(clock, lease_seconds=settings.run_lease_seconds, trust_other_processes=not single_process)
    broadcaster = SessionBroadcaster(EventLogSource(query_uow_factory), heartbeat_seconds=heartbeat_seconds)
    metrics = _watched_metrics(runs, broadcaster)
    # PostgreSQL: live events (text deltas, engine progress) also reach other processes' followers
    relay = (
        None
        if single_process
        else PostgresLiveRelay(asyncpg_dsn(settings.database_url), relay_origin or uuid.uuid4().hex)
    )
    # One hypergraph for SEARCH's grounding and the path navigator; one live curation snapshot for
    # every runner (FORGE_CURATION_* at start, the admin API while running).
    hkg = LazyHkgGrounding(settings.hkg_path, knowledge, HashedTextEmbedder())
    curation = LiveCurationSettings(apply_change(DEFAULT_SETTINGS, settings.curation))
    driver = PhaseRunDriver(
        uow_factory,
        run_sink or broadcaster,
        runs,
        RunModels(roles.model, roles.verifier, research),
        clock,
        new_id,
        settings.max_iterations,
        SpendBudget(settings.budget_tokens, settings.budget_usd),
        run_observer or metrics,
        _engine_stages(settings, roles, knowledge, uow_factory, clock, hkg),
        triz=knowledge.triz,
        curation=curation,
        hkg=hkg,
        live_relay=relay,
        queries=query_uow_factory,
    )
    memory_embedder = embedder or StaticTextEmbedder()
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
        uow_factory, broadcaster, runs, launcher, clock, new_id, roles.model.label, memory, queries=query_uow_factory
    )
    queued = (
        None
        if single_process
        else QueuedRunExecutor(uow_factory, broadcaster, runs, driver, clock, settings.queue_lease_seconds)
    )
    return Container(
        settings,
        engine,
        service,
        runs,
        roles.model,
        research,
        uow_factory,
        roles.verifier,
        broadcaster,
        knowledge,
        metrics,
        memory,
        AccountService(uow_factory, password_hasher or Argon2PasswordHasher(), clock, new_id),
        UserUsageService(uow_factory, runs, clock, settings.user_limits),
        # a run process has no followers: other processes' events are nothing to it
        None if relay is None or run_sink is not None else _event_listener(settings, broadcaster, relay),
        curation,
        QueueProbe(engine, settings.worker_stalled_seconds) if workers else None,
        queued,
        grounding=hkg,
        memory_embedder=memory_embedder,
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


@dataclass(frozen=True, slots=True)
class _ModelRoles:
    model: LanguageModel
    verifier: LanguageModel
    structured: StructuredModel | None
    verifier_structured: StructuredModel | None
    red_team: StructuredModel | None


def _model_roles(
    settings: Settings,
    routes: RoleRoutes,
    knowledge: ShippedKnowledge,
    model: LanguageModel | None,
    verifier: LanguageModel | None,
    structured: StructuredModel | None,
    verifier_structured: StructuredModel | None,
) -> _ModelRoles:
    """The generator, the verifier and their structured models: the given ones (tests), else built
    from the routes. A given `model` without `structured` means no engine stages."""
    built_here = model is None
    if model is None:
        model = build_model(routes.generator, settings)
        structured = structured or build_structured_model(routes.generator, model, knowledge.domains)
    derive_verifier = verifier is None and structured is not None and verifier_structured is None
    verifier = verifier or (model if routes.verifier == routes.generator else build_model(routes.verifier, settings))
    if derive_verifier and structured is not None:
        same = routes.verifier == routes.generator
        verifier_structured = (
            structured if same else build_structured_model(routes.verifier, verifier, knowledge.domains)
        )
    # SAGA's red team speaks with the verifier's model family (000 §5.3 Layer 2); with a model given
    # (tests), the given structured model answers it too, so a scripted verifier is never consumed.
    red_team = structured
    if built_here and structured is not None and verifier is not model:
        red_team = build_structured_model(routes.verifier, verifier, knowledge.domains)
    return _ModelRoles(model, verifier, structured, verifier_structured, red_team)


def _engine_stages(
    settings: Settings,
    roles: _ModelRoles,
    knowledge: ShippedKnowledge,
    uow_factory: UnitOfWorkFactory,
    clock: Clock,
    hkg: LazyHkgGrounding,
) -> EngineStages | None:
    """The creative engine's stages, or None without a structured model."""
    if roles.structured is None:
        return None
    verifier_structured = roles.verifier_structured
    return EngineStages(
        roles.structured,
        roles.model,
        knowledge.domains,
        EngineConfig(
            settings.engine_concurrency,
            settings.hypotheses_per_domain,
            RuntimeProfile(settings.search_profile),
            settings.search_depth,
        ),
        pool_reader(uow_factory),
        supervisor=Supervisor(
            roles.red_team,
            roles.verifier,
            knowledge.domains,
            pool_reader(uow_factory),
            patterns=PatternMemory(uow_factory, clock),
        ),
        verify=VerifyStage(verifier_structured, roles.verifier, concurrency=settings.engine_concurrency)
        if verifier_structured is not None
        else None,
        grounding=hkg,
        concept_spaces=load_concept_spaces(KNOWLEDGE_DIR),
        # the Transform Gate's logic check runs on the verifier role when it is another model
        verifier=verifier_structured if verifier_structured is not roles.structured else None,
    )


@dataclass
class AccountTools:
    """What the account commands of the CLI need: no model, no runs of their own."""

    engine: AsyncEngine
    accounts: AccountService
    usage: UserUsageService

    async def close(self) -> None:
        await self.engine.dispose()


def build_account_tools(settings: Settings, *, password_hasher: PasswordHasher | None = None) -> AccountTools:
    """Accounts and usage over the configured database, for `forge users|tokens|admin`. Leases of the
    server's runs are trusted until they expire (the server is another process)."""
    engine = create_engine_for(settings.database_url, pool_size=1, max_overflow=1)
    factory = create_session_factory(engine)

    def uow_factory() -> UnitOfWork:
        return SqlAlchemyUnitOfWork(factory)

    clock = SystemClock()
    runs = RunRegistry(clock, lease_seconds=settings.run_lease_seconds, trust_other_processes=True)
    accounts = AccountService(uow_factory, password_hasher or Argon2PasswordHasher(), clock, uuid.uuid4)
    return AccountTools(engine, accounts, UserUsageService(uow_factory, runs, clock, settings.user_limits))
