"""SQLite connections that run a statement in one thread hop behave as stock aiosqlite does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from forge.db.engine import create_engine_for
from forge.db.sqlite_fewer_hops import FewerHopsConnection


@pytest.fixture(params=["fewer_hops", "stock"])
async def engine(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    url = f"sqlite+aiosqlite:///{tmp_path}/hops.db"
    made = create_engine_for(url) if request.param == "fewer_hops" else create_async_engine(url)
    async with made.begin() as c:
        await c.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)"))
    yield made
    await made.dispose()


async def _outcomes(engine: AsyncEngine) -> list[Any]:
    """What a mix of statements returns: rows, counts, ids, RETURNING, executemany, streaming."""
    seen: list[Any] = []
    async with engine.begin() as c:
        inserted = await c.execute(text("INSERT INTO t (v) VALUES ('a')"))
        seen.append((inserted.rowcount, inserted.lastrowid))
        many = await c.execute(text("INSERT INTO t (v) VALUES (:v)"), [{"v": "b"}, {"v": "c"}, {"v": "d"}])
        seen.append(many.rowcount)
        returned = await c.execute(text("UPDATE t SET v = v || '!' WHERE id > 2 RETURNING id, v"))
        seen.append(sorted(returned.all()))
        seen.append((await c.execute(text("DELETE FROM t WHERE id = 4"))).rowcount)
        seen.append((await c.execute(text("SELECT id, v FROM t ORDER BY id"))).all())
        seen.append((await c.execute(text("SELECT id FROM t WHERE id > 99"))).first())
        seen.append(list((await c.execute(text("SELECT v FROM t ORDER BY id"))).keys()))
        streamed = await c.stream(text("SELECT id FROM t ORDER BY id"))
        seen.append([row async for row in streamed])
        partitioned = await c.stream(text("SELECT id FROM t ORDER BY id"))
        seen.append([list(p) async for p in partitioned.partitions(2)])
    return seen


async def test_results_are_those_of_stock_aiosqlite(engine: AsyncEngine, tmp_path: Path) -> None:
    stock = create_async_engine(f"sqlite+aiosqlite:///{tmp_path}/stock.db")
    async with stock.begin() as c:
        await c.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)"))
    try:
        assert await _outcomes(engine) == await _outcomes(stock)
    finally:
        await stock.dispose()


async def test_a_constraint_violation_is_an_integrity_error_and_rolls_back(engine: AsyncEngine) -> None:
    with pytest.raises(IntegrityError, match="UNIQUE"):
        async with engine.begin() as c:
            await c.execute(text("INSERT INTO t (v) VALUES ('same')"))
            await c.execute(text("INSERT INTO t (v) VALUES ('same')"))
    async with engine.connect() as c:
        assert (await c.execute(text("SELECT count(*) FROM t"))).scalar() == 0


async def test_a_syntax_error_is_an_operational_error(engine: AsyncEngine) -> None:
    async with engine.connect() as c:
        with pytest.raises(OperationalError, match="syntax error"):
            await c.execute(text("SELEKT 1"))
        assert (await c.execute(text("SELECT 2"))).scalar() == 2  # the connection is still usable


async def test_a_second_writer_waits_for_the_first_and_then_sees_its_row(tmp_path: Path) -> None:
    engine = create_engine_for(f"sqlite+aiosqlite:///{tmp_path}/lock.db")
    try:
        async with engine.begin() as c:
            await c.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"))
        first = await engine.connect()
        await first.exec_driver_sql("BEGIN IMMEDIATE")
        await first.execute(text("INSERT INTO t (v) VALUES ('first')"))
        async with engine.connect() as second:
            with pytest.raises(OperationalError, match="locked"):
                await second.exec_driver_sql("PRAGMA busy_timeout=50")
                await second.exec_driver_sql("BEGIN IMMEDIATE")
        await first.commit()
        await first.close()
        async with engine.connect() as c:
            assert (await c.execute(text("SELECT v FROM t"))).scalars().all() == ["first"]
    finally:
        await engine.dispose()


async def test_a_statement_is_one_hop_to_the_connections_thread(tmp_path: Path) -> None:
    engine = create_engine_for(f"sqlite+aiosqlite:///{tmp_path}/count.db")
    hops: list[str] = []

    @event.listens_for(engine.sync_engine, "connect")
    def _count_hops(dbapi_connection: Any, _record: Any) -> None:
        connection = dbapi_connection._connection
        assert isinstance(connection, FewerHopsConnection)
        original = connection._execute

        async def counted(*args: Any, **kwargs: Any) -> Any:
            hops.append("hop")
            return await original(*args, **kwargs)

        connection._execute = counted  # type: ignore[method-assign]

    try:
        async with engine.connect() as c:
            await c.execute(text("SELECT 1"))
            hops.clear()
            assert (await c.execute(text("SELECT 1 UNION ALL SELECT 2"))).scalars().all() == [1, 2]
            assert len(hops) == 1
    finally:
        await engine.dispose()
