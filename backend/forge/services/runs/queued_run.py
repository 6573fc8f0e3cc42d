"""A worker's side of a queued run: claim the session's lease for the job's ticket, run the session
until it pauses or finishes, and hand it back to the queue if the worker is stopped mid-run.

Invariants:
    - The claim is one transaction under the session's row lock (`run_tickets.decide_claim`): a job
      takes the lease of its own ticket when it is queued or its worker's lease has expired, waits
      while another worker's lease on the ticket is live, and otherwise ends without writing.
    - Taking over an expired worker lease (its worker died) appends a resume marker
      (`phase_change`, resumed) unless the log already ends in a `phase_change`, exactly as POST /run
      does after a crash; the run then resumes from the last committed step (PhaseRunDriver), so no
      step's events are committed twice.
    - The run is the PhaseRunDriver's, held by this process's RunRegistry like an in-process run: the
      driver renews the lease between and during steps and clears it at the run's last step.
    - A job cancelled (worker shutdown) while its run holds the session stops the run and, if the
      lease is still its own, stores a queued lease of the same ticket with a new job for it, in one
      transaction: another worker resumes the session without waiting for the lease to expire.
"""

from __future__ import annotations

import asyncio
import logging

from forge.core.domain_types import SessionId
from forge.core.session import events as ev
from forge.core.session.events import EventType
from forge.core.session.record import RunLease, SessionRecord, StoredEvent
from forge.core.session.run_tickets import ClaimKind, decide_claim, is_queued, queued_lease, ticket_of, worker_lease
from forge.ports import Clock, UnitOfWork, UnitOfWorkFactory
from forge.services.broadcast.session_broadcast import SessionBroadcaster
from forge.services.runs.drive_phase_run import PhaseRunDriver
from forge.services.runs.registry import RunRegistry

log = logging.getLogger(__name__)

WAIT_MARGIN_SECONDS = 0.05


class QueuedRunExecutor:
    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        broadcaster: SessionBroadcaster,
        registry: RunRegistry,
        driver: PhaseRunDriver,
        clock: Clock,
        queue_seconds: float,
    ) -> None:
        self._uow_factory = uow_factory
        self._broadcaster = broadcaster
        self._registry = registry
        self._driver = driver
        self._clock = clock
        self._queue_seconds = queue_seconds

    async def run_job(self, session_id: SessionId, ticket: str) -> ClaimKind:
        """Run the session for this job's ticket; TAKE when it ran, SUPERSEDED when it was not this job's."""
        lease = await self._claim(session_id, ticket)
        if lease is None:
            log.info("job %s of session %s is superseded; nothing to run", ticket, session_id)
            return ClaimKind.SUPERSEDED
        self._registry.start(session_id, lease, lambda: self._driver.run(session_id, lease))
        try:
            await self._registry.wait(session_id)
        except asyncio.CancelledError:
            await asyncio.shield(self._hand_back(session_id, lease))
            raise
        return ClaimKind.TAKE

    async def _claim(self, session_id: SessionId, ticket: str) -> RunLease | None:
        while True:
            async with self._uow_factory() as uow:
                record = await uow.sessions.lock(session_id)
                now = self._clock.now()
                current = record.run_lease if record is not None else None
                claim = decide_claim(current, record is None or record.cancelled, ticket, now)
                if claim.kind == ClaimKind.TAKE:
                    assert current is not None and record is not None  # decide_claim takes only a lease
                    lease = worker_lease(self._registry.instance, ticket, self._registry.lease_until())
                    await uow.sessions.set_run_lease(session_id, lease)
                    stored = [] if is_queued(current) else await self._mark_resumed(uow, session_id, record)
                    await uow.commit()
                    self._broadcaster.published(session_id, stored)
                    return lease
            if claim.kind == ClaimKind.SUPERSEDED or claim.until is None:
                return None
            await asyncio.sleep(max(0.0, (claim.until - now).total_seconds()) + WAIT_MARGIN_SECONDS)

    async def _mark_resumed(self, uow: UnitOfWork, session_id: SessionId, record: SessionRecord) -> list[StoredEvent]:
        last = await uow.events.last(session_id)
        if last is not None and last.type == EventType.PHASE_CHANGE:
            return []
        marker = ev.phase_change(record.current_phase, record.current_round, resumed=True)
        return await uow.events.append_all(session_id, [marker], self._clock.now())

    async def _hand_back(self, session_id: SessionId, lease: RunLease) -> None:
        """The worker stops: stop the run, then requeue the session's ticket if the run still holds it."""
        await self._registry.cancel(session_id)
        ticket = ticket_of(lease)
        async with self._uow_factory() as uow:
            record = await uow.sessions.lock(session_id)
            if record is None or record.run_lease is None or record.run_lease.owner != lease.owner:
                return
            await uow.sessions.set_run_lease(session_id, queued_lease(ticket, self._clock.now(), self._queue_seconds))
            await uow.run_jobs.enqueue_run(session_id, ticket)
            await uow.commit()
        log.info("handed session %s back to the queue (ticket %s)", session_id, ticket)
