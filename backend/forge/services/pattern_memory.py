"""SAGA Layer 3 across sessions: reading other sessions' pattern sightings and remembering this
session's, each in its own short transaction (like the pool reader).

Invariants:
    - `remember` is idempotent per (session, hypothesis): a checkpoint redone after a crash (its step
      never committed) writes nothing twice; the sightings of a step that never commits stay, which
      is right — the hypotheses were produced and will be produced again by the redo.
    - Reading never blocks the run on a lock: it is a plain read in its own transaction.
    - `history` answers what the table holds (the newest HISTORY_LIMIT sightings of other sessions)
      from this process's window, topped up with the rows stored since (`core/saga_pattern_history`);
      when the window cannot tell, it reads the table as before.
    - A top-up first counts the rows from its start on and from the window's last check on; only
      the part whose count differs from the window's is read (`read_for_top_up`). The window's
      counts are taken before the count query (a row fed while it runs may be newer than the count:
      it would make the counts differ, never agree wrongly).
    - `remember` feeds the rows it stored, after their commit, into the window.

Design decision: the window is one per process (this object lives in the composition root), shared
by every session run here. A top-up is merged into the window as it is when the read returns (no
await between reading and replacing it), and merging is idempotent, so concurrent checkpoints need
no lock.
"""

from __future__ import annotations

from collections.abc import Sequence

from forge.core.domain_types import SessionId
from forge.core.saga.pattern_history import (
    HISTORY_LIMIT,
    HistoryWindow,
    TopUpRead,
    agreed,
    count_bounds,
    feed,
    merge_window,
    others_of,
    read_for_top_up,
)
from forge.core.saga.patterns import PatternSighting
from forge.ports import Clock, UnitOfWorkFactory

# Rows the window keeps: room for HISTORY_LIMIT of other sessions next to the newest rows of the
# session asking (a session rarely has more than a few hundred).
WINDOW_ROWS = 2 * HISTORY_LIMIT


class PatternMemory:
    def __init__(self, uow_factory: UnitOfWorkFactory, clock: Clock) -> None:
        self._uow_factory = uow_factory
        self._clock = clock
        self._window: HistoryWindow | None = None

    async def history(self, session_id: SessionId) -> list[PatternSighting]:
        window = await self._top_up()
        picked = others_of(window, str(session_id), HISTORY_LIMIT)
        if picked is not None:
            return picked
        async with self._uow_factory() as uow:
            return await uow.patterns.recent(exclude=session_id, limit=HISTORY_LIMIT)

    async def remember(self, session_id: SessionId, sightings: Sequence[tuple[str, PatternSighting]]) -> None:
        if not sightings:
            return
        async with self._uow_factory() as uow:
            stored = await uow.patterns.add_all(session_id, sightings, self._clock.now())
            await uow.commit()
        self._window = feed(self._window, stored, cap=WINDOW_ROWS)

    async def _top_up(self) -> HistoryWindow:
        counted = self._window
        async with self._uow_factory() as uow:
            if counted is None:
                read_from = TopUpRead(since=None)
            else:
                bounds = count_bounds(counted)
                counts = await uow.patterns.counts_since(bounds.margin, bounds.checked)
                found = read_for_top_up(counted, counts)
                if found is None:
                    # The window now: rows may have been fed into it while the count ran.
                    self._window = agreed(self._window, counted) if self._window is not None else counted
                    return self._window
                read_from = found
            read = await uow.patterns.newest(since=read_from.since, limit=WINDOW_ROWS)
        self._window = merge_window(self._window, read, since=read_from.since, cap=WINDOW_ROWS)
        return self._window
