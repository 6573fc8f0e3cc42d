"""Read-only API over the shipped knowledge: the source-domain library and the classic TRIZ tables.

Invariants:
    - Answers come from the container's `ShippedKnowledge` (loaded once at start-up by the one loader);
      nothing here reads a file.
    - A matrix lookup outside 1..39 or on the diagonal is a 422 whose `detail` says what to send instead;
      an empty classic cell is a 200 with an empty `principles` list.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Path

from forge.api.deps import ContainerDep
from forge.api.error_responses import error_responses
from forge.api.schemas.knowledge import (
    MatrixCellResponse,
    SourceDomainOut,
    SourceDomainsResponse,
    TrizParameterOut,
    TrizParametersResponse,
    TrizPrincipleOut,
    TrizPrincipleRef,
    TrizPrinciplesResponse,
)
from forge.core.explore.library_records import MatrixLookupError, ShippedKnowledge

router = APIRouter(prefix="/api/v1/knowledge", tags=["knowledge"])


def knowledge_of(container: ContainerDep) -> ShippedKnowledge:
    return container.knowledge


KnowledgeDep = Annotated[ShippedKnowledge, Depends(knowledge_of)]


@router.get("/domains", response_model=SourceDomainsResponse)
async def list_domains(knowledge: KnowledgeDep) -> SourceDomainsResponse:
    return SourceDomainsResponse(domains=[SourceDomainOut.from_record(d) for d in knowledge.domains])


@router.get("/triz/parameters", response_model=TrizParametersResponse)
async def list_triz_parameters(knowledge: KnowledgeDep) -> TrizParametersResponse:
    parameters = knowledge.triz.parameters
    return TrizParametersResponse(parameters=[TrizParameterOut.from_record(p) for p in parameters])


@router.get("/triz/principles", response_model=TrizPrinciplesResponse)
async def list_triz_principles(knowledge: KnowledgeDep) -> TrizPrinciplesResponse:
    principles = knowledge.triz.principles
    return TrizPrinciplesResponse(principles=[TrizPrincipleOut.from_record(p) for p in principles])


@router.get("/triz/matrix/{improving}/{worsening}", response_model=MatrixCellResponse, responses=error_responses(422))
async def matrix_cell(
    knowledge: KnowledgeDep,
    improving: int = Path(description="The parameter to improve, 1..39."),
    worsening: int = Path(description="The parameter that gets worse, 1..39 and not equal to improving."),
) -> MatrixCellResponse:
    triz = knowledge.triz
    cell = triz.matrix.lookup(improving, worsening)
    if isinstance(cell, MatrixLookupError):
        raise HTTPException(422, cell.message)
    names = {p.number: p.name for p in triz.principles}
    return MatrixCellResponse(
        improving=TrizParameterOut.from_record(triz.parameters[improving - 1]),
        worsening=TrizParameterOut.from_record(triz.parameters[worsening - 1]),
        principles=[TrizPrincipleRef(number=n, name=names[n]) for n in cell],
    )
