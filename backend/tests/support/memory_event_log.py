"""An in-memory event log that is the broadcaster's EventSource: the source of truth in broadcast tests.

`commit` appends (seq = position). A read sees the log as it is when the call is made, then takes at
least one loop turn to answer, like a database round trip; reads are recorded with the name of the
task that made them, and can be held at a gate (their answer stays as it was) or made to fail.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from forge.core.domain_types import EventSeq, SessionId
from forge.core.session import events as ev
from forge.core.session.events import SessionEvent
from forge.core.session.record import StoredEvent

AT = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Read:
    kind: str  # "after" or "last"
    after_seq: int
    task: str


class MemoryEventLog:
    def __init__(self) -> None:
        self._events: defaultdict[SessionId, list[StoredEvent]] = defaultdict(list)
        self.reads: list[Read] = []
        self.answered: list[Read] = []  # reads that ran to their end (not cancelled)
        self._fail: Callable[[Read], bool] | None = None
        self._hold: Callable[[Read], bool] | None = None
        self._gate = asyncio.Event()
        self.held = asyncio.Event()  # set once a read waits at the gate

    def commit(self, session_id: SessionId, *events: SessionEvent) -> list[StoredEvent]:
        log = self._events[session_id]
        stored = [StoredEvent(EventSeq(len(log) + n + 1), event.type, event.data, AT) for n, event in enumerate(events)]
        log.extend(stored)
        return stored

    def commit_texts(self, session_id: SessionId, count: int) -> list[StoredEvent]:
        first = len(self._events[session_id]) + 1
        return self.commit(session_id, *(ev.agent_text(f"text {first + n}") for n in range(count)))

    def events(self, session_id: SessionId) -> list[StoredEvent]:
        return list(self._events[session_id])

    def hold(self, when: Callable[[Read], bool]) -> None:
        """Reads matching `when` wait until `release()`."""
        self._hold = when
        self._gate.clear()

    def fail(self, when: Callable[[Read], bool] | None) -> None:
        """Reads matching `when` raise ConnectionError (None: no read fails)."""
        self._fail = when

    def release(self) -> None:
        self._hold = None
        self._gate.set()

    def reads_by(self, task_prefix: str) -> list[Read]:
        return [read for read in self.reads if read.task.startswith(task_prefix)]

    async def after(self, session_id: SessionId, after_seq: int, limit: int) -> list[StoredEvent]:
        snapshot = self._events[session_id][max(0, after_seq) : max(0, after_seq) + limit]
        await self._respond(Read("after", after_seq, _task_name()))
        return snapshot

    async def last(self, session_id: SessionId) -> StoredEvent | None:
        log = self._events[session_id]
        snapshot = log[-1] if log else None
        await self._respond(Read("last", -1, _task_name()))
        return snapshot

    async def _respond(self, read: Read) -> None:
        """The answer travels back: it was read when the call was made, commits since are not in it."""
        self.reads.append(read)
        if self._hold is not None and self._hold(read):
            self.held.set()
            await self._gate.wait()
        await asyncio.sleep(0)  # a round trip: other tasks run meanwhile
        self.answered.append(read)
        if self._fail is not None and self._fail(read):
            raise ConnectionError("the database is unreachable")


def _task_name() -> str:
    task = asyncio.current_task()
    return task.get_name() if task is not None else ""
