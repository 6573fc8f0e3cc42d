"""Request-scoped access to the container and mapping of service failures to HTTP errors.

Invariants:
    - Routes and dependencies reach what `create_app` put on `app.state` only through the `Annotated`
      dependencies here (`ContainerDep`, `SessionServiceDep`, `SseFramesDep`, `LoginAttemptsDep`,
      `AuthEnabledDep`): this module is the one place that reads `request.app.state`
      (tests/api/test_route_conventions.py), and none of them adds a parameter to the OpenAPI
      document (they depend on the request alone).
"""

from __future__ import annotations

from typing import Annotated, TypeVar
from uuid import UUID

from fastapi import Depends, HTTPException, Request

from forge.api.login_attempts import LoginAttempts
from forge.api.request_limits import quote_input
from forge.api.sse_encoding import SseFrameCache
from forge.bootstrap.container import Container
from forge.core.domain_types import SessionId
from forge.services.service_results import FailureKind, ServiceFailure
from forge.services.session_service import SessionService

T = TypeVar("T")

STATUS_OF = {FailureKind.NOT_FOUND: 404, FailureKind.CONFLICT: 409, FailureKind.INVALID: 422}


def container_of(request: Request) -> Container:
    container: Container = request.app.state.container
    return container


ContainerDep = Annotated[Container, Depends(container_of)]


def service_of(container: ContainerDep) -> SessionService:
    return container.service


SessionServiceDep = Annotated[SessionService, Depends(service_of)]


def frames_of(request: Request) -> SseFrameCache:
    frames: SseFrameCache = request.app.state.sse_frames
    return frames


SseFramesDep = Annotated[SseFrameCache, Depends(frames_of)]


def login_attempts_of(request: Request) -> LoginAttempts:
    attempts: LoginAttempts = request.app.state.login_attempts
    return attempts


LoginAttemptsDep = Annotated[LoginAttempts, Depends(login_attempts_of)]


def auth_enabled(request: Request) -> bool:
    return bool(request.app.state.auth_enabled)


AuthEnabledDep = Annotated[bool, Depends(auth_enabled)]


def session_id_of(raw: str) -> SessionId:
    try:
        return SessionId(UUID(raw))
    except ValueError:
        raise HTTPException(404, f"Session {quote_input(raw)} does not exist (not a valid session id).") from None


def unwrap(result: T | ServiceFailure) -> T:
    if isinstance(result, ServiceFailure):
        raise HTTPException(STATUS_OF[result.kind], result.message)
    return result
