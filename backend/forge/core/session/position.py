"""Where a session stands, derived from its persisted state: the one source of status truth.

Invariants:
    - Status, phase, round and the awaited review are a pure function of (ForgeState, cancelled);
      nothing else decides them. A cancelled session awaits nothing. The sessions table stores them only as a queryable projection,
      written from this function whenever the state is saved.
    - A session is finished when it is cancelled or its knowledge document exists; a session in
      CRYSTALLIZE without a document is CRYSTALLIZING (it can be resumed, not only read).
    - "Is a run active" is not part of the position: it comes from the run lease, never from a
      column that a crash could leave stale.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.domain_types import Phase, ReviewType, SessionStatus
from forge.core.session.forge_state import ForgeState

FINISHED_STATUSES = frozenset({SessionStatus.CRYSTALLIZED, SessionStatus.CANCELLED})
"""A session in one of these takes no more reviews, runs or documents."""


@dataclass(frozen=True, slots=True)
class SessionPosition:
    status: SessionStatus
    phase: Phase
    round: int
    awaiting: ReviewType | None

    @property
    def finished(self) -> bool:
        return self.status in FINISHED_STATUSES


def derive_session_position(state: ForgeState, *, cancelled: bool) -> SessionPosition:
    awaiting = state.awaiting_input_type if state.awaiting_user_input and not cancelled else None
    if cancelled:
        status = SessionStatus.CANCELLED
    elif state.current_phase == Phase.CRYSTALLIZE and state.knowledge_document_markdown is not None:
        status = SessionStatus.CRYSTALLIZED
    else:
        status = SessionStatus.for_phase(state.current_phase)
    return SessionPosition(status, state.current_phase, state.current_round, awaiting)
