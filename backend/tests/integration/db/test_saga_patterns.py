"""SAGA's Layer 3 pattern memory on SQLite and PostgreSQL: sightings are kept per (session,
hypothesis) without duplicates, 64-bit hashes survive the signed column, and another session reads
them back as places that make a pattern a favourite."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from support.fixed_clock import FixedClock

from forge.core.domain_types import SessionId
from forge.core.saga.patterns import PatternSighting, favourite_patterns, semantic_hash
from forge.db.tables import SagaPatternRow
from forge.services.pattern_memory import PatternMemory

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


async def test_newest_reads_every_sessions_rows_newest_first_since_a_time(db: Any) -> None:
    async with db.uow() as uow:
        await uow.patterns.add_all(SESSIONS[0], [("h1", sighting(1))], AT)
        await uow.patterns.add_all(SESSIONS[1], [("h2", sighting(HIGH_BIT))], AT + timedelta(seconds=5))
        await uow.commit()
    async with db.uow() as uow:
        everything = await uow.patterns.newest(since=None, limit=10)
        recent = await uow.patterns.newest(since=AT + timedelta(seconds=1), limit=10)
        one = await uow.patterns.newest(since=None, limit=1)
    assert [(r.hypothesis_id, r.sighting.place, r.sighting.hash) for r in everything] == [
        ("h2", SESSIONS[1], HIGH_BIT),
        ("h1", SESSIONS[0], 1),
    ]
    assert everything[0].at == AT + timedelta(seconds=5)
    assert [r.hypothesis_id for r in recent] == [r.hypothesis_id for r in one] == ["h2"]


async def test_the_process_window_answers_as_the_table_does_while_others_add(db: Any) -> None:
    memory = PatternMemory(db.uow, FixedClock(AT))
    for step in range(4):
        async with db.uow() as uow:
            for n, sid in enumerate(SESSIONS):
                rows = [(f"h{step}-{n}-{i}", sighting(step * 100 + n * 10 + i, 5.0 + i)) for i in range(3)]
                await uow.patterns.add_all(sid, rows, AT + timedelta(seconds=step))
            await uow.commit()
        for sid in SESSIONS:
            async with db.uow() as uow:
                from_table = await uow.patterns.recent(exclude=sid)
            from_window = await memory.history(sid)
            assert sorted(from_window, key=repr) == sorted(from_table, key=repr)
            assert len(from_window) == 9 * (step + 1)


async def test_add_all_returns_only_the_rows_it_stored_as_a_read_gives_them(db: Any) -> None:
    async with db.uow() as uow:
        first = await uow.patterns.add_all(SESSIONS[0], [("h1", sighting()), ("h2", sighting(9))], AT)
        again = await uow.patterns.add_all(SESSIONS[0], [("h1", sighting()), ("h3", sighting(7))], AT)
        await uow.commit()
    async with db.uow() as uow:
        read = await uow.patterns.newest(since=None, limit=10)
        assert await uow.patterns.counts_since(None, AT) == (3, 3)
        assert await uow.patterns.counts_since(AT, AT + timedelta(microseconds=1)) == (3, 0)
        assert await uow.patterns.counts_since(AT + timedelta(microseconds=1), None) == (0, 3)
    assert [r.hypothesis_id for r in again] == ["h3"]
    assert {(r.key, r.at, r.sighting) for r in [*first, *again]} == {(r.key, r.at, r.sighting) for r in read}


class _CountingReads:
    """A unit of work factory that counts the pattern rows read by `newest` and `recent`."""

    def __init__(self, uow: Any) -> None:
        self._uow = uow
        self.rows_read = 0

    def __call__(self) -> Any:
        outer, factory = self, self._uow

        class _Uow:
            async def __aenter__(self) -> Any:
                self._inner = factory()
                uow = await self._inner.__aenter__()
                newest, recent = uow.patterns.newest, uow.patterns.recent

                async def counted_newest(**kw: Any) -> Any:
                    rows = await newest(**kw)
                    outer.rows_read += len(rows)
                    return rows

                async def counted_recent(**kw: Any) -> Any:
                    rows = await recent(**kw)
                    outer.rows_read += len(rows)
                    return rows

                uow.patterns.newest, uow.patterns.recent = counted_newest, counted_recent
                return uow

            async def __aexit__(self, *exc: Any) -> Any:
                return await self._inner.__aexit__(*exc)

        return _Uow()


class _SetClock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> datetime:
        return self.at


async def test_a_process_that_stored_every_row_itself_reads_none_back(db: Any) -> None:
    reads = _CountingReads(db.uow)
    clock = _SetClock(AT)
    memory = PatternMemory(reads, clock)
    assert await memory.history(SESSIONS[0]) == []
    for step in range(5):
        clock.at += timedelta(seconds=1)
        for n, sid in enumerate(SESSIONS):
            await memory.remember(sid, [(f"h{step}-{i}", sighting(step * 100 + n * 10 + i)) for i in range(3)])
        for sid in SESSIONS:
            async with db.uow() as uow:
                from_table = await uow.patterns.recent(exclude=sid)
            assert sorted(await memory.history(sid), key=repr) == sorted(from_table, key=repr)
    assert reads.rows_read == 0  # every row came from this process's own commits


async def test_rows_another_process_stores_between_own_rows_are_read(db: Any) -> None:
    clock = _SetClock(AT)
    memory = PatternMemory(db.uow, clock)
    await memory.history(SESSIONS[0])
    for step in range(4):
        clock.at += timedelta(seconds=2)
        await memory.remember(SESSIONS[0], [(f"mine{step}", sighting(step))])
        async with db.uow() as uow:  # another process: stamped before this process's row, committed after
            stamped = clock.at - timedelta(seconds=1)
            await uow.patterns.add_all(SESSIONS[1], [(f"theirs{step}", sighting(50 + step))], stamped)
            await uow.commit()
        clock.at += timedelta(seconds=2)
        await memory.remember(SESSIONS[2], [(f"later{step}", sighting(90 + step))])
        for sid in SESSIONS:
            async with db.uow() as uow:
                from_table = await uow.patterns.recent(exclude=sid)
            assert sorted(await memory.history(sid), key=repr) == sorted(from_table, key=repr)


async def test_a_top_up_reads_only_the_rows_another_process_stored_since_the_last_one(db: Any) -> None:
    reads = _CountingReads(db.uow)
    clock = _SetClock(AT)
    memory = PatternMemory(reads, clock)
    for step in range(4):
        clock.at += timedelta(seconds=1)
        await memory.remember(SESSIONS[0], [(f"mine{step}-{i}", sighting(step * 10 + i)) for i in range(5)])
        async with db.uow() as uow:  # another process, within the re-read margin of every earlier row
            await uow.patterns.add_all(SESSIONS[1], [(f"theirs{step}", sighting(90 + step))], clock.at)
            await uow.commit()
        before = reads.rows_read
        async with db.uow() as uow:
            from_table = await uow.patterns.recent(exclude=SESSIONS[2])
        assert sorted(await memory.history(SESSIONS[2]), key=repr) == sorted(from_table, key=repr)
        # The first top-up reads the table (6 rows); later ones only the rows from the last check's
        # instant on — the step before's 6 and this step's 6 — not the margin (6 per step so far).
        assert reads.rows_read - before == (6 if step == 0 else 12)
