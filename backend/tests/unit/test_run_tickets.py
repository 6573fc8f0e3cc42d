"""Which job may run a session: a ticket's claim on the session's lease (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from forge.core.session.record import RunLease
from forge.core.session.run_tickets import (
    ClaimKind,
    decide_claim,
    is_queued,
    queued_lease,
    ticket_of,
    worker_lease,
)

NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def test_a_queued_lease_names_its_ticket_and_lives_for_the_queue_time() -> None:
    lease = queued_lease("t1", NOW, 60)
    assert (lease.instance, ticket_of(lease), lease.expires_at) == ("queued", "t1", NOW + timedelta(seconds=60))
    assert is_queued(lease)


def test_a_worker_claim_keeps_the_ticket_and_names_the_worker() -> None:
    lease = worker_lease("worker-a", "t1", NOW)
    assert (lease.instance, ticket_of(lease), is_queued(lease)) == ("worker-a", "t1", False)


def test_the_job_of_a_queued_ticket_takes_the_session_even_after_the_queue_time() -> None:
    assert decide_claim(queued_lease("t1", NOW, 60), False, "t1", NOW).kind == ClaimKind.TAKE
    late = NOW + timedelta(hours=2)
    assert decide_claim(queued_lease("t1", NOW, 60), False, "t1", late).kind == ClaimKind.TAKE


def test_a_retried_job_waits_for_a_live_worker_lease_of_its_ticket_until_it_expires() -> None:
    held = worker_lease("worker-a", "t1", NOW + timedelta(seconds=5))
    claim = decide_claim(held, False, "t1", NOW)
    assert (claim.kind, claim.until) == (ClaimKind.WAIT, NOW + timedelta(seconds=5))


def test_a_retried_job_takes_over_the_expired_lease_of_its_dead_worker() -> None:
    expired = worker_lease("worker-a", "t1", NOW)
    assert decide_claim(expired, False, "t1", NOW).kind == ClaimKind.TAKE


def test_a_job_is_superseded_by_another_ticket_no_lease_or_a_cancel() -> None:
    other = queued_lease("t2", NOW, 60)
    assert decide_claim(other, False, "t1", NOW).kind == ClaimKind.SUPERSEDED
    assert decide_claim(None, False, "t1", NOW).kind == ClaimKind.SUPERSEDED  # the run paused or finished
    assert decide_claim(queued_lease("t1", NOW, 60), True, "t1", NOW).kind == ClaimKind.SUPERSEDED
    in_process = RunLease("server-instance/t1-not-a-ticket", NOW + timedelta(seconds=5))
    assert decide_claim(in_process, False, "t1", NOW).kind == ClaimKind.SUPERSEDED
