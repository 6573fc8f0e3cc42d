"""Turning the event feed into Server-Sent Events.

Invariants:
    - Every stored event's SSE message has `id` = its per-session sequence number, so
      `Last-Event-ID` resumes exactly after it; heartbeats repeat the last id (resuming from them
      loses nothing).
    - Live events (text as it streams, a discarded draft) carry no `id`: they are not in the log,
      and a client resuming after them misses nothing the log holds.
    - A stream the server must end (shutdown, session deleted) ends with an `error` event that
      says why (no id), never silently.
    - `SSE_EVENT_SCHEMA` describes one SSE message as OpenAPI 3.1 reads a `text/event-stream` schema
      (one event): `event` is an event type, `id` its sequence number (absent for live events), and
      `data` the JSON of that type's data model (`contentSchema`), built from `EVENT_MODELS` so it
      cannot miss a type.
    - `data` is compact JSON (msgspec; UTF-8 kept as is). A stored event's frame is encoded once
      per process (`SseFrameCache`, by session and seq), and so is a live event's (by the one
      `LiveEvent` object every follower of the channel receives), whatever the number of listeners.
    - A cursor is ASCII digits with a value in 0..MAX_INT64; the message for anything else names the
      source (`?last_event_id=` or the `Last-Event-ID` header) and quotes at most MAX_ECHO_CHARS of it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

import msgspec
from pydantic import BaseModel
from sse_starlette import ServerSentEvent

from forge.api.request_limits import MAX_INT64, quote_input
from forge.api.schemas.events import EVENT_MODELS
from forge.core.domain_types import SessionId
from forge.core.identity_memo import IdentityMemo
from forge.core.session import events as ev
from forge.core.session.record import StoredEvent
from forge.services.broadcast.messages import FollowItem, Heartbeat, LiveEvent, StreamClosed


def _data_schema(event_model: type[BaseModel]) -> dict[str, Any]:
    data = event_model.model_fields["data"].annotation
    if isinstance(data, type) and issubclass(data, BaseModel):
        return {"$ref": f"#/components/schemas/{data.__name__}"}
    return {"type": "string"}


SSE_EVENT_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {
            "type": "object",
            # Stored events always have an id; live events and a closing `error` (the server ends the
            # stream) have none.
            "required": ["event", "data"],
            "properties": {
                "event": {"const": event_type.value},
                "id": {"type": "string", "pattern": "^[0-9]+$"},
                "data": {
                    "type": "string",
                    "contentMediaType": "application/json",
                    "contentSchema": _data_schema(model),
                },
            },
        }
        for event_type, model in EVENT_MODELS.items()
    ]
}


def _json(data: object) -> str:
    return msgspec.json.encode(data).decode()


def sse_message(item: FollowItem) -> dict[str, str]:
    if isinstance(item, Heartbeat):
        return {"event": "heartbeat", "id": str(item.last_seq), "data": "{}"}
    if isinstance(item, LiveEvent):
        return {"event": item.event.type.value, "data": _json(item.event.data)}
    if isinstance(item, StreamClosed):
        closing = ev.error(item.code, item.message, recoverable=True, severity="warning")
        return {"event": closing.type.value, "data": _json(closing.data)}
    return {"event": item.type.value, "id": str(item.seq), "data": _json(item.data)}


def _encoded(message: dict[str, str]) -> bytes:
    return ServerSentEvent(data=message["data"], event=message["event"], id=message.get("id")).encode()


class SseFrameCache:
    """The encoded SSE frame of each recently sent stored event, shared by every stream of the process.

    One event watched by N listeners is JSON-encoded once, not N times (fan-out is CPU-bound on the
    encoding). Bounded: the oldest frames are dropped first."""

    def __init__(self, max_frames: int = 8192, max_live_frames: int = 1024) -> None:
        self._frames: OrderedDict[tuple[SessionId, int], bytes] = OrderedDict()
        self._max = max_frames
        self._live: IdentityMemo[bytes] = IdentityMemo(max_live_frames)  # by the LiveEvent every follower shares

    def frame(self, session_id: SessionId, item: FollowItem) -> bytes:
        if isinstance(item, LiveEvent):
            return self._live.get(item, lambda: _encoded(sse_message(item)))
        if not isinstance(item, StoredEvent):
            return _encoded(sse_message(item))
        key = (session_id, item.seq)
        cached = self._frames.get(key)
        if cached is None:
            cached = self._frames[key] = _encoded(sse_message(item))
            if len(self._frames) > self._max:
                self._frames.popitem(last=False)
        return cached


async def encode_sse(
    frames: SseFrameCache, session_id: SessionId, feed: AsyncIterator[list[FollowItem]]
) -> AsyncIterator[bytes]:
    """One chunk per batch: the frames of the items that were ready together, in order."""
    # No per-event disconnect poll: the response watches for `http.disconnect` and ends the stream.
    async for batch in feed:
        yield b"".join(frames.frame(session_id, item) for item in batch)


def parse_last_event_id(header: str | None, query: str | None) -> int | str:
    """The cursor from the header or the query string, or a message saying what is wrong."""
    raw = query if query is not None else header
    if raw is None or raw == "":
        return 0
    name = "last_event_id" if query is not None else "Last-Event-ID"
    if not (raw.isascii() and raw.isdigit()):
        return f"{name} must be a non-negative integer event id; got {quote_input(raw)}."
    if len(raw.lstrip("0")) > len(str(MAX_INT64)) or int(raw) > MAX_INT64:
        return f"{name} must be at most {MAX_INT64} (a 64-bit event id); got {quote_input(raw)}."
    return int(raw)
