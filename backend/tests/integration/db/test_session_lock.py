"""The session write lock and event seq allocation under real concurrency, on SQLite and PostgreSQL.

These tests need commits that other connections see, so they use `committed_db` (a conftest
`Database` over a migrated database of their own) instead of the rolled-back transaction of
the contract suite.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest
from sqlalchemy import make_url

from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.session.events import agent_text
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import SessionRecord, StoredEvent
from forge.db.postgres_event_notifications import NOTIFY_CHANNEL

AT = datetime(2025, 3, 4, 5, 6, 7, tzinfo=UTC)
WAIT = 30  # seconds any one scenario may take before it counts as a deadlock
BLOCKED_FOR = 0.5  # how long the second transaction must stay blocked on the first one's lock


async def add_session(db: Any) -> SessionId:
    session_id = SessionId(uuid.uuid4())
    record = SessionRecord(
        session_id,
        "How can cities store summer heat for winter?",
        SessionStatus.DECOMPOSING,
        Phase.DECOMPOSE,
        0,
        AT,
        "m",
    )
    async with db.uow() as uow:
        await uow.sessions.add(record, ForgeState(problem=record.problem))
        await uow.commit()
    return session_id


async def test_a_second_lock_waits_for_the_first_commit_and_continues_its_seqs(committed_db: Any) -> None:
    db = committed_db
    session_id = await add_session(db)
    first_holds_the_lock, release_first = asyncio.Event(), asyncio.Event()
    order: list[str] = []

    async def first() -> tuple[SessionRecord | None, list[StoredEvent]]:
        async with db.uow() as uow:
            locked = await uow.sessions.lock(session_id)
            stored = await uow.events.append_all(session_id, [agent_text("a1"), agent_text("a2")], AT)
            first_holds_the_lock.set()
            await release_first.wait()
            order.append("first commits")
            await uow.commit()
            return locked, stored

    async def second() -> tuple[SessionRecord | None, list[StoredEvent], list[StoredEvent]]:
        await first_holds_the_lock.wait()
        async with db.uow() as uow:
            order.append("second locks")
            locked = await uow.sessions.lock(session_id)
            order.append("second holds the lock")
            seen = await uow.events.after(session_id, 0)
            stored = await uow.events.append_all(session_id, [agent_text("b1"), agent_text("b2")], AT)
            await uow.commit()
            return locked, seen, stored

    first_task, second_task = asyncio.create_task(first()), asyncio.create_task(second())
    try:
        await asyncio.wait_for(first_holds_the_lock.wait(), WAIT)
        await asyncio.sleep(BLOCKED_FOR)
        assert order == ["second locks"], "the second transaction got the lock while the first held it"
        assert not second_task.done()
        release_first.set()
        (first_locked, first_events), (second_locked, second_saw, second_events) = await asyncio.wait_for(
            asyncio.gather(first_task, second_task), WAIT
        )
    finally:
        release_first.set()
        for task in (first_task, second_task):
            task.cancel()
    assert order == ["second locks", "first commits", "second holds the lock"]
    assert first_locked is not None and second_locked is not None
    assert (first_locked.version, second_locked.version) == (1, 2)
    assert [e.seq for e in first_events] == [1, 2]
    assert second_saw == first_events
    assert [e.seq for e in second_events] == [3, 4]
    async with db.uow() as uow:
        everything = await uow.events.after(session_id, 0)
        assert await uow.events.last_seq(session_id) == 4
        record = await uow.sessions.get(session_id)
    assert [(e.seq, e.data) for e in everything] == [(1, "a1"), (2, "a2"), (3, "b1"), (4, "b2")]
    assert record is not None and record.version == 2


@pytest.mark.parametrize("lock_first", [False, True], ids=["append-only", "lock-then-append"])
async def test_concurrent_append_transactions_get_exactly_the_seqs_one_to_n(
    committed_db: Any, lock_first: bool
) -> None:
    db = committed_db
    session_id, other_id = await add_session(db), await add_session(db)
    transactions, per_transaction = 20, 2

    async def append(n: int) -> list[StoredEvent]:
        async with db.uow() as uow:
            if lock_first:
                assert await uow.sessions.lock(session_id) is not None
            stored = await uow.events.append_all(
                session_id, [agent_text(f"{n}:{i}") for i in range(per_transaction)], AT
            )
            await asyncio.sleep(0)  # let the others queue up behind this transaction's lock
            await uow.commit()
            return stored

    results = await asyncio.wait_for(asyncio.gather(*(append(n) for n in range(transactions))), WAIT)
    total = transactions * per_transaction
    assert sorted(e.seq for stored in results for e in stored) == list(range(1, total + 1))
    for n, stored in enumerate(results):
        first = stored[0].seq
        assert [(e.seq, e.data) for e in stored] == [(first + i, f"{n}:{i}") for i in range(per_transaction)]
    async with db.uow() as uow:
        read = await uow.events.after(session_id, 0, limit=total + 10)
        assert await uow.events.last_seq(session_id) == total
        assert await uow.events.last_seq(other_id) == 0
        record = await uow.sessions.get(session_id)
    assert [e.seq for e in read] == list(range(1, total + 1))
    assert record is not None and record.version == (transactions if lock_first else 0)


@pytest.mark.parametrize("migrated_database_url", ["postgresql"], indirect=True)
async def test_committed_appends_notify_their_last_seq_and_rolled_back_ones_do_not(
    committed_db: Any, migrated_database_url: str
) -> None:
    db = committed_db
    session_id = await add_session(db)
    payloads: asyncio.Queue[str] = asyncio.Queue()
    dsn = make_url(migrated_database_url).set(drivername="postgresql").render_as_string(hide_password=False)
    listener = await asyncpg.connect(dsn)
    try:
        await listener.add_listener(NOTIFY_CHANNEL, lambda *args: payloads.put_nowait(args[-1]))
        async with db.uow() as uow:
            await uow.events.append_all(session_id, [agent_text("1"), agent_text("2"), agent_text("3")], AT)
            await uow.commit()
        assert await asyncio.wait_for(payloads.get(), WAIT) == f"{session_id}:3"
        async with db.uow() as uow:
            await uow.events.append(session_id, agent_text("rolled back"), AT)
        async with db.uow() as uow:
            await uow.events.append(session_id, agent_text("4"), AT)
            await uow.commit()
        assert await asyncio.wait_for(payloads.get(), WAIT) == f"{session_id}:4"
        await asyncio.sleep(0.2)
        assert payloads.empty()
    finally:
        await listener.close()
