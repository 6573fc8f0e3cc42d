"""Hypothesis memory (seed 004): what earlier sessions validated, qualified or refuted, with its C.

Invariants:
    - Read-only. `q` ranks by relevance × C (BM25 fused with the cosine); without `q` the order is C descending. Only episodes
      with C ≥ `min_c` (default 0.2, the retrieval threshold) are listed; `total` counts all of them.
    - Bad parameters are a 422 before anything is read.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from forge.api.authentication import CurrentUser
from forge.api.deps import ContainerDep
from forge.api.error_responses import error_responses
from forge.api.schemas.memory import RememberedHypothesisPageOut, remembered_out
from forge.core.hypotheses.confidence import RETRIEVAL_MIN_C

router = APIRouter(prefix="/api/v1/memory", tags=["memory"])


@router.get("/hypotheses", response_model=RememberedHypothesisPageOut, responses=error_responses(422))
async def search_memory(
    container: ContainerDep,
    user: CurrentUser,
    q: Annotated[
        str, Query(max_length=2000, description="Text to rank by relevance (words and meaning) × C; empty ranks by C.")
    ] = "",
    min_c: Annotated[float, Query(ge=0, le=1, description="Only hypotheses with C at or above this.")] = (
        RETRIEVAL_MIN_C
    ),
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> RememberedHypothesisPageOut:
    page = await container.memory.search(
        container.uow_factory, q, min_c=min_c, limit=limit, offset=offset, owner=user.id
    )
    return RememberedHypothesisPageOut(
        items=[remembered_out(r) for r in page.items], total=page.total, limit=limit, offset=offset
    )
