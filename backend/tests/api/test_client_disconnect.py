"""A client that drops its stream mid-phase loses nothing: the run goes on and a reconnect resumes.

Runs the app under a real uvicorn server on a free port, so the disconnect is a real TCP close.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from support.forge_server import serve_in_process
from support.fresh_database import migrated_sqlite_url
from support.sse_client import read_stream


@pytest.fixture
async def base_url(tmp_path: Path) -> AsyncIterator[str]:
    async with serve_in_process(await migrated_sqlite_url(tmp_path)) as served:
        yield served


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
