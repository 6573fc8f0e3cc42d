"""SQLAlchemy implementations of the SessionRepository, EventLog and ToolCallLog ports.

Invariants:
    - Each repository works inside the AsyncSession it is given and never commits (it may
      flush); durability is the unit of work's business.
    - Only domain records leave this module (SessionRecord, ForgeState, Message, StoredEvent,
      ToolCallEntry); ORM rows stay inside.
    - `lock` is the session's write lock: `UPDATE sessions SET version = version + 1` as the
      transaction's first statement takes PostgreSQL's row lock and SQLite's write lock (a
      transaction that writes first never hits SQLite's stale-snapshot upgrade failure), so
      commands and steps on one session run one after another, each seeing the last one's commit.
    - The status columns are written only from the state (`position_columns`), in `save_state`.
    - Event seqs are allocated by advancing `sessions.last_event_seq` in one UPDATE ... RETURNING,
      which is atomic (and row-locking) on both backends: a seq is never read outside the
      transaction that uses it. In a transaction that holds the session's lock, appends count on
      from the values the lock read and the counters are written with the row's next UPDATE or at
      commit (`session_counters`); messages' and tool calls' seqs likewise. On PostgreSQL the same
      transaction sends a NOTIFY with the new last seq, delivered at commit, so other API processes
      learn of the events: under the lock as the row's next UPDATE's `RETURNING pg_notify(...)`,
      otherwise as its own statement.
    - `refresh_projection` rewrites only the projected tables whose rows changed since the digest
      the row holds (`state_projection.tables_to_rewrite`); a refresh without the lock rewrites all.
    - The conversation is append-only rows; `replace_messages` (a compaction) is the one rewrite.
      A message row is never updated, so decoded messages are kept by their text
      (`decoded_by_text`): reading a conversation again yields the same objects.
    - Projection rows (claims, evidence, edges, ...) are written only by `refresh_projection`,
      which the services call when a run pauses or a review is applied, not on every step.
    - Every writing method first enters the unit of work's write gate (a no-op on PostgreSQL; one
      writer at a time per SQLite database, queued in the process — see write_gate).
    - Deleting a session relies on ON DELETE CASCADE for everything it owns.
    - Reading or writing the state or messages of an unknown session raises
      SessionNotFoundError; `get`/`lock` return None and `delete` returns False instead.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal, cast

from sqlalchemy import ClauseElement, delete, func, insert, literal, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from forge.core.accounts.users import UserId
from forge.core.domain_types import EventSeq, SessionId, SessionStatus
from forge.core.llm.messages import Message
from forge.core.session.events import SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.session.position import FINISHED_STATUSES
from forge.core.session.record import RunLease, SessionPage, SessionRecord, StoredEvent, ToolCallEntry
from forge.core.session.state_codec import encode_value
from forge.core.session.state_json import decode_state_json, encode_state_json
from forge.db.decoded_by_text import DecodedByText
from forge.db.json_columns import EncodedJson, deserialize_json
from forge.db.postgres_event_notifications import NOTIFY_CHANNEL, encode_payload, notify_statement
from forge.db.row_mapping import (
    decode_message,
    encode_message,
    new_session_columns,
    position_columns,
    session_record,
    stored_event,
    tool_call_entry,
)
from forge.db.session_counters import Counter, LockedCounters
from forge.db.session_statements import (
    ALLOCATE_EVENTS,
    ALLOCATE_MESSAGES,
    ALLOCATE_TOOL_CALLS,
    CANCELLED,
    DELETE_PROJECTED,
    EXISTS,
    GET,
    INSERT_EVENTS,
    INSERT_MESSAGES,
    INSERT_PROJECTED,
    INSERT_TOOL_CALLS,
    LAST_EVENT_SEQ,
    LOAD_STATE,
    LOCK,
    MESSAGES_AS_TEXT,
    SCALAR_COLUMNS,
    SESSIONS,
    UPDATE_SESSION,
    UPDATE_SESSION_NOTIFYING,
    table_of,
)
from forge.db.state_projection import (
    EVERY_PROJECTED_TABLE,
    PROJECTED_TABLES_DELETE_ORDER,
    Projection,
    project_state,
    projection_digest,
    tables_to_rewrite,
)
from forge.db.tables import Base, EventRow, MessageRow, SessionRow, ToolCallRow
from forge.db.write_gate import NO_GATE, WriteTicket

KEEP_LEASE: Literal["keep"] = "keep"
# Messages are never updated: a run that reads its conversation again gets the same objects, so the
# identity memos downstream (message texts, the curation's selections) keep serving across runs.
_MESSAGES: DecodedByText[Message] = DecodedByText(lambda text: decode_message(deserialize_json(text)), 16_000_000)
# Events are read as plain rows (no ORM identity map): replays and pages read hundreds at a time.
_EVENT_COLUMNS = (EventRow.seq, EventRow.type, EventRow.data, EventRow.created_at)


def _first_resolved(at: datetime) -> Any:
    """`resolved_at` keeps its first value; `at` is bound as the column's type (aware UTC, naive refused)."""
    return func.coalesce(SESSIONS.c.resolved_at, literal(at, SESSIONS.c.resolved_at.type))


