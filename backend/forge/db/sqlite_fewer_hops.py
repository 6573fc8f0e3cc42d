"""aiosqlite with one worker-thread hop per statement, for SQLAlchemy's aiosqlite dialect.

aiosqlite runs every sqlite3 call on the connection's own thread and hands the result back to the
event loop (a queue put, a thread wake-up, `call_soon_threadsafe`, a self-pipe wake-up of the loop).
SQLAlchemy's adapter makes four such calls per statement: create the cursor, execute, fetch the rows,
close the cursor. `PrefetchingCursor` does all four in one call on the thread and keeps the rows:
an in-process probe of small transactions used ~20-35% less CPU, and the loop and the thread hand
the GIL back and forth a quarter as often.

Invariants:
    - The same sqlite3 calls, on the same thread, in the same order as aiosqlite makes them, so
      results, errors (sqlite3's exceptions, which SQLAlchemy maps as before), locking and
      transactions are unchanged; only the number of thread hops differs.
    - A statement's rows are fetched in full before `execute` returns (as SQLAlchemy's adapter does
      for every cursor that is not server-side); a server-side cursor reads them from memory too.
    - `description`, `rowcount` and `lastrowid` are those of the statement's sqlite3 cursor (they are
      kept after it is closed).

Design decision: installed per connection through the dialect's `async_creator_fn` hook
(`install_fewer_hops`, a `do_connect` listener), so SQLAlchemy's connect arguments reach sqlite3
unchanged and nothing of SQLAlchemy or aiosqlite is patched.
"""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any

import aiosqlite
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

_ITER_CHUNK_SIZE = 64  # aiosqlite's default; used only by its own cursors' async iteration


class PrefetchingCursor:
    """The part of aiosqlite's Cursor that SQLAlchemy's adapter uses, one hop per statement."""

    def __init__(self, connection: FewerHopsConnection) -> None:
        self._connection = connection
        self._cursor: sqlite3.Cursor | None = None
        self._rows: deque[Any] = deque()
        self.arraysize = 1

    async def __aenter__(self) -> PrefetchingCursor:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def execute(self, sql: str, parameters: Any = None) -> PrefetchingCursor:
        self._cursor, rows = await self._connection.run_statement(sql, parameters, many=False)
        self._rows = deque(rows)
        return self

    async def executemany(self, sql: str, parameters: Any) -> PrefetchingCursor:
        self._cursor, rows = await self._connection.run_statement(sql, parameters, many=True)
        self._rows = deque(rows)
        return self

    @property
    def description(self) -> Any:
        return None if self._cursor is None else self._cursor.description

    @property
    def rowcount(self) -> int:
        return -1 if self._cursor is None else self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return None if self._cursor is None else self._cursor.lastrowid

    async def fetchone(self) -> Any:
        return self._rows.popleft() if self._rows else None

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        count = min(self.arraysize if size is None else size, len(self._rows))
        return [self._rows.popleft() for _ in range(count)]

    async def fetchall(self) -> list[Any]:
        rows, self._rows = list(self._rows), deque()
        return rows

    async def close(self) -> None:
        self._rows.clear()  # the sqlite3 cursor was closed on the thread, after its rows were read


class FewerHopsConnection(aiosqlite.Connection):
    """An aiosqlite connection whose cursors run a whole statement in one hop."""

    def __init__(self, connector: Callable[[], sqlite3.Connection]) -> None:
        super().__init__(connector, _ITER_CHUNK_SIZE)
        self._thread.daemon = True  # as SQLAlchemy makes aiosqlite's own connection threads

    def cursor(self) -> PrefetchingCursor:  # type: ignore[override]  # SQLAlchemy awaits __aenter__
        return PrefetchingCursor(self)

    async def run_statement(self, sql: str, parameters: Any, *, many: bool) -> tuple[sqlite3.Cursor, list[Any]]:
        on_thread: Any = self._execute  # aiosqlite's queue to the thread (untyped)
        result: tuple[sqlite3.Cursor, list[Any]] = await on_thread(self._statement, sql, parameters, many)
        return result

    def _statement(self, sql: str, parameters: Any, many: bool) -> tuple[sqlite3.Cursor, list[Any]]:
        """On the connection's thread: cursor, execute, fetch, close."""
        cursor = self._conn.cursor()
        try:
            if many:
                cursor.executemany(sql, parameters)
            elif parameters is None:
                cursor.execute(sql)
            else:
                cursor.execute(sql, parameters)
            rows = cursor.fetchall() if cursor.description else []
        finally:
            cursor.close()
        return cursor, rows


def _fewer_hops_connection(*args: Any, **kwargs: Any) -> FewerHopsConnection:
    return FewerHopsConnection(partial(sqlite3.connect, *args, **kwargs))


def install_fewer_hops(engine: AsyncEngine) -> None:
    """Make every new connection of this aiosqlite engine a FewerHopsConnection."""

    @event.listens_for(engine.sync_engine, "do_connect")
    def _connect_with_fewer_hops(_dialect: Any, _record: Any, _cargs: Any, cparams: dict[str, Any]) -> None:
        cparams["async_creator_fn"] = _fewer_hops_connection
