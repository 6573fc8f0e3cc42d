"""Background runs of the embedded deployment: one asyncio task per active session.

Invariants:
    - At most one run per session at a time; `start` on a running session is refused (False).
    - A run's task outlives the HTTP request that started it: a dropped connection never stops work.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from forge.core.domain_types import SessionId

log = logging.getLogger(__name__)


class InProcessRuns:
    def __init__(self, on_finish: Callable[[SessionId], Awaitable[None]] | None = None) -> None:
        self._tasks: dict[SessionId, asyncio.Task[None]] = {}
        self._active: set[SessionId] = set()
        self._on_finish = on_finish

    def is_running(self, session_id: SessionId) -> bool:
        return session_id in self._active

    async def _run(self, session_id: SessionId, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        try:
            await work()
        finally:
            # Mark idle *before* telling followers, so a woken follower sees the run has ended.
            self._active.discard(session_id)
            if self._on_finish is not None:
                await self._on_finish(session_id)

    def start(self, session_id: SessionId, work: Callable[[], Coroutine[Any, Any, None]]) -> bool:
        if self.is_running(session_id):
            return False
        self._active.add(session_id)
        task = asyncio.get_running_loop().create_task(self._run(session_id, work), name=f"forge-run-{session_id}")
        self._tasks[session_id] = task
        task.add_done_callback(self._report)
        return True

    @staticmethod
    def _report(task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("run %s failed", task.get_name(), exc_info=task.exception())

    async def cancel(self, session_id: SessionId) -> None:
        task = self._tasks.pop(session_id, None)
        if task and not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        self._active.discard(session_id)

    async def wait(self, session_id: SessionId) -> None:
        task = self._tasks.get(session_id)
        if task:
            await asyncio.gather(task, return_exceptions=True)

    async def shutdown(self) -> None:
        for session_id in list(self._tasks):
            await self.cancel(session_id)
