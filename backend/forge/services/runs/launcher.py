"""How a command that starts a run gets it running: in this process, or as a job for a worker.

Invariants:
    - A command takes the run's lease (`new_lease`) and calls `enqueue` inside its transaction,
      `reserve` right before its commit (`abandon` if the commit fails), then `start` after it. On
      PostgreSQL the commit releases the row lock, and a command waiting for it may run before the
      committing one resumes: the reservation makes that command find the run live.
    - In-process (the default; the only runner on SQLite): the lease is this process's, `enqueue`
      writes nothing, `start` hands the run to the RunRegistry. What the registry's task awaits is
      the step loop itself (`PhaseRunDriver.run`) or, with FORGE_RUN_PROCESSES, a proxy that runs it
      in a child process of `forge serve` (`run_process_pool`); the lease stays this process's.
    - Workers (FORGE_RUNNER=workers, PostgreSQL): the lease is a queued ticket (`run_tickets`),
      `enqueue` inserts the job in the same transaction, `start` does nothing — a worker process
      claims the ticket and runs the session (`queued_run.QueuedRunExecutor`). Between a dead
      worker's lease expiring and its retried job claiming the session, `pending` says a run is
      still on its way (the job is in the queue), so a follower's stream does not end.
"""

from __future__ import annotations

import uuid
from typing import Protocol

from forge.core.domain_types import SessionId
from forge.core.session.record import RunLease
from forge.core.session.run_tickets import queued_lease, ticket_of
from forge.ports import Clock, UnitOfWork
from forge.services.runs.registry import RunRegistry


class SessionRunner(Protocol):
    async def run(self, session_id: SessionId, lease: RunLease) -> None:
        """Run the session under `lease` until it pauses, finishes or the lease is lost."""
        ...


class RunLauncher(Protocol):
    def new_lease(self) -> RunLease: ...

    async def enqueue(self, uow: UnitOfWork, session_id: SessionId, lease: RunLease) -> None:
        """Inside the command's transaction, before its commit."""
        ...

    def reserve(self, session_id: SessionId, lease: RunLease) -> None:
        """Right before the command's commit: from here the run counts as live in this process."""
        ...

    def abandon(self, lease: RunLease) -> None:
        """The commit after `reserve` failed: the run will not start."""
        ...

    def start(self, session_id: SessionId, lease: RunLease) -> None:
        """After the command's commit."""
        ...

    async def pending(self, uow: UnitOfWork, session_id: SessionId) -> bool:
        """Whether a run of the session is on its way although no lease reads live (a queued job, or a
        dead worker's job about to be retried)."""
        ...


class InProcessLauncher:
    def __init__(self, registry: RunRegistry, driver: SessionRunner) -> None:
        self._registry = registry
        self._driver = driver

    def new_lease(self) -> RunLease:
        return self._registry.new_lease()

    async def enqueue(self, uow: UnitOfWork, session_id: SessionId, lease: RunLease) -> None:
        return None

    def reserve(self, session_id: SessionId, lease: RunLease) -> None:
        self._registry.reserve(session_id, lease)

    def abandon(self, lease: RunLease) -> None:
        self._registry.release(lease.owner)

    def start(self, session_id: SessionId, lease: RunLease) -> None:
        self._registry.start(session_id, lease, lambda: self._driver.run(session_id, lease))

    async def pending(self, uow: UnitOfWork, session_id: SessionId) -> bool:
        return False


class QueueLauncher:
    def __init__(self, clock: Clock, queue_seconds: float) -> None:
        self._clock = clock
        self._queue_seconds = queue_seconds

    def new_lease(self) -> RunLease:
        return queued_lease(uuid.uuid4().hex, self._clock.now(), self._queue_seconds)

    async def enqueue(self, uow: UnitOfWork, session_id: SessionId, lease: RunLease) -> None:
        await uow.run_jobs.enqueue_run(session_id, ticket_of(lease))

    def reserve(self, session_id: SessionId, lease: RunLease) -> None:
        return None  # the queued lease is live by its expiry, in every process

    def abandon(self, lease: RunLease) -> None:
        return None  # the job was enqueued in the transaction that failed

    def start(self, session_id: SessionId, lease: RunLease) -> None:
        return None

    async def pending(self, uow: UnitOfWork, session_id: SessionId) -> bool:
        return await uow.run_jobs.has_pending_run(session_id)
