"""Turning the event feed into Server-Sent Events.

Invariants:
    - Every stored event's SSE message has `id` = its per-session sequence number, so
      `Last-Event-ID` resumes exactly after it; heartbeats repeat the last id (resuming from them
      loses nothing).
    - Live events (text as it streams, a discarded draft) carry no `id`: they are not in the log,
      and a client resuming after them misses nothing the log holds.
    - A stream the server must end (shutdown, session deleted) ends with an `error` event that
      says why (no id), never silently.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from fastapi import Request

from forge.core import session_events as ev
from forge.services.broadcast_types import FollowItem, Heartbeat, LiveEvent, StreamClosed


def sse_message(item: FollowItem) -> dict[str, str]:
    if isinstance(item, Heartbeat):
        return {"event": "heartbeat", "id": str(item.last_seq), "data": "{}"}
    if isinstance(item, LiveEvent):
        return {"event": item.event.type.value, "data": json.dumps(item.event.data, ensure_ascii=False)}
    if isinstance(item, StreamClosed):
        closing = ev.error(item.code, item.message, recoverable=True, severity="warning")
        return {"event": closing.type.value, "data": json.dumps(closing.data, ensure_ascii=False)}
    return {"event": item.type.value, "id": str(item.seq), "data": json.dumps(item.data, ensure_ascii=False)}


async def encode_sse(request: Request, feed: AsyncIterator[FollowItem]) -> AsyncIterator[dict[str, str]]:
    async for item in feed:
        if await request.is_disconnected():
            return
        yield sse_message(item)


def parse_last_event_id(header: str | None, query: str | None) -> int | str:
    """The cursor from the header or the query string, or a message saying what is wrong."""
    raw = query if query is not None else header
    if raw is None or raw == "":
        return 0
    try:
        value = int(raw)
    except ValueError:
        return f"Last-Event-ID must be a non-negative integer event id; got {raw!r}."
    return value if value >= 0 else f"Last-Event-ID must be non-negative; got {value}."
