"""The seq counters (and projection digest) of the sessions a transaction holds the write lock of.

A step appends messages, events and tool calls; each append used to allocate its seqs with its own
`UPDATE sessions SET <counter> = <counter> + n RETURNING <counter>`. Under the session's write lock
(`SqlSessionRepository.lock`, whose RETURNING already reads the counters) no other transaction can
move them, so the appends count in memory and the new values ride along with the next UPDATE of the
session's row (the state's, usually), or one UPDATE before the commit: three statements less per
step. The projection's digest (`state_projection`) rides the same way: the lock reads it, a refresh
that rewrote tables holds the new one, and the row's next UPDATE writes it. On PostgreSQL the
events' NOTIFY rides it too, as `RETURNING pg_notify(...)`: one statement less per step.

Invariants:
    - Counters are held only from a `lock` of this transaction; without one, appends allocate in
      the database as before.
    - A second `lock` of a held session keeps the held values: they include this transaction's
      appends, which the row does not show yet.
    - `pending` values are written before the transaction commits (the unit of work's commit asks
      for them); a rolled-back transaction discards them with everything else. After a commit
      nothing is held: the next transaction of the unit of work locks again or allocates.
"""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass
from typing import Protocol


class Counter(str, enum.Enum):
    """A counter column of the sessions row, advanced by an append."""

    EVENTS = "last_event_seq"
    MESSAGES = "message_count"
    TOOL_CALLS = "tool_call_count"


class RowCounters(Protocol):
    """What the lock's RETURNING read: the row's counter columns."""

    @property
    def last_event_seq(self) -> int: ...
    @property
    def message_count(self) -> int: ...
    @property
    def tool_call_count(self) -> int: ...
    @property
    def projection_digest(self) -> str | None: ...


@dataclass(slots=True)
class _Held:
    counts: dict[Counter, int]
    projection_digest: str | None
    changed: bool = False
    # PostgreSQL: events were appended since the last announcement; the row's next UPDATE
    # announces them up to the held last_event_seq.
    unannounced: bool = False


class LockedCounters:
    def __init__(self) -> None:
        self._held: dict[uuid.UUID, _Held] = {}

    def hold(self, session_id: uuid.UUID, row: RowCounters) -> None:
        counts = {counter: int(getattr(row, counter.value)) for counter in Counter}
        self._held.setdefault(session_id, _Held(counts, row.projection_digest))

    def advance(self, session_id: uuid.UUID, counter: Counter, count: int) -> int | None:
        """The counter after `count` more appends (the first new seq is that minus count-1), or
        None when not held."""
        held = self._changing(session_id)
        if held is None:
            return None
        held.counts[counter] += count
        return held.counts[counter]

    def reset_messages(self, session_id: uuid.UUID) -> bool:
        """The conversation was emptied (a compaction); False when not held."""
        held = self._changing(session_id)
        if held is not None:
            held.counts[Counter.MESSAGES] = 0
        return held is not None

    def last_event_seq(self, session_id: uuid.UUID) -> int | None:
        """The session's last event seq as this transaction knows it, or None when not held."""
        held = self._held.get(session_id)
        return held.counts[Counter.EVENTS] if held is not None else None

    def projection_digest(self, session_id: uuid.UUID) -> str | None:
        """The digest of the projected rows; None when unknown (not held, or never written)."""
        held = self._held.get(session_id)
        return held.projection_digest if held is not None else None

    def project(self, session_id: uuid.UUID, digest: str) -> bool:
        """The projection was rewritten to `digest`; False when not held (the caller writes it)."""
        held = self._held.get(session_id)
        if held is None:
            return False
        if held.projection_digest != digest:
            held.projection_digest = digest
            held.changed = True
        return True

    def announce_later(self, session_id: uuid.UUID) -> bool:
        """Announce the appended events with the row's next UPDATE; False when not held."""
        held = self._held.get(session_id)
        if held is not None:
            held.unannounced = True
        return held is not None

    def take_announcement(self, session_id: uuid.UUID) -> int | None:
        """The last seq to announce with this UPDATE of the session's row, if any."""
        held = self._held.get(session_id)
        if held is None or not held.unannounced:
            return None
        held.unannounced = False
        return held.counts[Counter.EVENTS]

    def _changing(self, session_id: uuid.UUID) -> _Held | None:
        """The session's held counters, marked as to be written; None when not held."""
        held = self._held.get(session_id)
        if held is not None:
            held.changed = True
        return held

    def take(self, session_id: uuid.UUID) -> dict[str, int | str | None]:
        """The columns to write with the next UPDATE of the session's row (empty when unchanged)."""
        held = self._held.get(session_id)
        if held is None or not held.changed:
            return {}
        held.changed = False
        columns: dict[str, int | str | None] = {counter.value: n for counter, n in held.counts.items()}
        return columns | {"projection_digest": held.projection_digest}

    def pending(self) -> list[uuid.UUID]:
        return [s for s, held in self._held.items() if held.changed or held.unannounced]

    def release(self) -> None:
        """The transaction ended (its commit released the locks): nothing is held any more."""
        self._held.clear()
