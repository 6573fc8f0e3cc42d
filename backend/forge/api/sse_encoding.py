"""Turning the event feed into Server-Sent Events.

Invariants:
    - Every SSE message has `id` = the event's per-session sequence number, so `Last-Event-ID`
      resumes exactly after it; heartbeats repeat the last id (resuming from them loses nothing).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

from fastapi import Request

from forge.core.session_record import StoredEvent
from forge.services.session_event_feed import Heartbeat


async def encode_sse(request: Request, feed: AsyncIterator[StoredEvent | Heartbeat]) -> AsyncIterator[dict[str, str]]:
    async for item in feed:
        if await request.is_disconnected():
            return
        if isinstance(item, Heartbeat):
            yield {"event": "heartbeat", "id": str(item.last_seq), "data": "{}"}
        else:
            yield {"event": item.type.value, "id": str(item.seq), "data": json.dumps(item.data, ensure_ascii=False)}


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
