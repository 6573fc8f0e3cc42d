"""A one-shot wake-up signal that releases its waiters a slice at a time.

With `asyncio.Event`, `set()` makes every waiter ready at once: a thousand SSE followers of one
session are then all queued before anything else the event loop has to do, and the run that just
committed the events (its next step's timer, its next database reply) waits behind the whole
fan-out burst — ~50-100 ms at 1,000 listeners, paid at every step. Here `set()` releases
WAKE_SLICE waiters and schedules the next slice behind whatever became ready meanwhile, so other
work waits for at most about one slice of followers, while the followers together still take the
same CPU.

Invariants:
    - Set once; `wait()` on a set signal returns at once (like `asyncio.Event.wait`), so a waiter
      that took the signal before checking its state never misses a change.
    - Every waiter that is still waiting when `set()` is called is released, in the order the
      waiters arrived; a cancelled waiter is skipped (its future is already done).
    - Nothing is held: a waiter is a plain future, so cancellation unwinds completely.
"""

from __future__ import annotations

import asyncio

# Waiters released per loop iteration: small enough that a slice costs a few milliseconds of
# follower work, large enough that the scheduling per slice is noise.
WAKE_SLICE = 64


class SlicedWakeSignal:
    __slots__ = ("_is_set", "_slice", "_waiters")

    def __init__(self, slice_size: int = WAKE_SLICE) -> None:
        if slice_size < 1:
            raise ValueError("slice_size must be at least 1")
        self._is_set = False
        self._slice = slice_size
        self._waiters: list[asyncio.Future[None]] = []

    def is_set(self) -> bool:
        return self._is_set

    async def wait(self) -> None:
        if self._is_set:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        await waiter

    def set(self) -> None:
        if self._is_set:
            return
        self._is_set = True
        if self._waiters:
            self._release(0)

    def _release(self, start: int) -> None:
        waiters = self._waiters
        end = start + self._slice
        for waiter in waiters[start:end]:
            if not waiter.done():
                waiter.set_result(None)
        if end < len(waiters):
            waiters[0].get_loop().call_soon(self._release, end)
        else:
            self._waiters = []
