"""The session's hypothesis pool: every hypothesis BISO and SEARCH made, with its mapping table and
gate result, best first, filterable and paginated. Lineage is on every item (`operator`, `parents`),
with what a SEARCH operator grounded it on (`hyperpath`, `blend`, `transform`, `structural_grounding`).

Invariants:
    - Read-only; 404 for an unknown session, 422 (before the database is asked) for a bad filter.
    - Items are ordered by mapping score descending, then the order they were made; `total` counts
      every item matching the filter, so a client can page through all of them.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from forge.api.authentication import OwnedSession
from forge.api.deps import ContainerDep, unwrap
from forge.api.error_responses import error_responses
from forge.api.schemas.hypotheses import HypothesisPageOut, hypothesis_out
from forge.core.hypotheses.pool import GateStatus
from forge.ports import HypothesisFilter
from forge.services.hypothesis_queries import hypothesis_page

router = APIRouter(prefix="/api/v1/sessions", tags=["engine"])


@router.get("/{session_id}/hypotheses", response_model=HypothesisPageOut, responses=error_responses(404, 422))
async def list_hypotheses(
    session_id: OwnedSession,
    container: ContainerDep,
    domain: Annotated[str | None, Query(max_length=255, description="Only this source domain (its id).")] = None,
    gate: Annotated[
        GateStatus | None, Query(description="Only hypotheses whose mapping gate passed or failed.")
    ] = None,
    min_score: Annotated[float | None, Query(ge=0, le=10, description="Only mapping scores at or above this.")] = None,
    round: Annotated[int | None, Query(ge=0, le=1000, description="Only this round (0 is the first).")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> HypothesisPageOut:
    where = HypothesisFilter(domain_id=domain, gate_status=gate, min_score=min_score, round=round)
    page = unwrap(await hypothesis_page(container.uow_factory, session_id, where, limit=limit, offset=offset))
    return HypothesisPageOut(
        items=[hypothesis_out(h) for h in page.items], total=page.total, limit=limit, offset=offset
    )
