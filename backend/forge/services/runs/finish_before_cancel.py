"""Let a short database write finish before a cancellation takes effect.

Invariants:
    - `finish_before_cancelling(work)` returns work's result, or raises its exception, exactly as
      awaiting it would; if the caller is cancelled meanwhile (once or many times), the work still
      runs to its end and only then is CancelledError raised (with the work's exception, if any, as
      its cause), so a transaction is never cut half-way: it commits or rolls back whole and its
      connection goes back to the pool.
    - `then(result)`, the bookkeeping that must follow a commit (publishing its events), runs in the
      caller's task as soon as the work has succeeded, cancelled or not: code after the call does
      not run after a cancellation, and `then` keeps the caller's ordering (what the caller does
      next, before it yields, happens before anyone woken by `then` runs).

Design decision: only for work that is short and bounded (one step's commit, one lease renewal).
A model call must stay cancellable at once; it never goes through here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


async def finish_before_cancelling(work: Coroutine[Any, Any, T], then: Callable[[T], None] | None = None) -> T:
    task = asyncio.get_running_loop().create_task(work)
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
        except asyncio.CancelledError:
            if task.cancelled():
                raise  # the work itself was cancelled (the loop shuts down): nothing left to finish
            cancelled = True  # ours: wait for the work, then raise
            continue
        except Exception as failure:
            if cancelled:  # the caller asked to stop: it stops, with the work's failure as the cause
                raise asyncio.CancelledError from failure
            raise
        if then is not None:
            then(result)
        if cancelled:
            raise asyncio.CancelledError
        return result
