"""Migration 0006 (accounts) over data written at 0004, both ways, on SQLite and PostgreSQL: existing
sessions and remembered hypotheses come to belong to the built-in local user."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import command

from forge.core.accounts.users import LOCAL_USER_ID
from forge.core.domain_types import Phase
from forge.core.session.forge_state import ForgeState
from forge.core.session.state_codec import encode_state
from forge.db.engine import create_engine_for
from forge.db.migrate import alembic_config
from forge.db.tables import HypothesisMemoryRow, SessionRow, UtcDateTime

AT = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
SESSIONS_0004 = sa.table(
    "sessions",
    *(
        sa.column(c.name, UtcDateTime() if c.name.endswith("_at") else c.type)
        for c in SessionRow.__table__.c
        if c.name != "owner_id"
    ),
)
MEMORY_0004 = sa.table(
    "hypothesis_memory",
    *(
        sa.column(c.name, UtcDateTime() if c.name.endswith("_at") else c.type)
        for c in HypothesisMemoryRow.__table__.c
        if c.name != "owner_id"
    ),
)


async def _alembic(action: str, url: str, revision: str) -> None:
    await asyncio.to_thread(getattr(command, action), alembic_config(url), revision)


async def _execute(url: str, *statements: sa.Executable) -> list[sa.Row[tuple[object, ...]]]:
    engine = create_engine_for(url)
    rows: list[sa.Row[tuple[object, ...]]] = []
    try:
        async with engine.begin() as connection:
            for statement in statements:
                result = await connection.execute(statement)
                rows = list(result.all()) if result.returns_rows else rows
    finally:
        await engine.dispose()
    return rows


def _session_values(session_id: uuid.UUID) -> dict[str, object]:
    state = ForgeState(problem="How can cities store summer heat for winter?")
    return {
        "id": session_id,
        "problem": state.problem,
        "status": "decomposing",
        "current_phase": Phase.DECOMPOSE.ordinal,
        "current_round": 0,
        "total_tokens_used": 0,
        "created_at": AT,
        "resolved_at": None,
        "forge_state": encode_state(state),
        "model_label": "m",
        "total_cost_usd": 0.25,
        "awaiting_input_type": None,
        "cancelled": False,
        "version": 0,
        "last_event_seq": 0,
        "message_count": 0,
        "run_owner": None,
        "run_lease_expires_at": None,
    }


async def test_0006_gives_existing_rows_to_the_local_user_and_round_trips(fresh_database_url: str) -> None:
    url, session_id, memory_id = fresh_database_url, uuid.uuid4(), uuid.uuid4()
    await _alembic("upgrade", url, "0004")
    memory = {
        "id": memory_id,
        "text": "t",
        "c": 0.5,
        "origin_session_id": session_id,
        "record": {},
        "created_at": AT,
        "updated_at": AT,
    }
    await _execute(
        url, sa.insert(SESSIONS_0004).values(_session_values(session_id)), sa.insert(MEMORY_0004).values(memory)
    )

    await _alembic("upgrade", url, "head")
    owners = await _execute(
        url,
        sa.select(SessionRow.owner_id).union_all(sa.select(HypothesisMemoryRow.owner_id)),
    )
    assert [row[0] for row in owners] == [LOCAL_USER_ID, LOCAL_USER_ID]

    await _alembic("downgrade", url, "0004")
    kept = await _execute(url, sa.select(SESSIONS_0004.c.id, SESSIONS_0004.c.total_cost_usd))
    assert [tuple(r) for r in kept] == [(session_id, 0.25)]
    await _alembic("upgrade", url, "head")
    assert [r[0] for r in await _execute(url, sa.select(SessionRow.owner_id))] == [LOCAL_USER_ID]
