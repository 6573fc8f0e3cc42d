"""Reading a broadcaster's follow() stream in tests, without asserting on time.

- `until_waiting` (with a tiny heartbeat interval on the stream) reads what a follower gets by
  itself, from memory or its own source reads, until it has to wait.
- `take` reads a number of events that background work (a fill, a notification) must deliver,
  under a liveness guard far above the time it takes: a guard against hanging, not a measurement.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from forge.core.session.record import StoredEvent
from forge.services.broadcast.session_broadcast import FollowItem, Heartbeat

LIVENESS = 10.0
Stream = AsyncIterator[FollowItem]


async def until_waiting(stream: Stream) -> list[FollowItem]:
    """The items before the first heartbeat: the follower has caught up and found nothing more."""
    items: list[FollowItem] = []
    async for item in stream:
        if isinstance(item, Heartbeat):
            return items
        items.append(item)
    raise AssertionError(f"the stream ended without waiting, after {items}")


async def take(stream: Stream, count: int) -> list[FollowItem]:
    """The next `count` items that are not heartbeats."""
    items: list[FollowItem] = []
    async with asyncio.timeout(LIVENESS):
        async for item in stream:
            if not isinstance(item, Heartbeat):
                items.append(item)
            if len(items) == count:
                return items
    raise AssertionError(f"the stream ended after {items}")


async def take_each(streams: list[Stream], count: int) -> list[list[FollowItem]]:
    return await asyncio.gather(*(take(stream, count) for stream in streams))


async def drain(stream: Stream) -> list[FollowItem]:
    """Every item but heartbeats, until the stream ends by itself."""
    return [item async for item in stream if not isinstance(item, Heartbeat)]


def seqs(items: list[FollowItem]) -> list[int]:
    return [item.seq for item in items if isinstance(item, StoredEvent)]
