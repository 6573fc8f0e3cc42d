"""What a tool handler receives and returns.

Invariants:
    - Handlers mutate only `ctx.state` (in memory); persistence happens after the step, in the
      service, so one step is read -> pure process -> write.
    - A handler returns a ToolOutcome; a rule violation is a value (`violation`), never an exception.
    - The runner refreshes `recallable`, `navigation_budget` and `count_tokens` before each reply's
      tool calls run: what the curator left out of that call, and the budgets read for it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from pydantic import BaseModel

from forge.core.curation.path_navigator import NavigationBudget
from forge.core.curation.recall_dropped import RecallItem
from forge.core.domain_types import SessionId
from forge.core.explore.library_records import TrizKnowledge
from forge.core.research.hit_relevance import RelevanceJudgment
from forge.core.rules.verdicts import RuleViolation
from forge.core.session.events import SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit
from forge.ports import Clock, HkgNeighbourhoodSource, ResearchProvider, StructuredModel
from forge.providers.token_counting import cl100k_length


@dataclass
class ToolContext:
    session_id: SessionId
    state: ForgeState
    research: ResearchProvider
    clock: Clock
    new_id: Callable[[], UUID]
    model_label: str = "unknown model"
    triz: TrizKnowledge | None = None  # the classic matrix identify_contradictions resolves with
    hkg: HkgNeighbourhoodSource | None = None  # the HKG around a query, for the path navigator
    recallable: Mapping[str, RecallItem] = field(default_factory=dict)
    navigation_budget: NavigationBudget = field(default_factory=NavigationBudget)
    count_tokens: Callable[[str], int] = cl100k_length
    # The verifier's structured model when it is a real model: it judges which research results bear
    # on a claim at the claim gates (rules 14, 15); None offline, where shared words judge.
    relevance_judge: StructuredModel | None = None
    # Its judgments in this run by (subject, the sources it read): a tool retried on the same research is
    # not judged (nor billed) twice.
    relevance_judged: dict[tuple[str, tuple[str, ...]], RelevanceJudgment] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    payload: Mapping[str, Any] = field(default_factory=dict)
    summary: str = ""
    sources: tuple[ResearchHit, ...] = ()  # what a research call found, shown with its result
    violation: RuleViolation | None = None
    pauses: bool = False
    notices: tuple[SessionEvent, ...] = ()  # stored after the result, e.g. a research_warning

    @classmethod
    def failed(cls, violation: RuleViolation, notices: tuple[SessionEvent, ...] = ()) -> ToolOutcome:
        return cls(violation=violation, summary=violation.message, notices=notices)


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
