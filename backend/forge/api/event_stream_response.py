"""A lean `text/event-stream` response: one task writes the frames, one waits for the client to leave.

Invariants:
    - The body is written chunk by chunk as the iterator yields (never buffered); each chunk is one
      ASGI send, so a batch of frames is one write.
    - A client that disconnects ends the stream at once: the watcher cancels the writer while it
      waits for the next chunk (or the writer stops after its current send), the iterator is closed
      (its `finally` blocks run: a follower leaves its channel) and nothing more is sent. Any other
      cancellation (server shutdown, a cancelled task) propagates unchanged.
    - HEAD answers the headers and an empty body without starting the iterator.
    - Proxies are told not to buffer (`X-Accel-Buffering: no`) and nobody caches the stream.

Design decisions:
    - Written against plain asyncio instead of sse-starlette: fan-out to a thousand listeners is
      CPU-bound on per-stream and per-send overhead, and sse-starlette runs four tasks per stream in
      an anyio task group and a cancel scope per send. Keep-alive is the event feed's own heartbeat
      (with an id), and a server that stops ends streams through the broadcaster
      (`StreamClosed(SERVER_SHUTDOWN)` before uvicorn waits for open responses; see `serve_app`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from starlette.background import BackgroundTask
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no", "Connection": "keep-alive"}


class EventStreamResponse(Response):
    # The media type is set per instance, not on the class: FastAPI would otherwise document the
    # body as `{"type": "string"}` next to the routes' own SSE schema.

    def __init__(self, chunks: AsyncIterator[bytes], status_code: int = 200) -> None:
        # Not Response.__init__: it would render an empty body and declare Content-Length: 0.
        self.status_code = status_code
        self.media_type = "text/event-stream"
        self.background: BackgroundTask | None = None
        self.init_headers(STREAM_HEADERS)
        self._chunks = chunks

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers})
        if scope.get("method", "GET").upper() == "HEAD":
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        writer = asyncio.current_task()
        assert writer is not None  # always called from a task by the ASGI server
        stream = _StreamState(writer)
        watcher = asyncio.create_task(stream.watch(receive))
        try:
            await self._write(send, stream)
        finally:
            watcher.cancel()  # not awaited: it holds nothing, and awaiting could swallow our own cancel
            aclose = getattr(self._chunks, "aclose", None)
            if aclose is not None:
                await aclose()

    async def _write(self, send: Send, stream: _StreamState) -> None:
        while not stream.left:
            stream.waiting = True
            try:
                chunk = await anext(self._chunks)
            except StopAsyncIteration:
                break
            except asyncio.CancelledError:
                if not stream.left:
                    raise
                stream.writer.uncancel()  # the watcher's cancel: the client left, a normal end
                return
            finally:
                stream.waiting = False
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        if not stream.left:
            await send({"type": "http.response.body", "body": b"", "more_body": False})


class _StreamState:
    """Whether the client left, and whether the writer waits for the next chunk (only then may the
    watcher cancel it: the cancellation then always surfaces from that wait, nowhere else)."""

    def __init__(self, writer: asyncio.Task[object]) -> None:
        self.writer = writer
        self.left = False
        self.waiting = False

    async def watch(self, receive: Receive) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass  # a streaming GET has no body left to read; anything else is ignored
        self.left = True
        if self.waiting:
            self.writer.cancel()
