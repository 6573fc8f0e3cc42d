"""A client that drops its stream mid-phase loses nothing: the run goes on and a reconnect resumes.

Runs the app under a real uvicorn server on a free port, so the disconnect is a real TCP close.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from support.sse_client import read_stream

from forge.api.app import create_app
from forge.api.serve_app import ForgeServer
from forge.bootstrap.build_container import build_container
from forge.config import Settings
from forge.db.migrate import upgrade_database


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
async def base_url(tmp_path: Path) -> AsyncIterator[str]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}"
    await upgrade_database(url)
    container = build_container(Settings(database_url=url))
    port = _free_port()
    config = uvicorn.Config(create_app(container), host="127.0.0.1", port=port, log_level="warning")
    server = ForgeServer(config, before_shutdown=container.broadcaster.close)
    task = asyncio.create_task(server.serve())
    while not server.started:  # noqa: ASYNC110 - uvicorn offers no startup event to await
        await asyncio.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
        await container.close()


async def test_dropping_the_stream_mid_phase_does_not_stop_the_agent(base_url: str) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        created = await client.post("/api/v1/sessions", json={"problem": "How can a bakery cut food waste?"})
        sid = created.json()["id"]
        assert (await client.post(f"/api/v1/sessions/{sid}/run")).status_code == 200
        async with client.stream("GET", f"/api/v1/sessions/{sid}/stream") as response:
            async for line in response.aiter_lines():
                if line.startswith("id: 3"):
                    break  # drop the connection after three events
        for _ in range(200):
            session = (await client.get(f"/api/v1/sessions/{sid}")).json()
            if session["awaiting_input_type"] == "decompose_review" and not session["running"]:
                break
            await asyncio.sleep(0.05)
        assert session["awaiting_input_type"] == "decompose_review"
        resumed = await read_stream(client, "GET", f"/api/v1/sessions/{sid}/stream", headers={"Last-Event-ID": "3"})
        assert resumed[0].id == 4 and [e.type for e in resumed][-2:] == ["review_decompose", "done"]
