"""The lean SSE response: streams chunk by chunk, ends when the client leaves, answers HEAD without a body."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from forge.api.event_stream_response import EventStreamResponse

SCOPE: dict[str, Any] = {"type": "http", "method": "GET", "asgi": {"spec_version": "2.3"}}


class Client:
    """The ASGI side of one request: what was sent, and a disconnect the test can trigger."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.leave = asyncio.Event()
        self.chunk_sent = asyncio.Event()

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        if message["type"] == "http.response.body" and message.get("body"):
            self.chunk_sent.set()

    async def receive(self) -> dict[str, Any]:
        await self.leave.wait()
        return {"type": "http.disconnect"}

    def bodies(self) -> list[bytes]:
        return [m["body"] for m in self.sent if m["type"] == "http.response.body"]

    def headers(self) -> dict[bytes, bytes]:
        return dict(self.sent[0]["headers"])


async def test_streams_each_chunk_as_it_is_yielded_and_ends_the_body() -> None:
    client = Client()
    release = asyncio.Event()

    async def chunks() -> AsyncIterator[bytes]:
        yield b"event: a\r\n\r\n"
        await release.wait()
        yield b"event: b\r\n\r\n"

    task = asyncio.create_task(EventStreamResponse(chunks())(SCOPE, client.receive, client.send))
    await client.chunk_sent.wait()
    assert client.bodies() == [b"event: a\r\n\r\n"]  # written before the second chunk exists
    release.set()
    await task
    assert client.bodies() == [b"event: a\r\n\r\n", b"event: b\r\n\r\n", b""]
    assert client.sent[-1]["more_body"] is False


async def test_declares_an_event_stream_without_a_content_length() -> None:
    client = Client()

    async def chunks() -> AsyncIterator[bytes]:
        yield b"x"

    await EventStreamResponse(chunks())(SCOPE, client.receive, client.send)
    headers = client.headers()
    assert headers[b"content-type"].startswith(b"text/event-stream")
    assert b"content-length" not in headers
    assert headers[b"cache-control"] == b"no-store" and headers[b"x-accel-buffering"] == b"no"


async def test_a_client_that_leaves_ends_the_stream_and_closes_the_feed() -> None:
    client = Client()
    closed = asyncio.Event()

    async def chunks() -> AsyncIterator[bytes]:
        try:
            yield b"first"
            await asyncio.Event().wait()  # a feed with nothing more to say for now
            yield b"never"
        finally:
            closed.set()

    task = asyncio.create_task(EventStreamResponse(chunks())(SCOPE, client.receive, client.send))
    await client.chunk_sent.wait()
    client.leave.set()
    await task  # ends normally: a client leaving is not an error
    assert closed.is_set()
    assert client.bodies() == [b"first"]  # nothing after the client left, not even the terminator
    assert not task.cancelled()


async def test_a_cancelled_response_stays_cancelled() -> None:
    client = Client()

    async def chunks() -> AsyncIterator[bytes]:
        yield b"first"
        await asyncio.Event().wait()
        yield b"never"

    task = asyncio.create_task(EventStreamResponse(chunks())(SCOPE, client.receive, client.send))
    await client.chunk_sent.wait()
    task.cancel()  # e.g. the server gave up on open responses
    await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled()


async def test_head_answers_headers_and_an_empty_body_without_starting_the_feed() -> None:
    client = Client()
    started = False

    async def chunks() -> AsyncIterator[bytes]:
        nonlocal started
        started = True
        yield b"x"

    await EventStreamResponse(chunks())({**SCOPE, "method": "HEAD"}, client.receive, client.send)
    assert client.bodies() == [b""] and not started
