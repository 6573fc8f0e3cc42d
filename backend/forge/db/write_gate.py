"""One writer at a time per SQLite database, queued in the process instead of in SQLite's busy handler.

Invariants:
    - A unit of work takes the gate at its first write (`enter`) and keeps it until it ends; a
      read-only unit of work never takes it, so readers never wait on writers (WAL).
    - The gate is FIFO (asyncio.Lock wakes waiters in order) and re-entrant per unit of work.
    - PostgreSQL gets no gate: its row locks serialise commands per session and let other sessions
      write in parallel.

Design decision:
    SQLite has a single writer. When many transactions want it at once, each loser sleeps in SQLite's
    busy handler with growing naps (up to 100 ms) and retries, so throughput collapses under
    concurrency (measured: 20 concurrent sessions persisted ~160 events/s). Queueing the writers in
    the process hands the lock over without sleeping; the busy timeout still covers other processes
    on the same file (e.g. `forge answer` beside `forge serve`).
"""

from __future__ import annotations

import asyncio


class WriteGate:
    """Shared by every unit of work of one engine."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()

    def ticket(self) -> WriteTicket:
        return WriteTicket(self._lock)


class WriteTicket:
    """One unit of work's hold on the gate."""

    def __init__(self, lock: asyncio.Lock | None) -> None:
        self._lock = lock
        self._held = False

    async def enter(self) -> None:
        if self._lock is not None and not self._held:
            await self._lock.acquire()
            self._held = True

    def leave(self) -> None:
        if self._held and self._lock is not None:
            self._held = False
            self._lock.release()


NO_GATE = WriteTicket(None)


class _QueryTicket(WriteTicket):
    """The ticket of a query's unit of work: a write through it is a bug, refused before any SQL."""

    async def enter(self) -> None:
        raise RuntimeError("A query's unit of work cannot write: run the write in a command's unit of work.")


QUERY_ONLY = _QueryTicket(None)
