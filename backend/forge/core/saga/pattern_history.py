"""SAGA Layer 3's cross-session history, kept per process and topped up instead of re-read.

Every pattern checkpoint (a BISO batch, a SEARCH round, the answer) wants up to HISTORY_LIMIT of the
other sessions' newest sightings. Reading 5,000 rows took ~28 ms per checkpoint on SQLite, which a
deployment with a long history pays several times per session. The rows are append-only (a deleted
session's sightings still count), so a process keeps the newest rows it has seen (`HistoryWindow`)
and reads only the rows stored since, with a re-read margin. Before re-reading it counts: when the
table holds as many rows from the margin's start on as the window does, the window already holds
them all (the rows it holds are stored rows, and none is ever deleted), and nothing is read. A
process's own sightings enter its window as they are committed (`feed`), so a deployment that runs
every session in one process (SQLite) pays one count per checkpoint instead of a re-read.

Invariants:
    - A window's rows are newest first — by time, then hypothesis id, then place — without two rows
      of one (place, hypothesis id); at most `cap` of them.
    - `complete`: the window holds every stored row (the first read found fewer than `cap`, and no
      later read was cut by its limit or trimmed).
    - `others_of` answers what the table would (the newest `limit` rows of other places) when the
      window can tell — it holds `limit` of them, or it is complete — and None otherwise (the
      caller then reads the table). "The same" up to the order among rows stored at the same
      instant: the window orders them by hypothesis id in Python's order, the database in its
      collation's.
    - `checked`: the newest row's time when the window last agreed with the table (a read or an equal
      count); a fed row does not move it, since rows of other processes stored before the fed row
      may be unread.
    - A top-up counts from REREAD_SECONDS before `checked` (the margin) and from `checked` on
      (`count_bounds`, one query); merging is idempotent, so rows committed a little after their
      timestamp (another process, a slow commit) are still found. A row that commits more than
      REREAD_SECONDS after its timestamp (clocks of two hosts apart by more than that) is missed by
      this process's window until it restarts: acceptable for a heuristic whose finding is INFO.
    - The window's rows are stored rows, so where a count equals the window's own, the window holds
      every row there (`read_for_top_up`): only the part whose counts differ is read — rows from
      `checked` on (what other processes stored since) in the common case, from the margin's start
      when a row was committed late. Re-reading the whole margin each time was ~8% of a run
      process's CPU once two processes ran sessions.
    - A read returns at most `cap` rows; a top-up cut by that limit replaces the window: what lies
      between the new rows and the old window is unknown.

Pure: the caller reads the rows and keeps the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import takewhile

from forge.core.saga.patterns import PatternSighting

HISTORY_LIMIT = 5000
REREAD_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class StoredSighting:
    hypothesis_id: str
    at: datetime
    sighting: PatternSighting  # its place is its session id

    @property
    def key(self) -> tuple[str, str]:
        return (self.sighting.place, self.hypothesis_id)


@dataclass(frozen=True, slots=True)
class HistoryWindow:
    rows: tuple[StoredSighting, ...]
    complete: bool
    checked: datetime | None  # None: the window was empty when it last agreed with the table


def top_up_since(window: HistoryWindow | None) -> datetime | None:
    """Where the next count and read start: None (everything) for a window that was empty."""
    if window is None or window.checked is None:
        return None
    return window.checked - timedelta(seconds=REREAD_SECONDS)


@dataclass(frozen=True, slots=True)
class TopUpRead:
    """Read the rows stored at or after `since` (None: all of them)."""

    since: datetime | None


@dataclass(frozen=True, slots=True)
class CountBounds:
    """Where a top-up counts from: the margin's start, and the window's last check (None: all rows)."""

    margin: datetime | None
    checked: datetime | None


def count_bounds(window: HistoryWindow) -> CountBounds:
    return CountBounds(top_up_since(window), window.checked)


def read_for_top_up(window: HistoryWindow, counted: tuple[int, int]) -> TopUpRead | None:
    """What a top-up reads, given the table's counts from each of `count_bounds(window)`; None when
    the window already holds every row they counted."""
    bounds = count_bounds(window)
    since, fresh = bounds.margin, bounds.checked
    held, held_fresh = rows_since(window, since), rows_since(window, fresh)
    in_margin, fresh_rows = counted
    if in_margin - fresh_rows != held - held_fresh:
        return TopUpRead(since)  # a row stamped before `checked` was committed after the last top-up
    if fresh_rows != held_fresh:
        return TopUpRead(fresh)
    return None


def rows_since(window: HistoryWindow, since: datetime | None) -> int:
    """How many of the window's rows were stored at or after `since` (None: all of them)."""
    if since is None:
        return len(window.rows)
    return sum(1 for _ in takewhile(lambda row: row.at >= since, window.rows))