class SessionNotFoundError(LookupError):
    def __init__(self, session_id: uuid.UUID) -> None:
        super().__init__(f"No session {session_id}.")
        self.session_id = session_id


def _state_column(state: ForgeState) -> EncodedJson:
    """The state as the JSON column stores it: encoded once, in C, and written as that text."""
    return EncodedJson(encode_state_json(state))


class SqlSessionRepository:
    def __init__(
        self, session: AsyncSession, gate: WriteTicket = NO_GATE, counters: LockedCounters | None = None
    ) -> None:
        self._session = session
        self._gate = gate
        self._counters = counters if counters is not None else LockedCounters()

    async def _update(self, session_id: uuid.UUID, **values: Any) -> None:
        await self._gate.enter()
        values = self._counters.take(session_id) | values  # the appends' counters ride along
        announce = self._counters.take_announcement(session_id)  # and their NOTIFY (PostgreSQL)
        if any(isinstance(v, ClauseElement) for v in values.values()):  # an SQL expression: built for it
            statement = update(SESSIONS).where(SESSIONS.c.id == session_id).values(**values)
            if announce is not None:
                statement = statement.returning(
                    func.pg_notify(NOTIFY_CHANNEL, encode_payload(SessionId(session_id), announce))
                )
            result = await self._session.execute(statement)
        elif announce is not None:  # plain values: the prebuilt UPDATE takes its SET clause from them
            notifying = {"b_channel": NOTIFY_CHANNEL, "b_payload": encode_payload(SessionId(session_id), announce)}
            result = await self._session.execute(UPDATE_SESSION_NOTIFYING, {"b_id": session_id, **notifying, **values})
        else:
            result = await self._session.execute(UPDATE_SESSION, {"b_id": session_id, **values})
        if cast(Any, result).rowcount == 0:
            raise SessionNotFoundError(session_id)

    async def add(self, record: SessionRecord, state: ForgeState, messages: Sequence[Message] = ()) -> None:
        await self._gate.enter()
        projection = project_state(record.id, state)
        values = new_session_columns(record, state) | {
            "forge_state": _state_column(state),
            "projection_digest": projection_digest(projection),
        }
        await self._session.execute(insert(SESSIONS).values(**values))
        await self.append_messages(record.id, messages)
        await self._insert_projected(projection, EVERY_PROJECTED_TABLE)  # a new row owns none yet

    async def write_counters(self) -> None:
        """Write the counters this transaction's appends moved and no UPDATE has carried yet."""
        for session_id in self._counters.pending():
            await self._update(session_id)

    async def get(self, session_id: SessionId) -> SessionRecord | None:
        # The scalar columns only: the state (the largest column) would be read and JSON-decoded for nothing.
        row = (await self._session.execute(GET, {"b_id": session_id})).first()
        return session_record(row) if row is not None else None

    async def lock(self, session_id: SessionId) -> SessionRecord | None:
        await self._gate.enter()
        # One round trip: the version bump takes the lock and returns the row (without the state).
        row = (await self._session.execute(LOCK, {"b_id": session_id})).first()
        if row is None:
            return None
        self._counters.hold(session_id, row)
        return session_record(row)

    async def list_page(
        self, *, limit: int, offset: int, status: SessionStatus | None, owner: UserId | None = None
    ) -> SessionPage:
        filters = [SessionRow.status == status.value] if status is not None else []
        if owner is not None:
            filters.append(SessionRow.owner_id == owner)
        total = await self._session.scalar(select(func.count()).select_from(SessionRow).where(*filters))
        newest_first = (SessionRow.created_at.desc(), SessionRow.id.desc())
        query = select(*SCALAR_COLUMNS).where(*filters).order_by(*newest_first).limit(limit).offset(offset)
        rows = await self._session.execute(query)
        return SessionPage(tuple(session_record(r) for r in rows), total or 0, limit, offset)

    async def delete(self, session_id: SessionId) -> bool:
        await self._gate.enter()
        result = await self._session.execute(delete(SESSIONS).where(SESSIONS.c.id == session_id))
        return bool(cast(Any, result).rowcount)

    async def load_state(self, session_id: SessionId) -> ForgeState:
        # Read as text (CAST: on PostgreSQL the driver would parse json itself) and decoded in one pass.
        found = (await self._session.execute(LOAD_STATE, {"b_id": session_id})).first()
        if found is None:
            raise SessionNotFoundError(session_id)
        return decode_state_json(found[0])

    async def save_state(
        self,
        session_id: SessionId,
        state: ForgeState,
        *,
        at: datetime,
        cancelled: bool | None = None,
        run_lease: RunLease | Literal["keep"] | None = KEEP_LEASE,
    ) -> None:
        """The state and the columns derived from it, in one UPDATE; `resolved_at` is set once, when
        finished. A caller holding the lock passes what it read (`cancelled`) and may set the run
        lease in the same statement."""
        if cancelled is None:
            cancelled = await self._session.scalar(CANCELLED, {"b_id": session_id})
            if cancelled is None:
                raise SessionNotFoundError(session_id)
        columns = position_columns(state, cancelled=cancelled)
        if SessionStatus(columns["status"]) in FINISHED_STATUSES:
            columns["resolved_at"] = _first_resolved(at)
        if run_lease != KEEP_LEASE:
            lease = run_lease
            columns |= {
                "run_owner": lease.owner if lease else None,
                "run_lease_expires_at": lease.expires_at if lease else None,
            }
        await self._update(session_id, forge_state=_state_column(state), **columns)

    async def set_cancelled(self, session_id: SessionId, at: datetime) -> None:
        await self._update(
            session_id,
            cancelled=True,
            status=SessionStatus.CANCELLED.value,
            awaiting_input_type=None,
            resolved_at=_first_resolved(at),
        )

    async def set_run_lease(self, session_id: SessionId, lease: RunLease | None) -> None:
        owner, until = (lease.owner, lease.expires_at) if lease else (None, None)
        await self._update(session_id, run_owner=owner, run_lease_expires_at=until)

    async def renew_run_lease(self, session_id: SessionId, lease: RunLease) -> bool:
        """Extend the lease if `lease.owner` still holds it (one statement; no version bump)."""
        await self._gate.enter()
        held = (SESSIONS.c.id == session_id) & (SESSIONS.c.run_owner == lease.owner)
        result = await self._session.execute(update(SESSIONS).where(held).values(run_lease_expires_at=lease.expires_at))
        return bool(cast(Any, result).rowcount)

    async def refresh_projection(self, session_id: uuid.UUID, state: ForgeState) -> None:
        """Rewrite the projected tables whose rows differ from the state's. Under the session's lock
        the row's digest says which; the new digest rides the row's next UPDATE (so call this
        before `save_state`). Without the lock every table is rewritten and the digest written here."""
        await self._gate.enter()
        projection = project_state(session_id, state)
        digest = projection_digest(projection)
        rewrite = tables_to_rewrite(self._counters.projection_digest(session_id), digest)
        for model in PROJECTED_TABLES_DELETE_ORDER:
            if model in rewrite:
                await self._session.execute(DELETE_PROJECTED[model], {"b_id": session_id})
        await self._insert_projected(projection, rewrite)
        if not self._counters.project(session_id, digest):
            await self._update(session_id, projection_digest=digest)

    async def _insert_projected(self, projection: Projection, tables: frozenset[type[Base]]) -> None:
        for model, rows in projection.insert_order():
            if rows and model in tables:
                await self._session.execute(INSERT_PROJECTED[model], rows)

    async def load_messages(self, session_id: SessionId) -> list[Message]:
        if await self._session.scalar(EXISTS, {"b_id": session_id}) is None:
            raise SessionNotFoundError(session_id)
        return [_MESSAGES.decode(text) for text in await self._session.scalars(MESSAGES_AS_TEXT, {"b_id": session_id})]

    async def append_messages(self, session_id: SessionId, messages: Sequence[Message]) -> None:
        await self._gate.enter()
        if not messages:
            return
        last = self._counters.advance(session_id, Counter.MESSAGES, len(messages))
        if last is None:  # not locked by this transaction: allocated in the row
            last = (await self._session.execute(ALLOCATE_MESSAGES, {"b_id": session_id, "b_n": len(messages)})).scalar()
        if last is None:
            raise SessionNotFoundError(session_id)
        first = last - len(messages) + 1
        rows = [
            {"session_id": session_id, "seq": first + i, "message": encode_message(m)} for i, m in enumerate(messages)
        ]
        await self._session.execute(INSERT_MESSAGES, rows)

    async def replace_messages(self, session_id: SessionId, messages: Sequence[Message]) -> None:
        await self._gate.enter()
        await self._session.execute(delete(table_of(MessageRow)).where(MessageRow.session_id == session_id))
        if not self._counters.reset_messages(session_id):
            await self._update(session_id, message_count=0)
        await self.append_messages(session_id, messages)


