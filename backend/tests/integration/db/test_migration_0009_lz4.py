"""Migration 0009: PostgreSQL compresses the large JSON columns with lz4; SQLite has nothing to change."""

from __future__ import annotations

import importlib.util
import logging
import uuid
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest
import sqlalchemy as sa
from alembic.migration import MigrationContext
from alembic.operations import Operations

from forge.core.domain_types import Phase, SessionId, SessionStatus
from forge.core.session.forge_state import ForgeState
from forge.core.session.record import SessionRecord
from forge.db.engine import create_session_factory
from forge.db.unit_of_work import SqlAlchemyUnitOfWork
from tests.integration.db.test_migrations import alembic, engine_for, schema_differences

AT = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
MIGRATION = Path(__file__).parents[3] / "forge/db/migrations/versions/0009_lz4_toast.py"


def migration_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("migration_0009", MIGRATION)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def large_state() -> ForgeState:
    """~60 kB of compressible JSON: well over PostgreSQL's ~2 kB threshold for compressing a value."""
    facts = [f"Fact {n}: stored summer heat is released in winter through the district network." for n in range(700)]
    return ForgeState(problem="How can cities store summer heat for winter?", fundamentals=facts)


async def add_session(url: str, state: ForgeState) -> SessionId:
    record = SessionRecord(
        SessionId(uuid.uuid4()), state.problem, SessionStatus.DECOMPOSING, Phase.DECOMPOSE, 0, AT, "m"
    )
    async with engine_for(url) as engine, SqlAlchemyUnitOfWork(create_session_factory(engine)) as uow:
        await uow.sessions.add(record, state)
        await uow.commit()
    return record.id


async def load_state(url: str, session_id: SessionId) -> ForgeState:
    async with engine_for(url) as engine, SqlAlchemyUnitOfWork(create_session_factory(engine)) as uow:
        return await uow.sessions.load_state(session_id)


async def column_methods(url: str) -> dict[tuple[str, str], str]:
    """pg_attribute.attcompression of each large column: 'l' lz4, 'p' pglz, '' the server's default."""
    query = sa.text(
        "SELECT c.relname, a.attname, CAST(a.attcompression AS text) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
        "WHERE (c.relname, a.attname) IN (SELECT * FROM unnest(CAST(:tables AS text[]), CAST(:columns AS text[])))"
    )
    pairs = migration_module().LARGE_COLUMNS
    parameters = {"tables": [t for t, _ in pairs], "columns": [c for _, c in pairs]}
    async with engine_for(url) as engine, engine.connect() as connection:
        rows = (await connection.execute(query, parameters)).all()
    return {(table, column): method for table, column, method in rows}


async def stored_method(url: str, session_id: SessionId) -> str | None:
    query = sa.text("SELECT pg_column_compression(forge_state) FROM sessions WHERE id = :id")
    async with engine_for(url) as engine, engine.connect() as connection:
        method: str | None = (await connection.execute(query, {"id": session_id})).scalar_one()
    return method


@pytest.mark.parametrize("fresh_database_url", ["postgresql"], indirect=True)
async def test_large_columns_are_written_with_lz4_and_old_values_stay_readable_both_ways(
    fresh_database_url: str,
) -> None:
    url, state = fresh_database_url, large_state()
    await alembic("upgrade", url, "0008")
    before = await add_session(url, state)
    method_before = await stored_method(url, before)  # the server's default_toast_compression: pglz unless set
    assert method_before is not None

    await alembic("upgrade", url, "head")
    pairs = migration_module().LARGE_COLUMNS
    assert await column_methods(url) == dict.fromkeys(pairs, "l")
    after = await add_session(url, state)
    assert await stored_method(url, after) == "lz4"
    assert await stored_method(url, before) == method_before  # recompressed only when next written
    assert await load_state(url, before) == state
    assert await load_state(url, after) == state
    assert await schema_differences(url) == []

    await alembic("downgrade", url, "0008")
    assert await column_methods(url) == dict.fromkeys(pairs, "p")
    assert await load_state(url, after) == state


@pytest.mark.parametrize("fresh_database_url", ["sqlite"], indirect=True)
async def test_sqlite_upgrades_and_downgrades_without_a_change(fresh_database_url: str) -> None:
    url, state = fresh_database_url, large_state()
    await alembic("upgrade", url, "head")
    session_id = await add_session(url, state)
    await alembic("downgrade", url, "0008")
    await alembic("upgrade", url, "head")
    assert await load_state(url, session_id) == state
    assert await schema_differences(url) == []


@pytest.mark.parametrize("fresh_database_url", ["postgresql"], indirect=True)
async def test_a_method_the_server_refuses_is_logged_and_leaves_the_columns_as_they_were(
    fresh_database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL 15 has no zstd for column values: the same path as a server built without lz4."""
    url = fresh_database_url
    await alembic("upgrade", url, "head")
    module = migration_module()

    def refused_then_still_usable(connection: sa.Connection) -> int:
        with Operations.context(MigrationContext.configure(connection)):
            module._set_compression("zstd")
        return connection.execute(sa.text("SELECT 1")).scalar_one()

    async with engine_for(url) as engine, engine.begin() as connection:
        with caplog.at_level(logging.WARNING, logger="alembic.runtime.migration"):
            assert await connection.run_sync(refused_then_still_usable) == 1
    assert "refused zstd compression" in caplog.text
    assert await column_methods(url) == dict.fromkeys(module.LARGE_COLUMNS, "l")
