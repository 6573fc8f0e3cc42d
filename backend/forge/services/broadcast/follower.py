"""One follower of a session channel: a cursor that reads memory when it can and the source when it must.

Invariants:
    - The cursor only moves forward and only to the seq of the event just returned, so every
      committed event after the starting cursor is returned exactly once, in order.
    - The next event (cursor + 1) comes from the ring if the ring still has it; if it is at or below
      the channel's head but evicted (or older than the channel's start) it comes from a page of
      the source; above head the follower waits. Memory per follower is its cursor plus at most one
      source page.
    - Deciding to wait and taking the wake-up signal happen in one synchronous step, so a publish
      between "nothing to do" and "wait" always wakes the follower.
    - While waiting the follower holds no database connection and no lock: only a wake-signal
      wait, which cancellation unwinds completely. It arms no timer: the channel's owner ticks the
      channel (a wake-up without a change) often enough for each follower's heartbeat deadline.

Design decisions:
    - `_step` is synchronous and returns either an item or what to do next (read, wait, end); the
      async `next_item` performs that action. The state machine is therefore testable by reading.
    - A follower that sees the source ahead of the channel tells the channel (`note_committed`),
      so a missed notification turns into one gap fill by the owner instead of a stuck stream.
    - `next_batch` returns every item that is ready without waiting (up to a limit) after the first:
      events committed together reach a listener in one write, so fan-out costs one send per
      listener per wake-up, not one per event.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from enum import Enum

from forge.core.session.record import StoredEvent
from forge.services.broadcast.channel import SessionChannel
from forge.services.broadcast.messages import FollowItem, Heartbeat, StreamClosed
from forge.services.broadcast.sliced_wake_signal import SlicedWakeSignal

PageReader = Callable[[int], Awaitable[list[StoredEvent] | StreamClosed]]


class _Next(Enum):
    END = "end"
    READ_SOURCE = "read_source"
    WAIT = "wait"


class ChannelFollower:
    def __init__(
        self, channel: SessionChannel, after_seq: int, read_page: PageReader, request_fill: Callable[[], None]
    ) -> None:
        self._channel = channel
        self._cursor = after_seq
        self._live_next = 0
        self._page: deque[StoredEvent] = deque()
        self._read_page = read_page
        self._request_fill = request_fill

    async def next_item(self, heartbeat_seconds: float) -> FollowItem | None:
        """The next item, or None when the stream ends by the end rule."""
        deadline = asyncio.get_running_loop().time() + heartbeat_seconds
        while True:
            signal = self._channel.wake_signal()
            step = self._step()
            if step is _Next.END:
                return None
            if step is _Next.READ_SOURCE:
                failure = await self._read_source()
                if failure is not None:
                    return failure
                if self._page:
                    continue
            elif step is not _Next.WAIT:
                return step
            if not await self._wait(signal, deadline):
                if self._channel.has_gap():
                    self._request_fill()  # a fill that failed earlier is retried at heartbeat pace
                return Heartbeat(self._cursor)

    async def next_batch(self, heartbeat_seconds: float, limit: int = 64) -> list[FollowItem]:
        """The next item and every item ready after it without waiting (at most `limit`); an empty
        list when the stream ends by the end rule. A Heartbeat or StreamClosed is always alone or last."""
        first = await self.next_item(heartbeat_seconds)
        if first is None:
            return []
        batch = [first]
        while len(batch) < limit and not isinstance(batch[-1], (Heartbeat, StreamClosed)):
            step = self._step()
            if isinstance(step, _Next):
                break  # END, or a source read / a wait: left to the next call
            batch.append(step)
        return batch

    def _step(self) -> FollowItem | _Next:
        channel = self._channel
        if channel.closed is not None:
            return channel.closed
        if self._page:
            return self._take(self._page.popleft())
        if channel.ends_at(self._cursor):
            return _Next.END
        head = channel.head
        if head is not None and self._cursor < head:
            stored = channel.event_at(self._cursor + 1)
            return _Next.READ_SOURCE if stored is None else self._take(stored)
        if channel.caught_up(self._cursor):
            live, self._live_next = channel.live_from(self._live_next)
            if live is not None:
                return live
        return _Next.WAIT

    def _take(self, stored: StoredEvent) -> StoredEvent:
        self._cursor = stored.seq
        return stored

    async def _read_source(self) -> StreamClosed | None:
        page = await self._read_page(self._cursor)
        if isinstance(page, StreamClosed):
            return page
        fresh = [stored for stored in page if stored.seq > self._cursor]
        if fresh:
            self._channel.note_committed(fresh[-1].seq)
            if self._channel.has_gap():
                self._request_fill()
        self._page.extend(fresh)
        return None

    @staticmethod
    async def _wait(signal: SlicedWakeSignal, deadline: float) -> bool:
        """False once the deadline has passed; otherwise wait for a change or the channel's heartbeat
        tick (its owner's ticker) and return True — the caller looks again and waits again."""
        if asyncio.get_running_loop().time() >= deadline:
            return False
        await signal.wait()
        return True
