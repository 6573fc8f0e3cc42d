"""The session row as the domain sees it (the aggregate root's scalar attributes).

Invariants:
    - `current_phase` and `status` move together: status follows the phase until the session is
      crystallized or cancelled.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from forge.core.domain_types import EventSeq, Phase, SessionId, SessionStatus
from forge.core.session_events import EventType

MAX_PROBLEM_CHARS = 20_000
MIN_PROBLEM_CHARS = 10


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
    running: bool = False


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
