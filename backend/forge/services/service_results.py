"""What session commands and queries return across the service boundary: values, never exceptions.

`ServiceFailure.kind` is mapped to an HTTP status at the edge (404, 409, 422); its message says what
to do about it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from forge.core.domain_types import SessionId
from forge.core.session.record import SessionRecord


class FailureKind(str, Enum):
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"
    INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class ServiceFailure:
    kind: FailureKind
    message: str


@dataclass(frozen=True, slots=True)
class RunStarted:
    """The session after `start_run`: `started` is False when a live run already held it."""

    record: SessionRecord
    started: bool


def not_found(session_id: SessionId) -> ServiceFailure:
    return ServiceFailure(FailureKind.NOT_FOUND, f"Session {session_id} does not exist.")
