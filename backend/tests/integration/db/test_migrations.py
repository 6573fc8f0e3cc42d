"""Migrations 0002 (the run model) and 0008 over data written before them, both ways, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.ext.asyncio import AsyncEngine

from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.llm.messages import Message, Role, TextPart, ToolCall, ToolResult
from forge.core.session.events import agent_text
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import SessionRecord, ToolCallEntry
from forge.core.session.state_codec import encode_state
from forge.db.engine import create_engine_for, create_session_factory
from forge.db.migrate import alembic_config
from forge.db.row_mapping import encode_message
from forge.db.run_job_queue import ours_in_autogenerate
from forge.db.tables import Base, MessageRow, SessionRow, UtcDateTime
from forge.db.unit_of_work import SqlAlchemyUnitOfWork

AT = datetime(2025, 3, 4, 5, 6, 7, 123456, tzinfo=UTC)
HISTORY = [
    Message(Role.USER, (TextPart("Solve it."),)),
    Message(Role.ASSISTANT, (TextPart("Searching."), ToolCall("call_1", "web_search", {"query": "heat"}))),
]
LATER = Message(Role.USER, (ToolResult("call_1", "3 hits"),))

SESSIONS_0001 = sa.table(
    "sessions",
    sa.column("id", sa.Uuid()),
    sa.column("problem", sa.Text()),
    sa.column("status", sa.String()),
    sa.column("current_phase", sa.Integer()),
    sa.column("current_round", sa.Integer()),
    sa.column("message_history", sa.JSON()),
    sa.column("total_tokens_used", sa.Integer()),
    sa.column("created_at", UtcDateTime()),
    sa.column("resolved_at", UtcDateTime()),
    sa.column("forge_state", sa.JSON()),
    sa.column("model_label", sa.String()),
    sa.column("total_cost_usd", sa.Float()),
    sa.column("awaiting_input_type", sa.String()),
    sa.column("running", sa.Boolean()),
)
SESSIONS_HEAD = SessionRow.__table__
EVENTS = sa.table(
    "session_events",
    sa.column("session_id", sa.Uuid()),
    sa.column("seq", sa.Integer()),
    sa.column("type", sa.String()),
    sa.column("data", sa.JSON()),
    sa.column("created_at", UtcDateTime()),
)


async def alembic(action: str, url: str, revision: str) -> None:
    """`alembic upgrade|downgrade <revision>` in a worker thread (env.py runs its own event loop)."""
    await asyncio.to_thread(getattr(command, action), alembic_config(url), revision)


@asynccontextmanager
async def engine_for(url: str) -> AsyncIterator[AsyncEngine]:
    engine = create_engine_for(url)
    try:
        yield engine
    finally:
        await engine.dispose()


def session_row(session_id: uuid.UUID, status: SessionStatus, history: list[Message]) -> dict[str, Any]:
    state = ForgeState(problem="How can cities store summer heat for winter?", current_phase=Phase.BUILD)
    return {
        "id": session_id,
        "problem": state.problem,
        "status": status.value,
        "current_phase": Phase.BUILD.ordinal,
        "current_round": 1,
        "message_history": [encode_message(m) for m in history],
        "total_tokens_used": 5,
        "created_at": AT,
        "resolved_at": AT if status == SessionStatus.CANCELLED else None,
        "forge_state": encode_state(state),
        "model_label": "fake-model",
        "total_cost_usd": 0.5,
        "awaiting_input_type": None,
        "running": True,
    }


async def seed_at_0001(url: str) -> tuple[SessionId, SessionId]:
    """A building session with 2 messages and 3 events, and a cancelled one with neither."""
    building, cancelled = SessionId(uuid.uuid4()), SessionId(uuid.uuid4())
    async with engine_for(url) as engine, engine.begin() as connection:
        await connection.execute(sa.insert(SESSIONS_0001), [session_row(building, SessionStatus.BUILDING, HISTORY)])
        await connection.execute(sa.insert(SESSIONS_0001), [session_row(cancelled, SessionStatus.CANCELLED, [])])
        events = [
            {"session_id": building, "seq": n, "type": "agent_text", "data": f"e{n}", "created_at": AT}
            for n in (1, 2, 3)
        ]
        await connection.execute(sa.insert(EVENTS), events)
    return building, cancelled


async def columns(url: str, table: Any, session_id: uuid.UUID, *names: str) -> tuple[Any, ...]:
    """The typed values of `names` in a sessions row; `table` is the sessions table of the revision."""
    query = sa.select(*(table.c[n] for n in names)).where(table.c.id == session_id)
    async with engine_for(url) as engine, engine.connect() as connection:
        return tuple((await connection.execute(query)).one())


async def message_rows(url: str, session_id: uuid.UUID) -> list[tuple[int, Any]]:
    query = sa.select(MessageRow.seq, MessageRow.message).where(MessageRow.session_id == session_id)
    async with engine_for(url) as engine, engine.connect() as connection:
        return [(row.seq, row.message) for row in await connection.execute(query.order_by(MessageRow.seq))]


async def schema_differences(url: str) -> list[Any]:
    async with engine_for(url) as engine, engine.connect() as connection:
        return await connection.run_sync(
            lambda sync: compare_metadata(
                MigrationContext.configure(sync, opts={"compare_type": True, "include_name": ours_in_autogenerate}),
                Base.metadata,
            )
        )


async def test_0002_moves_history_to_rows_counts_events_and_round_trips(fresh_database_url: str) -> None:
    url = fresh_database_url
    await alembic("upgrade", url, "0001")
    building, cancelled = await seed_at_0001(url)

    await alembic("upgrade", url, "head")
    assert await message_rows(url, building) == list(enumerate([encode_message(m) for m in HISTORY], 1))
    assert await columns(url, SESSIONS_HEAD, building, "message_count", "last_event_seq", "cancelled", "version") == (
        2,
        3,
        False,
        0,
    )
    assert await columns(url, SESSIONS_HEAD, cancelled, "message_count", "last_event_seq", "cancelled") == (0, 0, True)
    async with engine_for(url) as engine:
        factory = create_session_factory(engine)
        async with SqlAlchemyUnitOfWork(factory) as uow:
            record = await uow.sessions.get(building)
            assert await uow.sessions.load_messages(building) == HISTORY
            assert [e.data for e in await uow.events.after(building, 0)] == ["e1", "e2", "e3"]
            assert (await uow.events.append(building, agent_text("e4"), AT)).seq == 4
            await uow.sessions.append_messages(building, [LATER])
            await uow.commit()
    assert record is not None
    assert (record.status, record.cancelled, record.run_lease, record.total_tokens_used) == (
        SessionStatus.BUILDING,
        False,
        None,
        5,
    )
    assert await schema_differences(url) == []

    await alembic("downgrade", url, "0001")
    history, running = await columns(url, SESSIONS_0001, building, "message_history", "running")
    assert (history, running) == ([encode_message(m) for m in (*HISTORY, LATER)], False)
    assert await columns(url, SESSIONS_0001, cancelled, "message_history") == ([],)

    await alembic("upgrade", url, "head")
    async with engine_for(url) as engine, SqlAlchemyUnitOfWork(create_session_factory(engine)) as uow:
        assert await uow.sessions.load_messages(building) == [*HISTORY, LATER]
        assert await uow.events.last_seq(building) == 4
        assert (await uow.events.append(building, agent_text("e5"), AT)).seq == 5
    assert await columns(url, SESSIONS_HEAD, building, "message_count") == (3,)
    assert await schema_differences(url) == []


@pytest.mark.parametrize("fresh_database_url", ["postgresql"], indirect=True)
@pytest.mark.parametrize("table", ["session_events", "session_messages"])
async def test_row_ids_go_past_two_to_the_31_on_postgresql(fresh_database_url: str, table: str) -> None:
    """The id columns are BIGINT after 0002, and so must be the sequences that feed them."""
    url = fresh_database_url
    await alembic("upgrade", url, "head")
    async with engine_for(url) as engine:
        async with engine.begin() as connection:
            await connection.execute(sa.text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), {2**31 - 1})"))
        factory = create_session_factory(engine)
        session_id = SessionId(uuid.uuid4())
        state = ForgeState(problem="How can cities store summer heat for winter?")
        async with SqlAlchemyUnitOfWork(factory) as uow:
            record = SessionRecord(session_id, state.problem, SessionStatus.DECOMPOSING, Phase.DECOMPOSE, 0, AT, "m")
            await uow.sessions.add(record, state)
            await uow.events.append(session_id, agent_text("past 2^31"), AT)
            await uow.sessions.append_messages(session_id, HISTORY)
            await uow.commit()
        async with engine.connect() as connection:
            ids = (await connection.execute(sa.text(f"SELECT max(id) FROM {table}"))).scalar_one()
    assert ids >= 2**31


async def test_0008_counts_the_tool_calls_already_logged_and_leaves_the_digest_unknown(fresh_database_url: str) -> None:
    url = fresh_database_url
    await alembic("upgrade", url, "head")
    record = SessionRecord(SessionId(uuid.uuid4()), "Store heat?", SessionStatus.EXPLORING, Phase.EXPLORE, 0, AT, "m")
    calls = [ToolCallEntry(f"tool_{n}", {"n": n}, None, None, Phase.EXPLORE, AT) for n in range(3)]
    async with engine_for(url) as engine, SqlAlchemyUnitOfWork(create_session_factory(engine)) as uow:
        await uow.sessions.add(record, ForgeState(problem=record.problem))
        await uow.tool_calls.record_all(record.id, calls)
        await uow.commit()

    await alembic("downgrade", url, "0007")
    await alembic("upgrade", url, "head")
    assert await columns(url, SESSIONS_HEAD, record.id, "tool_call_count", "projection_digest") == (3, None)
    async with engine_for(url) as engine, SqlAlchemyUnitOfWork(create_session_factory(engine)) as uow:
        await uow.sessions.lock(record.id)
        await uow.tool_calls.record_all(record.id, calls[:1])
        await uow.commit()
        assert [entry.tool_name for entry in await uow.tool_calls.list_for(record.id)] == [
            *(c.tool_name for c in calls),
            "tool_0",
        ]
    assert await columns(url, SESSIONS_HEAD, record.id, "tool_call_count") == (4,)
    assert await schema_differences(url) == []
