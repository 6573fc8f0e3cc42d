"""SAGA's Layer 3 pattern memory on SQLite and PostgreSQL: sightings are kept per (session,
hypothesis) without duplicates, 64-bit hashes survive the signed column, and another session reads
them back as places that make a pattern a favourite."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from forge.core.domain_types import SessionId
from forge.core.saga_patterns import PatternSighting, favourite_patterns, semantic_hash
from forge.db.tables import SagaPatternRow

AT = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
HIGH_BIT = (1 << 64) - 5  # above 2**63: stored negative, read back as it was
SESSIONS = [SessionId(f"00000000-0000-0000-0000-00000000000{n}") for n in range(1, 5)]


def sighting(h: int = HIGH_BIT, score: float = 7.5) -> PatternSighting:
    return PatternSighting(h, "Predator-prey cycles", "round 0", score)


async def test_sightings_are_stored_once_per_hypothesis_and_read_back_unsigned(db: Any) -> None:
    async with db.uow() as uow:
        await uow.patterns.add_all(SESSIONS[0], [("h1", sighting()), ("h2", sighting(12345))], AT)
        await uow.patterns.add_all(SESSIONS[0], [("h1", sighting()), ("h3", sighting(7))], AT)
        await uow.commit()
    assert await db.count(SagaPatternRow) == 3
    async with db.uow() as uow:
        mine = await uow.patterns.recent(exclude=SESSIONS[1])
        none = await uow.patterns.recent(exclude=SESSIONS[0])
    assert sorted(s.hash for s in mine) == [7, 12345, HIGH_BIT]
    assert {s.place for s in mine} == {SESSIONS[0]}
    assert none == []


async def test_a_pattern_three_sessions_produced_is_a_favourite_for_the_fourth(db: Any) -> None:
    h = semantic_hash("predator prey cycles prey predator")
    async with db.uow() as uow:
        for sid in SESSIONS[:3]:
            await uow.patterns.add_all(sid, [("biso-0-ecology-1", sighting(h, 8.0))], AT)
        await uow.commit()
    async with db.uow() as uow:
        history = await uow.patterns.recent(exclude=SESSIONS[3])
    (favourite,) = favourite_patterns(history)
    assert favourite.places == 3 and favourite.mean_score == 8.0
