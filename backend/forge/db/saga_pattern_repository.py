"""SqlSagaPatternRepository: SAGA's Layer 3 pattern sightings as rows, across sessions.

Invariants:
    - One row per (session, hypothesis): `add_all` inserts only the keys not yet stored, so a
      checkpoint repeated after a crash writes nothing twice (read-then-insert in the caller's
      transaction, portable across SQLite and PostgreSQL).
    - The unsigned 64-bit SimHash is stored as a signed BIGINT and read back unsigned.
    - `recent` returns other sessions' sightings, newest first, at most `limit`, each with the
      session id (canonical text, as `str(UUID)`) as its place; `newest` returns every session's
      rows stored since a time, with their hypothesis ids and times (a process's history window
      is topped up with it, `core/saga/pattern_history.py`); `counts_since` counts from two times
      in one statement. Writes enter the unit of work's write
      gate; nothing commits here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

from sqlalchemy import ColumnElement, String, bindparam, case, func, insert, select, type_coerce
from sqlalchemy.ext.asyncio import AsyncSession

from forge.core.domain_types import SessionId
from forge.core.saga.pattern_history import StoredSighting
from forge.core.saga.patterns import PatternSighting
from forge.db.session_statements import table_of
from forge.db.tables import SagaPatternRow
from forge.db.write_gate import NO_GATE, WriteTicket

# Built once (see session_statements): a checkpoint stores its sightings in two statements.
_STORED_OF = select(SagaPatternRow.hypothesis_id).where(
    SagaPatternRow.session_id == bindparam("b_session"),
    SagaPatternRow.hypothesis_id.in_(bindparam("b_ids", expanding=True)),
)
_INSERT = insert(table_of(SagaPatternRow))

_TWO_63 = 1 << 63
_TWO_64 = 1 << 64


def _signed(h: int) -> int:
    return h - _TWO_64 if h >= _TWO_63 else h


def _unsigned(h: int) -> int:
    return h + _TWO_64 if h < 0 else h


class SqlSagaPatternRepository:
    def __init__(self, session: AsyncSession, gate: WriteTicket = NO_GATE) -> None:
        self._session = session
        self._gate = gate

    async def recent(self, *, exclude: SessionId, limit: int = 5000) -> list[PatternSighting]:
        other_sessions = SagaPatternRow.session_id != UUID(str(exclude))
        return [row.sighting for row in await self._read(other_sessions, limit)]

    async def newest(self, *, since: datetime | None, limit: int) -> list[StoredSighting]:
        """Every session's sightings stored at or after `since` (None: all), newest first, at most `limit`."""
        return await self._read(SagaPatternRow.created_at >= since if since is not None else None, limit)

    async def counts_since(self, since: datetime | None, later: datetime | None) -> tuple[int, int]:
        """How many sightings (every session's) were stored at or after `since`, and how many at or
        after `later` (None: all), in one query."""

        def stored_from(start: datetime | None) -> ColumnElement[int]:
            if start is None:
                return func.count()
            return func.coalesce(func.sum(case((SagaPatternRow.created_at >= start, 1), else_=0)), 0)

        query = select(stored_from(since), stored_from(later)).select_from(SagaPatternRow)
        if since is not None and later is not None:  # else one of them counts every row
            query = query.where(SagaPatternRow.created_at >= min(since, later))  # the index bounds the scan
        row = (await self._session.execute(query)).one()
        return int(row[0]), int(row[1])

    async def _read(self, where: ColumnElement[bool] | None, limit: int) -> list[StoredSighting]:
        # Plain columns, not ORM objects: up to `limit` rows are read at a checkpoint. The session id
        # comes as the driver gives it (SQLite: hex text; asyncpg: its UUID) and is made a place once
        # per session, not once per row (a UUID per row was ~40% of reading 5,000 rows).
        session = type_coerce(SagaPatternRow.session_id, String).label("session")
        columns = (
            SagaPatternRow.hash,
            SagaPatternRow.label,
            session,
            SagaPatternRow.score,
            SagaPatternRow.hypothesis_id,
            SagaPatternRow.created_at,
        )
        newest_first = (SagaPatternRow.created_at.desc(), SagaPatternRow.hypothesis_id, SagaPatternRow.session_id)
        query = select(*columns).order_by(*newest_first).limit(limit)
        if where is not None:
            query = query.where(where)
        places: dict[object, str] = {}
        rows = []
        for r in await self._session.execute(query):
            place = places.get(r.session)
            if place is None:
                place = places[r.session] = str(UUID(str(r.session)))
            sighting = PatternSighting(_unsigned(r.hash), r.label, place, r.score)
            rows.append(StoredSighting(r.hypothesis_id, r.created_at, sighting))
        return rows

    async def add_all(
        self, session_id: SessionId, sightings: Sequence[tuple[str, PatternSighting]], at: datetime
    ) -> list[StoredSighting]:
        """Store the sightings not stored yet; returns those it stored (a repeat returns nothing)."""
        await self._gate.enter()
        if not sightings:
            return []
        sid = UUID(str(session_id))
        ids = [hid for hid, _ in sightings]
        stored = set(await self._session.scalars(_STORED_OF, {"b_session": sid, "b_ids": ids}))
        added: list[StoredSighting] = []
        rows: list[dict[str, object]] = []
        place = str(sid)
        for hid, s in dict(sightings).items():
            if hid not in stored:
                added.append(StoredSighting(hid, at, PatternSighting(s.hash, s.label, place, s.score)))
                row = {"session_id": sid, "hypothesis_id": hid, "hash": _signed(s.hash), "label": s.label}
                rows.append(row | {"score": s.score, "created_at": at})
        if rows:
            await self._session.execute(_INSERT, rows)
        return added
