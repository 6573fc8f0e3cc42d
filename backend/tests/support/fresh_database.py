"""A database per test, of its own: empty (`fresh_database_url`, for tests of migrating itself) or
already at the newest schema (`migrated_database_url`, for everything else).

Invariants:
    - A migrated database is a copy of a template that was migrated once per backend per pytest
      process (each xdist worker has its own): a file copy on SQLite, `CREATE DATABASE … TEMPLATE`
      on PostgreSQL. The copy is byte-for-byte what `alembic upgrade head` leaves; only the time to
      migrate (0.3 s SQLite, 0.9 s PostgreSQL a test) is saved.
    - Nothing connects to a PostgreSQL template after its migration: it is made
      `ALLOW_CONNECTIONS false` (autovacuum and strays included), since PostgreSQL refuses to copy a
      database anyone is connected to.
    - Templates have names of their own (`forge_tpl_<unix time>_<random>`), so parallel runs, xdist
      workers and other people's runs on the same server never share or drop one another's; each run
      drops its own at its end (`drop_templates`, from tests/conftest.py), and one left by a killed
      run is dropped by the next run once it is a day old.
    - Every PostgreSQL database made here is dropped once its test ends (`WITH (FORCE)`: a killed
      server's connections do not keep it) by a thread of its own, so the next test does not wait
      for it: DROP DATABASE waits for a checkpoint, 0.3–2 s on a busy machine. All are dropped
      before the run ends (`drop_templates` waits), and a drop that fails fails the run.
"""

from __future__ import annotations

import asyncio
import os
import queue
import shutil
import sqlite3
import tempfile
import threading
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, closing, contextmanager
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import make_url

from forge.db.migrate import upgrade_database_sync

PG_ADMIN = os.environ.get("FORGE_TEST_POSTGRES_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_BASE = os.environ.get("FORGE_TEST_POSTGRES_BASE", "postgresql+asyncpg://postgres@127.0.0.1:5432")
BACKENDS = ("sqlite", "postgresql")
TEMPLATE_PREFIX = "forge_tpl_"
STALE_TEMPLATE_SECONDS = 24 * 3600


async def _admin(sql: str) -> None:
    try:
        connection = await asyncpg.connect(PG_ADMIN)
    except OSError as error:
        pytest.fail(
            f"PostgreSQL is not reachable at {PG_ADMIN} ({error}); start it with `bash scripts/ensure_postgres.sh`."
        )
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def _drop_now(name: str) -> None:
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


class _BackgroundDrops:
    """DROP DATABASE in a thread of its own, in the order asked (see the module docstring)."""

    def __init__(self) -> None:
        self._names: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._failures: list[str] = []

    def drop(self, name: str) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._drop_each, name="drop-test-databases", daemon=True)
            self._thread.start()
        self._names.put(name)

    def _drop_each(self) -> None:
        while (name := self._names.get()) is not None:
            try:
                _drop_now(name)
            except BaseException as error:  # pytest.fail raises a BaseException; report it at the end
                self._failures.append(f"{name}: {error}")

    def finish(self) -> None:
        """Wait for every drop asked for; raise if one failed."""
        if self._thread is not None:
            self._names.put(None)
            self._thread.join()
            self._thread = None
        failures, self._failures = self._failures, []
        if failures:
            raise RuntimeError(f"test databases left behind: {failures}")


DROPS = _BackgroundDrops()


def _sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


