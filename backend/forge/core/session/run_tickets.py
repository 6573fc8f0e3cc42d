"""Run tickets: how a queued session run (a job for a worker process) holds its session's lease.

A command that starts a run with workers on (FORGE_RUNNER=workers) stores a *queued* lease
`queued/<ticket>` and enqueues a job naming the session and the ticket, in one transaction. The
worker that picks the job up *claims* the lease: it becomes `<worker instance>/<ticket>`, renewed
while the run works. A worker that dies stops renewing; once the lease has expired, the same job
(retried by the task engine as a stalled job) claims it again on another worker, and the run resumes
from the last committed step.

Invariants:
    - The ticket is the run's identity across workers: a lease's ticket is the part after the first
      '/' of its owner, unchanged by a claim.
    - A job may claim only a lease of its own ticket that is queued, or held by a worker whose
      lease has expired (a live holder is waited for, never overtaken); any other state (no lease,
      another ticket, a cancelled session) means the job was superseded and ends without writing.
    - Claims are decided under the session's row lock by the caller; this module is pure.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime, timedelta

from forge.core.session.record import RunLease

QUEUED_INSTANCE = "queued"
RUN_QUEUE = "forge_runs"  # the task engine's queue of session runs
RUN_SESSION_TASK = "forge.run_session"  # the task name the API enqueues and the workers register


class ClaimKind(enum.StrEnum):
    TAKE = "take"  # the job now holds the session: run it
    WAIT = "wait"  # a worker holds this ticket's lease and it has not expired yet
    SUPERSEDED = "superseded"  # the session is no longer this job's: end without writing


@dataclass(frozen=True, slots=True)
class Claim:
    kind: ClaimKind
    until: datetime | None = None  # WAIT: when the holder's lease expires


def ticket_of(lease: RunLease) -> str:
    return lease.owner.partition("/")[2]


def queued_lease(ticket: str, now: datetime, queue_seconds: float) -> RunLease:
    """The lease a command stores with the job it enqueues: live while the job waits in the queue."""
    return RunLease(f"{QUEUED_INSTANCE}/{ticket}", now + timedelta(seconds=queue_seconds))


def worker_lease(instance: str, ticket: str, until: datetime) -> RunLease:
    return RunLease(f"{instance}/{ticket}", until)


def is_queued(lease: RunLease) -> bool:
    return lease.instance == QUEUED_INSTANCE


def decide_claim(lease: RunLease | None, cancelled: bool, ticket: str, now: datetime) -> Claim:
    """What a job holding `ticket` may do with the session's current lease."""
    if cancelled or lease is None or ticket_of(lease) != ticket:
        return Claim(ClaimKind.SUPERSEDED)
    if is_queued(lease) or lease.expires_at <= now:
        return Claim(ClaimKind.TAKE)
    return Claim(ClaimKind.WAIT, lease.expires_at)
