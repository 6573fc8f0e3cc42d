"""The per-process window over SAGA's pattern history: what it answers equals what the table holds."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from forge.core.saga.pattern_history import (
    REREAD_SECONDS,
    HistoryWindow,
    StoredSighting,
    TopUpRead,
    agreed,
    count_bounds,
    feed,
    merge_window,
    others_of,
    read_for_top_up,
    top_up_since,
)
from forge.core.saga.patterns import PatternSighting

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
    window = merge_window(None, [row("s1", "h1", 100)], since=None, cap=10)
    assert top_up_since(None) is None
    assert top_up_since(window) == T0 + timedelta(seconds=100 - REREAD_SECONDS)
    assert top_up_since(merge_window(None, [], since=None, cap=10)) is None  # empty: count everything


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


def count(table: list[StoredSighting], since: datetime | None) -> int:
    return sum(1 for r in table if since is None or r.at >= since)


def counts(table: list[StoredSighting], window: HistoryWindow) -> tuple[int, int]:
    """The table's counts from each of the window's count bounds, as the repository gives them."""
    bounds = count_bounds(window)
    return count(table, bounds.margin), count(table, bounds.checked)


def top_up(table: list[StoredSighting], window: HistoryWindow | None, cap: int) -> HistoryWindow:
    """What PatternMemory does: count from the margin's start and from the last check, read only
    the part whose count differs."""
    if window is None:
        return merge_window(None, newest(table, None, cap), since=None, cap=cap)
    found = read_for_top_up(window, counts(table, window))
    if found is None:
        return agreed(window, window)
    return merge_window(window, newest(table, found.since, cap), since=found.since, cap=cap)


def test_rows_stored_after_the_check_are_read_from_the_check_on() -> None:
    table = [row("s1", "h1", 100), row("s1", "h2", 110)]
    window = top_up(table, None, 10)
    table += [row("s2", "h3", 120), row("s2", "h4", 130)]
    assert read_for_top_up(window, counts(table, window)) == TopUpRead(T0 + timedelta(seconds=110))
    assert others_of(top_up(table, window, 10), "s3") == table_answer(table, "s3", 10)


def test_a_row_stamped_before_the_check_but_committed_after_it_is_read_from_the_margin() -> None:
    table = [row("s1", "h1", 100), row("s1", "h2", 110)]
    window = top_up(table, None, 10)
    table += [row("s2", "late", 105), row("s2", "h4", 130)]
    assert read_for_top_up(window, counts(table, window)) == TopUpRead(top_up_since(window))
    assert others_of(top_up(table, window, 10), "s3") == table_answer(table, "s3", 10)


def test_equal_counts_read_nothing() -> None:
    table = [row("s1", "h1", 100)]
    window = top_up(table, None, 10)
    assert read_for_top_up(window, counts(table, window)) is None


def test_a_fed_row_does_not_move_where_the_next_top_up_starts() -> None:
    window = merge_window(None, [row("s1", "h1", 100)], since=None, cap=10)
    fed = feed(window, [row("s1", "h2", 500)], cap=10)
    assert fed is not None
    assert [r.hypothesis_id for r in fed.rows] == ["h2", "h1"]
    assert top_up_since(fed) == top_up_since(window)  # rows stored by others before 500 may be unread


def test_feeding_without_a_window_or_rows_changes_nothing() -> None:
    window = merge_window(None, [row("s1", "h1", 1)], since=None, cap=10)
    assert feed(None, [row("s1", "h2", 2)], cap=10) is None
    assert feed(window, [], cap=10) is window
    assert feed(window, [row("s1", "h1", 1)], cap=10) is window  # already read back: not added twice


def test_a_feed_past_the_cap_keeps_the_newest_and_is_no_longer_complete() -> None:
    window = merge_window(None, [row("s1", f"h{i}", i) for i in range(3)], since=None, cap=4)
    fed = feed(window, [row("s2", "a", 10), row("s2", "b", 11)], cap=4)
    assert fed is not None and not fed.complete
    assert [r.hypothesis_id for r in fed.rows] == ["b", "a", "h2", "h1"]


def test_an_equal_count_moves_the_check_to_the_newest_row_counted() -> None:
    table = [row("s1", "h1", 1)]
    window = merge_window(None, newest(table, None, 10), since=None, cap=10)
    table.append(row("s1", "own", 90))
    fed = feed(window, [table[-1]], cap=10)
    assert fed is not None
    after = top_up(table, fed, 10)
    assert after.rows == fed.rows
    assert after.checked == T0 + timedelta(seconds=90)


def test_a_count_taken_before_a_feed_checks_only_what_it_counted() -> None:
    window = merge_window(None, [row("s1", "h1", 1)], since=None, cap=10)
    fed = feed(window, [row("s1", "h2", 50)], cap=10)
    assert fed is not None
    assert agreed(fed, window).checked == T0 + timedelta(seconds=1)


def test_a_row_of_another_process_is_found_although_the_counts_agreed_before_it() -> None:
    table = [row("s1", "h1", 100)]
    window = top_up(table, None, 10)
    table.append(row("s2", "late", 100 - REREAD_SECONDS / 2))  # committed late, stamped earlier
    window = top_up(table, window, 10)
    assert others_of(window, "s3") == table_answer(table, "s3", 10)


def read_again(table: list[StoredSighting], window: HistoryWindow | None, cap: int) -> HistoryWindow:
    """The top-up before counting existed: always re-read from the margin."""
    since = top_up_since(window)
    return merge_window(window, newest(table, since, cap), since=since, cap=cap)


@pytest.mark.parametrize(
    ("top_up_by", "own_share", "seed"), [(read_again, 0.0, 7), (top_up, 0.0, 7), (top_up, 0.5, 11)]
)
def test_random_interleavings_answer_as_the_table_does(top_up_by, own_share: float, seed: int) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    for _ in range(300):
        table: list[StoredSighting] = []
        window: HistoryWindow | None = None
        clock, cap, limit = 0.0, rng.choice([4, 8, 50]), rng.choice([2, 3, 20])
        for step in range(rng.randint(1, 12)):
            for _ in range(rng.randint(0, 6)):
                clock += rng.choice([0.0, 1.0, 30.0])
                mine = rng.random() < own_share  # this process's own row: fed to its window at commit
                late = not mine and rng.random() < 0.2
                stored = row(f"s{rng.randint(1, 4)}", f"h{step}-{len(table)}", clock - (20 if late else 0))
                table.append(stored)
                if mine:
                    window = feed(window, [stored], cap=cap)
            window = top_up_by(table, window, cap)
            place = f"s{rng.randint(1, 5)}"
            answer = others_of(window, place, limit)
            if answer is not None:
                assert answer == table_answer(table, place, limit)