class SqlEventLog:
    def __init__(
        self, session: AsyncSession, gate: WriteTicket = NO_GATE, counters: LockedCounters | None = None
    ) -> None:
        self._session = session
        self._gate = gate
        self._counters = counters if counters is not None else LockedCounters()

    async def append(self, session_id: SessionId, event: SessionEvent, at: datetime) -> StoredEvent:
        return (await self.append_all(session_id, (event,), at))[0]

    async def append_all(
        self, session_id: SessionId, events: Sequence[SessionEvent], at: datetime
    ) -> list[StoredEvent]:
        """Store `events` with the next seqs, in order; they become visible when the transaction commits."""
        await self._gate.enter()
        if not events:
            return []
        last = self._counters.advance(session_id, Counter.EVENTS, len(events))
        if last is None:  # not locked by this transaction: allocated in the row
            last = (await self._session.execute(ALLOCATE_EVENTS, {"b_id": session_id, "b_n": len(events)})).scalar()
        if last is None:
            raise SessionNotFoundError(session_id)
        stored = [
            StoredEvent(EventSeq(last - len(events) + 1 + i), e.type, encode_value(e.data), at)
            for i, e in enumerate(events)
        ]
        rows = [
            {"session_id": session_id, "seq": s.seq, "type": s.type.value, "data": s.data, "created_at": at}
            for s in stored
        ]
        await self._session.execute(INSERT_EVENTS, rows)
        if self._session.get_bind().dialect.name == "postgresql" and not self._counters.announce_later(session_id):
            await self._session.execute(notify_statement(session_id, last))  # not locked: announced on its own
        return stored

    async def after(self, session_id: SessionId, after_seq: int, limit: int = 500) -> list[StoredEvent]:
        query = (
            select(*_EVENT_COLUMNS)
            .where(EventRow.session_id == session_id, EventRow.seq > after_seq)
            .order_by(EventRow.seq)
            .limit(limit)
        )
        return [stored_event(row) for row in await self._session.execute(query)]

    async def last(self, session_id: SessionId) -> StoredEvent | None:
        query = select(*_EVENT_COLUMNS).where(EventRow.session_id == session_id).order_by(EventRow.seq.desc()).limit(1)
        row = (await self._session.execute(query)).first()
        return stored_event(row) if row is not None else None

    async def last_seq(self, session_id: SessionId) -> EventSeq:
        held = self._counters.last_event_seq(session_id)  # under the lock: what it read, plus our appends
        found = held if held is not None else await self._session.scalar(LAST_EVENT_SEQ, {"b_id": session_id})
        return EventSeq(found or 0)


