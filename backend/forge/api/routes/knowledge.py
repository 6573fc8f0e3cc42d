"""Read-only API over the shipped knowledge: the source-domain library and the classic TRIZ tables.

Invariants:
    - Answers come from the container's `ShippedKnowledge` (loaded once at start-up by the one loader);
      nothing here reads a file.
    - A matrix lookup outside 1..39 or on the diagonal is a 422 whose `detail` says what to send instead;
      an empty classic cell is a 200 with an empty `principles` list.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Path, Request

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


def _knowledge(request: Request) -> ShippedKnowledge:
    knowledge: ShippedKnowledge = request.app.state.container.knowledge
    return knowledge


@router.get("/domains", response_model=SourceDomainsResponse)
async def list_domains(request: Request) -> SourceDomainsResponse:
    return SourceDomainsResponse(domains=[SourceDomainOut.from_record(d) for d in _knowledge(request).domains])


@router.get("/triz/parameters", response_model=TrizParametersResponse)
async def list_triz_parameters(request: Request) -> TrizParametersResponse:
    parameters = _knowledge(request).triz.parameters
    return TrizParametersResponse(parameters=[TrizParameterOut.from_record(p) for p in parameters])


@router.get("/triz/principles", response_model=TrizPrinciplesResponse)
async def list_triz_principles(request: Request) -> TrizPrinciplesResponse:
    principles = _knowledge(request).triz.principles
    return TrizPrinciplesResponse(principles=[TrizPrincipleOut.from_record(p) for p in principles])


@router.get("/triz/matrix/{improving}/{worsening}", response_model=MatrixCellResponse, responses=error_responses(422))
async def matrix_cell(
    request: Request,
    improving: int = Path(description="The parameter to improve, 1..39."),
    worsening: int = Path(description="The parameter that gets worse, 1..39 and not equal to improving."),
) -> MatrixCellResponse:
    triz = _knowledge(request).triz
    cell = triz.matrix.lookup(improving, worsening)
    if isinstance(cell, MatrixLookupError):
        raise HTTPException(422, cell.message)
    names = {p.number: p.name for p in triz.principles}
    return MatrixCellResponse(
        improving=TrizParameterOut.from_record(triz.parameters[improving - 1]),
        worsening=TrizParameterOut.from_record(triz.parameters[worsening - 1]),
        principles=[TrizPrincipleRef(number=n, name=names[n]) for n in cell],
    )
