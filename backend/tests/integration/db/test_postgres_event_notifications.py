"""LISTEN/NOTIFY between API processes: payloads, DSNs, and listeners on a real PostgreSQL server.

Every PostgreSQL test runs against a throwaway database (notifications are per database). Each
"process" is one PostgresEventListener; waits are on what the callbacks received, under a liveness
guard, never on time.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from support.broadcast_streams import LIVENESS, take_each
from support.fixed_clock import FixedClock
from support.fresh_database import PG_ADMIN, fresh_database_url

from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.llm.backoff_schedule import RetryPolicy
from forge.core.session import events as ev
from forge.core.session.events import SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import SessionRecord, StoredEvent
from forge.db.engine import create_engine_for, create_session_factory
from forge.db.migrate import upgrade_database
from forge.db.postgres_event_notifications import (
    NOTIFY_CHANNEL,
    PostgresEventListener,
    asyncpg_dsn,
    encode_payload,
    notify_statement,
    parse_payload,
)
from forge.db.repositories import SqlEventLog
from forge.db.unit_of_work import SqlAlchemyUnitOfWork
from forge.services.broadcast.event_log_source import EventLogSource
from forge.services.broadcast.session_broadcast import SessionBroadcaster

pytestmark = pytest.mark.postgres
SID = SessionId(uuid.UUID(int=21))
FAST_RECONNECT = RetryPolicy(base_delay_s=0.05, max_delay_s=0.2)
CLOCK = FixedClock()

# ---- payloads and DSNs (pure) -------------------------------------------------------------------


def test_a_payload_carries_the_session_and_last_seq_both_ways() -> None:
    assert encode_payload(SID, 42) == f"{SID}:42"
    assert parse_payload(encode_payload(SID, 42)) == (SID, 42)


@pytest.mark.parametrize("garbage", ["", "hello", f"{SID}", f"{SID}:", f"{SID}:-1", f"{SID}:x", "nope:3", f"{SID}:3:4"])
def test_a_payload_that_is_not_ours_parses_to_none(garbage: str) -> None:
    assert parse_payload(garbage) is None


@pytest.mark.parametrize(
    ("url", "dsn"),
    [
        (
            "postgresql+asyncpg://forge:s%40cret@db.example:5433/forge",
            "postgresql://forge:s%40cret@db.example:5433/forge",
        ),
        ("postgresql://postgres@127.0.0.1/forge", "postgresql://postgres@127.0.0.1/forge"),
        (
            "postgresql+asyncpg://u@h/d?ssl=require&prepared_statement_cache_size=0&command_timeout=5",
            "postgresql://u@h/d?sslmode=require",
        ),
    ],
)
def test_the_asyncpg_dsn_keeps_the_server_and_credentials_and_drops_driver_arguments(url: str, dsn: str) -> None:
    assert asyncpg_dsn(url) == dsn


def test_a_non_postgresql_url_has_no_listener_dsn() -> None:
    with pytest.raises(ValueError, match="PostgreSQL"):
        asyncpg_dsn("sqlite+aiosqlite:///forge.db")


# ---- a throwaway database and what listeners receive -----------------------------------------------


async def _admin(sql: str, *args: object) -> object:
    try:
        connection = await asyncpg.connect(PG_ADMIN)
    except OSError as error:
        pytest.fail(f"PostgreSQL is not reachable at {PG_ADMIN} ({error}); start it with scripts/ensure_postgres.sh.")
    try:
        return await connection.fetchval(sql, *args)
    finally:
        await connection.close()


@pytest.fixture
async def pg_url(tmp_path: Path) -> AsyncIterator[str]:
    async with fresh_database_url("postgresql", tmp_path, prefix="forge_notify") as url:
        yield url


@pytest.fixture
async def engine(pg_url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine_for(pg_url)
    yield engine
    await engine.dispose()


class Inbox:
    """What one listener's callbacks received (optionally raising after recording), and a wake-up."""

    def __init__(self, *, failing: bool = False) -> None:
        self.commits: list[tuple[SessionId, int]] = []
        self.reconnects = 0
        self._failing = failing
        self._changed = asyncio.Event()

    def on_commit(self, session_id: SessionId, last_seq: int) -> None:
        self.commits.append((session_id, last_seq))
        self._wake()

    def on_reconnect(self) -> None:
        self.reconnects += 1
        self._wake()

    async def until(self, *, commits: int = 0, reconnects: int = 0) -> None:
        async with asyncio.timeout(LIVENESS):
            while len(self.commits) < commits or self.reconnects < reconnects:
                await self._changed.wait()

    def _wake(self) -> None:
        woken, self._changed = self._changed, asyncio.Event()
        woken.set()
        if self._failing:
            raise RuntimeError("a bug in the callback")


