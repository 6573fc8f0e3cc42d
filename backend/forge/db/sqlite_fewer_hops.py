"""aiosqlite that runs statements on the event loop's thread, for SQLAlchemy's aiosqlite dialect.

aiosqlite runs every sqlite3 call on the connection's own thread and hands the result back to the
event loop (a queue put, a thread wake-up, `call_soon_threadsafe`, a self-pipe wake-up of the loop).
Each hop also suspends the unit of work: other sessions' CPU slices run in between, and a writer
keeps the write gate (`write_gate`) for all of that time. A statement on SQLite is short C work on
a local file, so `FewerHopsConnection` runs it where it is awaited, and hops only for what may wait
or touch the disk for long:
    - a statement that finds the database locked by another connection (another process: in this
      one, `WriteGate` admits one writer at a time): on the loop's thread the connection's busy
      timeout is 0, so SQLite answers SQLITE_BUSY at once, with nothing done; the statement is then
      run again on the connection's thread, where it waits up to the busy timeout (sqlite3's
      `timeout` connect argument) as stock aiosqlite does; the same for a COMMIT refused as busy;
    - closing.
Measured in-process (20 concurrent autopilot sessions on SQLite, three alternated pairs): 22% more events/s
than one hop per statement, which had itself used ~20-35% less CPU than aiosqlite's four.

COMMIT runs on the loop's thread too. It may checkpoint the WAL (disk writes and an fsync), so it
once hopped; but the writer holds SQLite's one write lock until its COMMIT is done, and a hop hands
the loop to other sessions' work first, so every other process's writer waited for that work too.
Measured in `bench_load` part A (SQLite, two run processes): a commit takes 0.2 ms at the median and
8-14 ms at worst (a checkpoint), and committing on the loop lifted events/s from 344-367 to 471-476
(alternated pairs, with `cross_process_write_lock`).

Invariants:
    - The same sqlite3 calls in the same order as aiosqlite makes them, so results, errors
      (sqlite3's exceptions, which SQLAlchemy maps as before), locking and transactions are
      unchanged; what differs is the thread (the connection is opened with check_same_thread=False
      and is used by one caller at a time: SQLAlchemy awaits each call before the next).
    - The event loop never waits on another connection's lock: a statement retried after
      SQLITE_BUSY had no effect (SQLite undoes a statement that could not take its lock), so
      running it again is safe; a transaction begun implicitly before it stays open.
    - A statement's rows are fetched in full before `execute` returns (as SQLAlchemy's adapter does
      for every cursor that is not server-side); a server-side cursor reads them from memory too.
    - `description`, `rowcount` and `lastrowid` are those of the statement's sqlite3 cursor (they are
      kept after it is closed).
    - Set the busy timeout with the connect argument `timeout`, not `PRAGMA busy_timeout`: a
      PRAGMA would make statements on the loop's thread wait.

Design decision: installed per connection through the dialect's `async_creator_fn` hook
(`install_fewer_hops`, a `do_connect` listener), so SQLAlchemy's connect arguments reach sqlite3
(with the two above set for it) and nothing of SQLAlchemy or aiosqlite is patched.
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
DEFAULT_BUSY_TIMEOUT_SECONDS = 5.0  # sqlite3.connect's own default for `timeout`


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
    """An aiosqlite connection whose statements run on the caller's thread unless they must wait."""

    def __init__(self, connector: Callable[[], sqlite3.Connection], busy_timeout_seconds: float) -> None:
        super().__init__(connector, _ITER_CHUNK_SIZE)
        self._thread.daemon = True  # as SQLAlchemy makes aiosqlite's own connection threads
        self._busy_timeout_ms = max(0, round(busy_timeout_seconds * 1000))

    def cursor(self) -> PrefetchingCursor:  # type: ignore[override]  # SQLAlchemy awaits __aenter__
        return PrefetchingCursor(self)

    async def run_statement(self, sql: str, parameters: Any, *, many: bool) -> tuple[sqlite3.Cursor, list[Any]]:
        try:
            return self._statement(sql, parameters, many)
        except sqlite3.OperationalError as error:
            _raise_unless_busy(error)
        waited: tuple[sqlite3.Cursor, list[Any]] = await self._on_thread(
            self._waiting, self._statement, sql, parameters, many
        )
        return waited

    async def commit(self) -> None:
        # The same rule as a statement: wait only when busy (a COMMIT refused with SQLITE_BUSY leaves
        # the transaction open, to be committed again). In WAL mode it never is; rollback-journal
        # mode (a file system without WAL) needs the readers gone.
        try:
            self._conn.commit()  # on the loop's thread: see the module's docstring
        except sqlite3.OperationalError as error:
            _raise_unless_busy(error)
            await self._on_thread(self._waiting, self._conn.commit)

    async def rollback(self) -> None:
        self._conn.rollback()  # never waits: it only gives up what this connection holds

    async def _on_thread(self, function: Callable[..., Any], *args: Any) -> Any:
        on_thread: Any = self._execute  # aiosqlite's queue to the thread (untyped)
        return await on_thread(function, *args)

    def _waiting(self, function: Callable[..., Any], *args: Any) -> Any:
        """On the connection's thread: `function` with the busy timeout in force, then 0 again."""
        self._conn.execute(f"PRAGMA busy_timeout={self._busy_timeout_ms}")
        try:
            return function(*args)
        finally:
            self._conn.execute("PRAGMA busy_timeout=0")

    def _statement(self, sql: str, parameters: Any, many: bool) -> tuple[sqlite3.Cursor, list[Any]]:
        """Cursor, execute, fetch, close."""
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


def _raise_unless_busy(error: sqlite3.OperationalError) -> None:
    """Re-raise `error` unless it is SQLITE_BUSY (another connection holds the lock: worth waiting)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is None or code & 0xFF != sqlite3.SQLITE_BUSY:
        raise error


def _fewer_hops_connection(*args: Any, **kwargs: Any) -> FewerHopsConnection:
    busy_timeout = float(kwargs.pop("timeout", DEFAULT_BUSY_TIMEOUT_SECONDS))
    opened = partial(sqlite3.connect, *args, **{**kwargs, "timeout": 0, "check_same_thread": False})
    return FewerHopsConnection(opened, busy_timeout)


def install_fewer_hops(engine: AsyncEngine) -> None:
    """Make every new connection of this aiosqlite engine a FewerHopsConnection."""

    @event.listens_for(engine.sync_engine, "do_connect")
    def _connect_with_fewer_hops(_dialect: Any, _record: Any, _cargs: Any, cparams: dict[str, Any]) -> None:
        cparams["async_creator_fn"] = _fewer_hops_connection
