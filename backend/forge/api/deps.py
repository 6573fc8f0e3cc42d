"""Request-scoped access to the container and mapping of service failures to HTTP errors."""

from __future__ import annotations

from typing import TypeVar
from uuid import UUID

from fastapi import HTTPException, Request

from forge.api.request_limits import quote_input
from forge.api.sse_encoding import SseFrameCache
from forge.core.domain_types import SessionId
from forge.services.service_results import FailureKind, ServiceFailure
from forge.services.session_service import SessionService

T = TypeVar("T")

STATUS_OF = {FailureKind.NOT_FOUND: 404, FailureKind.CONFLICT: 409, FailureKind.INVALID: 422}


def service_of(request: Request) -> SessionService:
    service: SessionService = request.app.state.container.service
    return service


def frames_of(request: Request) -> SseFrameCache:
    frames: SseFrameCache = request.app.state.sse_frames
    return frames


def session_id_of(raw: str) -> SessionId:
    try:
        return SessionId(UUID(raw))
    except ValueError:
        raise HTTPException(404, f"Session {quote_input(raw)} does not exist (not a valid session id).") from None


def unwrap(result: T | ServiceFailure) -> T:
    if isinstance(result, ServiceFailure):
        raise HTTPException(STATUS_OF[result.kind], result.message)
    return result