def listener(pg_url: str, inbox: Inbox, name: str) -> PostgresEventListener:
    return PostgresEventListener(
        asyncpg_dsn(pg_url), inbox.on_commit, inbox.on_reconnect, reconnect=FAST_RECONNECT, application_name=name
    )


async def notify(engine: AsyncEngine, last_seq: int, *, commit: bool, payload: str | None = None) -> None:
    async with engine.connect() as connection:
        if payload is None:
            await connection.execute(notify_statement(SID, last_seq))
        else:
            await connection.execute(text("SELECT pg_notify(:c, :p)"), {"c": NOTIFY_CHANNEL, "p": payload})
        await (connection.commit() if commit else connection.rollback())


async def test_every_listening_process_receives_a_committed_notify_and_none_from_a_rollback(
    pg_url: str, engine: AsyncEngine
) -> None:
    inboxes = [Inbox(), Inbox()]
    listeners = [listener(pg_url, inbox, f"listener-{n}") for n, inbox in enumerate(inboxes)]
    for started in listeners:
        await started.start()
    try:
        assert all(started.listening for started in listeners)
        await notify(engine, 1, commit=False)
        await notify(engine, 0, commit=True, payload="not one of ours")
        await notify(engine, 2, commit=True)
        for inbox in inboxes:
            await inbox.until(commits=1)
            assert inbox.commits == [(SID, 2)]  # delivered in commit order: nothing came before
            assert inbox.reconnects == 0
    finally:
        for started in listeners:
            await started.stop()


async def _kill(application_name: str) -> None:
    terminated = await _admin(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1", application_name
    )
    assert terminated == 1


async def test_a_listener_whose_connection_is_killed_reconnects_and_says_so(pg_url: str, engine: AsyncEngine) -> None:
    killed, kept = Inbox(), Inbox()
    listeners = [listener(pg_url, killed, "listener-killed"), listener(pg_url, kept, "listener-kept")]
    for started in listeners:
        await started.start()
    try:
        await _kill("listener-killed")
        await killed.until(reconnects=1)
        await notify(engine, 3, commit=True)
        await killed.until(commits=1)
        await kept.until(commits=1)
        assert (killed.commits, kept.commits, kept.reconnects) == ([(SID, 3)], [(SID, 3)], 0)
    finally:
        for started in listeners:
            await started.stop()
    assert not any(stopped.listening for stopped in listeners)


async def test_callbacks_that_raise_are_logged_and_the_listener_keeps_listening(
    pg_url: str, engine: AsyncEngine, caplog: pytest.LogCaptureFixture
) -> None:
    inbox = Inbox(failing=True)
    started = listener(pg_url, inbox, "listener-failing")
    await started.start()
    try:
        await notify(engine, 1, commit=True)
        await inbox.until(commits=1)
        await _kill("listener-failing")
        await inbox.until(reconnects=1)
        await notify(engine, 2, commit=True)
        await inbox.until(commits=2)
        assert inbox.commits == [(SID, 1), (SID, 2)] and started.listening
    finally:
        await started.stop()
    failures = [r.getMessage() for r in caplog.records if r.name == "forge.db.postgres_event_notifications"]
    assert [m for m in failures if "callback" in m] == [
        "event listener callback on_commit failed",
        "event listener callback on_reconnect failed",
        "event listener callback on_commit failed",
    ]


async def test_an_unreachable_server_neither_raises_nor_blocks_start_and_stop() -> None:
    inbox = Inbox()
    unreachable = PostgresEventListener(
        "postgresql://postgres@127.0.0.1:1/forge", inbox.on_commit, inbox.on_reconnect, reconnect=FAST_RECONNECT
    )
    await unreachable.start()
    assert not unreachable.listening
    await unreachable.stop()
    assert (inbox.commits, inbox.reconnects) == ([], 0)


# ---- two API processes: broadcaster + listener each, one database ---------------------------------


