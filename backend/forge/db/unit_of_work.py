"""SqlAlchemyUnitOfWork: one AsyncSession, its repositories, and the only commit.

Invariants:
    - `commit` here is the only place in the codebase that commits a database transaction; it first
      writes the seq counters the appends moved under the session's lock (`session_counters`).
    - Leaving the `async with` block rolls back whatever was not committed, then closes the
      session; this holds when the block raises, too.
    - The repositories exist only inside the block; one unit of work is entered at most once
      at a time.
    - A query's unit of work (`query_only`) reads without a transaction where the backend would
      open one (PostgreSQL: its session factory is AUTOCOMMIT, so no BEGIN and ROLLBACK round trips
      around the reads; under READ COMMITTED each statement saw the latest commit anyway, and SQLite
      opens no transaction for a SELECT). It cannot write or commit: both raise before any SQL.
"""

from __future__ import annotations

import asyncio
from types import TracebackType

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from forge.db.account_repository import SqlAccountRepository
from forge.db.hypothesis_memory_repository import SqlHypothesisMemoryRepository
from forge.db.hypothesis_repository import SqlHypothesisRepository
from forge.db.repositories import SqlEventLog, SqlSessionRepository, SqlToolCallLog
from forge.db.run_job_queue import SqlRunJobQueue
from forge.db.saga_pattern_repository import SqlSagaPatternRepository
from forge.db.session_counters import LockedCounters
from forge.db.write_gate import NO_GATE, QUERY_ONLY, WriteGate
from forge.ports import (
    AccountRepository,
    EventLog,
    HypothesisMemoryRepository,
    HypothesisRepository,
    RunJobQueue,
    SagaPatternRepository,
    SessionRepository,
    ToolCallLog,
)


class SqlAlchemyUnitOfWork:
    # Typed as the ports: UnitOfWork declares them as (invariant) mutable attributes.
    sessions: SessionRepository
    events: EventLog
    tool_calls: ToolCallLog
    hypotheses: HypothesisRepository
    memory: HypothesisMemoryRepository
    patterns: SagaPatternRepository
    accounts: AccountRepository
    run_jobs: RunJobQueue

    def __init__(
        self,
        session_factory: async_sessionmaker[AsyncSession],
        gate: WriteGate | None = None,
        *,
        query_only: bool = False,
    ) -> None:
        self._session_factory = session_factory
        self._session: AsyncSession | None = None
        self._gate = gate
        self._query_only = query_only
        self._ticket = NO_GATE

    def _active(self) -> AsyncSession:
        if self._session is None:
            raise RuntimeError("The unit of work is not active; use it as `async with uow:`.")
        return self._session

    async def __aenter__(self) -> SqlAlchemyUnitOfWork:
        if self._session is not None:
            raise RuntimeError("The unit of work is already active.")
        session = self._session_factory()
        self._session = session
        if self._query_only:
            self._ticket = QUERY_ONLY
        else:
            self._ticket = self._gate.ticket() if self._gate is not None else NO_GATE
        self._counters = LockedCounters()  # shared by the appends and the session row's UPDATEs
        self._sessions = SqlSessionRepository(session, self._ticket, self._counters)
        self.sessions = self._sessions
        self.events = SqlEventLog(session, self._ticket, self._counters)
        self.tool_calls = SqlToolCallLog(session, self._ticket, self._counters)
        self.hypotheses = SqlHypothesisRepository(session, self._ticket)
        self.memory = SqlHypothesisMemoryRepository(session, self._ticket)
        self.patterns = SqlSagaPatternRepository(session, self._ticket)
        self.accounts = SqlAccountRepository(session, self._ticket)
        self.run_jobs = SqlRunJobQueue(session, self._ticket)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        session = self._active()
        self._session = None
        # Shielded: a request cancelled here (a client that disconnects) must still end its
        # transaction and return the connection, or it would hold database locks indefinitely.
        try:
            await asyncio.shield(_end(session))
        finally:
            self._ticket.leave()  # only once the transaction has ended

    async def commit(self) -> None:
        if self._query_only:
            raise RuntimeError("A query's unit of work has nothing to commit.")
        session = self._active()
        await self._sessions.write_counters()
        await session.commit()
        self._ticket.leave()  # the transaction has ended: the next writer need not wait for the close
        self._counters.release()

    async def rollback(self) -> None:
        await self._active().rollback()
        self._counters.release()


async def _end(session: AsyncSession) -> None:
    try:
        await session.rollback()
    finally:
        await session.close()
