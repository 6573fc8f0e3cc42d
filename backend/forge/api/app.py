"""The FastAPI application factory.

Invariants:
    - `create_app` only wires routes to an already-built Container; it opens nothing at import time.
    - Every error response is JSON `ErrorResponse` (`error_handlers`), and the OpenAPI document says
      so for every status a route declares (`error_responses`).
    - Request bodies over MAX_BODY_BYTES get 413, declared or chunked (`limit_request_body`); the
      limit sits inside CORS, so a browser can read the 413 too.
    - FORGE_AUTH (core.auth_mode): off only on a loopback bind address, refused elsewhere. Every
      router but health and POST /auth/login requires a user (`authentication.current_user`), and
      every `{session_id}` path is owner-only (`guard_session_path`); /docs, /redoc and
      /openapi.json too.
    - Middleware, outermost first: security headers (so even a refused Host gets them), trusted hosts,
      the request context (request id, session id, access log), CORS, gzip (JSON, HTML, JS, CSS over 1 KiB; never text/event-stream, which must reach the
      client event by event), the body limit.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware

from forge.api.authentication import current_user, guard_session_path
from forge.api.docs_pages import mount_docs
from forge.api.error_handlers import install_error_handlers
from forge.api.error_responses import error_responses, errors_as_json
from forge.api.limit_request_body import LimitRequestBody
from forge.api.login_attempts import LoginAttempts
from forge.api.request_context import RequestContext
from forge.api.request_limits import MAX_BODY_BYTES
from forge.api.routes import PUBLIC_ROUTERS, SIGNED_IN_ROUTERS
from forge.api.security_headers import SecurityHeaders
from forge.api.serve_spa import SPA_DIR, mount_spa
from forge.api.sse_encoding import SseFrameCache
from forge.api.trusted_hosts import TrustedHosts, allowed_hosts_for
from forge.bootstrap.container import Container
from forge.core.accounts.auth_mode import AuthRefusal, auth_enabled

GZIP_MINIMUM_BYTES = 1024  # smaller bodies gain less than the header costs


def _openapi_with_json_errors(app: FastAPI) -> Callable[[], dict[str, Any]]:
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = errors_as_json(generate())
        return app.openapi_schema

    return openapi


def _include_routers(app: FastAPI) -> None:
    """Health and login are public; every other router needs a user and its {session_id} paths an owner.
    Which routers there are is `routes/__init__.py`'s list."""
    signed_in = [Depends(current_user), Depends(guard_session_path)]
    mount_docs(app, dependencies=signed_in)
    for public in PUBLIC_ROUTERS:
        app.include_router(public)
    # every request must authenticate (FORGE_AUTH=on); {session_id} paths are owner-only
    for router in SIGNED_IN_ROUTERS:
        app.include_router(router, dependencies=signed_in, responses=error_responses(401))


def create_app(container: Container, spa_dir: Path = SPA_DIR) -> FastAPI:
    """The app; a ValueError (naming FORGE_AUTH) when auth is off on a non-loopback bind address."""
    auth_on = auth_enabled(container.settings.auth, container.settings.host)
    if isinstance(auth_on, AuthRefusal):
        raise ValueError(auth_on.message)

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
        openapi_url=None,  # served by mount_docs, behind authentication
    )
    app.state.container = container
    app.state.auth_enabled = auth_on
    app.state.sse_frames = SseFrameCache()
    app.state.login_attempts = LoginAttempts(settings.login_throttle)
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
    _include_routers(app)
    mount_spa(app, container.model.label, spa_dir)  # last: its catch-all must not shadow the API
    app.openapi = _openapi_with_json_errors(app)  # type: ignore[method-assign]
    return app
