"""Stopping the server while a stream is open: the stream is told why and ends, and the server stops
(it does not wait for the client to leave)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import uvicorn
from httpx_sse import aconnect_sse
from support.forge_server import free_port
from support.fresh_database import migrated_sqlite_url

from forge.api.app import create_app
from forge.api.serve_app import ForgeServer
from forge.bootstrap.build_container import build_container
from forge.config import Settings


async def test_an_open_stream_gets_server_shutdown_and_the_server_stops(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path)
    container = build_container(Settings(embedder="hashed", database_url=url, offline_step_delay_ms=500))
    config = uvicorn.Config(create_app(container), host="127.0.0.1", port=free_port(), log_level="warning")
    server = ForgeServer(config, before_shutdown=container.broadcaster.close)
    serving = asyncio.create_task(server.serve())
    while not server.started:  # noqa: ASYNC110 - uvicorn offers no startup event to await
        await asyncio.sleep(0.02)
    received: list[tuple[str, dict[str, object]]] = []
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{config.port}", timeout=30) as client:
        sid = (await client.post("/api/v1/sessions", json={"problem": "How can a bakery cut food waste?"})).json()["id"]
        assert (await client.post(f"/api/v1/sessions/{sid}/run")).status_code == 200
        async with aconnect_sse(client, "GET", f"/api/v1/sessions/{sid}/stream") as source:
            async for sse in source.aiter_sse():
                received.append((sse.event, json.loads(sse.data)))
                if len(received) == 1:
                    server.should_exit = True  # the phase is far from done: the run is mid-way
    async with asyncio.timeout(30):  # liveness guard: without the hook uvicorn would wait for the client
        await serving
    await container.close()
    assert received[0][0] == "phase_change"
    event, data = received[-1]
    assert event == "error" and data["code"] == "SERVER_SHUTDOWN"
    assert not any(e == "done" for e, _ in received)
