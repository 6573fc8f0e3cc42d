"""The hypothesis memory's rows on SQLite and PostgreSQL: an episode reads back equal to what was
written (vector, usage history, times), and an episode whose C moved reads back with its new C,
never as the text decoded before."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from forge.core.domain_types import ClaimId, SessionId
from forge.core.hypotheses.confidence import MemoryOutcome
from forge.core.hypotheses.memory import HypothesisEpisode, HypothesisEpisodeId, UsageEntry

AT = datetime(2026, 11, 27, 9, 30, 15, 123456, tzinfo=UTC)
SESSION = SessionId(UUID(int=7))


def episode(n: int, c: float = 0.5) -> HypothesisEpisode:
    return HypothesisEpisode(
        HypothesisEpisodeId(UUID(int=100 + n)),
        f"Triage by urgency cuts waits ({n})",
        tuple(((i * 37 + n) % 11 - 5) / 7 for i in range(64)),  # floats that print long, and 0.0
        c,
        "How can a hospital cut emergency wait times?",
        SESSION,
        AT + timedelta(seconds=n),
        support_claim_ids=(ClaimId(UUID(int=900 + n)),),
        usage_history=(UsageEntry(AT, SESSION, "verdict accept", MemoryOutcome.SUPPORTED, 0.5, c),),
    )


async def test_episodes_read_back_equal_and_a_moved_c_is_read_anew(db: Any) -> None:
    written = [episode(1), episode(2, 0.9)]
    async with db.uow() as uow:
        await uow.memory.upsert_all(written, AT)
        await uow.commit()
    async with db.uow() as uow:
        assert await uow.memory.all() == written
        assert await uow.memory.all(min_c=0.6) == [written[1]]
    moved = dataclasses.replace(written[0], c=0.75)
    async with db.uow() as uow:
        await uow.memory.upsert_all([moved], AT + timedelta(minutes=1))
        await uow.commit()
    async with db.uow() as uow:
        again = await uow.memory.all()
    assert again == [moved, written[1]]
    assert [e.c for e in again] == [0.75, 0.9]
