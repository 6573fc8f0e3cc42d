"""One writer at a time per SQLite database, queued in the process instead of in SQLite's busy handler.

Invariants:
    - A unit of work takes the gate at its first write (`enter`) and keeps it until its commit (or,
      uncommitted, its end); a read-only unit of work never takes it, so readers never wait on
      writers (WAL).
    - The gate is FIFO (asyncio.Lock wakes waiters in order) and re-entrant per unit of work.
    - PostgreSQL gets no gate: its row locks serialise commands per session and let other sessions
      write in parallel.
    - A file-backed database also queues the gate's holder behind the writers of other processes
      (`cross_process_write_lock`): taken after the process's lock, released before it.

Design decision:
    SQLite has a single writer. When many transactions want it at once, each loser sleeps in SQLite's
    busy handler with growing naps (up to 100 ms) and retries, so throughput collapses under
    concurrency (measured: 20 concurrent sessions persisted ~160 events/s). Queueing the writers in
    the process hands the lock over without sleeping; the lock file does the same between processes
    on one file (run processes, `forge answer` beside `forge serve`), and the busy timeout still
    covers a process that takes no part in the queue.
"""

from __future__ import annotations

import asyncio

from forge.db.cross_process_write_lock import CrossProcessWriteLock


class WriteGate:
    """Shared by every unit of work of one engine; `across` queues it with other processes' writers."""

    def __init__(self, across: CrossProcessWriteLock | None = None) -> None:
        self._lock = asyncio.Lock()
        self._across = across

    def ticket(self) -> WriteTicket:
        return WriteTicket(self._lock, self._across)


class WriteTicket:
    """One unit of work's hold on the gate."""

    def __init__(self, lock: asyncio.Lock | None, across: CrossProcessWriteLock | None = None) -> None:
        self._lock = lock
        self._across = across
        self._held = False

    async def enter(self) -> None:
        if self._lock is None or self._held:
            return
        await self._lock.acquire()
        try:
            if self._across is not None:
                # False (out of patience): SQLite's busy timeout decides, as without the queue.
                await self._across.acquire()
        except BaseException:
            self._lock.release()
            raise
        self._held = True

    def leave(self) -> None:
        if self._held and self._lock is not None:
            self._held = False
            if self._across is not None:
                self._across.release()
            self._lock.release()


NO_GATE = WriteTicket(None)


class _QueryTicket(WriteTicket):
    """The ticket of a query's unit of work: a write through it is a bug, refused before any SQL."""

    async def enter(self) -> None:
        raise RuntimeError("A query's unit of work cannot write: run the write in a command's unit of work.")


QUERY_ONLY = _QueryTicket(None)
