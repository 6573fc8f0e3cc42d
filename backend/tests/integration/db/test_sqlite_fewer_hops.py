"""SQLite connections that run statements on the event loop's thread behave as stock aiosqlite does, and
never make the loop wait for another connection's lock."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from forge.db.engine import create_engine_for
from forge.db.sqlite_fewer_hops import FewerHopsConnection, install_fewer_hops


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


def _engine_waiting(url: str, seconds: float) -> AsyncEngine:
    made = create_async_engine(url, connect_args={"timeout": seconds})
    install_fewer_hops(made)
    return made


@contextlib.contextmanager
def _other_process_holding_the_writer(path: Path) -> Iterator[sqlite3.Connection]:
    """Another process's connection (its own sqlite3 connection) with the table made and the write
    lock taken before the engine opens any connection (the first statement of a new one is tested);
    its row is committed when it is given back, if the test did not commit it first."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        other.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
        other.execute("BEGIN IMMEDIATE")
        other.execute("INSERT INTO t (v) VALUES ('other')")
        yield other
    finally:
        if other.in_transaction:
            other.commit()
        other.close()


async def test_a_writer_locked_out_waits_off_the_event_loop_and_then_writes(tmp_path: Path) -> None:
    engine = _engine_waiting(f"sqlite+aiosqlite:///{tmp_path}/lock.db", 10.0)
    try:
        with _other_process_holding_the_writer(tmp_path / "lock.db") as other:
            ticks = 0

            async def release_after_ticks() -> None:  # runs only while the loop is free
                nonlocal ticks
                while ticks < 5:
                    await asyncio.sleep(0.01)
                    ticks += 1
                other.commit()

            async def write() -> None:
                async with engine.begin() as c:
                    await c.execute(text("INSERT INTO t (v) VALUES ('ours')"))

            async with asyncio.timeout(5):  # far below the busy timeout: a blocked loop would overrun it
                await asyncio.gather(write(), release_after_ticks())
        async with engine.connect() as c:
            assert (await c.execute(text("SELECT v FROM t ORDER BY id"))).scalars().all() == ["other", "ours"]
    finally:
        await engine.dispose()


async def test_a_writer_locked_out_past_the_busy_timeout_is_refused_and_writes_nothing(tmp_path: Path) -> None:
    engine = _engine_waiting(f"sqlite+aiosqlite:///{tmp_path}/lock.db", 0.05)
    try:
        with _other_process_holding_the_writer(tmp_path / "lock.db"), pytest.raises(OperationalError, match="locked"):
            async with engine.begin() as c:
                await c.execute(text("INSERT INTO t (v) VALUES ('ours')"))
        async with engine.connect() as c:
            assert (await c.execute(text("SELECT v FROM t"))).scalars().all() == ["other"]
    finally:
        await engine.dispose()


async def test_statements_and_their_commit_run_on_the_loops_thread(tmp_path: Path) -> None:
    engine = create_engine_for(f"sqlite+aiosqlite:///{tmp_path}/count.db")
    hops: list[str] = []

    @event.listens_for(engine.sync_engine, "connect")
    def _count_hops(dbapi_connection: Any, _record: Any) -> None:
        connection = dbapi_connection._connection
        assert isinstance(connection, FewerHopsConnection)
        original = connection._execute

        async def counted(function: Any, *args: Any, **kwargs: Any) -> Any:
            hops.append(getattr(args[0], "__name__", "") if args else function.__name__)
            return await original(function, *args, **kwargs)

        connection._execute = counted  # type: ignore[method-assign]

    try:
        async with engine.begin() as c:
            await c.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"))
        hops.clear()
        async with engine.begin() as c:
            await c.execute(text("INSERT INTO t (v) VALUES (:v)"), [{"v": "a"}, {"v": "b"}])
            assert (await c.execute(text("SELECT v FROM t ORDER BY id"))).scalars().all() == ["a", "b"]
            assert hops == []
        assert hops == []  # the COMMIT too: a hop would keep the write lock while other work ran
    finally:
        await engine.dispose()
