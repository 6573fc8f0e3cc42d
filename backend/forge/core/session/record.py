"""The session row as the domain sees it (the aggregate root's scalar attributes).

Invariants:
    - `status`, `current_phase`, `current_round` and `awaiting_input_type` are the projection of the
      state by `derive_session_position` (written by the repository with the state, never by hand).
    - `cancelled` is the one status fact the state does not hold.
    - `run_lease` says which run holds the session (owner token, expiry); `running` is not stored:
      the service fills it from the lease and its run registry.
    - `version` grows by one with every command or step that writes the session.
    - `owner_id` never changes after creation.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from forge.core.accounts.users import LOCAL_USER_ID, UserId
from forge.core.domain_types import EventSeq, Phase, SessionId, SessionStatus
from forge.core.session.events import EventType

MAX_PROBLEM_CHARS = 20_000
MIN_PROBLEM_CHARS = 10


@dataclass(frozen=True, slots=True)
class RunLease:
    """A run's claim on a session: `owner` is '<process instance>/<run id>'."""

    owner: str
    expires_at: datetime

    @property
    def instance(self) -> str:
        return self.owner.split("/", 1)[0]


@dataclass(frozen=True, slots=True)
class SessionRecord:
    id: SessionId
    problem: str
    status: SessionStatus
    current_phase: Phase
    current_round: int
    created_at: datetime
    model_label: str
    total_tokens_used: int = 0
    total_cost_usd: float = 0.0
    resolved_at: datetime | None = None
    awaiting_input_type: str | None = None
    cancelled: bool = False
    version: int = 0
    run_lease: RunLease | None = None
    running: bool = False  # not stored: filled by the service from the lease and its registry
    owner_id: UserId = LOCAL_USER_ID  # who it belongs to; nobody else can see it


@dataclass(frozen=True, slots=True)
class SessionPage:
    items: tuple[SessionRecord, ...]
    total: int
    limit: int
    offset: int


@dataclass(frozen=True, slots=True)
class StoredEvent:
    seq: EventSeq
    type: EventType
    data: Any
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ToolCallEntry:
    tool_name: str
    tool_input: Any
    tool_output: Any
    error_code: str | None
    phase: Phase
    created_at: datetime
