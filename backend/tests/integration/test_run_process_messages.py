"""The frames between `forge serve` and its run processes: what is written is read back, in order;
a peer that closes between frames is a clean end; a peer that dies mid-frame or a corrupt length is
an error, never a wrong message."""

from __future__ import annotations

import asyncio
import struct
from datetime import UTC, datetime
from uuid import UUID

import pytest

from forge.config import Settings
from forge.core.domain_types import EventSeq, SessionId
from forge.core.session import events as ev
from forge.core.session.record import RunLease, StoredEvent
from forge.run_processes.messages import (
    MAX_FRAME_BYTES,
    CancelRun,
    Hello,
    RunFinished,
    StartRun,
    StepPublished,
    encode_frame,
    read_frame,
)

SID = SessionId(UUID(int=7))
AT = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def reader_of(data: bytes, *, eof: bool = True) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    if eof:
        reader.feed_eof()
    return reader


async def test_messages_are_read_back_equal_and_in_order_then_a_clean_end() -> None:
    done = ev.done(error=False, awaiting_input=True)
    stored = (StoredEvent(EventSeq(3), done.type, done.data, AT),)
    messages = [
        Hello(Settings(database_url="sqlite+aiosqlite:///x.db"), None, warm=True),
        StartRun(SID, RunLease("host/run-1", AT)),
        StepPublished(SID, "offline", stored),
        CancelRun(SID),
        RunFinished("host/run-1", None),
    ]
    reader = reader_of(b"".join(map(encode_frame, messages)))
    assert [await read_frame(reader) for _ in messages] == messages
    assert await read_frame(reader) is None


async def test_a_peer_that_dies_inside_a_frame_is_an_error_not_a_message() -> None:
    frame = encode_frame(CancelRun(SID))
    with pytest.raises(ConnectionError, match="middle of a frame"):
        await read_frame(reader_of(frame[:-3]))
    with pytest.raises(ConnectionError, match="middle of a frame"):
        await read_frame(reader_of(frame[:2]))


async def test_a_corrupt_length_is_refused_before_reading_the_body() -> None:
    reader = reader_of(struct.pack(">I", MAX_FRAME_BYTES + 1), eof=False)
    with pytest.raises(ConnectionError, match="corrupt"):
        await read_frame(reader)
