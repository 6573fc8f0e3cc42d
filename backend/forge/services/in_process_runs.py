"""Background runs of the embedded deployment: one asyncio task per active session.

Invariants:
    - At most one run per session at a time; `start` on a running session is refused (False).
    - A run's task outlives the HTTP request that started it: a dropped connection never stops work.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from forge.core.domain_types import SessionId

log = logging.getLogger(__name__)


class InProcessRuns:
    def __init__(self) -> None:
        self._tasks: dict[SessionId, asyncio.Task[None]] = {}

    def is_running(self, session_id: SessionId) -> bool:
        task = self._tasks.get(session_id)
        return task is not None and not task.done()

    def start(self, session_id: SessionId, work: Callable[[], Coroutine[Any, Any, None]]) -> bool:
        if self.is_running(session_id):
            return False
        task = asyncio.get_running_loop().create_task(work(), name=f"forge-run-{session_id}")
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

    async def wait(self, session_id: SessionId) -> None:
        task = self._tasks.get(session_id)
        if task:
            await asyncio.gather(task, return_exceptions=True)

    async def shutdown(self) -> None:
        for session_id in list(self._tasks):
            await self.cancel(session_id)
