"""The session's hypothesis pool: every hypothesis BISO (and later SEARCH) made, with its mapping
table and gate result, best first, filterable and paginated.

Invariants:
    - Read-only; 404 for an unknown session, 422 (before the database is asked) for a bad filter.
    - Items are ordered by mapping score descending, then the order they were made; `total` counts
      every item matching the filter, so a client can page through all of them.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from forge.api.authentication import OwnedSession
from forge.api.deps import unwrap
from forge.api.error_responses import error_responses
from forge.core.hypothesis_pool import GateStatus, Hypothesis
from forge.core.mapping_quality_gate import GateRule, MappingType
from forge.ports import HypothesisFilter
from forge.services.hypothesis_queries import hypothesis_page

router = APIRouter(prefix="/api/v1/sessions", tags=["engine"])


class MappingRowOut(BaseModel):
    source_concept: str
    source_relation: str
    target_concept: str
    target_relation: str
    mapping_type: MappingType
    systematicity_group: str
    observable_link: str


class GateOut(BaseModel):
    status: GateStatus
    failed_rules: list[GateRule] = Field(description="The mapping-quality rules this table failed (none when passed).")
    effective_rows: int
    mapping_score: float = Field(description="0..10; at most 4.0 when a rule failed.")


class HypothesisOut(BaseModel):
    id: str
    round: int
    domain_id: str
    domain_name: str
    structure: str
    title: str
    statement: str
    mechanism: str
    observable: str
    failure_modes: list[str]
    mapping: list[MappingRowOut]
    gate: GateOut
    operator: str = Field(description="How it was made: `biso` for the first generation.")
    parents: list[str]
    absorbed: list[str] = Field(description="Near-duplicates merged into this one.")


class HypothesisPageOut(BaseModel):
    items: list[HypothesisOut]
    total: int
    limit: int
    offset: int


def hypothesis_out(h: Hypothesis) -> HypothesisOut:
    return HypothesisOut(
        id=h.id,
        round=h.round,
        domain_id=h.domain_id,
        domain_name=h.domain_name,
        structure=h.structure,
        title=h.title,
        statement=h.statement,
        mechanism=h.mechanism,
        observable=h.observable,
        failure_modes=list(h.failure_modes),
        mapping=[MappingRowOut.model_validate(row, from_attributes=True) for row in h.mapping.rows],
        gate=GateOut(
            status=h.gate.status,
            failed_rules=list(h.gate.failed_rules),
            effective_rows=h.gate.effective_rows,
            mapping_score=h.gate.mapping_score,
        ),
        operator=h.operator,
        parents=list(h.parents),
        absorbed=list(h.absorbed),
    )


@router.get("/{session_id}/hypotheses", response_model=HypothesisPageOut, responses=error_responses(404, 422))
async def list_hypotheses(
    session_id: OwnedSession,
    request: Request,
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
    page = unwrap(
        await hypothesis_page(request.app.state.container.uow_factory, session_id, where, limit=limit, offset=offset)
    )
    return HypothesisPageOut(
        items=[hypothesis_out(h) for h in page.items], total=page.total, limit=limit, offset=offset
    )
