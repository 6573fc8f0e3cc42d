"""Session CRUD and commands: create, list (paginated, filterable), get, delete, run, cancel.

Invariants:
    - Model work starts only from a POST: `/run` (start or resume the current phase; idempotent
      while a run is live; 409 when the session is finished or waits for a review) or a review.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from forge.api.authentication import CurrentUser, OwnedSession, within_limits
from forge.api.deps import SessionServiceDep, unwrap
from forge.api.error_responses import BODY_ERRORS, error_responses
from forge.api.request_limits import MAX_INT64
from forge.api.schemas.sessions import (
    PhaseSpendResponse,
    RunResponse,
    SessionCreate,
    SessionListResponse,
    SessionResponse,
)
from forge.core.accounts.user_limits import LimitedAction
from forge.core.domain_types import SessionStatus

router = APIRouter(prefix="/api/v1/sessions", tags=["sessions"])


@router.post(
    "",
    status_code=201,
    response_model=SessionResponse,
    responses=error_responses(*BODY_ERRORS, 429),
    dependencies=[within_limits(LimitedAction.CREATE_SESSION)],
)
async def create_session(body: SessionCreate, service: SessionServiceDep, user: CurrentUser) -> SessionResponse:
    return SessionResponse.of(unwrap(await service.create(body.problem, body.constraints, user.id)))


@router.get("", response_model=SessionListResponse, responses=error_responses(422))
async def list_sessions(
    service: SessionServiceDep,
    user: CurrentUser,
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
    offset: Annotated[int, Query(ge=0, le=MAX_INT64)] = 0,
    status: SessionStatus | None = None,
) -> SessionListResponse:
    return SessionListResponse.of(await service.list_page(limit, offset, status, user.id))


@router.get("/{session_id}", response_model=SessionResponse, responses=error_responses(404))
async def get_session(session_id: OwnedSession, service: SessionServiceDep) -> SessionResponse:
    record, state = unwrap(await service.describe(session_id))
    response = SessionResponse.of(record)
    response.spend_by_phase = {
        phase: PhaseSpendResponse(
            tokens=s.tokens, cost_usd=round(s.cost_usd, 6), calls=s.calls, web_searches=s.web_searches
        )
        for phase, s in state.spend_by_phase.items()
    }
    return response


@router.delete("/{session_id}", status_code=204, responses=error_responses(404))
async def delete_session(session_id: OwnedSession, service: SessionServiceDep) -> Response:
    unwrap(await service.delete(session_id))
    return Response(status_code=204)


@router.post("/{session_id}/cancel", response_model=SessionResponse, responses=error_responses(404, 409))
async def cancel_session(session_id: OwnedSession, service: SessionServiceDep) -> SessionResponse:
    return SessionResponse.of(unwrap(await service.cancel(session_id)))


@router.post(
    "/{session_id}/run",
    response_model=RunResponse,
    responses=error_responses(404, 409, 429),
    dependencies=[within_limits(LimitedAction.START_WORK)],
)
async def start_run(session_id: OwnedSession, service: SessionServiceDep) -> RunResponse:
    """Start the agent on the session's current phase, or resume it after a crash; then follow it
    with GET /stream. Calling it while the run is live changes nothing (`started: false`)."""
    outcome = unwrap(await service.start_run(session_id))
    return RunResponse(started=outcome.started, session=SessionResponse.of(outcome.record))
