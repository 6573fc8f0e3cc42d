"""Committed session events go to SSE followers from memory; the database is read only to catch up.

Invariants:
    - `follow` (and `follow_batches`, the same items grouped per wake-up) yields every committed event with seq > after_seq exactly once, in order, without a
      gap, whatever the order, duplication or gaps of the publish calls (see ChannelFollower).
    - A follower holds a database connection only while one source page is read (one short
      transaction); waiting is a wake-signal wait, so any number of followers cost no connection.
    - Heartbeats: one ticker task per channel (period: its followers' smallest heartbeat / 4) wakes
      the waiting followers, and each returns a Heartbeat once its own interval has passed (at most
      a quarter of it late). A timeout armed per wait was about half of the fan-out's CPU at 1,000
      listeners (a timer pushed on and cancelled from the loop's heap at every wake-up).
    - Per process and channel, missing events are fetched from the source by ONE fill task (gaps,
      other processes' commits, reconnects), never once per follower. PostgreSQL also notifies a
      process of its own commits, often before the committing task publishes them: a gap announced
      while this process commits events of the session (inside `committing`) is
      read only if still open when that commit settles; any other announced gap is read
      NOTIFIED_GRACE_SECONDS later, and only if still missing.
    - A channel exists exactly while it has followers: publishing to a session nobody follows
      stores nothing, and the last follower to leave drops and closes the channel. Memory
      is therefore bounded by followed sessions x (buffer_size + live_buffer_size), plus at most one
      source page per follower.
    - End rule: a follow returns once the latest committed event known for the session is a DONE at
      or below its cursor (found on connect, or just yielded): the run paused or finished. A run
      that starts again commits a new event before anyone follows it, so no "is running" query.
    - After `close()`, and for a deleted session, every follower gets one StreamClosed and ends.

Design decisions:
    - A channel is started on its first follower from the source: `last` then the tail of up to
      min(buffer_size, page_size) events, so followers that connect together replay recent events
      from memory — but not further back than that first follower's cursor, less WARM_EVENTS: a
      client resuming after a pause (a review, a reconnect) wants the few events since, and reading
      the whole tail again at every resume was ~3% of the server's CPU in bench_load. A later
      follower with an older cursor reads what it lacks in pages, as any follower behind the buffer.
      Publishes that arrive while it starts wait in its reorder buffer.
    - A source failure ends the follower's stream with StreamClosed(EVENTS_UNAVAILABLE) instead of
      cutting it silently; the client reconnects with Last-Event-ID.
    - A source read is never cancelled half-way (a follower that leaves, the last follower leaving,
      close() and session deletion only cancel the ticker): database calls are not made to survive
      a cancellation (docs/architecture.md, fan-out). Reads are short; close() waits for them,
      bounded by CLOSE_GRACE_SECONDS.
    - Publishing is synchronous and never waits for anyone.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import AsyncIterator, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from forge.core.domain_types import SessionId
from forge.core.session.events import SessionEvent
from forge.core.session.record import StoredEvent
from forge.services.broadcast.channel import SessionChannel
from forge.services.broadcast.follower import ChannelFollower
from forge.services.broadcast.messages import (
    EVENTS_UNAVAILABLE,
    SERVER_SHUTDOWN,
    SESSION_DELETED,
    BroadcastStats,
    EventSource,
    FollowItem,
    Heartbeat,
    LiveEvent,
    StreamClosed,
)

__all__ = [
    "BroadcastStats",
    "EventSource",
    "FollowItem",
    "Heartbeat",
    "LiveEvent",
    "SessionBroadcaster",
    "StreamClosed",
]

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0
# Ticks per heartbeat: a follower's heartbeat is at most 1/TICKS of its interval late.
TICKS_PER_HEARTBEAT = 4
# How long close() lets in-flight source reads finish before cancelling them.
CLOSE_GRACE_SECONDS = 5.0
# How long a gap announced by a notification may be filled by this process's own publish before it is read.
NOTIFIED_GRACE_SECONDS = 0.02
# A starting channel warms its buffer with at least this many events before its first follower's cursor.
WARM_EVENTS = 8


@dataclass(eq=False)
class _Entry:
    """A registered channel and the background work that feeds it (at most one start, one fill)."""

    channel: SessionChannel
    # Resolved when the channel has started (None) or cannot be (why); closing resolves it too,
    # so followers waiting for a start in flight end at once while the read runs to its end.
    started: asyncio.Future[StreamClosed | None] | None = None
    fill: asyncio.Task[None] | None = None
    fill_again: bool = False
    tick_seconds: float = math.inf  # the heartbeat ticker's period: the smallest follower heartbeat / TICKS
    ticker: asyncio.Task[None] | None = None


class SessionBroadcaster:
    def __init__(
        self,
        source: EventSource,
        *,
        buffer_size: int = 2048,
        page_size: int = 500,
        live_buffer_size: int = 1024,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        close_grace_seconds: float = CLOSE_GRACE_SECONDS,
    ) -> None:
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        self._source = source
        self._heartbeat_seconds = heartbeat_seconds
        self._close_grace_seconds = close_grace_seconds
        self._buffer_size = buffer_size
        self._page_size = page_size
        self._live_buffer_size = live_buffer_size
        self._entries: dict[SessionId, _Entry] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed: StreamClosed | None = None
        self._committing: dict[SessionId, int] = {}  # commits of this process in flight, per session

    # ---- the committing side --------------------------------------------------------------------

    @contextmanager
    def committing(self, session_id: SessionId) -> Iterator[None]:
        """Around a commit of the session's events and their `published` call: a notification of
        them meanwhile waits for the commit to settle (published, failed or rolled back) instead of
        a grace period, and a gap still open then is read."""
        self._committing[session_id] = self._committing.get(session_id, 0) + 1
        try:
            yield
        finally:
            self._settled(session_id)

    def _settled(self, session_id: SessionId) -> None:
        left = self._committing.pop(session_id, 1) - 1
        if left > 0:
            self._committing[session_id] = left
            return
        entry = self._entries.get(session_id)
        if entry is not None and entry.channel.has_gap():
            self._request_fill(entry)  # announced, and not published here: committed elsewhere or lost

    def published(self, session_id: SessionId, events: Sequence[StoredEvent]) -> None:
        """This process committed `events` (ascending seq); call right after the commit."""
        entry = self._entries.get(session_id)
        if entry is None:
            return
        entry.channel.accept(events)
        if entry.channel.has_gap():
            self._request_fill(entry)

    def publish_live(self, session_id: SessionId, event: SessionEvent) -> None:
        """A transient event for caught-up followers; dropped when the next committed event arrives."""
        entry = self._entries.get(session_id)
        if entry is not None:
            entry.channel.add_live(LiveEvent(event))

    def committed_elsewhere(self, session_id: SessionId, last_seq: int) -> None:
        """Another process committed events up to `last_seq`; fetched once for all followers here."""
        entry = self._entries.get(session_id)
        if entry is None:
            return
        entry.channel.note_committed(last_seq)
        if entry.channel.has_gap() and session_id not in self._committing:
            # PostgreSQL tells this process of its own commits too, often before the committing
            # task has published them: wait a moment, and read only what is then still missing.
            self._request_fill(entry, grace=NOTIFIED_GRACE_SECONDS)

    def resync(self) -> None:
        """Notifications may have been missed (listener reconnected): every channel re-reads its tail."""
        for entry in self._entries.values():
            entry.fill_again = True
            self._request_fill(entry)

    def session_deleted(self, session_id: SessionId) -> None:
        entry = self._entries.pop(session_id, None)
        if entry is not None:
            self._shut(entry, StreamClosed(SESSION_DELETED, "The session was deleted."))

    async def close(self) -> None:
        """Every follower gets StreamClosed(SERVER_SHUTDOWN) and ends; later follows end at once."""
        self._closed = StreamClosed(SERVER_SHUTDOWN, "The server is shutting down.")
        entries, self._entries = list(self._entries.values()), {}
        for entry in entries:
            self._shut(entry, self._closed)
        pending = [task for task in self._tasks if not task.done()]
        if pending:
            _, late = await asyncio.wait(pending, timeout=self._close_grace_seconds)
            for task in late:
                task.cancel()  # a read that hangs past the grace period; shutting down wins
            await asyncio.gather(*pending, return_exceptions=True)

    def stats(self) -> BroadcastStats:
        entries = self._entries.values()
        return BroadcastStats(
            channels=len(self._entries),
            followers=sum(entry.channel.followers for entry in entries),
            buffered_events=sum(entry.channel.buffered() for entry in entries),
            background_tasks=sum(1 for task in self._tasks if not task.done()),
        )

    # ---- the following side ---------------------------------------------------------------------

    async def follow(
        self, session_id: SessionId, after_seq: int, *, heartbeat_seconds: float | None = None
    ) -> AsyncIterator[FollowItem]:
        """Committed events after `after_seq`, then live ones; see the module invariants."""
        async for batch in self.follow_batches(session_id, after_seq, heartbeat_seconds=heartbeat_seconds):
            for item in batch:
                yield item

    async def follow_batches(
        self, session_id: SessionId, after_seq: int, *, heartbeat_seconds: float | None = None
    ) -> AsyncIterator[list[FollowItem]]:
        """As `follow`, in non-empty batches of the items ready at each wake-up (one write per batch)."""
        heartbeat = self._heartbeat_seconds if heartbeat_seconds is None else heartbeat_seconds
        if self._closed is not None:
            yield [self._closed]
            return
        entry = self._join(session_id)
        self._keep_ticking(entry, heartbeat)
        try:
            failure = await self._started(entry, after_seq)
            if failure is not None:
                yield [failure]
                return
            follower = ChannelFollower(
                entry.channel,
                after_seq,
                lambda cursor: self._read_page_to_the_end(entry, cursor),
                lambda: self._request_fill(entry),
            )
            while batch := await follower.next_batch(heartbeat):
                yield batch
                if isinstance(batch[-1], StreamClosed):
                    return
        finally:
            self._leave(session_id, entry)

    def _join(self, session_id: SessionId) -> _Entry:
        entry = self._entries.get(session_id)
        if entry is None:
            channel = SessionChannel(session_id, self._buffer_size, self._live_buffer_size)
            entry = self._entries[session_id] = _Entry(channel)
        entry.channel.followers += 1
        return entry

    def _keep_ticking(self, entry: _Entry, heartbeat: float) -> None:
        """One ticker per channel wakes its waiting followers so each can tell whether its heartbeat
        is due: no follower arms a timer of its own per wait."""
        entry.tick_seconds = min(entry.tick_seconds, max(0.001, heartbeat / TICKS_PER_HEARTBEAT))
        if entry.ticker is None:
            entry.ticker = self._spawn(self._tick(entry))

    @staticmethod
    async def _tick(entry: _Entry) -> None:
        while entry.channel.closed is None:
            await asyncio.sleep(entry.tick_seconds)
            entry.channel.tick()

    def _leave(self, session_id: SessionId, entry: _Entry) -> None:
        entry.channel.followers -= 1
        if entry.channel.followers == 0 and self._entries.get(session_id) is entry:
            del self._entries[session_id]
            self._shut(entry, StreamClosed(SERVER_SHUTDOWN, "Nobody follows this session here any more."))

    async def _started(self, entry: _Entry, after_seq: int) -> StreamClosed | None:
        """Wait until the channel is started from the source (one start per channel, shared)."""
        if entry.channel.head is not None:
            return None
        if entry.started is None:
            entry.started = asyncio.get_running_loop().create_future()
            self._spawn(self._start(entry, entry.started, after_seq))
        # Shielded: a follower that disconnects must not cancel the start the others wait for.
        return await asyncio.shield(entry.started)

    async def _start(self, entry: _Entry, started: asyncio.Future[StreamClosed | None], after_seq: int) -> None:
        session_id = entry.channel.session_id
        try:
            tail = await self._tail(session_id, after_seq)
        except Exception as exc:
            log.warning("could not start the event channel of session %s", session_id, exc_info=True)
            entry.started = None  # the next follower tries again
            _resolve(started, StreamClosed(EVENTS_UNAVAILABLE, f"The session's events cannot be read: {exc}"))
            return
        except asyncio.CancelledError:
            _resolve(started, self._closed or StreamClosed(SERVER_SHUTDOWN, "The server is shutting down."))
            raise
        entry.channel.start(tail)
        if entry.channel.has_gap():
            self._request_fill(entry)
        _resolve(started, None)

    async def _tail(self, session_id: SessionId, after_seq: int) -> list[StoredEvent]:
        last = await self._source.last(session_id)
        if last is None:
            return []
        warm = min(self._buffer_size, self._page_size, max(WARM_EVENTS, last.seq - after_seq))
        if warm <= 1 or last.seq <= 1:
            return [last]
        tail = await self._source.after(session_id, max(0, last.seq - warm), warm)
        contiguous = all(later.seq == earlier.seq + 1 for earlier, later in pairwise(tail))
        return tail if tail and contiguous and tail[-1].seq >= last.seq else [last]  # commits since are fine

    async def _read_page_to_the_end(self, entry: _Entry, after_seq: int) -> list[StoredEvent] | StreamClosed:
        """A follower's page read in its own task: a follower cancelled while it reads (its client
        left) leaves the read to finish and give its connection back."""
        follower = asyncio.current_task()
        name = f"{follower.get_name()}: page read" if follower is not None else None
        return await asyncio.shield(self._spawn(self._read_page(entry.channel.session_id, after_seq), name=name))

    async def _read_page(self, session_id: SessionId, after_seq: int) -> list[StoredEvent] | StreamClosed:
        try:
            return await self._source.after(session_id, after_seq, self._page_size)
        except Exception as exc:
            log.warning("could not read the events of session %s", session_id, exc_info=True)
            return StreamClosed(EVENTS_UNAVAILABLE, f"The session's events cannot be read: {exc}")

    # ---- filling gaps from the source (once per channel) ----------------------------------------

    def _request_fill(self, entry: _Entry, *, grace: float = 0.0) -> None:
        if entry.channel.closed is not None or entry.channel.head is None:
            return  # a channel that is still starting checks for a gap once started
        if entry.fill is not None and not entry.fill.done():
            entry.fill_again = True  # the running fill reads once more after its current read
            return
        entry.fill = self._spawn(self._fill(entry, grace))

    async def _fill(self, entry: _Entry, grace: float = 0.0) -> None:
        """After `grace` seconds, read the source after head until a short page that no newer request follows."""
        channel = entry.channel
        try:
            if grace > 0:
                await asyncio.sleep(grace)
            while channel.closed is None and (channel.has_gap() or entry.fill_again):
                entry.fill_again = False
                assert channel.head is not None
                page = await self._source.after(channel.session_id, channel.head, self._page_size)
                channel.accept(page)
                if len(page) == self._page_size:
                    entry.fill_again = True
                elif not entry.fill_again:
                    return
        except Exception:
            log.warning("could not fill the event channel of session %s", channel.session_id, exc_info=True)

    # ---- lifecycle --------------------------------------------------------------------------------

    def _spawn(self, work: Coroutine[Any, Any, Any], *, name: str | None = None) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _shut(self, entry: _Entry, reason: StreamClosed) -> None:
        """Close the channel: its followers end, its fill stops after the read in flight, and
        its ticker (only a sleep) is cancelled; source reads run to their end (module invariants)."""
        entry.channel.close(reason)
        if entry.started is not None:
            _resolve(entry.started, reason)
        if entry.ticker is not None:
            entry.ticker.cancel()


def _resolve(started: asyncio.Future[StreamClosed | None], outcome: StreamClosed | None) -> None:
    if not started.done():
        started.set_result(outcome)
