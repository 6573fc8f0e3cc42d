"""The FastAPI application factory.

Invariants:
    - `create_app` only wires routes to an already-built Container; it opens nothing at import time.
    - Every error response is JSON `{"detail": "<what to fix>"}` (validation errors flattened into
      one readable sentence, with the raw list under `errors`); bodies over MAX_BODY_BYTES get 413.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse

from forge.api.routes import health, knowledge_graph, session_documents, session_stream, sessions
from forge.api.serve_spa import SPA_DIR, mount_spa
from forge.bootstrap import Container

MAX_BODY_BYTES = 256 * 1024


def _readable(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        loc = tuple(item.get("loc", ()))
        if item.get("type") == "json_invalid":
            position = loc[1] if len(loc) > 1 else "?"
            parts.append(f"the body is not valid JSON (error at character {position}); send a JSON object")
            continue
        if item.get("type") == "model_attributes_type" and loc == ("body",):
            parts.append("the body must be a JSON object (Content-Type: application/json)")
            continue
        where = ".".join(str(p) for p in loc if p != "body") or "body"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return "Invalid request — " + "; ".join(parts)


async def _validation_handler(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    errors = [{k: v for k, v in e.items() if k in ("loc", "msg", "type")} for e in error.errors()]
    return JSONResponse({"detail": _readable(error), "errors": errors}, status_code=422)


async def _limit_body(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    length = request.headers.get("content-length")
    if length and length.isdigit() and int(length) > MAX_BODY_BYTES:
        return JSONResponse(
            {"detail": f"Request body too large: {length} bytes; the limit is {MAX_BODY_BYTES}."}, status_code=413
        )
    return await call_next(request)


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
    app.add_exception_handler(RequestValidationError, _validation_handler)
    app.middleware("http")(_limit_body)
    if container.settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(container.settings.cors_origins),
            allow_methods=["*"],
            allow_headers=["*"],
        )
    routers = (health.router, sessions.router, session_stream.router, session_documents.router, knowledge_graph.router)
    for router in routers:
        app.include_router(router)

    mount_spa(app, container.model.label, spa_dir)  # last: its catch-all must not shadow the API
    return app
