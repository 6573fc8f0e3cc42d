"""The event feed: append-and-notify on one side, replay-then-follow on the other.

Invariants:
    - The database event log is the only source of truth; live followers re-read it after every
      notification, so a follower that connects late or reconnects with Last-Event-ID sees exactly
      the events after its cursor, in order, with no gap and no duplicate.
    - A follower ends when no run is active for the session and it has drained the log.

Design decisions:
    - In-process notification (asyncio.Condition per session) is enough for the embedded runner; a
      multi-replica deployment swaps this for the broker of its task engine behind the same class.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from forge.core.domain_types import SessionId
from forge.core.session_events import SessionEvent
from forge.core.session_record import StoredEvent
from forge.ports import Clock, UnitOfWorkFactory

HEARTBEAT_SECONDS = 15.0


class EventNotifier:
    """Per-session change counter + a one-shot event per generation of waiters.

    A waiter never misses a notification that happened after it read the counter (no lost wake-ups
    between "read the log" and "wait"). No lock is involved: cancelling a waiter (a client that
    disconnects) can never leave anything held that would block the run that notifies.
    """

    def __init__(self) -> None:
        self._events: dict[SessionId, asyncio.Event] = {}
        self._versions: dict[SessionId, int] = {}

    def version(self, session_id: SessionId) -> int:
        return self._versions.get(session_id, 0)

    async def notify(self, session_id: SessionId) -> None:
        self._versions[session_id] = self.version(session_id) + 1
        waiting = self._events.pop(session_id, None)
        if waiting is not None:
            waiting.set()

    async def wait(self, session_id: SessionId, seen_version: int, seconds: float) -> bool:
        """Wait until the version moves past `seen_version`; False on timeout."""
        if self.version(session_id) > seen_version:
            return True
        event = self._events.setdefault(session_id, asyncio.Event())
        try:
            await asyncio.wait_for(event.wait(), seconds)
        except TimeoutError:
            return False
        return True


@dataclass(frozen=True, slots=True)
class Heartbeat:
    last_seq: int


class SessionEventFeed:
    def __init__(self, uow_factory: UnitOfWorkFactory, notifier: EventNotifier, clock: Clock):
        self._uow_factory = uow_factory
        self._notifier = notifier
        self._clock = clock

    async def publish(self, session_id: SessionId, event: SessionEvent) -> StoredEvent:
        async with self._uow_factory() as uow:
            stored = await uow.events.append(session_id, event, self._clock.now())
            await uow.commit()
        await self._notifier.notify(session_id)
        return stored

    async def read_after(self, session_id: SessionId, after_seq: int, limit: int = 500) -> list[StoredEvent]:
        async with self._uow_factory() as uow:
            return await uow.events.after(session_id, after_seq, limit)

    async def follow(
        self,
        session_id: SessionId,
        after_seq: int,
        is_running: Callable[[], bool],
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
    ) -> AsyncIterator[StoredEvent | Heartbeat]:
        cursor = after_seq
        while True:
            seen = self._notifier.version(session_id)
            running = is_running()
            batch = await self.read_after(session_id, cursor)
            for stored in batch:
                cursor = stored.seq
                yield stored
            if batch:
                continue
            if not running:
                return
            if not await self._notifier.wait(session_id, seen, heartbeat_seconds):
                yield Heartbeat(cursor)
