"""An app over a real, migrated database (SQLite file or a fresh PostgreSQL database) and the offline model."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import httpx
import pytest

from forge.api.app import create_app
from forge.bootstrap import build_container
from forge.config import Settings
from forge.db.migrate import upgrade_database

PG_ADMIN = os.environ.get("FORGE_TEST_POSTGRES_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")
PG_BASE = os.environ.get("FORGE_TEST_POSTGRES_BASE", "postgresql+asyncpg://postgres@127.0.0.1:5432")


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


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}"
        return
    name = f"forge_api_{uuid.uuid4().hex[:12]}"
    await _admin(f'CREATE DATABASE "{name}"')
    try:
        yield f"{PG_BASE}/{name}"
    finally:
        await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
async def client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    await upgrade_database(database_url)
    container = build_container(Settings(database_url=database_url))
    app = create_app(container)
    transport = httpx.ASGITransport(app=app)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://forge.test", timeout=60) as http:
            yield http
    finally:
        await container.close()
