"""`forge worker`: a worker process of the task engine (procrastinate) that runs queued sessions.

Invariants:
    - PostgreSQL only. The worker builds the same container as `forge serve` (models, engine, step
      loop) and registers one task, RUN_SESSION_TASK on RUN_QUEUE, which hands the job's session and
      ticket to `QueuedRunExecutor.run_job`: the run goes until the session pauses for a review or
      finishes, every step committed on its own.
    - Death of a worker: procrastinate's heartbeat marks it stalled after FORGE_WORKER_STALLED_SECONDS;
      every worker looks for stalled run jobs every heartbeat and retries them (procrastinate's
      `get_stalled_jobs` + `retry_job`; a job another worker retried first is skipped), so a live
      worker picks the job up again and resumes the session once the dead worker's lease expired.
    - SIGTERM/SIGINT: procrastinate stops fetching, lets running jobs go on for SHUTDOWN_GRACE_SECONDS,
      then cancels them; a cancelled job hands its session back to the queue (`QueuedRunExecutor`).
    - With `--alive-file`, the file is touched every heartbeat (a container healthcheck reads its age).
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from uuid import UUID

from procrastinate import App, PsycopgConnector

from forge.bootstrap.build_container import build_container
from forge.config import Settings
from forge.core.domain_types import SessionId
from forge.core.session.run_tickets import RUN_QUEUE, RUN_SESSION_TASK
from forge.db.postgres_event_notifications import asyncpg_dsn
from forge.services.runs.queued_run import QueuedRunExecutor

log = logging.getLogger(__name__)

SHUTDOWN_GRACE_SECONDS = 5.0
FETCH_POLL_SECONDS = 1.0  # besides LISTEN/NOTIFY of new jobs: also how soon a retried (stalled) job runs


async def retry_stalled_runs(app: App, stalled_seconds: float) -> int:
    """Retry run jobs whose worker stopped sending heartbeats; how many this call retried."""
    stalled = await app.job_manager.get_stalled_jobs(
        queue=RUN_QUEUE, task_name=RUN_SESSION_TASK, seconds_since_heartbeat=stalled_seconds
    )
    retried = 0
    for job in stalled:
        try:
            await app.job_manager.retry_job(job)
        except Exception as error:  # another worker retried it first; the job is no longer `doing`
            log.debug("stalled job %s not retried here: %s", job.id, error)
            continue
        retried += 1
        log.warning("retrying run job %s (session %s): its worker stopped", job.id, job.task_kwargs.get("session_id"))
    return retried


async def _watch(app: App, settings: Settings, alive_file: Path | None) -> None:
    """Every heartbeat: retry stalled run jobs, touch the alive file."""
    while True:
        await asyncio.sleep(settings.worker_heartbeat_seconds)
        try:
            await retry_stalled_runs(app, settings.worker_stalled_seconds)
        except Exception:
            log.exception("looking for stalled run jobs failed; trying again at the next heartbeat")
        if alive_file is not None:
            await asyncio.to_thread(alive_file.touch)


def _register_run_task(app: App, executor: QueuedRunExecutor) -> None:
    @app.task(name=RUN_SESSION_TASK, queue=RUN_QUEUE)
    async def run_session(session_id: str, ticket: str) -> None:
        await executor.run_job(SessionId(UUID(session_id)), ticket)


async def run_worker(settings: Settings, alive_file: Path | None = None) -> int:
    if settings.database_kind != "postgresql":
        raise ValueError(
            "forge worker needs PostgreSQL (DATABASE_URL=postgresql+asyncpg://...) with FORGE_RUNNER=workers"
        )
    container = build_container(settings)
    assert container.queued_runs is not None  # built on PostgreSQL
    await container.warm_up()
    app = App(connector=PsycopgConnector(conninfo=asyncpg_dsn(settings.database_url)))
    _register_run_task(app, container.queued_runs)
    name = f"forge-worker-{os.getpid()}"
    print(f"{name}: runs sessions from queue {RUN_QUEUE!r}, {settings.worker_concurrency} at once", flush=True)
    try:
        async with app.open_async():
            watcher = asyncio.get_running_loop().create_task(_watch(app, settings, alive_file))
            try:
                await app.run_worker_async(
                    queues=[RUN_QUEUE],
                    name=name,
                    concurrency=settings.worker_concurrency,
                    fetch_job_polling_interval=FETCH_POLL_SECONDS,
                    update_heartbeat_interval=settings.worker_heartbeat_seconds,
                    stalled_worker_timeout=settings.worker_stalled_seconds,
                    shutdown_graceful_timeout=SHUTDOWN_GRACE_SECONDS,
                    delete_jobs="successful",
                )
            finally:
                watcher.cancel()
                await asyncio.gather(watcher, return_exceptions=True)
    finally:
        await container.close()
    return 0
