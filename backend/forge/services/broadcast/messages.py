"""What a broadcast follower receives, and the read-only event source it falls back to.

Invariants:
    - Every type here is a frozen value; nothing is per follower but the follower's cursor.
    - `LiveEvent` is transient: never stored, carries no seq, and is never replayed from the source.
    - `StreamClosed` is always the last item of a stream; its `code` says why the server ended it.

Design decisions:
    - `EventSource` is two reads, each in its own short transaction, so a follower holds a database
      connection only while a page is being read, never while it waits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from forge.core.domain_types import SessionId
from forge.core.session.events import SessionEvent
from forge.core.session.record import StoredEvent

SERVER_SHUTDOWN = "SERVER_SHUTDOWN"
SESSION_DELETED = "SESSION_DELETED"
EVENTS_UNAVAILABLE = "EVENTS_UNAVAILABLE"
RUN_NOT_RUNNING = "RUN_NOT_RUNNING"  # the session has work but no live run: POST /run resumes it


class EventSource(Protocol):
    """The event log, read in short transactions (one per call)."""

    async def after(self, session_id: SessionId, after_seq: int, limit: int) -> list[StoredEvent]: ...

    async def last(self, session_id: SessionId) -> StoredEvent | None: ...


@dataclass(frozen=True, slots=True)
class LiveEvent:
    """A transient event (e.g. a text delta while a model streams); it has no seq and is not stored."""

    event: SessionEvent


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """Nothing happened for a while; `last_seq` is the follower's cursor."""

    last_seq: int


@dataclass(frozen=True, slots=True)
class StreamClosed:
    """The server ends the stream; `code` is one of the module's close codes."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class BroadcastStats:
    """What a broadcaster holds in memory right now (for metrics and leak checks)."""

    channels: int
    followers: int
    buffered_events: int
    background_tasks: int


FollowItem = StoredEvent | LiveEvent | Heartbeat | StreamClosed
