"""Pooled PostgreSQL connections are pinged at checkout only after sitting idle: a connection cut
while idle is replaced before anyone uses it; one cut moments after use fails one operation, after
which the pool reconnects."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine
from support.fresh_database import PG_ADMIN

from forge.db.engine import create_engine_for

pytestmark = pytest.mark.usefixtures("postgres_url")


async def backend_pid(engine: AsyncEngine) -> int:
    async with engine.connect() as connection:
        return int((await connection.execute(text("SELECT pg_backend_pid()"))).scalar_one())


@asynccontextmanager
async def pooled_connection_cut(
    postgres_url: str, ping_after_idle_seconds: float
) -> AsyncIterator[tuple[AsyncEngine, int]]:
    """An engine with one pooled connection, used once and then terminated by the server; and its pid."""
    engine = create_engine_for(
        postgres_url, pool_size=1, max_overflow=0, ping_after_idle_seconds=ping_after_idle_seconds
    )
    admin = await asyncpg.connect(PG_ADMIN)
    try:
        first = await backend_pid(engine)
        assert await admin.fetchval("SELECT pg_terminate_backend($1, 5000)", first)  # waits until it is gone
        yield engine, first
    finally:
        await admin.close()
        await engine.dispose()


async def test_a_connection_cut_while_idle_is_replaced_at_checkout(postgres_url: str) -> None:
    async with pooled_connection_cut(postgres_url, 0.0) as (engine, first):
        second = await backend_pid(engine)  # the ping found it gone: a new connection served this
        assert second != first


async def test_a_connection_cut_moments_after_use_fails_one_operation_then_the_pool_reconnects(
    postgres_url: str,
) -> None:
    async with pooled_connection_cut(postgres_url, 3600.0) as (engine, first):
        with pytest.raises(DBAPIError) as failed:
            await backend_pid(engine)  # not pinged: it was used moments ago
        assert failed.value.connection_invalidated
        assert await backend_pid(engine) != first