def agreed(window: HistoryWindow, counted: HistoryWindow) -> HistoryWindow:
    """`window` once the table was found to hold as many rows from the top-up's start on as
    `counted` (the window as it was before the count: rows fed since may be newer than the count)."""
    return _checked_at(window, _later(window.checked, counted.rows[0].at if counted.rows else None))


def _later(a: datetime | None, b: datetime | None) -> datetime | None:
    return b if a is None else a if b is None else max(a, b)


def feed(window: HistoryWindow | None, stored: Sequence[StoredSighting], *, cap: int) -> HistoryWindow | None:
    """The window with rows this process has just committed (no window yet: nothing to add to)."""
    if window is None or not stored:
        return window
    # A row the window already has was read after its commit, with the time it was stored with.
    fresh = _not_in(window, _unique(stored), since=min(row.at for row in stored))
    return _added(window, fresh, window.checked, cap)


def merge_window(
    window: HistoryWindow | None, read: Sequence[StoredSighting], *, since: datetime | None, cap: int
) -> HistoryWindow:
    """The window after a read of at most `cap` rows stored at or after `since` (None: all)."""
    cut = len(read) >= cap
    if window is None or since is None or cut:
        rows = _ordered(_unique(read))[:cap]
        return HistoryWindow(rows, complete=since is None and not cut, checked=rows[0].at if rows else None)
    # Checked through the read's newest row, not the window's: a row fed while the read ran may be
    # newer than what the read saw.
    checked = _later(window.checked, max((row.at for row in read), default=None))
    return _added(window, _not_in(window, read, since=since), checked, cap)


def others_of(window: HistoryWindow, place: str, limit: int = HISTORY_LIMIT) -> list[PatternSighting] | None:
    """The newest `limit` sightings of other places, or None when the window cannot tell."""
    picked: list[PatternSighting] = []
    for row in window.rows:
        if row.sighting.place != place:
            picked.append(row.sighting)
            if len(picked) == limit:
                return picked
    return picked if window.complete else None


def _not_in(window: HistoryWindow, rows: Sequence[StoredSighting], *, since: datetime) -> list[StoredSighting]:
    """`rows` (all stored at or after `since`) that the window lacks. A row the window has carries
    the time it was stored with, so only the window's rows from `since` on (a prefix: newest first)
    are looked at."""
    known = {row.key for row in takewhile(lambda row: row.at >= since, window.rows)}
    return [row for row in rows if row.key not in known]


def _added(window: HistoryWindow, fresh: Sequence[StoredSighting], checked: datetime | None, cap: int) -> HistoryWindow:
    if not fresh:
        return _checked_at(window, checked)
    rows = _merged(fresh, window.rows)
    return HistoryWindow(rows[:cap], window.complete and len(rows) <= cap, checked)


def _checked_at(window: HistoryWindow, checked: datetime | None) -> HistoryWindow:
    return window if checked == window.checked else HistoryWindow(window.rows, window.complete, checked)


def _unique(rows: Sequence[StoredSighting]) -> list[StoredSighting]:
    return list({row.key: row for row in reversed(rows)}.values())  # the first of a key wins


def _merged(fresh: Sequence[StoredSighting], ordered: tuple[StoredSighting, ...]) -> tuple[StoredSighting, ...]:
    """`fresh` rows and an ordered window, ordered; rows all newer than the window are put in front
    of it without sorting the window again (the usual case: a top-up or a feed of new rows)."""
    new = _ordered(fresh)
    if not ordered or new[-1].at > ordered[0].at:
        return new + ordered
    return _ordered([*new, *ordered])


def _ordered(rows: Sequence[StoredSighting]) -> tuple[StoredSighting, ...]:
    by_ties = sorted(rows, key=lambda row: (row.hypothesis_id, row.sighting.place))
    return tuple(sorted(by_ties, key=lambda row: row.at, reverse=True))
