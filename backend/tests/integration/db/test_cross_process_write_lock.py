"""The cross-process write queue against a real other process holding the flock."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.lock_file import free_for_others

from forge.db.cross_process_write_lock import CrossProcessWriteLock, write_lock_path

HOLDER = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()
"""


@contextlib.contextmanager
def _other_process_holding(path: Path) -> Iterator[subprocess.Popen[str]]:
    """A real process holding the flock until a line is written to its stdin (or it is killed)."""
    with subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as holder:  # closes its pipes on the way out
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            yield holder
        finally:
            holder.kill()


def _let_go(holder: subprocess.Popen[str]) -> None:
    assert holder.stdin is not None
    holder.stdin.write("\n")
    holder.stdin.flush()


def _let_go_and_wait_for_exit(holder: subprocess.Popen[str]) -> None:
    _let_go(holder)
    holder.wait(timeout=5)


def test_the_lock_file_sits_beside_the_database() -> None:
    assert write_lock_path(Path("/data/forge.db")) == Path("/data/forge.db.write-lock")


async def test_a_free_lock_is_taken_at_once_and_kept_from_others_until_released(tmp_path: Path) -> None:
    path = tmp_path / "db.write-lock"
    lock = CrossProcessWriteLock(path, patience_seconds=5)
    assert await lock.acquire()
    assert not free_for_others(path)
    lock.release()
    assert free_for_others(path)


async def test_a_writer_waits_for_another_process_off_the_loop_and_takes_the_lock_when_it_lets_go(
    tmp_path: Path,
) -> None:
    path = tmp_path / "db.write-lock"
    lock = CrossProcessWriteLock(path, patience_seconds=10)
    with _other_process_holding(path) as holder:
        ticks = 0

        async def let_go_after_ticks() -> None:  # runs only while the loop is free
            nonlocal ticks
            while ticks < 5:
                await asyncio.sleep(0.01)
                ticks += 1
            _let_go(holder)

        async with asyncio.timeout(5):  # far below the patience: a blocked loop would overrun it
            held, _ = await asyncio.gather(lock.acquire(), let_go_after_ticks())
        assert held and ticks == 5
        assert not free_for_others(path)
        lock.release()
        assert free_for_others(path)


async def test_out_of_patience_the_writer_gives_up_the_queue_and_holds_nothing(tmp_path: Path) -> None:
    path = tmp_path / "db.write-lock"
    lock = CrossProcessWriteLock(path, patience_seconds=0.1)
    with _other_process_holding(path) as holder:
        assert await lock.acquire() is False
        _let_go_and_wait_for_exit(holder)
    await asyncio.sleep(0.05)  # the abandoned wait's thread returns once the holder is gone
    assert free_for_others(path)
    lock.release()  # nothing held: a no-op


async def test_a_cancelled_wait_leaves_nothing_held(tmp_path: Path) -> None:
    path = tmp_path / "db.write-lock"
    lock = CrossProcessWriteLock(path, patience_seconds=10)
    with _other_process_holding(path) as holder:
        waiting = asyncio.create_task(lock.acquire())
        await asyncio.sleep(0.05)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        _let_go_and_wait_for_exit(holder)
    await asyncio.sleep(0.05)
    assert free_for_others(path)


async def test_a_holder_killed_with_9_frees_the_lock_for_the_waiter(tmp_path: Path) -> None:
    path = tmp_path / "db.write-lock"
    lock = CrossProcessWriteLock(path, patience_seconds=10)
    with _other_process_holding(path) as holder:
        waiting = asyncio.create_task(lock.acquire())
        await asyncio.sleep(0.05)
        assert not waiting.done()
        holder.kill()
        async with asyncio.timeout(5):
            assert await waiting
    lock.release()


async def test_without_a_usable_lock_file_writers_go_on_and_it_is_said_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lock = CrossProcessWriteLock(tmp_path / "no-such-directory" / "db.write-lock", patience_seconds=5)
    assert await lock.acquire() is False
    assert await lock.acquire() is False
    lock.release()  # nothing held: a no-op
    said = [r for r in caplog.records if "no write lock file" in r.getMessage()]
    assert len(said) == 1


def test_a_loop_shut_down_while_a_writer_waits_does_not_wait_for_the_other_process(tmp_path: Path) -> None:
    path = tmp_path / "db.write-lock"

    async def abandon_a_wait() -> None:
        waiting = asyncio.create_task(CrossProcessWriteLock(path, patience_seconds=30).acquire())
        await asyncio.sleep(0.05)
        waiting.cancel()

    with _other_process_holding(path) as holder:
        # asyncio.run ends by shutting its executor down, which waits for the executor's threads
        running = threading.Thread(target=asyncio.run, args=(abandon_a_wait(),), daemon=True)
        running.start()
        running.join(timeout=5)
        shut_down = not running.is_alive()
        _let_go(holder)
    running.join(timeout=5)
    assert shut_down, "the loop's shutdown waited for the process holding the lock"
