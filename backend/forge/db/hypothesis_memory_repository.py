"""SqlHypothesisMemoryRepository: remembered hypotheses (seed 004 episodes) as rows, across sessions.

Invariants:
    - A row's `record` is the encoded HypothesisEpisode (state_codec); `text`, `c` and
      `origin_session_id` copy the record so retrieval can filter by C in SQL; they are written from
      the same record, never apart from it.
    - Records are read as text (CAST: the asyncpg driver would parse json itself) and decoded by
      `state_json` (msgspec, the reflective codec as its fallback: it reads what `encode_value`
      wrote); episodes are frozen, so the decoded episode of a text read before is shared.
    - Upsert is read-then-write inside the caller's transaction (portable across SQLite and
      PostgreSQL); the service calls it under the reviewed session's lock, and concurrent reviews of
      two sessions that touch the same episode are serialised by the row update (last write wins).
    - Writes enter the unit of work's write gate first; nothing commits here.
    - Memory is per person (`owner_id`): retrieval and matching read only the owner's episodes, so one
      user's verdicts never move another's C-values.

Design decision: retrieval loads the episodes with C ≥ min_c and ranks them in Python (pure core).
That is linear in the memory's size, fine for thousands of episodes; an ANN index (pgvector) is the
next step when memories grow past that.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Text, select, update
from sqlalchemy import cast as cast_sql
from sqlalchemy.ext.asyncio import AsyncSession

from forge.core.accounts.users import LOCAL_USER_ID, UserId
from forge.core.hypotheses.memory import HypothesisEpisode
from forge.core.session.state_codec import encode_value
from forge.db.decoded_by_text import decoded_records
from forge.db.tables import HypothesisMemoryRow
from forge.db.write_gate import NO_GATE, WriteTicket

_RECORD_TEXT = cast_sql(HypothesisMemoryRow.record, Text)
# Every session's creation and every VALIDATE review read the owner's whole memory, and an episode's
# text changes only when its C-value does: the decoded episodes of the texts read last are kept
# (~3 kB each, mostly the vector).
_DECODED = decoded_records(HypothesisEpisode, 8_000_000)


class SqlHypothesisMemoryRepository:
    def __init__(self, session: AsyncSession, gate: WriteTicket = NO_GATE) -> None:
        self._session = session
        self._gate = gate

    async def all(self, *, min_c: float = 0.0, owner: UserId | None = None) -> list[HypothesisEpisode]:
        mine = [HypothesisMemoryRow.owner_id == owner] if owner is not None else []
        query = (
            select(_RECORD_TEXT)
            .where(HypothesisMemoryRow.c >= min_c, *mine)
            .order_by(HypothesisMemoryRow.created_at, HypothesisMemoryRow.id)
        )
        return [_DECODED.decode(text) for text in await self._session.scalars(query)]

    async def upsert_all(
        self, episodes: Sequence[HypothesisEpisode], at: datetime, owner: UserId = LOCAL_USER_ID
    ) -> None:
        """Insert or update; a new row belongs to `owner` (an existing one keeps its owner)."""
        await self._gate.enter()
        if not episodes:
            return
        ids = [e.id for e in episodes]
        existing = set(
            await self._session.scalars(select(HypothesisMemoryRow.id).where(HypothesisMemoryRow.id.in_(ids)))
        )
        for e in episodes:
            values = {"text": e.text, "c": e.c, "record": encode_value(e), "updated_at": at}
            if e.id in existing:
                await self._session.execute(
                    update(HypothesisMemoryRow).where(HypothesisMemoryRow.id == e.id).values(**values)
                )
            else:
                row = HypothesisMemoryRow(
                    id=e.id, origin_session_id=e.origin_session_id, owner_id=owner, created_at=e.created_at, **values
                )
                self._session.add(row)
        await self._session.flush()
