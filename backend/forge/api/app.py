"""The FastAPI application factory.

Invariants:
    - `create_app` only wires routes to an already-built Container; it opens nothing at import time.
    - Every error response is JSON `ErrorResponse` (`error_handlers`), and the OpenAPI document says
      so for every status a route declares (`error_responses`).
    - Request bodies over MAX_BODY_BYTES get 413, declared or chunked (`limit_request_body`); the
      limit sits inside CORS, so a browser can read the 413 too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from forge.api.error_handlers import install_error_handlers
from forge.api.error_responses import errors_as_json
from forge.api.limit_request_body import LimitRequestBody
from forge.api.request_limits import MAX_BODY_BYTES
from forge.api.routes import (
    health,
    hypotheses,
    knowledge,
    knowledge_graph,
    memory,
    session_documents,
    session_stream,
    sessions,
)
from forge.api.serve_spa import SPA_DIR, mount_spa
from forge.api.sse_encoding import SseFrameCache
from forge.bootstrap import Container


def _openapi_with_json_errors(app: FastAPI) -> Callable[[], dict[str, Any]]:
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = errors_as_json(generate())
        return app.openapi_schema

    return openapi


def create_app(container: Container, spa_dir: Path = SPA_DIR) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await container.start()
        yield
        await container.close()

    app = FastAPI(
        title="Knowledge Forge",
        version="0.1.0",
        lifespan=lifespan,
        description="Turns a hard problem into validated, traceable knowledge.",
    )
    app.state.container = container
    app.state.sse_frames = SseFrameCache()
    install_error_handlers(app)
    app.add_middleware(LimitRequestBody, max_bytes=MAX_BODY_BYTES)
    if container.settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(container.settings.cors_origins),
            allow_methods=["*"],
            allow_headers=["*"],
        )
    routers = (
        health.router,
        sessions.router,
        session_stream.router,
        session_documents.router,
        knowledge_graph.router,
        knowledge.router,
        hypotheses.router,
        memory.router,
    )
    for router in routers:
        app.include_router(router)

    mount_spa(app, container.model.label, spa_dir)  # last: its catch-all must not shadow the API
    app.openapi = _openapi_with_json_errors(app)  # type: ignore[method-assign]
    return app
