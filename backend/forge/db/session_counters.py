"""The seq counters (and projection digest) of the sessions a transaction holds the write lock of.

A step appends messages, events and tool calls; each append used to allocate its seqs with its own
`UPDATE sessions SET <counter> = <counter> + n RETURNING <counter>`. Under the session's write lock
(`SqlSessionRepository.lock`, whose RETURNING already reads both counters) no other transaction can
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


@dataclass(slots=True)
class _Held:
    last_event_seq: int
    message_count: int
    tool_call_count: int
    projection_digest: str | None
    changed: bool = False
    notify_through: int | None = None  # PostgreSQL: the last seq to announce with the row's next UPDATE


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


class NotHeld(enum.Enum):
    """The transaction does not hold the session's lock: nothing is known of its row."""

    NOT_HELD = "not held"


NOT_HELD = NotHeld.NOT_HELD


class LockedCounters:
    def __init__(self) -> None:
        self._held: dict[uuid.UUID, _Held] = {}

    def hold(self, session_id: uuid.UUID, row: RowCounters) -> None:
        held = _Held(row.last_event_seq, row.message_count, row.tool_call_count, row.projection_digest)
        self._held.setdefault(session_id, held)

    def next_events(self, session_id: uuid.UUID, count: int) -> int | None:
        """The last seq after `count` more events (the first is that minus count-1), or None when not held."""
        held = self._changing(session_id)
        if held is None:
            return None
        held.last_event_seq += count
        return held.last_event_seq

    def next_messages(self, session_id: uuid.UUID, count: int) -> int | None:
        """The message count after `count` more messages, or None when not held."""
        held = self._changing(session_id)
        if held is None:
            return None
        held.message_count += count
        return held.message_count

    def next_tool_calls(self, session_id: uuid.UUID, count: int) -> int | None:
        """The last tool-call seq after `count` more calls, or None when not held."""
        held = self._changing(session_id)
        if held is None:
            return None
        held.tool_call_count += count
        return held.tool_call_count

    def last_event_seq(self, session_id: uuid.UUID) -> int | None:
        """The session's last event seq as this transaction knows it, or None when not held."""
        held = self._held.get(session_id)
        return held.last_event_seq if held is not None else None

    def projection_digest(self, session_id: uuid.UUID) -> str | NotHeld | None:
        held = self._held.get(session_id)
        return held.projection_digest if held is not None else NOT_HELD

    def project(self, session_id: uuid.UUID, digest: str) -> bool:
        """The projection was rewritten to `digest`; False when not held (the caller writes it)."""
        held = self._held.get(session_id)
        if held is None:
            return False
        if held.projection_digest != digest:
            held.projection_digest = digest
            held.changed = True
        return True

    def notify_later(self, session_id: uuid.UUID, last_seq: int) -> bool:
        """Announce events up to `last_seq` with the row's next UPDATE; False when not held."""
        held = self._changing(session_id)
        if held is not None:
            held.notify_through = last_seq
        return held is not None

    def take_notification(self, session_id: uuid.UUID) -> int | None:
        """The last seq to announce with this UPDATE of the session's row, if any."""
        held = self._held.get(session_id)
        if held is None or held.notify_through is None:
            return None
        last, held.notify_through = held.notify_through, None
        return last

    def reset_messages(self, session_id: uuid.UUID) -> bool:
        """The conversation was emptied (a compaction); False when not held."""
        held = self._changing(session_id)
        if held is not None:
            held.message_count = 0
        return held is not None

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
        return {
            "last_event_seq": held.last_event_seq,
            "message_count": held.message_count,
            "tool_call_count": held.tool_call_count,
            "projection_digest": held.projection_digest,
        }

    def pending(self) -> list[uuid.UUID]:
        return [s for s, held in self._held.items() if held.changed or held.notify_through is not None]

    def release(self) -> None:
        """The transaction ended (its commit released the locks): nothing is held any more."""
        self._held.clear()
