"""An app over a real, migrated database (SQLite file or a fresh PostgreSQL database) and the offline model."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from support.sse_client import read_stream

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


Snapshot = Callable[[str], Awaitable[tuple[Any, Any]]]


@pytest.fixture
async def paused_session(client: httpx.AsyncClient) -> str:
    """A session whose agent ran DECOMPOSE and now waits for the decompose review."""
    created = await client.post("/api/v1/sessions", json={"problem": "How can a city keep heat-wave deaths down?"})
    sid = str(created.json()["id"])
    events = await read_stream(client, "GET", f"/api/v1/sessions/{sid}/stream")
    assert events[-2].type == "review_decompose"
    return sid


@pytest.fixture
def snapshot(client: httpx.AsyncClient) -> Snapshot:
    """Everything a refused request must leave unchanged: the session resource and its event log."""

    async def take(sid: str) -> tuple[Any, Any]:
        session = (await client.get(f"/api/v1/sessions/{sid}")).json()
        events = (await client.get(f"/api/v1/sessions/{sid}/events", params={"limit": 500})).json()["events"]
        return session, events

    return take
