"""The broadcaster's EventSource over the unit of work: each read is its own short transaction.

Invariants:
    - Every call opens a unit of work, reads, and leaves it (rollback + close), so the connection
      goes back to the pool before the caller sees the result; nothing is written.
"""

from __future__ import annotations

from forge.core.domain_types import SessionId
from forge.core.session.record import StoredEvent
from forge.ports import UnitOfWorkFactory


class EventLogSource:
    def __init__(self, uow_factory: UnitOfWorkFactory) -> None:
        self._uow_factory = uow_factory

    async def after(self, session_id: SessionId, after_seq: int, limit: int) -> list[StoredEvent]:
        async with self._uow_factory() as uow:
            return await uow.events.after(session_id, after_seq, limit)

    async def last(self, session_id: SessionId) -> StoredEvent | None:
        async with self._uow_factory() as uow:
            return await uow.events.last(session_id)
