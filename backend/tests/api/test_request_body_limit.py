"""Bodies over 256 KiB get a 413 with a JSON message, chunked or not, and are not read to their end.

The ASGI tests count how many chunks of the client's body the app pulled: the middleware must stop
reading at the chunk that passes the limit. The last test does the same through a real uvicorn
server (the transport that let a 200 MB chunked body through before).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from forge.api.request_limits import MAX_BODY_BYTES

CHUNK = 64 * 1024
JSON = {"content-type": "application/json"}


class CountedBody:
    """A body of `chunks` chunks (CHUNK bytes each, or `head` first) that counts how many were read."""

    def __init__(self, chunks: int, head: bytes = b"") -> None:
        self.chunks = chunks
        self.head = head
        self.read = 0

    def _next(self) -> bytes:
        self.read += 1
        return self.head if self.read == 1 and self.head else b" " * CHUNK

    async def stream(self) -> AsyncIterator[bytes]:
        for _ in range(self.chunks):
            yield self._next()

    def sync_stream(self) -> Iterator[bytes]:
        for _ in range(self.chunks):
            yield self._next()


async def test_a_chunked_body_over_the_limit_is_refused_without_being_read_to_the_end(
    client: httpx.AsyncClient,
) -> None:
    body = CountedBody(chunks=3200)  # 200 MiB
    response = await client.post("/api/v1/sessions", content=body.stream(), headers=JSON)
    assert response.status_code == 413, response.text
    assert response.json()["detail"].startswith("Request body too large")
    assert str(MAX_BODY_BYTES) in response.json()["detail"]
    assert response.headers["connection"] == "close"
    assert body.read == MAX_BODY_BYTES // CHUNK + 1  # the chunk that passed the limit, and no more
    assert (await client.get("/api/v1/sessions")).json()["total"] == 0


async def test_a_declared_length_over_the_limit_is_refused_before_anything_is_read(
    client: httpx.AsyncClient,
) -> None:
    body = CountedBody(chunks=5)
    headers = {**JSON, "content-length": str(5 * CHUNK)}
    response = await client.post("/api/v1/sessions", content=body.stream(), headers=headers)
    assert response.status_code == 413 and str(5 * CHUNK) in response.json()["detail"]
    assert body.read == 0


async def test_a_chunked_body_under_the_limit_is_read_whole(client: httpx.AsyncClient) -> None:
    body = CountedBody(chunks=3, head=b'{"problem": "How can a small town keep its only pharmacy open?"}')
    response = await client.post("/api/v1/sessions", content=body.stream(), headers=JSON)
    assert response.status_code == 201, response.text
    assert body.read == 3


async def test_a_chunked_body_over_the_limit_on_a_review_leaves_the_session_as_it_was(
    client: httpx.AsyncClient,
) -> None:
    sid = (await client.post("/api/v1/sessions", json={"problem": "How can a town keep its pharmacy?"})).json()["id"]
    before = (await client.get(f"/api/v1/sessions/{sid}")).json()
    events_before = (await client.get(f"/api/v1/sessions/{sid}/events")).json()["events"]
    body = CountedBody(chunks=10)
    response = await client.post(f"/api/v1/sessions/{sid}/user-input", content=body.stream(), headers=JSON)
    assert response.status_code == 413
    assert (await client.get(f"/api/v1/sessions/{sid}")).json() == before
    assert (await client.get(f"/api/v1/sessions/{sid}/events")).json()["events"] == events_before


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """`forge serve` in a subprocess (uvicorn, SQLite, offline model); yields its base URL."""
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}",
        "FORGE_MODEL": "offline",
        "FORGE_DATA_DIR": str(tmp_path),
        "LOG_LEVEL": "warning",
    }
    command = [sys.executable, "-m", "forge.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else "server exited"
            try:
                httpx.get(f"{base}/api/v1/health/", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not answer within 60 s"
                time.sleep(0.05)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=30)
        if process.stderr:
            process.stderr.close()


def test_uvicorn_answers_413_to_a_large_chunked_body_and_stops_the_upload(server: str) -> None:
    body = CountedBody(chunks=1024)  # 64 MiB, sent chunked (no Content-Length)
    response = httpx.post(f"{server}/api/v1/sessions", content=body.sync_stream(), headers=JSON, timeout=60)
    assert response.status_code == 413, response.text
    assert "limit" in response.json()["detail"]
    # The server closed the connection after its answer: the client could not send the rest
    # (what it did send fits in socket buffers, a few MiB, far from 64 MiB).
    assert body.read < body.chunks // 2
    assert httpx.get(f"{server}/api/v1/sessions").json()["total"] == 0
