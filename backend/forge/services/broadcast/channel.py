"""One session's in-memory channel: a ring of committed events, a reorder buffer, live events, one wake-up.

Invariants:
    - `head` is None until the channel is started from the source (`start`); afterwards every seq
      <= head is committed, and the channel has accepted every seq from its start up to head, so a
      seq <= head that is not in the ring is older than the ring and must be read from the source.
    - The ring holds a contiguous window of at most `buffer_size` events ending at head; the
      reorder buffer (`pending`) holds at most `buffer_size` events above head + 1. Overflowing it
      drops it: the caller refills from the source, which has every committed event.
    - `known_last` >= head is the highest seq known to be committed; `known_last > head` is a gap
      that the owner fills from the source. Live events belong to `known_last`: they are dropped
      as soon as it moves, and only a follower whose cursor equals head == known_last gets them.
    - Every state change replaces the wake-up signal and sets the old one. Waiters snapshot the
      signal before they check the state, so no change is missed; no lock exists, so a cancelled
      waiter can never leave anything held. The signal wakes its waiters a slice at a time
      (`SlicedWakeSignal`): the run that publishes never waits behind a whole fan-out burst.

Design decisions:
    - No per-follower state lives here: followers keep their own cursor and read the ring by seq;
      a slow follower cannot block a publisher or grow memory, it just finds its next seq evicted.
    - Everything is synchronous; the owner (SessionBroadcaster) runs the source reads.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from forge.core.domain_types import SessionId
from forge.core.session.events import EventType
from forge.core.session.record import StoredEvent
from forge.services.broadcast.messages import LiveEvent, StreamClosed
from forge.services.broadcast.sliced_wake_signal import SlicedWakeSignal


class SessionChannel:
    def __init__(self, session_id: SessionId, buffer_size: int, live_buffer_size: int) -> None:
        if buffer_size < 1 or live_buffer_size < 1:
            raise ValueError("buffer sizes must be at least 1")
        self.session_id = session_id
        self.followers = 0
        self.closed: StreamClosed | None = None
        self.head: int | None = None
        self.known_last = 0
        self._buffer_size = buffer_size
        self._ring: dict[int, StoredEvent] = {}
        self._pending: dict[int, StoredEvent] = {}
        self._live: deque[LiveEvent] = deque()
        self._live_first = 0  # absolute index of _live[0]
        self._live_limit = live_buffer_size
        self._changed = SlicedWakeSignal()

    # ---- reading (followers) ----------------------------------------------------------------

    def wake_signal(self) -> SlicedWakeSignal:
        """The signal set by the next change; take it before checking the state."""
        return self._changed

    def event_at(self, seq: int) -> StoredEvent | None:
        return self._ring.get(seq)

    def has_gap(self) -> bool:
        return self.head is not None and self.known_last > self.head

    def caught_up(self, cursor: int) -> bool:
        return self.head is not None and cursor == self.head == self.known_last

    def ends_at(self, cursor: int) -> bool:
        """The latest known event is a DONE at or below `cursor` (the run paused or finished)."""
        head = self.head
        if head is None or head == 0 or head != self.known_last or head > cursor:
            return False
        latest = self._ring.get(head)
        return latest is not None and latest.type is EventType.DONE

    def live_from(self, index: int) -> tuple[LiveEvent | None, int]:
        """The live event at absolute `index` or the oldest one still held after it, and the next index."""
        index = max(index, self._live_first)
        offset = index - self._live_first
        if offset < len(self._live):
            return self._live[offset], index + 1
        return None, index

    def buffered(self) -> int:
        return len(self._ring) + len(self._pending) + len(self._live)

    # ---- writing (the owner) ------------------------------------------------------------------

    def start(self, tail: Sequence[StoredEvent]) -> None:
        """Start from the source: `tail` is the log's contiguous last events (empty: no events yet)."""
        if self.head is not None or self.closed is not None:
            return
        for stored in tail:
            self._ring_put(stored)
        self.head = tail[-1].seq if tail else 0
        self._note(self.head)
        self._drain()
        self._wake()

    def accept(self, events: Iterable[StoredEvent]) -> None:
        """Committed events, in any order, possibly already known; duplicates are ignored."""
        if self.closed is not None:
            return
        for stored in events:
            self._accept_one(stored)
        self._wake()

    def note_committed(self, last_seq: int) -> None:
        """Events up to `last_seq` are committed (told by another process or seen in the source).

        No wake-up: a waiting follower can do nothing until head moves, which the fill's accept signals.
        """
        if self.closed is None:
            self._note(last_seq)

    def add_live(self, live: LiveEvent) -> None:
        if self.closed is not None:
            return
        if len(self._live) >= self._live_limit:
            self._live.popleft()
            self._live_first += 1
        self._live.append(live)
        self._wake()

    def tick(self) -> None:
        """The heartbeat ticker: wake the waiting followers so each checks whether its heartbeat is due."""
        if self.closed is None:
            self._wake()

    def close(self, reason: StreamClosed) -> None:
        if self.closed is not None:
            return
        self.closed = reason
        self._ring.clear()
        self._pending.clear()
        self._drop_live()
        self._wake()

    # ---- internals ----------------------------------------------------------------------------

    def _accept_one(self, stored: StoredEvent) -> None:
        self._note(stored.seq)
        head = self.head
        if head is not None and stored.seq <= head:
            return
        if head is not None and stored.seq == head + 1:
            self._ring_put(stored)
            self.head = stored.seq
            self._drain()
            return
        if len(self._pending) >= self._buffer_size:
            self._pending.clear()  # the gap is refilled from the source, which has them all
        self._pending[stored.seq] = stored

    def _drain(self) -> None:
        head = self.head
        assert head is not None
        while (stored := self._pending.pop(head + 1, None)) is not None:
            self._ring_put(stored)
            head = stored.seq
        self.head = head
        for seq in [seq for seq in self._pending if seq <= head]:
            del self._pending[seq]

    def _ring_put(self, stored: StoredEvent) -> None:
        self._ring[stored.seq] = stored
        self._ring.pop(stored.seq - self._buffer_size, None)

    def _note(self, seq: int) -> None:
        if seq > self.known_last:
            self.known_last = seq
            self._drop_live()

    def _drop_live(self) -> None:
        self._live_first += len(self._live)
        self._live.clear()

    def _wake(self) -> None:
        woken, self._changed = self._changed, SlicedWakeSignal()
        woken.set()
