"""The FastAPI application factory.

Invariants:
    - `create_app` only wires routes to an already-built Container; it opens nothing at import time.
    - Every error response is JSON `ErrorResponse` (`error_handlers`), and the OpenAPI document says
      so for every status a route declares (`error_responses`).
    - Request bodies over MAX_BODY_BYTES get 413, declared or chunked (`limit_request_body`); the
      limit sits inside CORS, so a browser can read the 413 too.
    - Middleware, outermost first: security headers (so even a refused Host gets them), trusted hosts,
      the request context (request id, session id, access log), CORS, gzip (JSON, HTML, JS, CSS over 1 KiB; never text/event-stream, which must reach the
      client event by event), the body limit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware

from forge.api.docs_pages import mount_docs
from forge.api.error_handlers import install_error_handlers
from forge.api.error_responses import errors_as_json
from forge.api.limit_request_body import LimitRequestBody
from forge.api.request_context import RequestContext
from forge.api.request_limits import MAX_BODY_BYTES
from forge.api.routes import (
    answer,
    health,
    hypotheses,
    knowledge,
    knowledge_graph,
    memory,
    metrics,
    selection,
    session_documents,
    session_stream,
    sessions,
    supervisor,
)
from forge.api.security_headers import SecurityHeaders
from forge.api.serve_spa import SPA_DIR, mount_spa
from forge.api.sse_encoding import SseFrameCache
from forge.api.trusted_hosts import TrustedHosts, allowed_hosts_for
from forge.bootstrap import Container

GZIP_MINIMUM_BYTES = 1024  # smaller bodies gain less than the header costs


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

    settings = container.settings
    app = FastAPI(
        title="Knowledge Forge",
        version="0.1.0",
        lifespan=lifespan,
        description="Turns a hard problem into validated, traceable knowledge.",
        docs_url=None,
        redoc_url=None,
    )
    app.state.container = container
    app.state.sse_frames = SseFrameCache()
    install_error_handlers(app)
    # add_middleware wraps: the last one added is the outermost.
    app.add_middleware(LimitRequestBody, max_bytes=MAX_BODY_BYTES)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM_BYTES, compresslevel=6)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["*"],
            allow_headers=["*"],
        )
    app.add_middleware(RequestContext, log_access=settings.log_format == "json")
    app.add_middleware(
        TrustedHosts, allowed=allowed_hosts_for(settings.allowed_hosts, settings.host, settings.public_url)
    )
    app.add_middleware(SecurityHeaders, hsts=(settings.public_url or "").lower().startswith("https://"))
    mount_docs(app)
    routers = (
        health.router,
        sessions.router,
        session_stream.router,
        session_documents.router,
        knowledge_graph.router,
        knowledge.router,
        hypotheses.router,
        metrics.router,
        memory.router,
        supervisor.router,
        answer.router,
        selection.router,
    )
    for router in routers:
        app.include_router(router)

    mount_spa(app, container.model.label, spa_dir)  # last: its catch-all must not shadow the API
    app.openapi = _openapi_with_json_errors(app)  # type: ignore[method-assign]
    return app
