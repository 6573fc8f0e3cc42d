"""Runs as jobs (FORGE_RUNNER=workers, PostgreSQL): a command enqueues a job with a queued lease in its
own transaction; a worker's job claims the lease for its ticket and runs the session until it pauses;
a retried job waits for its dead worker's lease to expire and resumes with a marker; a superseded
job writes nothing; a job cancelled mid-run hands its session back to the queue."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from support.fresh_database import migrated_database_url

from forge.bootstrap.build_container import build_container
from forge.bootstrap.container import Container
from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.core.session import events as ev
from forge.core.session.events import EventType
from forge.core.session.record import SessionRecord
from forge.core.session.run_tickets import ClaimKind, ticket_of, worker_lease
from forge.services.broadcast.messages import RUN_NOT_RUNNING, Heartbeat, StreamClosed
from forge.services.runs.queued_run import QueuedRunExecutor
from forge.services.service_results import ServiceFailure

pytestmark = pytest.mark.postgres
PROBLEM = "How can a hospital cut emergency wait times without more staff?"


@pytest.fixture
async def workers(tmp_path: Path) -> AsyncIterator[Container]:
    async with migrated_database_url("postgresql", tmp_path, prefix="forge_test_queued") as url:
        container = build_container(
            Settings(
                embedder="hashed",
                database_url=url,
                runner="workers",
                run_lease_seconds=2,
                data_dir=tmp_path,
                offline_step_delay_ms=20,
            ),
            heartbeat_seconds=0.05,
        )
        try:
            yield container
        finally:
            await container.close()


def _executor(container: Container) -> QueuedRunExecutor:
    assert container.queued_runs is not None
    return container.queued_runs


async def _jobs(container: Container) -> list[dict[str, Any]]:
    async with container.engine.connect() as connection:
        rows = await connection.execute(text("SELECT status::text AS status, task_name, args FROM procrastinate_jobs"))
        return [dict(row) for row in rows.mappings()]


async def _record(container: Container, sid: SessionId) -> SessionRecord:
    found = await container.service.get(sid)
    assert not isinstance(found, ServiceFailure)
    return found


async def _started(container: Container) -> tuple[SessionId, str]:
    created = await container.service.create(PROBLEM)
    assert not isinstance(created, ServiceFailure)
    started = await container.service.start_run(created.id)
    assert not isinstance(started, ServiceFailure) and started.started
    lease = (await _record(container, created.id)).run_lease
    assert lease is not None
    return created.id, ticket_of(lease)


async def _types(container: Container, sid: SessionId) -> list[EventType]:
    events = await container.service.events(sid, 0, 1000)
    assert not isinstance(events, ServiceFailure)
    return [e.type for e in events]


async def test_post_run_enqueues_one_job_with_a_queued_lease_and_runs_nothing_in_the_api(
    workers: Container,
) -> None:
    sid, ticket = await _started(workers)
    record = await _record(workers, sid)
    assert record.run_lease is not None and record.run_lease.owner == f"queued/{ticket}"
    assert record.running and workers.runs.active() == 0
    jobs = await _jobs(workers)
    assert [(j["status"], j["task_name"]) for j in jobs] == [("todo", "forge.run_session")]
    args = jobs[0]["args"] if isinstance(jobs[0]["args"], dict) else json.loads(jobs[0]["args"])
    assert args == {"session_id": str(sid), "ticket": ticket}
    again = await workers.service.start_run(sid)  # idempotent: the queued run counts as running
    assert not isinstance(again, ServiceFailure) and not again.started
    assert len(await _jobs(workers)) == 1


async def test_the_job_claims_its_ticket_and_runs_the_session_until_its_review(workers: Container) -> None:
    sid, ticket = await _started(workers)
    assert await _executor(workers).run_job(sid, ticket) == ClaimKind.TAKE
    record = await _record(workers, sid)
    assert (record.awaiting_input_type, record.run_lease, record.running) == ("decompose_review", None, False)
    types = await _types(workers, sid)
    assert types[-1] == EventType.DONE and types.count(EventType.PHASE_CHANGE) == 1  # no resume marker


async def test_a_job_for_another_ticket_or_a_cancelled_session_writes_nothing(workers: Container) -> None:
    sid, ticket = await _started(workers)
    before = await _types(workers, sid)
    assert await _executor(workers).run_job(sid, "not-" + ticket) == ClaimKind.SUPERSEDED
    assert (await _record(workers, sid)).run_lease.owner == f"queued/{ticket}"  # type: ignore[union-attr]
    assert await _types(workers, sid) == before
    assert not isinstance(await workers.service.cancel(sid), ServiceFailure)
    assert await _executor(workers).run_job(sid, ticket) == ClaimKind.SUPERSEDED


async def test_a_retried_job_waits_for_the_dead_workers_lease_then_resumes_with_one_marker(
    workers: Container,
) -> None:
    sid, ticket = await _started(workers)
    dead_until = datetime.now(UTC) + timedelta(seconds=1)
    async with workers.uow_factory() as uow:  # a worker that claimed the ticket, committed a step, then died
        await uow.sessions.lock(sid)
        await uow.sessions.set_run_lease(sid, worker_lease("dead-worker", ticket, dead_until))
        await uow.events.append_all(sid, [ev.agent_text("Looking at the problem.")], datetime.now(UTC))
        await uow.commit()
    assert await _executor(workers).run_job(sid, ticket) == ClaimKind.TAKE
    assert datetime.now(UTC) >= dead_until  # it did not take over a live lease
    events = await workers.service.events(sid, 0, 1000)
    assert not isinstance(events, ServiceFailure)
    markers = [e for e in events if e.type == EventType.PHASE_CHANGE and e.data.get("resumed")]
    assert len(markers) == 1
    assert (await _record(workers, sid)).awaiting_input_type == "decompose_review"


async def test_a_job_cancelled_mid_run_hands_its_session_back_to_the_queue(workers: Container) -> None:
    sid, ticket = await _started(workers)
    job = asyncio.get_running_loop().create_task(_executor(workers).run_job(sid, ticket))
    while not workers.runs.runs_here(sid):  # noqa: ASYNC110 -- the registry offers no event to await
        await asyncio.sleep(0.01)
    job.cancel()  # the run has started (a fixed sleep here let a fast machine finish the phase first)
    await asyncio.gather(job, return_exceptions=True)
    lease = (await _record(workers, sid)).run_lease
    assert lease is not None and lease.owner == f"queued/{ticket}"
    assert [j["status"] for j in await _jobs(workers)] == ["todo", "todo"]  # the first never ran in a worker
    assert await _executor(workers).run_job(sid, ticket) == ClaimKind.TAKE
    assert (await _record(workers, sid)).awaiting_input_type == "decompose_review"


async def _closed_within(container: Container, sid: SessionId, heartbeats: int) -> StreamClosed | None:
    """Follow the session for a few heartbeats; the StreamClosed it ended with, if it ended."""
    seen = 0
    async for batch in container.service.follow_batches(sid, 10**6):
        if isinstance(batch[-1], StreamClosed):
            return batch[-1]
        seen += isinstance(batch[-1], Heartbeat)
        if seen >= heartbeats:
            return None
    return None


async def test_a_follower_keeps_waiting_while_a_dead_workers_job_is_still_queued(workers: Container) -> None:
    sid, ticket = await _started(workers)
    async with workers.uow_factory() as uow:  # its worker died and its lease expired; the job is in the queue
        await uow.sessions.lock(sid)
        await uow.sessions.set_run_lease(sid, worker_lease("dead-worker", ticket, datetime.now(UTC)))
        await uow.commit()
    assert not (await _record(workers, sid)).running
    assert await _closed_within(workers, sid, heartbeats=5) is None
    async with workers.engine.begin() as connection:  # no job left: nothing will run the session
        await connection.execute(text("DELETE FROM procrastinate_jobs"))
    closed = await _closed_within(workers, sid, heartbeats=5)
    assert closed is not None and closed.code == RUN_NOT_RUNNING
