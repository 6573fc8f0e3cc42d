"""The per-process window over SAGA's pattern history: what it answers equals what the table holds."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from forge.core.saga_pattern_history import (
    REREAD_SECONDS,
    HistoryWindow,
    StoredSighting,
    merge_window,
    others_of,
    top_up_since,
)
from forge.core.saga_patterns import PatternSighting

T0 = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


def row(place: str, hid: str, second: float, h: int = 7) -> StoredSighting:
    return StoredSighting(hid, T0 + timedelta(seconds=second), PatternSighting(h, "label", place, 5.0))


def table_answer(table: list[StoredSighting], place: str, limit: int) -> list[PatternSighting]:
    """What the table's newest-first read of other places gives (ties ordered as the window orders)."""
    ordered = sorted(table, key=lambda r: (r.hypothesis_id, r.sighting.place))
    ordered = sorted(ordered, key=lambda r: r.at, reverse=True)
    return [r.sighting for r in ordered if r.sighting.place != place][:limit]


def newest(table: list[StoredSighting], since: datetime | None, limit: int) -> list[StoredSighting]:
    """The repository's read: newest first, ties by hypothesis id, then place."""
    rows = sorted(
        (r for r in table if since is None or r.at >= since), key=lambda r: (r.hypothesis_id, r.sighting.place)
    )
    return sorted(rows, key=lambda r: r.at, reverse=True)[:limit]


def test_a_first_read_of_a_small_table_is_complete() -> None:
    table = [row("s1", "h1", 1), row("s2", "h1", 2)]
    window = merge_window(None, newest(table, None, 10), since=None, cap=10)
    assert window.complete
    assert others_of(window, "s1") == [table[1].sighting]
    assert others_of(window, "s3") == [table[1].sighting, table[0].sighting]


def test_a_first_read_cut_by_its_limit_is_not_complete() -> None:
    table = [row("s1", f"h{i}", i) for i in range(5)]
    window = merge_window(None, newest(table, None, 3), since=None, cap=3)
    assert not window.complete
    assert others_of(window, "s2", 3) == [table[4].sighting, table[3].sighting, table[2].sighting]
    assert others_of(window, "s2", 4) is None  # the window cannot tell: the caller reads the table
    assert others_of(window, "s1", 1) is None


def test_a_top_up_starts_a_margin_before_the_newest_row() -> None:
    window = HistoryWindow((row("s1", "h1", 100),), complete=True)
    assert top_up_since(None) is None
    assert top_up_since(window) == T0 + timedelta(seconds=100 - REREAD_SECONDS)


def test_a_top_up_adds_new_rows_once_and_keeps_the_order() -> None:
    table = [row("s1", "h1", 1), row("s2", "h1", 2)]
    window = merge_window(None, newest(table, None, 10), since=None, cap=10)
    table += [row("s3", "h1", 3), row("s1", "h2", 3)]
    since = top_up_since(window)
    window = merge_window(window, newest(table, since, 10), since=since, cap=10)
    assert [r.key for r in window.rows] == [("s3", "h1"), ("s1", "h2"), ("s2", "h1"), ("s1", "h1")]
    assert others_of(window, "s2") == table_answer(table, "s2", 10)


def test_a_row_committed_late_within_the_margin_is_found() -> None:
    table = [row("s1", "h1", 100)]
    window = merge_window(None, newest(table, None, 10), since=None, cap=10)
    table.append(row("s2", "late", 100 - REREAD_SECONDS / 2))  # stamped before the newest row seen
    since = top_up_since(window)
    window = merge_window(window, newest(table, since, 10), since=since, cap=10)
    assert others_of(window, "s3") == table_answer(table, "s3", 10)


def test_a_top_up_cut_by_its_limit_replaces_the_window() -> None:
    table = [row("s1", "old", 0)]
    window = merge_window(None, newest(table, None, 3), since=None, cap=3)
    table += [row("s2", f"h{i}", 10 + i) for i in range(5)]
    since = top_up_since(window)
    window = merge_window(window, newest(table, since, 3), since=since, cap=3)
    assert not window.complete
    assert [r.hypothesis_id for r in window.rows] == ["h4", "h3", "h2"]


def test_unchanged_reads_keep_the_same_window() -> None:
    table = [row("s1", "h1", 1)]
    window = merge_window(None, newest(table, None, 10), since=None, cap=10)
    since = top_up_since(window)
    assert merge_window(window, newest(table, since, 10), since=since, cap=10) is window


def test_random_interleavings_answer_as_the_table_does() -> None:
    rng = random.Random(7)
    for _ in range(200):
        table: list[StoredSighting] = []
        window: HistoryWindow | None = None
        clock, cap, limit = 0.0, rng.choice([4, 8, 50]), rng.choice([2, 3, 20])
        for step in range(rng.randint(1, 12)):
            for _ in range(rng.randint(0, 6)):
                clock += rng.choice([0.0, 1.0, 30.0])
                late = rng.random() < 0.2
                table.append(row(f"s{rng.randint(1, 4)}", f"h{step}-{len(table)}", clock - (20 if late else 0)))
            since = top_up_since(window)
            window = merge_window(window, newest(table, since, cap), since=since, cap=cap)
            place = f"s{rng.randint(1, 5)}"
            answer = others_of(window, place, limit)
            if answer is not None:
                assert answer == table_answer(table, place, limit)
