"""SQLAlchemy implementations of the SessionRepository, EventLog and ToolCallLog ports.

Invariants:
    - Each repository works inside the AsyncSession it is given and never commits (it may
      flush); durability is the unit of work's business.
    - Only domain records leave this module (SessionRecord, ForgeState, Message, StoredEvent,
      ToolCallEntry); ORM rows stay inside.
    - `save_state` writes `sessions.forge_state` and, in the same transaction, replaces the
      session's projection rows (claims, evidence, edges, reframings, analogies,
      contradictions) with those of the new state. Projection rows never enter the identity
      map: they are deleted and inserted with Core statements.
    - Event seqs and tool-call seqs are 1, 2, 3, ... per session; the next one is max + 1 read
      in the writing transaction, and the unique (session_id, seq) index turns a racing append
      into an IntegrityError instead of a duplicate.
    - Deleting a session relies on ON DELETE CASCADE for everything it owns.
    - Reading, updating or writing the state or messages of an unknown session raises
      SessionNotFoundError; `get` returns None and `delete` returns False instead.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, delete, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from forge.core.domain_types import EventSeq, SessionId, SessionStatus
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message
from forge.core.session_events import SessionEvent
from forge.core.session_record import SessionPage, SessionRecord, StoredEvent, ToolCallEntry
from forge.core.state_codec import decode_state, encode_state, encode_value
from forge.db.row_mapping import (
    decode_messages,
    encode_messages,
    session_columns,
    session_record,
    stored_event,
    tool_call_entry,
)
from forge.db.state_projection import PROJECTED_TABLES_DELETE_ORDER, project_state
from forge.db.tables import Base, EventRow, SessionRow, ToolCallRow


def _table(model: type[Base]) -> Table:
    return cast(Table, model.__table__)


class SessionNotFoundError(LookupError):
    def __init__(self, session_id: uuid.UUID) -> None:
        super().__init__(f"No session {session_id}.")
        self.session_id = session_id


class SqlSessionRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def _require(self, session_id: uuid.UUID) -> SessionRow:
        row = await self._session.get(SessionRow, session_id)
        if row is None:
            raise SessionNotFoundError(session_id)
        return row

    async def add(self, record: SessionRecord, state: ForgeState) -> None:
        row = SessionRow(**session_columns(record), forge_state=encode_state(state), message_history=[])
        self._session.add(row)
        await self._session.flush()
        await self._replace_projection(record.id, state)

    async def get(self, session_id: SessionId) -> SessionRecord | None:
        row = await self._session.get(SessionRow, session_id)
        return session_record(row) if row is not None else None

    async def list_page(self, *, limit: int, offset: int, status: SessionStatus | None) -> SessionPage:
        filters = [SessionRow.status == status.value] if status is not None else []
        total = await self._session.scalar(select(func.count()).select_from(SessionRow).where(*filters))
        newest_first = (SessionRow.created_at.desc(), SessionRow.id.desc())
        query = select(SessionRow).where(*filters).order_by(*newest_first).limit(limit).offset(offset)
        rows = await self._session.scalars(query)
        return SessionPage(tuple(session_record(r) for r in rows), total or 0, limit, offset)

    async def update(self, record: SessionRecord) -> None:
        row = await self._require(record.id)
        for name, value in session_columns(record).items():
            if name != "id":
                setattr(row, name, value)
        await self._session.flush()

    async def delete(self, session_id: SessionId) -> bool:
        row = await self._session.get(SessionRow, session_id)
        if row is None:
            return False
        await self._session.delete(row)
        await self._session.flush()
        return True

    async def load_state(self, session_id: SessionId) -> ForgeState:
        result = await self._session.execute(select(SessionRow.forge_state).where(SessionRow.id == session_id))
        found = result.first()
        if found is None:
            raise SessionNotFoundError(session_id)
        return decode_state(found[0])

    async def save_state(self, session_id: SessionId, state: ForgeState) -> None:
        row = await self._require(session_id)
        row.forge_state = encode_state(state)
        await self._session.flush()
        await self._replace_projection(session_id, state)

    async def _replace_projection(self, session_id: uuid.UUID, state: ForgeState) -> None:
        for model in PROJECTED_TABLES_DELETE_ORDER:
            table = _table(model)
            await self._session.execute(delete(table).where(table.c.session_id == session_id))
        for model, rows in project_state(session_id, state).insert_order():
            if rows:
                await self._session.execute(insert(_table(model)), rows)

    async def load_messages(self, session_id: SessionId) -> list[Message]:
        result = await self._session.execute(select(SessionRow.message_history).where(SessionRow.id == session_id))
        found = result.first()
        if found is None:
            raise SessionNotFoundError(session_id)
        return decode_messages(found[0])

    async def save_messages(self, session_id: SessionId, messages: Sequence[Message]) -> None:
        row = await self._require(session_id)
        row.message_history = encode_messages(messages)
        await self._session.flush()


async def _last_seq(session: AsyncSession, seq_column: Any, session_column: Any, session_id: uuid.UUID) -> int:
    query = select(func.coalesce(func.max(seq_column), 0)).where(session_column == session_id)
    return int(await session.scalar(query) or 0)


class SqlEventLog:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def append(self, session_id: SessionId, event: SessionEvent, at: datetime) -> StoredEvent:
        seq = await self.last_seq(session_id) + 1
        data = encode_value(event.data)
        values = {"session_id": session_id, "seq": seq, "type": event.type.value, "data": data, "created_at": at}
        await self._session.execute(insert(_table(EventRow)).values(**values))
        return StoredEvent(seq=EventSeq(seq), type=event.type, data=data, created_at=at)

    async def after(self, session_id: SessionId, after_seq: int, limit: int = 500) -> list[StoredEvent]:
        query = (
            select(EventRow)
            .where(EventRow.session_id == session_id, EventRow.seq > after_seq)
            .order_by(EventRow.seq)
            .limit(limit)
        )
        return [stored_event(row) for row in await self._session.scalars(query)]

    async def last_seq(self, session_id: SessionId) -> EventSeq:
        return EventSeq(await _last_seq(self._session, EventRow.seq, EventRow.session_id, session_id))


class SqlToolCallLog:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def record(self, session_id: SessionId, entry: ToolCallEntry) -> None:
        seq = await _last_seq(self._session, ToolCallRow.seq, ToolCallRow.session_id, session_id) + 1
        values = {
            "id": uuid.uuid4(),
            "session_id": session_id,
            "seq": seq,
            "tool_name": entry.tool_name,
            "tool_input": encode_value(entry.tool_input),
            "tool_output": encode_value(entry.tool_output),
            "error_code": entry.error_code,
            "phase": entry.phase.value,
            "created_at": entry.created_at,
        }
        await self._session.execute(insert(_table(ToolCallRow)).values(**values))

    async def list_for(self, session_id: SessionId) -> list[ToolCallEntry]:
        query = select(ToolCallRow).where(ToolCallRow.session_id == session_id).order_by(ToolCallRow.seq)
        return [tool_call_entry(row) for row in await self._session.scalars(query)]
