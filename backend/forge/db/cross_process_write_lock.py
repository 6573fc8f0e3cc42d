"""A queue for SQLite's one writer across the processes that share a database file.

`WriteGate` queues the writers of one process. Writers in different processes (`forge serve` and
its run processes, `forge answer` beside a server) met only in SQLite's busy handler, which polls
with growing naps (1, 2, 5, 10, 15, 20, 25, 25, 50 ... ms): measured in `bench_load` part A (two run
processes and the server on one file), a writer that found the lock taken waited 28 ms on average
for locks held 1-3 ms, and each process's writers stood still for ~40% of the run. An exclusive
`flock` on a file beside the database is handed over by the kernel the moment its holder lets go.

Invariants:
    - Advisory only: SQLite's own lock stays the authority. A process that does not take this lock
      (the sqlite3 shell, an older forge) is still handled by the busy timeout, and a wait here
      that outlasts `patience_seconds` gives up the queue and falls back to the busy handler, whose
      own timeout then refuses the write as before.
    - Taken after the process's gate and released before it, so one holder per process: the file is
      opened per hold and closed on release (closing ends the flock), so nothing is open between
      writes and a process that dies holds nothing.
    - The event loop never blocks: a free lock is taken at once (LOCK_NB); a wait runs on a thread.
      A wait abandoned (cancelled, out of patience) closes its file when the thread's flock returns,
      so an abandoned wait never keeps the lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

LOCK_SUFFIX = ".write-lock"


def write_lock_path(database: Path) -> Path:
    """The lock file of a SQLite database file (beside its -wal and -shm files)."""
    return database.with_name(database.name + LOCK_SUFFIX)


class CrossProcessWriteLock:
    """One exclusive flock per hold; `acquire` returns whether it is held (False: out of patience)."""

    def __init__(self, path: Path, patience_seconds: float) -> None:
        self._path = path
        self._patience = patience_seconds
        self._fd: int | None = None

    async def acquire(self) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._patience
        while not self._try_take():
            remaining = deadline - loop.time()
            if remaining <= 0:
                log.warning(
                    "waited %.0f s for the database's write lock (%s); leaving the wait to SQLite's busy timeout",
                    self._patience,
                    self._path,
                )
                return False
            # Not `wait_for(..., remaining)` directly on the flock: see _wait_until_free.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(_wait_until_free(self._path)), remaining)
        return True

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # ends the flock

    def _try_take(self) -> bool:
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return True


def _wait_until_free(path: Path) -> asyncio.Future[None]:
    """On a thread: block until the lock is free, take it and let it go at once.

    The taker is the event loop (`_try_take`), never this thread: a lock taken on the thread would
    be held until the loop came back to the waiting writer, and the loop of a busy process runs
    other sessions' work first (measured: writers then waited on each other for most of the run).
    Letting go at once also means an abandoned wait (out of patience, cancelled) leaves nothing
    to clean up.
    """
    return asyncio.get_running_loop().run_in_executor(None, _block_until_free, path)


def _block_until_free(path: Path) -> None:
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    finally:
        os.close(fd)
