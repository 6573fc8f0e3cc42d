"""The composition root: the one place that builds adapters and wires them into services.

Invariants:
    - Nothing is built at import time; `build_container` does it, on demand, from Settings.
    - Tests build containers with their own adapters (a scripted model, a test database) through
      the same function's keyword overrides, never by patching globals.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from forge.config import Settings
from forge.core.session_spend import SpendBudget
from forge.db.engine import create_engine_for, create_session_factory
from forge.db.unit_of_work import SqlAlchemyUnitOfWork
from forge.ports import Clock, LanguageModel, ResearchProvider, UnitOfWork, UnitOfWorkFactory
from forge.services.drive_phase_run import PhaseRunDriver
from forge.services.in_process_runs import InProcessRuns
from forge.services.session_event_feed import EventNotifier, SessionEventFeed
from forge.services.session_service import SessionService

KNOWLEDGE_DIR = Path(__file__).resolve().parent / "knowledge"


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


@dataclass
class Container:
    settings: Settings
    engine: AsyncEngine
    service: SessionService
    runs: InProcessRuns
    model: LanguageModel
    research: ResearchProvider
    uow_factory: UnitOfWorkFactory

    async def database_ready(self) -> bool:
        try:
            async with self.engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        except Exception:
            return False
        return True

    async def close(self) -> None:
        await self.runs.shutdown()
        await self.engine.dispose()


def build_model(settings: Settings) -> LanguageModel:
    if settings.model == "offline":
        from forge.providers.offline.offline_model import OfflineModel

        return OfflineModel(KNOWLEDGE_DIR)
    raise ValueError(f"FORGE_MODEL={settings.model!r} is not available yet; use 'offline'.")


def build_research(settings: Settings) -> ResearchProvider:
    if settings.research == "local":
        from forge.research.local_corpus import LocalCorpusResearch, load_shipped_corpus

        return LocalCorpusResearch(load_shipped_corpus(KNOWLEDGE_DIR / "corpus"))
    raise ValueError(f"FORGE_RESEARCH={settings.research!r} is not available; use 'local'.")


def build_container(
    settings: Settings,
    *,
    model: LanguageModel | None = None,
    research: ResearchProvider | None = None,
    clock: Clock | None = None,
    new_id: Callable[[], UUID] = uuid.uuid4,
) -> Container:
    engine = create_engine_for(settings.database_url)
    factory = create_session_factory(engine)

    def uow_factory() -> UnitOfWork:
        return SqlAlchemyUnitOfWork(factory)

    model = model or build_model(settings)
    research = research or build_research(settings)
    clock = clock or SystemClock()
    notifier = EventNotifier()
    feed = SessionEventFeed(uow_factory, notifier, clock)
    runs = InProcessRuns(on_finish=notifier.notify)
    budget = SpendBudget(settings.budget_tokens, settings.budget_usd)
    driver = PhaseRunDriver(uow_factory, feed, model, research, clock, new_id, settings.max_iterations, budget)
    service = SessionService(uow_factory, feed, runs, driver, clock, new_id, model.label)
    return Container(settings, engine, service, runs, model, research, uow_factory)
