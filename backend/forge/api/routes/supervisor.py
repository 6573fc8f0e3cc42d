"""The supervisor panel's data: SAGA's findings (with their statistic, threshold and the
hypotheses involved), the directives the fast path took, the CP-1..7 audits, the cognitive budget
and the C-K coordinator's state.

Invariants:
    - Read-only; 404 for an unknown session. The lists are in the order they were recorded.
    - `adoptable` marks ADD_CONSTRAINT directives the person has not adopted yet: their ids are
      what a review's `adopted_constraints` takes; finding ids are what `dismissed_findings` takes.
"""

from __future__ import annotations

from fastapi import APIRouter

from forge.api.deps import ContainerDep, session_id_of, unwrap
from forge.api.error_responses import error_responses
from forge.api.schemas.supervisor import SupervisorOut, supervisor_out
from forge.services.supervision_queries import supervision_of_session

router = APIRouter(prefix="/api/v1/sessions", tags=["engine"])


@router.get("/{session_id}/supervisor", response_model=SupervisorOut, responses=error_responses(404))
async def get_supervisor(session_id: str, container: ContainerDep) -> SupervisorOut:
    """What SAGA found and did in this session; dismiss findings or adopt suggested constraints at a review."""
    sid = session_id_of(session_id)
    sup = unwrap(await supervision_of_session(container.uow_factory, sid))
    return supervisor_out(sup)
