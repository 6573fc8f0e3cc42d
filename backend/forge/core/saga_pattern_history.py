"""SAGA Layer 3's cross-session history, kept per process and topped up instead of re-read.

Every pattern checkpoint (a BISO batch, a SEARCH round, the answer) wants up to HISTORY_LIMIT of the
other sessions' newest sightings. Reading 5,000 rows took ~28 ms per checkpoint on SQLite, which a
deployment with a long history pays several times per session. The rows are append-only (a deleted
session's sightings still count), so a process keeps the newest rows it has seen (`HistoryWindow`)
and reads only the rows stored since, with a re-read margin.

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
    - A top-up re-reads from REREAD_SECONDS before the newest row seen, and merging is idempotent,
      so rows committed a little after their timestamp (another process, a slow commit) are still
      found. A row that commits more than that after its timestamp (clocks of two hosts apart by
      more than that) is missed by this process's window until it restarts: acceptable for a
      heuristic whose finding is INFO.
    - A read returns at most `cap` rows; a top-up cut by that limit replaces the window: what lies
      between the new rows and the old window is unknown.

Pure: the caller reads the rows and keeps the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import takewhile

from forge.core.saga_patterns import PatternSighting

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


def top_up_since(window: HistoryWindow | None) -> datetime | None:
    """Where the next read starts: None (everything, newest first) for an empty window."""
    if window is None or not window.rows:
        return None
    return window.rows[0].at - timedelta(seconds=REREAD_SECONDS)


def merge_window(
    window: HistoryWindow | None, read: Sequence[StoredSighting], *, since: datetime | None, cap: int
) -> HistoryWindow:
    """The window after a read of at most `cap` rows stored at or after `since` (None: all)."""
    cut = len(read) >= cap
    if window is None or since is None or cut:
        return HistoryWindow(_ordered(_unique(read))[:cap], complete=since is None and not cut)
    # A row read again has the time it had, so only the window's rows from `since` on (a prefix:
    # newest first) can be repeats; the rest of the window is not looked at.
    known = {row.key for row in takewhile(lambda row: row.at >= since, window.rows)}
    fresh = [row for row in read if row.key not in known]
    if not fresh:
        return window
    rows = _ordered([*fresh, *window.rows])
    return HistoryWindow(rows[:cap], complete=window.complete and len(rows) <= cap)


def others_of(window: HistoryWindow, place: str, limit: int = HISTORY_LIMIT) -> list[PatternSighting] | None:
    """The newest `limit` sightings of other places, or None when the window cannot tell."""
    picked: list[PatternSighting] = []
    for row in window.rows:
        if row.sighting.place != place:
            picked.append(row.sighting)
            if len(picked) == limit:
                return picked
    return picked if window.complete else None


def _unique(rows: Sequence[StoredSighting]) -> list[StoredSighting]:
    return list({row.key: row for row in reversed(rows)}.values())  # the first of a key wins


def _ordered(rows: Sequence[StoredSighting]) -> tuple[StoredSighting, ...]:
    by_ties = sorted(rows, key=lambda row: (row.hypothesis_id, row.sighting.place))
    return tuple(sorted(by_ties, key=lambda row: row.at, reverse=True))
