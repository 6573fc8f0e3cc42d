"""An app over a real, migrated database (SQLite file or a PostgreSQL database of the test's own) and the
offline model. `database_url` is already at the newest schema: a copy of the run's migrated template."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.api_client import api_client
from support.fresh_database import BACKENDS, migrated_database_url
from support.sse_client import run_and_stream

from forge.config import Settings


@pytest.fixture(params=BACKENDS)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    async with migrated_database_url(request.param, tmp_path, prefix="forge_api") as url:
        yield url


@pytest.fixture
async def client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with api_client(Settings(database_url=database_url)) as http:
        yield http


Snapshot = Callable[[str], Awaitable[tuple[Any, Any]]]


@pytest.fixture
async def paused_session(client: httpx.AsyncClient) -> str:
    """A session whose agent ran DECOMPOSE and now waits for the decompose review."""
    created = await client.post("/api/v1/sessions", json={"problem": "How can a city keep heat-wave deaths down?"})
    sid = str(created.json()["id"])
    events = await run_and_stream(client, sid)
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
