"""Per request: a request id (the client's `X-Request-ID` when it is sane, else a new one), the
session id from the path, both in the logging context; the id echoed as `X-Request-ID`.

Invariants:
    - A client's X-Request-ID is used only when it is 1..64 characters of [A-Za-z0-9._-]; anything
      else is replaced, so a log line never carries what a client injected.
    - With `access_log`, one `forge.access` line per request: method, path, status, duration_ms
      (JSON logs replace uvicorn's access log with these, which carry the ids).
"""

from __future__ import annotations

import logging
import re
import time
import uuid

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from forge.observability.logging_setup import REQUEST_ID, SESSION_ID

access_log = logging.getLogger("forge.access")

SANE_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
SESSION_PATH = re.compile(r"^/api/v1/sessions/([0-9a-fA-F-]{36})(?:/|$)")


def request_id_from(headers: list[tuple[bytes, bytes]]) -> str:
    given = next((v.decode("latin-1") for k, v in headers if k == b"x-request-id"), "")
    return given if SANE_REQUEST_ID.match(given) else uuid.uuid4().hex


class RequestContext:
    def __init__(self, app: ASGIApp, *, log_access: bool) -> None:
        self.app = app
        self.log_access = log_access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = request_id_from(scope.get("headers", []))
        session = SESSION_PATH.match(scope["path"])
        request_token = REQUEST_ID.set(request_id)
        session_token = SESSION_ID.set(session.group(1).lower() if session else None)
        started, status = time.perf_counter(), 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message = {**message, "headers": [*message.get("headers", ()), (b"x-request-id", request_id.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if self.log_access:
                access_log.info(
                    "%s %s %s",
                    scope["method"],
                    scope["path"],
                    status,
                    extra={
                        "method": scope["method"],
                        "path": scope["path"],
                        "status": status,
                        "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                    },
                )
            REQUEST_ID.reset(request_token)
            SESSION_ID.reset(session_token)