class _Templates:
    """The migrated templates of this process, made on first use (see the module docstring)."""

    def __init__(self) -> None:
        self.sqlite_file: Path | None = None
        self.postgres_name: str | None = None

    def sqlite(self) -> Path:
        if self.sqlite_file is None:
            path = Path(tempfile.mkdtemp(prefix="forge-template-")) / "template.db"
            upgrade_database_sync(_sqlite_url(path))
            with closing(sqlite3.connect(path)) as connection:  # fold the WAL in: a copy is the one file
                connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            if Path(f"{path}-wal").exists() and Path(f"{path}-wal").stat().st_size:
                raise RuntimeError(f"the SQLite template {path} kept a write-ahead log")
            self.sqlite_file = path
        return self.sqlite_file

    def postgres(self) -> str:
        """The template's name; called in a thread without a running event loop."""
        if self.postgres_name is None:
            asyncio.run(_drop_stale_templates())
            name = f"{TEMPLATE_PREFIX}{int(time.time())}_{uuid.uuid4().hex[:8]}"
            asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
            self.postgres_name = name  # dropped at the end even if its migration fails
            upgrade_database_sync(f"{PG_BASE}/{name}")
            asyncio.run(_admin(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false'))
        return self.postgres_name

    def drop(self) -> None:
        if self.sqlite_file is not None:
            shutil.rmtree(self.sqlite_file.parent, ignore_errors=True)
            self.sqlite_file = None
        if self.postgres_name is not None:
            _drop_now(self.postgres_name)
            self.postgres_name = None


TEMPLATES = _Templates()


def drop_templates() -> None:
    """At the session's end: wait for the test databases' drops, then drop this process's templates."""
    try:
        DROPS.finish()
    finally:
        TEMPLATES.drop()


async def _drop_stale_templates() -> None:
    """Templates a killed run left behind, a day after they were made (no live run is that old)."""
    connection = await asyncpg.connect(PG_ADMIN)
    try:
        names = await connection.fetch("SELECT datname FROM pg_database WHERE datname LIKE $1", f"{TEMPLATE_PREFIX}%")
        for (name,) in names:
            made = name.removeprefix(TEMPLATE_PREFIX).split("_")[0]
            if made.isdigit() and time.time() - int(made) > STALE_TEMPLATE_SECONDS:
                await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


def _create_empty(backend: str, directory: Path, prefix: str) -> str:
    """A new, empty database of `backend`; runs without an event loop in its thread."""
    if backend == "sqlite":
        return _sqlite_url(directory / "forge.db")
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    return f"{PG_BASE}/{name}"


@asynccontextmanager
async def fresh_database_url(backend: str, directory: Path, prefix: str = "forge_test") -> AsyncIterator[str]:
    """The SQLAlchemy URL of an empty database of `backend` ("sqlite" or "postgresql")."""
    url = await asyncio.to_thread(_create_empty, backend, directory, prefix)
    try:
        yield url
    finally:
        _drop_copy(url)


@contextmanager
def fresh_database_url_sync(backend: str, directory: Path, prefix: str = "forge_test") -> Iterator[str]:
    """`fresh_database_url` for code with no running event loop (synchronous fixtures)."""
    url = _create_empty(backend, directory, prefix)
    try:
        yield url
    finally:
        _drop_copy(url)


def _copy_template(backend: str, directory: Path, prefix: str, filename: str) -> str:
    """A new copy of this process's template of `backend`; runs without an event loop in its thread."""
    if backend == "sqlite":
        shutil.copyfile(TEMPLATES.sqlite(), directory / filename)
        return _sqlite_url(directory / filename)
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATES.postgres()}"'))
    return f"{PG_BASE}/{name}"


def _drop_copy(url: str) -> None:
    """Drop the PostgreSQL database at `url` once its test is done (a SQLite file goes with its directory)."""
    name = make_url(url).database
    if not url.startswith("sqlite") and name is not None:
        DROPS.drop(name)


async def migrated_sqlite_url(directory: Path, filename: str = "forge.db") -> str:
    """The URL of a SQLite file at the newest schema, `directory / filename` (a copy of the template;
    the file goes with its directory, so there is nothing to drop)."""
    return await asyncio.to_thread(_copy_template, "sqlite", directory, "", filename)


@contextmanager
def migrated_database_url_sync(
    backend: str, directory: Path, prefix: str = "forge_test", filename: str = "forge.db"
) -> Iterator[str]:
    """The SQLAlchemy URL of a database of `backend` at the newest schema, nobody else's, for code
    with no running event loop (synchronous fixtures)."""
    url = _copy_template(backend, directory, prefix, filename)
    try:
        yield url
    finally:
        _drop_copy(url)


@asynccontextmanager
async def migrated_database_url(
    backend: str, directory: Path, prefix: str = "forge_test", filename: str = "forge.db"
) -> AsyncIterator[str]:
    """The SQLAlchemy URL of a database of `backend` at the newest schema, nobody else's."""
    url = await asyncio.to_thread(_copy_template, backend, directory, prefix, filename)
    try:
        yield url
    finally:
        _drop_copy(url)
