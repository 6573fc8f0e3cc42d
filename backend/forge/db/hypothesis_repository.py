"""SqlHypothesisRepository: the session's hypothesis pool as rows, each holding its whole record.

Invariants:
    - A row's `record` is the encoded Hypothesis (`state_json`: msgspec, the reflective codec as its
      fallback; either reads the other's text); the other columns copy what the pool is filtered
      and sorted by, written from the same record, never edited apart from it. Records are read as
      text (CAST: the asyncpg driver would parse json itself) and decoded in one pass.
    - A record's text decodes to the same frozen Hypothesis every time, so the decoded records of
      the texts read last are kept (bounded, process-wide): SEARCH and SAGA read the whole pool at
      every round and checkpoint, and a row is never updated, so nearly every text is one seen before.
    - Writes enter the unit of work's write gate first, like every repository; nothing commits here.
    - Pages are ordered by mapping score (best first), then insertion order: stable under paging.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, Text, func, insert, select
from sqlalchemy import cast as cast_sql
from sqlalchemy.ext.asyncio import AsyncSession

from forge.core.domain_types import SessionId
from forge.core.hypotheses.pool import Hypothesis
from forge.core.session.state_json import encode_record_json
from forge.db.decoded_by_text import decoded_records
from forge.db.json_columns import EncodedJson
from forge.db.tables import HypothesisRow
from forge.db.write_gate import NO_GATE, WriteTicket
from forge.ports import HypothesisFilter, HypothesisPage

_RECORD_TEXT = cast_sql(HypothesisRow.record, Text)
# The pools of the sessions running now (records are ~2-5 kB of text each).
_DECODED = decoded_records(Hypothesis, 8_000_000)


class SqlHypothesisRepository:
    def __init__(self, session: AsyncSession, gate: WriteTicket = NO_GATE) -> None:
        self._session = session
        self._gate = gate

    async def add_all(self, session_id: SessionId, hypotheses: Sequence[Hypothesis], at: datetime) -> None:
        await self._gate.enter()
        if not hypotheses:
            return
        rows = [
            {
                "session_id": session_id,
                "hypothesis_id": h.id,
                "round": h.round,
                "domain_id": h.domain_id,
                "gate_status": h.gate.status.value,
                "mapping_score": h.gate.mapping_score,
                "record": EncodedJson(encode_record_json(h)),
                "created_at": at,
            }
            for h in hypotheses
        ]
        await self._session.execute(insert(HypothesisRow), rows)

    async def page(self, session_id: SessionId, where: HypothesisFilter, *, limit: int, offset: int) -> HypothesisPage:
        matching = _filtered(select(_RECORD_TEXT), session_id, where)
        total = await self._session.scalar(_filtered(select(func.count()), session_id, where)) or 0
        ordered = matching.order_by(HypothesisRow.mapping_score.desc(), HypothesisRow.id).limit(limit).offset(offset)
        records = await self._session.scalars(ordered)
        return HypothesisPage([_DECODED.decode(r) for r in records], int(total))

    async def by_ids(self, session_id: SessionId, ids: Sequence[str]) -> dict[str, Hypothesis]:
        if not ids:
            return {}
        query = select(_RECORD_TEXT).where(
            HypothesisRow.session_id == session_id, HypothesisRow.hypothesis_id.in_(list(ids))
        )
        found = [_DECODED.decode(r) for r in await self._session.scalars(query)]
        return {h.id: h for h in found}


def _filtered(query: Select[Any], session_id: SessionId, where: HypothesisFilter) -> Select[Any]:
    query = query.select_from(HypothesisRow).where(HypothesisRow.session_id == session_id)
    if where.domain_id is not None:
        query = query.where(HypothesisRow.domain_id == where.domain_id)
    if where.gate_status is not None:
        query = query.where(HypothesisRow.gate_status == where.gate_status.value)
    if where.min_score is not None:
        query = query.where(HypothesisRow.mapping_score >= where.min_score)
    if where.round is not None:
        query = query.where(HypothesisRow.round == where.round)
    return query
