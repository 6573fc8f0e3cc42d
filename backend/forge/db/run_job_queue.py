"""The task engine's queue of session runs, seen from our database code (procrastinate's schema).

Invariants:
    - `enqueue_run` inserts the job through procrastinate's own defer function, in the caller's
      transaction: the session's queued lease and its job commit together or not at all, so a crash
      can never leave a queued lease without a job (or a job for a command that was rolled back).
      procrastinate's insert trigger NOTIFYs the workers at commit.
    - Only PostgreSQL has the queue (migration 0007 applies procrastinate's schema there); on SQLite
      `enqueue_run` refuses, and nothing calls it (FORGE_RUNNER=workers requires PostgreSQL).
    - `QueueProbe` only reads (readiness, queue depth); it never changes a job.
    - `is_task_engine_table` names the tables Alembic must leave alone (they are not our models).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from forge.core.domain_types import SessionId
from forge.core.session.run_tickets import RUN_QUEUE, RUN_SESSION_TASK
from forge.db.write_gate import WriteTicket

TASK_ENGINE_PREFIX = "procrastinate_"

_DEFER = text(
    "SELECT procrastinate_defer_jobs_v1(ARRAY[ROW(:queue, :task, 0, NULL, NULL, CAST(:args AS jsonb), NULL)"
    "::procrastinate_job_to_defer_v1])"
)
_PENDING = text(
    "SELECT EXISTS (SELECT 1 FROM procrastinate_jobs WHERE queue_name = :queue AND task_name = :task "
    "AND status IN ('todo', 'doing') AND args->>'session_id' = :session_id)"
)
_DEPTH = text(
    "SELECT status::text AS status, count(*) AS jobs FROM procrastinate_jobs "
    "WHERE queue_name = :queue AND status IN ('todo', 'doing') GROUP BY status"
)
_LIVE_WORKERS = text(
    "SELECT count(*) FROM procrastinate_workers WHERE last_heartbeat > now() - make_interval(secs => :seconds)"
)


def is_task_engine_table(name: str | None) -> bool:
    return (name or "").startswith(TASK_ENGINE_PREFIX)


def ours_in_autogenerate(name: str | None, type_: str, _parents: object) -> bool:
    """Alembic's `include_name`: compare and autogenerate leave the task engine's tables alone."""
    return not (type_ == "table" and is_task_engine_table(name))


def run_job_args(session_id: SessionId, ticket: str) -> dict[str, str]:
    """The keyword arguments of the run task (what the worker's task function receives)."""
    return {"session_id": str(session_id), "ticket": ticket}


class SqlRunJobQueue:
    def __init__(self, session: AsyncSession, ticket: WriteTicket) -> None:
        self._session = session
        self._ticket = ticket

    async def enqueue_run(self, session_id: SessionId, ticket: str) -> None:
        bind = self._session.get_bind()
        if bind.dialect.name != "postgresql":
            raise RuntimeError("Run jobs need PostgreSQL (FORGE_RUNNER=workers); SQLite runs in-process.")
        await self._ticket.enter()
        args = json.dumps(run_job_args(session_id, ticket))
        await self._session.execute(_DEFER, {"queue": RUN_QUEUE, "task": RUN_SESSION_TASK, "args": args})

    async def has_pending_run(self, session_id: SessionId) -> bool:
        if self._session.get_bind().dialect.name != "postgresql":
            return False
        params = {"queue": RUN_QUEUE, "task": RUN_SESSION_TASK, "session_id": str(session_id)}
        return bool(await self._session.scalar(_PENDING, params))


@dataclass(frozen=True, slots=True)
class QueueDepth:
    waiting: int  # jobs not picked up yet (status todo)
    running: int  # jobs a worker holds (status doing; a dead worker's until retried)
    live_workers: int  # workers whose heartbeat is recent


class QueueProbe:
    def __init__(self, engine: AsyncEngine, live_worker_seconds: float) -> None:
        self._engine = engine
        self._live_worker_seconds = live_worker_seconds

    async def depth(self) -> QueueDepth:
        """The run queue now; raises when the queue cannot be read (no schema, no database)."""
        async with self._engine.connect() as connection:
            rows = (await connection.execute(_DEPTH, {"queue": RUN_QUEUE})).mappings().all()
            workers = await connection.scalar(_LIVE_WORKERS, {"seconds": self._live_worker_seconds})
        counts = {row["status"]: int(row["jobs"]) for row in rows}
        return QueueDepth(counts.get("todo", 0), counts.get("doing", 0), int(workers or 0))
