"""The runs of this process: one asyncio task per run, keyed by the run's lease owner token.

Invariants:
    - The database lease (taken in the transaction of the command that starts a run, cleared in the
      transaction of the run's last step) says which run holds a session; this registry only knows
      the tasks of this process, so `is_live` combines both (`lease_is_live`).
    - A run's task outlives the HTTP request that started it: a dropped connection never stops work.
    - `release` is called by the run right after its last commit, before anyone is told it ended,
      so a client that sees the pause never sees "running".
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any

from forge.core.domain_types import SessionId
from forge.core.session.record import RunLease
from forge.core.session.run_lease import LeasePolicy, lease_is_live
from forge.ports import Clock

log = logging.getLogger(__name__)


class RunRegistry:
    def __init__(self, clock: Clock, *, lease_seconds: float, trust_other_processes: bool) -> None:
        self._clock = clock
        self._policy = LeasePolicy(uuid.uuid4().hex, trust_other_processes)
        self.lease_seconds = lease_seconds
        self._owners: dict[str, SessionId] = {}
        self._tasks: dict[str, tuple[SessionId, asyncio.Task[None]]] = {}

    @property
    def instance(self) -> str:
        """This process's part of every lease owner it makes ('<instance>/<run id>')."""
        return self._policy.instance

    @property
    def other_processes_read_leases(self) -> bool:
        """Whether a lease's expiry means anything: only where other processes may judge it."""
        return self._policy.trust_other_processes

    def new_lease(self) -> RunLease:
        return RunLease(f"{self._policy.instance}/{uuid.uuid4().hex}", self.lease_until())

    def lease_until(self) -> datetime:
        return self._clock.now() + timedelta(seconds=self.lease_seconds)

    def renewed(self, lease: RunLease) -> RunLease:
        return RunLease(lease.owner, self.lease_until())

    def is_live(self, lease: RunLease | None) -> bool:
        return lease_is_live(lease, self._policy, self._owners, self._clock.now())

    def active(self) -> int:
        """How many runs this process holds right now (for metrics)."""
        return len(self._owners)

    def runs_here(self, session_id: SessionId) -> bool:
        """A run of this process holds the session right now (no database read needed)."""
        return session_id in self._owners.values()

    def reserve(self, session_id: SessionId, lease: RunLease) -> None:
        """The run counts as live here before its task exists (see `RunLauncher.reserve`)."""
        self._owners[lease.owner] = session_id

    def start(self, session_id: SessionId, lease: RunLease, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        self.reserve(session_id, lease)  # a no-op after the launcher's own reservation
        task = asyncio.get_running_loop().create_task(self._run(lease.owner, work), name=f"forge-run-{session_id}")
        self._tasks[lease.owner] = (session_id, task)
        task.add_done_callback(self._report)

    async def _run(self, owner: str, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        try:
            await work()
        finally:
            self.release(owner)
            self._tasks.pop(owner, None)

    def release(self, owner: str) -> None:
        self._owners.pop(owner, None)

    @staticmethod
    def _report(task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("run %s failed", task.get_name(), exc_info=task.exception())

    def _tasks_of(self, session_id: SessionId) -> list[asyncio.Task[None]]:
        return [task for sid, task in self._tasks.values() if sid == session_id]

    async def cancel(self, session_id: SessionId) -> None:
        tasks = self._tasks_of(session_id)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def wait(self, session_id: SessionId) -> None:
        await asyncio.gather(*self._tasks_of(session_id), return_exceptions=True)

    async def shutdown(self) -> None:
        tasks = [task for _sid, task in self._tasks.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
