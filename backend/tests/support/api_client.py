"""An httpx client calling the app in this process (ASGI, no socket): the one way tests build one.

`api_client(settings, ...)` builds the container, the app over it and a client, and closes the
container afterwards; `client_of(container, ...)` does the same for a container the test built
itself (to seed it first); `asgi_client(app, ...)` is the bare client, for an app already made.

Invariants:
    - The base URL is http://localhost (a host every Settings allows) unless a test names another.
    - The timeout is 60 s: a guard against a hung test on a busy 2-core machine, never a timing a
      test relies on.
    - The database behind `settings` is the caller's: these helpers never create or migrate one
      (support/fresh_database.py does).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
from starlette.types import ASGIApp

from forge.api.app import create_app
from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.config import Settings

BASE_URL = "http://localhost"
TIMEOUT_SECONDS = 60.0


def asgi_client(
    app: ASGIApp, *, base_url: str = BASE_URL, client_address: tuple[str, int] | None = None, **options: Any
) -> httpx.AsyncClient:
    """A client of `app`; `client_address` is the (host, port) the app sees the request come from."""
    transport = (
        httpx.ASGITransport(app=app) if client_address is None else httpx.ASGITransport(app=app, client=client_address)
    )
    return httpx.AsyncClient(transport=transport, base_url=base_url, timeout=TIMEOUT_SECONDS, **options)


@asynccontextmanager
async def client_of(
    container: Container, *, spa_dir: Path | None = None, base_url: str = BASE_URL
) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the app over `container` (serving the browser app from `spa_dir` when given);
    the container is closed afterwards, even when the app refuses to be made."""
    try:
        app = create_app(container) if spa_dir is None else create_app(container, spa_dir)
        async with asgi_client(app, base_url=base_url) as http:
            yield http
    finally:
        await container.close()


@asynccontextmanager
async def api_client(
    settings: Settings, *, spa_dir: Path | None = None, base_url: str = BASE_URL, **container_options: Any
) -> AsyncIterator[httpx.AsyncClient]:
    """A client of the app built from `settings` (`container_options` go to `build_container`), with
    the model-free embedder (FORGE_EMBEDDER=hashed): no test through this client checks meaning, and
    the sentence model costs seconds to load in every test process (a test that checks meaning builds
    its container with the model, as test_memory_endpoint does)."""
    container = build_container(replace(settings, embedder="hashed"), **container_options)
    async with client_of(container, spa_dir=spa_dir, base_url=base_url) as http:
        yield http
