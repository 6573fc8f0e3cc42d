"""Hypothesis memory (seed 004): what earlier sessions validated, qualified or refuted, with its C.

Invariants:
    - Read-only. `q` ranks by similarity × C; without `q` the order is C descending. Only episodes
      with C ≥ `min_c` (default 0.2, the retrieval threshold) are listed; `total` counts all of them.
    - Bad parameters are a 422 before anything is read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from forge.api.authentication import CurrentUser
from forge.api.error_responses import error_responses
from forge.bootstrap.container import Container
from forge.core.hypotheses.confidence import RETRIEVAL_MIN_C, MemoryOutcome
from forge.core.hypotheses.memory import RankedEpisode

router = APIRouter(prefix="/api/v1/memory", tags=["memory"])


class UsageOut(BaseModel):
    at: datetime
    session_id: str
    context: str = Field(description="The question of the session that used the hypothesis.")
    outcome: MemoryOutcome
    c_before: float
    c_after: float


class RememberedHypothesisOut(BaseModel):
    id: str
    text: str
    confidence: float = Field(description="The C-value, 0.05..0.95.")
    score: float = Field(description="similarity × C for the query; C alone without one.")
    similarity: float
    support_count: int
    contradiction_count: int
    origin_question: str
    origin_session_id: str
    parent_ids: list[str]
    created_at: datetime
    usage_history: list[UsageOut]


class RememberedHypothesisPageOut(BaseModel):
    items: list[RememberedHypothesisOut]
    total: int
    limit: int
    offset: int


def remembered_out(r: RankedEpisode) -> RememberedHypothesisOut:
    e = r.episode
    return RememberedHypothesisOut(
        id=str(e.id),
        text=e.text,
        confidence=e.c,
        score=r.score,
        similarity=r.similarity,
        support_count=e.support_count,
        contradiction_count=e.contradiction_count,
        origin_question=e.origin_question,
        origin_session_id=str(e.origin_session_id),
        parent_ids=[str(p) for p in e.parent_ids],
        created_at=e.created_at,
        usage_history=[
            UsageOut(
                at=u.at,
                session_id=str(u.session_id),
                context=u.context,
                outcome=u.outcome,
                c_before=u.c_before,
                c_after=u.c_after,
            )
            for u in e.usage_history
        ],
    )


@router.get("/hypotheses", response_model=RememberedHypothesisPageOut, responses=error_responses(422))
async def search_memory(
    request: Request,
    user: CurrentUser,
    q: Annotated[str, Query(max_length=2000, description="Text to rank by similarity × C; empty ranks by C.")] = "",
    min_c: Annotated[float, Query(ge=0, le=1, description="Only hypotheses with C at or above this.")] = (
        RETRIEVAL_MIN_C
    ),
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> RememberedHypothesisPageOut:
    container: Container = request.app.state.container
    page = await container.memory.search(
        container.uow_factory, q, min_c=min_c, limit=limit, offset=offset, owner=user.id
    )
    return RememberedHypothesisPageOut(
        items=[remembered_out(r) for r in page.items], total=page.total, limit=limit, offset=offset
    )
