"""What `forge serve` and its run processes say to each other, and how it is framed on their socket.

Invariants:
    - One private socket pair per child, made by the parent before it starts the child: the only
      peer is our own process, so frames are pickled (a 4-byte big-endian length, then the pickle).
    - Each side's frames arrive in the order they were sent: a step's stored events, its live events
      and the run's end reach the parent in the order the child produced them.
    - The parent speaks first (`Hello`: the settings the child builds its container from); the child
      answers `Ready` once it can take runs.
"""

from __future__ import annotations

import asyncio
import pickle
import struct
from dataclasses import dataclass
from typing import Any

from forge.config import Settings
from forge.core.domain_types import Phase, SessionId
from forge.core.session.events import SessionEvent
from forge.core.session.record import RunLease, StoredEvent

_LENGTH = struct.Struct(">I")
MAX_FRAME_BYTES = 256 * 1024 * 1024  # a step's events are kilobytes; this only guards a corrupt length


# ---- parent -> child --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Hello:
    settings: Settings
    relay_origin: str | None  # PostgreSQL: relay live events as the parent, whose listener skips its own
    warm: bool  # load the tokenizer and the hypergraph before answering Ready


@dataclass(frozen=True, slots=True)
class StartRun:
    session_id: SessionId
    lease: RunLease


@dataclass(frozen=True, slots=True)
class CancelRun:
    session_id: SessionId


@dataclass(frozen=True, slots=True)
class Stop:
    """Cancel every run (each commits or drops its step in flight), report them, exit."""


# ---- child -> parent --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Ready:
    pid: int


@dataclass(frozen=True, slots=True)
class StepPublished:
    session_id: SessionId
    provider: str
    events: tuple[StoredEvent, ...]


@dataclass(frozen=True, slots=True)
class LivePublished:
    session_id: SessionId
    event: SessionEvent


@dataclass(frozen=True, slots=True)
class RunObserved:
    phase: Phase
    seconds: float


@dataclass(frozen=True, slots=True)
class RunFinished:
    owner: str
    failure: str | None  # the run's exception, when it raised instead of ending (cancelled: None)


ToChild = Hello | StartRun | CancelRun | Stop
ToParent = Ready | StepPublished | LivePublished | RunObserved | RunFinished


def encode_frame(message: ToChild | ToParent) -> bytes:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(body)) + body


async def read_frame(reader: asyncio.StreamReader) -> Any | None:
    """The next message, or None at a clean end of the stream (the peer closed or died)."""
    try:
        header = await reader.readexactly(_LENGTH.size)
    except asyncio.IncompleteReadError as partial:
        if partial.partial:
            raise ConnectionError("the run process socket closed in the middle of a frame") from partial
        return None
    (length,) = _LENGTH.unpack(header)
    if length > MAX_FRAME_BYTES:
        raise ConnectionError(f"a run process frame of {length} bytes: the stream is corrupt")
    try:
        body = await reader.readexactly(length)
    except asyncio.IncompleteReadError as partial:
        raise ConnectionError("the run process socket closed in the middle of a frame") from partial
    return pickle.loads(body)
