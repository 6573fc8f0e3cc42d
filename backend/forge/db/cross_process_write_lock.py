"""A queue for SQLite's one writer across the processes that share a database file.

`WriteGate` queues the writers of one process. Writers in different processes (`forge serve` and
its run processes, `forge answer` beside a server) met only in SQLite's busy handler, which polls
with growing naps (1, 2, 5, 10, 15, 20, 25, 25, 50 ... ms): measured in `bench_load` part A (two run
processes and the server on one file), a writer that found the lock taken waited 28 ms on average
for locks held ~4 ms at the median, and each process's writers stood still for ~40% of the run. An exclusive
`flock` on a file beside the database is handed over by the kernel the moment its holder lets go.

Invariants:
    - Advisory only: SQLite's own lock stays the authority. A process that does not take this lock
      (the sqlite3 shell, an older forge) is still handled by the busy timeout, and a wait here
      that outlasts `patience_seconds` gives up the queue and falls back to the busy handler, whose
      own timeout then refuses the write as before. A lock file that cannot be opened or locked (a
      read-only directory, a file system without flock) never stops a write: the queue is left
      for good, said once in the log.
    - Taken after the process's gate and released before it, so one holder per process: the file is
      opened per hold and closed on release (closing ends the flock), so nothing is open between
      writes and a process that dies holds nothing.
    - The event loop never blocks: the lock is only ever taken on the loop, without waiting
      (LOCK_NB); a writer that finds it taken waits on a thread that blocks on the flock, lets go
      the moment it has it, and wakes the loop to try again. So an abandoned wait (cancelled, out
      of patience) holds nothing, and no lock is held while the loop is busy elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import threading
from pathlib import Path

log = logging.getLogger(__name__)

LOCK_SUFFIX = ".write-lock"


def write_lock_path(database: Path) -> Path:
    """The lock file of a SQLite database file (beside its -wal and -shm files)."""
    return database.with_name(database.name + LOCK_SUFFIX)


class CrossProcessWriteLock:
    """One exclusive flock per hold; `acquire` returns whether it is held.

    False means SQLite's busy timeout decides: out of patience, or no lock file to be had (a
    read-only directory, a file system without flock): then the queue is left for good, once said
    in the log, and writes go on as without it.
    """

    def __init__(self, path: Path, patience_seconds: float) -> None:
        self._path = path
        self._patience = patience_seconds
        self._fd: int | None = None
        self._unavailable = False

    async def acquire(self) -> bool:
        if self._unavailable:
            return False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._patience
        try:
            while not self._try_take():
                remaining = deadline - loop.time()
                if remaining <= 0:
                    log.warning(
                        "waited %.0f s for the write lock %s; leaving the wait to SQLite's busy timeout",
                        self._patience,
                        self._path,
                    )
                    return False
                # Not `wait_for(..., remaining)` directly on the flock: see _wait_until_free.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(_wait_until_free(self._path)), remaining)
        except OSError as error:  # BlockingIOError never gets here: _try_take answers False for it
            self._unavailable = True
            log.warning(
                "no write lock file at %s (%s): writers of other processes meet in SQLite's busy handler",
                self._path,
                error,
            )
            return False
        return True

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # ends the flock

    def _try_take(self) -> bool:
        fd = _open_lock_file(self._path)
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
    """On a thread: block until the lock is free, take it and let it go at once; then wake the loop.

    The taker is the event loop (`_try_take`), never this thread: a lock taken on the thread would
    be held until the loop came back to the waiting writer, and the loop of a busy process runs
    other sessions' work first (measured: writers then waited on each other for most of the run).
    Letting go at once also means an abandoned wait (out of patience, cancelled) leaves nothing
    to clean up. The thread is a daemon of its own, not the loop's executor: shutting the loop down
    waits for the executor's threads, and this one waits for another process.
    """
    loop = asyncio.get_running_loop()
    woken: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not woken.done():
            woken.set_result(None)

    def block() -> None:
        try:
            _block_until_free(path)
        except OSError:
            pass  # the loop's next try meets the same error and leaves the queue
        finally:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(wake)

    threading.Thread(target=block, name="forge-write-lock-wait", daemon=True).start()
    return woken


def _block_until_free(path: Path) -> None:
    fd = _open_lock_file(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    finally:
        os.close(fd)


def _open_lock_file(path: Path) -> int:
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
