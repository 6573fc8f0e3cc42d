"""Real databases for the repository contract suite: SQLite files and a PostgreSQL server.

Every test using `db` runs once per backend against a migrated schema:
    - sqlite: a fresh database file under the test's tmp_path, migrated with upgrade_database.
    - postgresql: FORGE_TEST_POSTGRES_URL (default postgresql+asyncpg://postgres@127.0.0.1:5432/
      forge_test), created if missing and migrated once per test session. Each test runs inside
      an outer transaction that is rolled back at the end; sessions join it with
      `join_transaction_mode="create_savepoint"`, so `uow.commit()` releases a savepoint and
      nothing leaks between tests. An unreachable server fails the run; it is never skipped.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import func, make_url, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from forge.db.engine import create_engine_for, create_session_factory, is_sqlite
from forge.db.migrate import upgrade_database, upgrade_database_sync
from forge.db.unit_of_work import SqlAlchemyUnitOfWork

DEFAULT_POSTGRES_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/forge_test"
START_POSTGRES = "pg_ctlcluster --skip-systemctl-redirect 15 main start"


@dataclass(frozen=True)
class Database:
    backend: str
    session_factory: async_sessionmaker[AsyncSession]

    def uow(self) -> SqlAlchemyUnitOfWork:
        return SqlAlchemyUnitOfWork(self.session_factory)

    async def count(self, model: Any, **where: Any) -> int:
        """Rows of `model` matching the equality filters in `where`, read in a fresh session."""
        filters = [getattr(model, name) == value for name, value in where.items()]
        async with self.session_factory() as session:
            return int(await session.scalar(select(func.count()).select_from(model).where(*filters)) or 0)


async def _create_database_if_missing(url: str) -> None:
    parsed = make_url(url)
    connection = await asyncpg.connect(
        host=parsed.host or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username or "postgres",
        password=parsed.password,
        database="postgres",
        timeout=10,
    )
    try:
        name = parsed.database
        exists = await connection.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
        if not exists:
            await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()


@pytest.fixture(scope="session")
def postgres_url() -> str:
    url = os.environ.get("FORGE_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)
    try:
        asyncio.run(_create_database_if_missing(url))
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        pytest.fail(
            f"PostgreSQL is not reachable at {url} ({type(exc).__name__}: {exc}). The db contract tests "
            f"need it: start it with `{START_POSTGRES}` or point FORGE_TEST_POSTGRES_URL at a server.",
            pytrace=False,
        )
    upgrade_database_sync(url)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@asynccontextmanager
async def _sqlite_database(url: str) -> AsyncIterator[Database]:
    await upgrade_database(url)
    engine = create_engine_for(url)
    try:
        yield Database("sqlite", create_session_factory(engine))
    finally:
        await engine.dispose()


@asynccontextmanager
async def _postgres_database(url: str) -> AsyncIterator[Database]:
    engine = create_engine_for(url)
    try:
        async with engine.connect() as connection:
            outer = await connection.begin()
            factory = async_sessionmaker(
                bind=connection, expire_on_commit=False, join_transaction_mode="create_savepoint"
            )
            try:
                yield Database("postgresql", factory)
            finally:
                await outer.rollback()
    finally:
        await engine.dispose()


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    """A migrated database of the parametrised backend, isolated from every other test."""
    database = _sqlite_database if is_sqlite(database_url) else _postgres_database
    async with database(database_url) as opened:
        yield opened


@pytest.fixture
def uow_factory(db: Database) -> Callable[[], SqlAlchemyUnitOfWork]:
    return db.uow
