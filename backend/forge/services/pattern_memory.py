"""SAGA Layer 3 across sessions: reading other sessions' pattern sightings and remembering this
session's, each in its own short transaction (like the pool reader).

Invariants:
    - `remember` is idempotent per (session, hypothesis): a checkpoint redone after a crash (its step
      never committed) writes nothing twice; the sightings of a step that never commits stay, which
      is right — the hypotheses were produced and will be produced again by the redo.
    - Reading never blocks the run on a lock: it is a plain read in its own transaction.
"""

from __future__ import annotations

from collections.abc import Sequence

from forge.core.domain_types import SessionId
from forge.core.saga_patterns import PatternSighting
from forge.ports import Clock, UnitOfWorkFactory

HISTORY_LIMIT = 5000


class PatternMemory:
    def __init__(self, uow_factory: UnitOfWorkFactory, clock: Clock) -> None:
        self._uow_factory = uow_factory
        self._clock = clock

    async def history(self, session_id: SessionId) -> list[PatternSighting]:
        async with self._uow_factory() as uow:
            return await uow.patterns.recent(exclude=session_id, limit=HISTORY_LIMIT)

    async def remember(self, session_id: SessionId, sightings: Sequence[tuple[str, PatternSighting]]) -> None:
        if not sightings:
            return
        async with self._uow_factory() as uow:
            await uow.patterns.add_all(session_id, sightings, self._clock.now())
            await uow.commit()