class CountingSource:
    def __init__(self, source: EventLogSource) -> None:
        self._source = source
        self.reads = 0

    async def after(self, session_id: SessionId, after_seq: int, limit: int) -> list[StoredEvent]:
        self.reads += 1
        return await self._source.after(session_id, after_seq, limit)

    async def last(self, session_id: SessionId) -> StoredEvent | None:
        self.reads += 1
        return await self._source.last(session_id)


async def commit_and_notify(
    factory: async_sessionmaker[AsyncSession], events: Sequence[SessionEvent]
) -> list[StoredEvent]:
    """What a committing service does: append, NOTIFY in the same transaction, commit."""
    async with factory() as session:
        log = SqlEventLog(session)
        stored = [await log.append(SID, event, CLOCK.now()) for event in events]
        await session.execute(notify_statement(SID, stored[-1].seq))
        await session.commit()
    return stored


async def test_events_committed_by_one_process_reach_the_followers_of_another_with_one_read(
    pg_url: str, engine: AsyncEngine
) -> None:
    await upgrade_database(pg_url)
    factory = create_session_factory(engine)
    async with SqlAlchemyUnitOfWork(factory) as uow:
        record = SessionRecord(SID, "a problem text", SessionStatus.DECOMPOSING, Phase.DECOMPOSE, 0, CLOCK.now(), "m")
        await uow.sessions.add(record, ForgeState(problem="a problem text"))
        await uow.commit()
    source = CountingSource(EventLogSource(lambda: SqlAlchemyUnitOfWork(factory)))
    other_process = SessionBroadcaster(source)
    other_listener = PostgresEventListener(
        asyncpg_dsn(pg_url), other_process.committed_elsewhere, other_process.resync, reconnect=FAST_RECONNECT
    )
    await other_listener.start()
    try:
        first = await commit_and_notify(factory, [ev.agent_text("before anyone follows")])
        streams = [other_process.follow(SID, 0) for _ in range(20)]
        assert await take_each(streams, 1) == [first] * 20
        reads = source.reads
        later = await commit_and_notify(factory, [ev.agent_text("a"), ev.agent_text("b")])
        assert await take_each(streams, 2) == [later] * 20
        assert source.reads == reads + 1
    finally:
        await other_listener.stop()
        await other_process.close()


async def test_events_appended_under_the_lock_are_announced_by_the_rows_update_at_commit(
    pg_url: str, engine: AsyncEngine
) -> None:
    """Under the lock the NOTIFY rides the row's UPDATE (or the commit's counter write); without
    it, its own statement; a rollback announces nothing."""
    await upgrade_database(pg_url)
    factory = create_session_factory(engine)
    state = ForgeState(problem="a problem text")
    async with SqlAlchemyUnitOfWork(factory) as uow:
        record = SessionRecord(SID, "a problem text", SessionStatus.DECOMPOSING, Phase.DECOMPOSE, 0, CLOCK.now(), "m")
        await uow.sessions.add(record, state)
        await uow.commit()
    inbox = Inbox()
    started = listener(pg_url, inbox, "listener-uow")
    await started.start()
    try:
        async with SqlAlchemyUnitOfWork(factory) as uow:
            await uow.sessions.lock(SID)
            await uow.events.append_all(SID, [ev.agent_text("lost")], CLOCK.now())
            await uow.sessions.save_state(SID, state, at=CLOCK.now(), cancelled=False)
            await uow.rollback()
        async with SqlAlchemyUnitOfWork(factory) as uow:  # with the state's UPDATE
            await uow.sessions.lock(SID)
            await uow.events.append_all(SID, [ev.agent_text("a"), ev.agent_text("b")], CLOCK.now())
            await uow.sessions.save_state(SID, state, at=CLOCK.now(), cancelled=False)
            await uow.commit()
        async with SqlAlchemyUnitOfWork(factory) as uow:  # after the last UPDATE: the commit writes it
            await uow.sessions.lock(SID)
            await uow.sessions.save_state(SID, state, at=CLOCK.now(), cancelled=False)
            await uow.events.append_all(SID, [ev.agent_text("c")], CLOCK.now())
            await uow.commit()
        async with SqlAlchemyUnitOfWork(factory) as uow:  # not locked
            await uow.events.append_all(SID, [ev.agent_text("d")], CLOCK.now())
            await uow.commit()
        await inbox.until(commits=3)
        assert inbox.commits == [(SID, 2), (SID, 3), (SID, 4)]
    finally:
        await started.stop()
