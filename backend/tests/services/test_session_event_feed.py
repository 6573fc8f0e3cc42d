"""The event feed: heartbeats while a run is quiet, live follow without lost wake-ups, end when idle."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncEngine
from support.fixed_clock import FixedClock

from forge.core import session_events as ev
from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.forge_state import ForgeState
from forge.core.session_record import SessionRecord
from forge.db.engine import create_engine_for, create_session_factory
from forge.db.migrate import upgrade_database
from forge.db.unit_of_work import SqlAlchemyUnitOfWork
from forge.services.session_event_feed import EventNotifier, Heartbeat, SessionEventFeed

SID = SessionId(uuid.UUID(int=7))


async def _feed(tmp_path: Path) -> tuple[SessionEventFeed, EventNotifier, AsyncEngine]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'feed.db'}"
    await upgrade_database(url)
    engine = create_engine_for(url)
    factory = create_session_factory(engine)
    notifier = EventNotifier()
    feed = SessionEventFeed(lambda: SqlAlchemyUnitOfWork(factory), notifier, FixedClock())
    async with SqlAlchemyUnitOfWork(factory) as uow:
        record = SessionRecord(
            SID, "a problem text", SessionStatus.DECOMPOSING, Phase.DECOMPOSE, 0, FixedClock().now(), "test"
        )
        await uow.sessions.add(record, ForgeState(problem="a problem text"))
        await uow.commit()
    return feed, notifier, engine


async def test_follow_yields_heartbeats_while_running_then_live_events_then_ends(tmp_path: Path) -> None:
    feed, notifier, engine = await _feed(tmp_path)
    running = True
    received: list[object] = []

    async def consume() -> None:
        async for item in feed.follow(SID, 0, lambda: running, heartbeat_seconds=0.05):
            received.append(item)

    task = asyncio.create_task(consume())
    await asyncio.sleep(0.12)
    await feed.publish(SID, ev.agent_text("hello"))
    await feed.publish(SID, ev.done(error=False, awaiting_input=True))
    running = False
    await notifier.notify(SID)  # the run registry does this when a run ends
    await asyncio.wait_for(task, 2)
    await engine.dispose()
    heartbeats = [r for r in received if isinstance(r, Heartbeat)]
    events = [r for r in received if not isinstance(r, Heartbeat)]
    assert heartbeats and all(h.last_seq == 0 for h in heartbeats)
    assert [e.seq for e in events] == [1, 2]  # type: ignore[attr-defined]


async def test_follow_of_an_idle_session_replays_after_the_cursor_and_ends(tmp_path: Path) -> None:
    feed, _, engine = await _feed(tmp_path)
    for i in range(4):
        await feed.publish(SID, ev.agent_text(f"event {i}"))
    replayed = [item async for item in feed.follow(SID, 2, lambda: False)]
    await engine.dispose()
    assert [e.seq for e in replayed] == [3, 4]  # type: ignore[union-attr]
