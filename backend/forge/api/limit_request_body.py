"""A pure ASGI middleware that bounds request bodies while they stream in.

Invariants:
    - A body declared larger than the limit (Content-Length) is answered 413 before the app runs;
      nothing of it is read.
    - A body without a declared length (chunked) is counted chunk by chunk as the app reads it; the
      read that passes the limit raises `BodyTooLarge` (an HTTPException, so FastAPI's body parsing
      passes it on and it is rendered as `{"detail": ...}` with status 413). Nothing after that chunk
      is read: the middleware never buffers, it only counts.
    - Once the limit is passed, every later read raises again before the response has started, or
      reports `http.disconnect` after it has (a streaming response then ends as if the client left).
    - Every 413 carries `Connection: close`: the unread rest of the body makes the connection unusable.

Design decisions:
    - Written against the ASGI interface, not `BaseHTTPMiddleware`, which cannot see individual
      `http.request` messages and would let a chunked body through.
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from forge.api.request_limits import MAX_BODY_BYTES

CLOSE = {"Connection": "close"}


class BodyTooLarge(HTTPException):
    def __init__(self, detail: str) -> None:
        super().__init__(413, detail, headers=CLOSE)


def too_large_message(limit: int, declared: int | None = None) -> str:
    size = f"{declared} bytes" if declared is not None else f"more than {limit} bytes"
    return f"Request body too large: {size}; the limit is {limit} bytes. Send a smaller body."


def declared_length(scope: Scope) -> int | None:
    """The Content-Length header as an integer, or None when absent or not a number."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else None
    return None


class LimitRequestBody:
    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = declared_length(scope)
        if declared is not None and declared > self.max_bytes:
            await _send_413(send, too_large_message(self.max_bytes, declared))
            return
        counted = _CountingReceive(receive, send, self.max_bytes)
        try:
            await self.app(scope, counted.receive, counted.send)
        except BodyTooLarge as error:
            if counted.response_started:
                raise
            await _send_413(send, str(error.detail))


class _CountingReceive:
    """Wraps one request's `receive` (counting body bytes) and `send` (noting the response start)."""

    def __init__(self, receive: Receive, send: Send, max_bytes: int) -> None:
        self._receive = receive
        self._send = send
        self._max_bytes = max_bytes
        self._seen = 0
        self.response_started = False

    async def receive(self) -> Message:
        if self._seen > self._max_bytes:
            return self._refuse()
        message = await self._receive()
        if message["type"] == "http.request":
            self._seen += len(message.get("body", b""))
            if self._seen > self._max_bytes:
                return self._refuse()
        return message

    def _refuse(self) -> Message:
        if self.response_started:
            return {"type": "http.disconnect"}
        raise BodyTooLarge(too_large_message(self._max_bytes))

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.response_started = True
        await self._send(message)


async def _send_413(send: Send, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})
