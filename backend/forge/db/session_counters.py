"""The seq counters of the sessions a transaction holds the write lock of.

A step appends messages and events; each append used to allocate its seqs with its own
`UPDATE sessions SET <counter> = <counter> + n RETURNING <counter>`. Under the session's write lock
(`SqlSessionRepository.lock`, whose RETURNING already reads both counters) no other transaction can
move them, so the appends count in memory and the new values ride along with the next UPDATE of the
session's row (the state's, usually), or one UPDATE before the commit: two statements less per step.

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

import uuid
from dataclasses import dataclass


@dataclass(slots=True)
class _Held:
    last_event_seq: int
    message_count: int
    changed: bool = False


class LockedCounters:
    def __init__(self) -> None:
        self._held: dict[uuid.UUID, _Held] = {}

    def hold(self, session_id: uuid.UUID, last_event_seq: int, message_count: int) -> None:
        self._held.setdefault(session_id, _Held(last_event_seq, message_count))

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

    def take(self, session_id: uuid.UUID) -> dict[str, int]:
        """The columns to write with the next UPDATE of the session's row (empty when unchanged)."""
        held = self._held.get(session_id)
        if held is None or not held.changed:
            return {}
        held.changed = False
        return {"last_event_seq": held.last_event_seq, "message_count": held.message_count}

    def pending(self) -> list[uuid.UUID]:
        return [session_id for session_id, held in self._held.items() if held.changed]

    def release(self) -> None:
        """The transaction ended (its commit released the locks): nothing is held any more."""
        self._held.clear()
