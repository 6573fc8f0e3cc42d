"""`forge serve` keeps an idle keep-alive connection open longer than clients pool one for.

uvicorn's default closes it after 5 s; a client that sent its next request on the pooled connection
just then got a reset (Playwright's API client: "socket hang up" on a GET sent 5.1 s after the one
before). One connection, one request, an idle pause past 5 s, and a second request on it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import urlsplit

from support.forge_server import ForgeProcess

IDLE_SECONDS = 6.0  # past uvicorn's default of 5 s


async def _get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, path: str) -> int:
    """One HTTP/1.1 request on the open connection; its status, with the body read to its end."""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: keep-alive\r\n\r\n".encode())
    await writer.drain()
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    length = next(int(line.split(":", 1)[1]) for line in head if line.lower().startswith("content-length:"))
    await reader.readexactly(length)
    return int(head[0].split()[1])


async def test_an_idle_connection_still_serves_a_request_after_uvicorns_default_timeout(tmp_path: Path) -> None:
    server = await ForgeProcess.start(
        f"sqlite+aiosqlite:///{tmp_path}/forge.db",
        tmp_path,
        step_delay_ms=0,
        name="keep-alive",
        extra_env={"FORGE_RUN_PROCESSES": "0"},
    )
    try:
        address = urlsplit(server.base_url)
        assert address.hostname is not None and address.port is not None
        reader, writer = await asyncio.open_connection(address.hostname, address.port)
        try:
            host = f"{address.hostname}:{address.port}"
            assert await _get(reader, writer, host, "/api/v1/health/ready") == 200
            await asyncio.sleep(IDLE_SECONDS)
            assert not reader.at_eof(), "the server closed the idle connection"
            async with asyncio.timeout(10):
                assert await _get(reader, writer, host, "/api/v1/health/ready") == 200
        finally:
            writer.close()
            await writer.wait_closed()
    finally:
        server.kill()
        await server.wait_exit()
