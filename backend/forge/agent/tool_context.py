"""What a tool handler receives and returns.

Invariants:
    - Handlers mutate only `ctx.state` (in memory); persistence happens after the step, in the
      service, so one step is read -> pure process -> write.
    - A handler returns a ToolOutcome; a rule violation is a value (`violation`), never an exception.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from pydantic import BaseModel

from forge.core.domain_types import SessionId
from forge.core.forge_state import ForgeState
from forge.core.knowledge_records import TrizKnowledge
from forge.core.records import ResearchHit
from forge.core.rule_verdicts import RuleViolation
from forge.ports import Clock, ResearchProvider


@dataclass
class ToolContext:
    session_id: SessionId
    state: ForgeState
    research: ResearchProvider
    clock: Clock
    new_id: Callable[[], UUID]
    model_label: str = "unknown model"
    triz: TrizKnowledge | None = None  # the classic matrix identify_contradictions resolves with


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    payload: Mapping[str, Any] = field(default_factory=dict)
    summary: str = ""
    sources: tuple[ResearchHit, ...] = ()  # what a research call found, shown with its result
    violation: RuleViolation | None = None
    pauses: bool = False

    @classmethod
    def failed(cls, violation: RuleViolation) -> ToolOutcome:
        return cls(violation=violation, summary=violation.message)


Handler = Callable[[ToolContext, Any], Awaitable[ToolOutcome]]


class NoInput(BaseModel):  # a tool without arguments (no docstring: it would enter the JSON schema)
    pass


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One registered tool: its name, description, input model and handler."""

    name: str
    description: str
    input_model: type[BaseModel]
    handler: Handler
