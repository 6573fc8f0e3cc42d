"""Async engine and session factory for SQLite (aiosqlite) and PostgreSQL (asyncpg).

Invariants:
    - Nothing happens at import time: no module-level engine, no connection, no directory.
    - Every SQLite connection made by `create_engine_for` enforces foreign keys
      (PRAGMA foreign_keys=ON), so ON DELETE CASCADE behaves as on PostgreSQL.
    - URLs without an async driver are given one (`sqlite` -> aiosqlite, `postgresql` -> asyncpg).
    - Sessions from `create_session_factory` do not expire objects on commit; repositories never
      hand ORM objects out anyway.
    - SQLite connections run statements on the event loop's thread and COMMIT on aiosqlite's; a
      statement that finds another process's lock waits on aiosqlite's thread (`sqlite_fewer_hops`).
    - PostgreSQL connections idle in the pool for more than PING_AFTER_IDLE_SECONDS are pinged at
      checkout (`ping_idle_connections`); busy ones are not.
    - Every engine writes and reads JSON columns with `db/json_columns.py` (the session state is
      written as the text `core.state_json` encoded).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import URL, event, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from forge.db.json_columns import deserialize_json, serialize_json
from forge.db.ping_idle_connections import install_idle_ping
from forge.db.sqlite_fewer_hops import install_fewer_hops

_ASYNC_DRIVERS = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}
_SYNC_DRIVERS = {"pysqlite", "psycopg2", "psycopg"}


def async_url(url: str | URL) -> URL:
    """The URL with the async driver of its backend (an explicit async driver is kept)."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    driver = _ASYNC_DRIVERS.get(backend)
    if driver is None:
        raise ValueError(f"Unsupported database backend {backend!r}; use sqlite or postgresql.")
    if "+" not in parsed.drivername or parsed.get_driver_name() in _SYNC_DRIVERS:
        parsed = parsed.set(drivername=f"{backend}+{driver}")
    return parsed


def is_sqlite(url: str | URL) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def sqlite_database_file(url: str | URL) -> Path | None:
    """The file of a file-backed SQLite database; None for another backend, memory or a `file:` URI."""
    parsed = make_url(url)
    database = parsed.database or ""
    if not is_sqlite(parsed) or database in ("", ":memory:") or database.startswith("file:"):
        return None
    return Path(database).expanduser()


def ensure_sqlite_directory(url: str | URL) -> None:
    """Create the parent directory of a file-backed SQLite database (no-op otherwise)."""
    database = sqlite_database_file(url)
    if database is not None:
        database.parent.mkdir(parents=True, exist_ok=True)


# WAL lets readers (SSE followers, GETs) and the one writer (a run) proceed at once; without it a
# reader's open transaction blocks a writer's commit and requests fail with "database is locked".
# synchronous=NORMAL is durable in WAL mode except for the last commits on power loss.
SQLITE_PRAGMAS = (
    "PRAGMA foreign_keys=ON",
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
)
# How long a statement waits for another process's write lock (e.g. `forge answer` beside `forge
# serve`), on the connection's thread (sqlite_fewer_hops): sqlite3's `timeout`, not a PRAGMA.
SQLITE_BUSY_TIMEOUT_SECONDS = 15.0


def _configure_sqlite_connection(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        for pragma in SQLITE_PRAGMAS:
            cursor.execute(pragma)
    finally:
        cursor.close()


# A pooled PostgreSQL connection idle longer than this is pinged before use (ping_idle_connections).
PING_AFTER_IDLE_SECONDS = 5.0
# The pool per process (FORGE_DB_POOL_SIZE / FORGE_DB_MAX_OVERFLOW override them, see config): kept
# open, since a pool smaller than the usual concurrency opened and closed a connection per burst.
DEFAULT_POOL_SIZE = 20
DEFAULT_MAX_OVERFLOW = 10

# JSON columns are written and read by msgspec (see db/json_columns.py), on both backends.
_JSON_CODEC: dict[str, Any] = {"json_serializer": serialize_json, "json_deserializer": deserialize_json}


def create_engine_for(
    url: str,
    *,
    pool_size: int = DEFAULT_POOL_SIZE,
    max_overflow: int = DEFAULT_MAX_OVERFLOW,
    ping_after_idle_seconds: float = PING_AFTER_IDLE_SECONDS,
) -> AsyncEngine:
    """An AsyncEngine for `url`; SQLite gets its directory created, foreign keys enforced and WAL.

    The pool is sized from configuration (FORGE_DB_POOL_SIZE / FORGE_DB_MAX_OVERFLOW); SSE
    listeners hold no connection while they wait, so it bounds concurrent requests and runs only."""
    parsed = async_url(url)
    if is_sqlite(parsed):
        ensure_sqlite_directory(parsed)
        in_memory = parsed.database in (None, "", ":memory:")  # one shared connection (StaticPool): no sizes
        sizes = {} if in_memory else {"pool_size": pool_size, "max_overflow": max_overflow}
        connect_args = {"timeout": SQLITE_BUSY_TIMEOUT_SECONDS}
        engine = create_async_engine(parsed, **sizes, **_JSON_CODEC, connect_args=connect_args)
        install_fewer_hops(engine)
        event.listen(engine.sync_engine, "connect", _configure_sqlite_connection)
        return engine
    engine = create_async_engine(parsed, pool_size=pool_size, max_overflow=max_overflow, **_JSON_CODEC)
    install_idle_ping(engine, ping_after_idle_seconds)  # not pool_pre_ping: three round trips per checkout
    return engine


def create_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


def create_query_session_factory(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for reads only. PostgreSQL: AUTOCOMMIT, so reading costs no BEGIN and ROLLBACK round
    trips (a flag of the asyncpg adapter, set at checkout, no statement). SQLite: the usual factory,
    as sqlite3 opens no transaction for a SELECT (and switching its mode would cost thread hops)."""
    if engine.dialect.name == "sqlite":
        return create_session_factory(engine)
    return async_sessionmaker(engine.execution_options(isolation_level="AUTOCOMMIT"), expire_on_commit=False)