class SqlToolCallLog:
    def __init__(
        self, session: AsyncSession, gate: WriteTicket = NO_GATE, counters: LockedCounters | None = None
    ) -> None:
        self._session = session
        self._gate = gate
        self._counters = counters if counters is not None else LockedCounters()

    async def record_all(self, session_id: SessionId, entries: Sequence[ToolCallEntry]) -> None:
        """Log the calls after the session's last one, with seqs counted like the events'."""
        await self._gate.enter()
        if not entries:
            return
        end = self._counters.advance(session_id, Counter.TOOL_CALLS, len(entries))
        if end is None:  # not locked by this transaction: allocated in the row
            end = (await self._session.execute(ALLOCATE_TOOL_CALLS, {"b_id": session_id, "b_n": len(entries)})).scalar()
        if end is None:
            raise SessionNotFoundError(session_id)
        last = end - len(entries)
        rows = [
            {
                "id": uuid.uuid4(),
                "session_id": session_id,
                "seq": last + i,
                "tool_name": entry.tool_name,
                "tool_input": encode_value(entry.tool_input),
                "tool_output": encode_value(entry.tool_output),
                "error_code": entry.error_code,
                "phase": entry.phase.value,
                "created_at": entry.created_at,
            }
            for i, entry in enumerate(entries, 1)
        ]
        await self._session.execute(INSERT_TOOL_CALLS, rows)

    async def list_for(self, session_id: SessionId) -> list[ToolCallEntry]:
        query = select(ToolCallRow).where(ToolCallRow.session_id == session_id).order_by(ToolCallRow.seq)
        return [tool_call_entry(row) for row in await self._session.scalars(query)]
