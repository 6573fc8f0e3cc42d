"""A fresh, empty database per test: a SQLite file in the test's directory, or a new PostgreSQL database
(created on the local server and dropped, with any connection a killed server left, afterwards)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

PG_ADMIN = os.environ.get("FORGE_TEST_POSTGRES_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_BASE = os.environ.get("FORGE_TEST_POSTGRES_BASE", "postgresql+asyncpg://postgres@127.0.0.1:5432")
BACKENDS = ("sqlite", "postgresql")


async def _admin(sql: str) -> None:
    try:
        connection = await asyncpg.connect(PG_ADMIN)
    except OSError as error:
        pytest.fail(
            f"PostgreSQL is not reachable at {PG_ADMIN} ({error}); start it with "
            "`pg_ctlcluster --skip-systemctl-redirect 15 main start`."
        )
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@asynccontextmanager
async def fresh_database_url(backend: str, directory: Path, prefix: str = "forge_test") -> AsyncIterator[str]:
    """The SQLAlchemy URL of an empty database of `backend` ("sqlite" or "postgresql")."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{directory / 'forge.db'}"
        return
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    await _admin(f'CREATE DATABASE "{name}"')
    try:
        yield f"{PG_BASE}/{name}"
    finally:
        await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
