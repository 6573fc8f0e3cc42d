"""Reading a whole SSE response with httpx-sse (the streams end when the agent pauses)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx
from httpx_sse import aconnect_sse

from forge.core.session.events import LIVE_EVENT_TYPES


@dataclass(frozen=True)
class Received:
    id: int | None  # None: a frame without an id (a live event, or the error that closes a stream)
    type: str
    data: Any


LIVE_TYPES = frozenset(t.value for t in LIVE_EVENT_TYPES)


async def read_stream(
    client: httpx.AsyncClient, method: str, url: str, *, live: bool = False, **kwargs: Any
) -> list[Received]:
    """The stream's events; live-only ones (no id: text deltas, engine progress) only with `live`,
    with id None (httpx-sse repeats the last id on a frame without one)."""
    received: list[Received] = []
    async with aconnect_sse(client, method, url, **kwargs) as source:
        assert source.response.status_code == 200, source.response.text
        async for sse in source.aiter_sse():
            if sse.event in LIVE_TYPES:
                if live:
                    received.append(Received(None, sse.event, json.loads(sse.data)))
                continue
            received.append(Received(int(sse.id), sse.event, json.loads(sse.data)))
    return received


def parse_sse_body(text: str) -> list[Received]:
    """The events of a whole SSE body (a buffered response); heartbeats and comments left out."""
    received: list[Received] = []
    fields: dict[str, list[str]] = {}
    for line in [*text.splitlines(), ""]:
        if line == "":
            if "event" in fields and fields["event"][0] != "heartbeat":
                data = "\n".join(fields.get("data", []))
                sse_id = fields.get("id", [""])[0]
                received.append(Received(int(sse_id) if sse_id else None, fields["event"][0], json.loads(data)))
            fields = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            fields.setdefault(name, []).append(value.removeprefix(" "))
    return received


async def run_and_stream(client: httpx.AsyncClient, sid: str, **kwargs: Any) -> list[Received]:
    """POST /run (the only way a session's run starts), then read its stream until the run pauses."""
    started = await client.post(f"/api/v1/sessions/{sid}/run")
    assert started.status_code == 200, started.text
    return await read_stream(client, "GET", f"/api/v1/sessions/{sid}/stream", **kwargs)
