"""follow_batches: what is ready together is yielded together (one write per listener per wake-up),
and the batches, flattened, are exactly what `follow` yields."""

from __future__ import annotations

import asyncio
import uuid

from support.memory_event_log import MemoryEventLog

from forge.core.domain_types import SessionId
from forge.core.session import events as ev
from forge.core.session.record import StoredEvent
from forge.services.broadcast.session_broadcast import FollowItem, Heartbeat, SessionBroadcaster, StreamClosed

SID = SessionId(uuid.UUID(int=7))
QUICK = 0.005


async def next_batch(batches: object) -> list[FollowItem]:
    async with asyncio.timeout(10):  # a liveness guard, not a measurement
        return await anext(batches)  # type: ignore[call-overload,no-any-return]


async def test_events_committed_together_reach_a_waiting_follower_in_one_batch() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 2)
    broadcaster = SessionBroadcaster(log)
    batches = broadcaster.follow_batches(SID, 2, heartbeat_seconds=QUICK)
    assert await next_batch(batches) == [Heartbeat(last_seq=2)]  # caught up: waiting alone
    step = log.commit_texts(SID, 3)
    broadcaster.published(SID, step)
    assert await next_batch(batches) == step


async def test_replay_from_memory_comes_in_bounded_batches_in_order() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 150)
    broadcaster = SessionBroadcaster(log)
    batches = broadcaster.follow_batches(SID, 0, heartbeat_seconds=QUICK)
    received: list[StoredEvent] = []
    while not received or received[-1].seq < 150:
        batch = await next_batch(batches)
        assert 1 <= len(batch) <= 64
        received += [item for item in batch if isinstance(item, StoredEvent)]
    assert received == log.events(SID)


async def test_a_closing_stream_ends_its_last_batch() -> None:
    log = MemoryEventLog()
    log.commit_texts(SID, 1)
    broadcaster = SessionBroadcaster(log)
    batches = broadcaster.follow_batches(SID, 1, heartbeat_seconds=QUICK)
    assert await next_batch(batches) == [Heartbeat(last_seq=1)]
    await broadcaster.close()
    last = await next_batch(batches)
    assert isinstance(last[-1], StreamClosed) and last[-1].code == "SERVER_SHUTDOWN"
    assert [batch async for batch in batches] == []


async def test_a_done_ends_the_batches_after_the_batch_that_holds_it() -> None:
    log = MemoryEventLog()
    texts = log.commit_texts(SID, 2)
    (done,) = log.commit(SID, ev.done(error=False, awaiting_input=True))
    broadcaster = SessionBroadcaster(log)
    batches = [batch async for batch in broadcaster.follow_batches(SID, 0)]
    assert [item for batch in batches for item in batch] == [*texts, done]
