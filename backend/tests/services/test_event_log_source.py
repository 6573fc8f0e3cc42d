"""EventLogSource on a real SQLite log: the broadcaster replays and follows it, and waiting holds no connection."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from support.broadcast_streams import drain, until_waiting
from support.fixed_clock import FixedClock
from support.fresh_database import migrated_sqlite_url

from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.session import events as ev
from forge.core.session.events import SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import SessionRecord, StoredEvent
from forge.db.engine import create_engine_for, create_session_factory
from forge.db.unit_of_work import SqlAlchemyUnitOfWork
from forge.services.broadcast.event_log_source import EventLogSource
from forge.services.broadcast.session_broadcast import SessionBroadcaster

SID = SessionId(uuid.UUID(int=11))
CLOCK = FixedClock()


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    url = await migrated_sqlite_url(tmp_path, "events.db")
    engine = create_engine_for(url)
    factory = create_session_factory(engine)
    async with SqlAlchemyUnitOfWork(factory) as uow:
        record = SessionRecord(SID, "a problem text", SessionStatus.DECOMPOSING, Phase.DECOMPOSE, 0, CLOCK.now(), "m")
        await uow.sessions.add(record, ForgeState(problem="a problem text"))
        await uow.commit()
    yield engine
    await engine.dispose()


def source_of(engine: AsyncEngine) -> EventLogSource:
    factory = create_session_factory(engine)
    return EventLogSource(lambda: SqlAlchemyUnitOfWork(factory))


async def commit(factory: async_sessionmaker[AsyncSession], events: Sequence[SessionEvent]) -> list[StoredEvent]:
    async with SqlAlchemyUnitOfWork(factory) as uow:
        stored = [await uow.events.append(SID, event, CLOCK.now()) for event in events]
        await uow.commit()
    return stored


def texts(count: int) -> list[SessionEvent]:
    return [ev.agent_text(f"text {n}") for n in range(count)]


async def test_last_is_none_for_an_empty_log_and_the_latest_event_otherwise(engine: AsyncEngine) -> None:
    source = source_of(engine)
    assert await source.last(SID) is None
    stored = await commit(create_session_factory(engine), texts(3))
    assert await source.last(SID) == stored[-1]
    assert await source.after(SID, 1, 1) == stored[1:2]


async def test_followers_replay_and_follow_the_log_and_hold_no_connection_while_waiting(engine: AsyncEngine) -> None:
    factory = create_session_factory(engine)
    history = await commit(factory, texts(30))
    broadcaster = SessionBroadcaster(source_of(engine), buffer_size=8, page_size=5)
    streams = [broadcaster.follow(SID, n % 30, heartbeat_seconds=0.005) for n in range(0, 60, 3)]
    replayed = await asyncio.gather(*(until_waiting(stream) for stream in streams))
    assert replayed == [history[n % 30 :] for n in range(0, 60, 3)]
    assert engine.sync_engine.pool.checkedout() == 0

    later = await commit(factory, [*texts(2), ev.done(error=False, awaiting_input=True)])
    broadcaster.published(SID, later)
    ends = await asyncio.gather(*(drain(stream) for stream in streams))
    assert ends == [later] * len(streams)
    assert engine.sync_engine.pool.checkedout() == 0
