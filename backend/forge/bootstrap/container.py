"""The application's parts, built by `build_container`: what the API, the CLI, the workers and the
run processes hold for as long as the process lives, and how they are started, warmed and closed.

Invariant: nothing here builds an adapter; `build_container` does, from Settings.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from forge.agent.curate_request import LiveCurationSettings
from forge.config import Settings
from forge.core.explore.library_records import ShippedKnowledge
from forge.db.postgres_event_notifications import PostgresEventListener
from forge.db.postgres_live_relay import PostgresLiveRelay
from forge.db.run_job_queue import QueueDepth, QueueProbe
from forge.observability.metrics import ForgeMetrics
from forge.ports import (
    Embedder,
    LanguageModel,
    ResearchProvider,
    UnitOfWorkFactory,
)
from forge.providers.token_counting import cl100k_encoding
from forge.run_processes.pool import RunProcessPool
from forge.services.account_service import AccountService
from forge.services.broadcast.session_broadcast import SessionBroadcaster
from forge.services.hypothesis_memory_service import HypothesisMemory
from forge.services.runs.drive_phase_run import PhaseRunDriver
from forge.services.runs.queued_run import QueuedRunExecutor
from forge.services.runs.registry import RunRegistry
from forge.services.session_service import SessionService
from forge.services.stages.search_grounding import LazyHkgGrounding
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
