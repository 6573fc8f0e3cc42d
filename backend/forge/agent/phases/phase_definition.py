"""PhaseDefinition: everything the agent needs to run one phase, as one frozen value.

Invariants:
    - `tools` are the tools the phase owns: each tool is owned by exactly one phase or listed in
      `shared_tools.SHARED_TOOLS`, so the tool registry holds every tool once.
    - `tool_names` is what the phase offers, in the order the model sees them: its own tools plus
      `research`, the cross-cutting tools and any tool borrowed from another phase (SYNTHESIZE
      offers BUILD's get_negative_knowledge). Dispatch refuses any other tool (TOOL_NOT_IN_PHASE).
    - `brief` opens the phase with a message whose first line is `[forge phase=<phase> round=<n>]`.
    - `review` is None exactly for CRYSTALLIZE, which ends the session instead of pausing.
    - Every phase's `max_tokens` exceeds THINKING_BUDGET, so thinking fits with room for an answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from forge.agent.phases.shared_tools import RESEARCH
from forge.agent.tool_context import ToolSpec
from forge.core.domain_types import Phase, ReviewType
from forge.core.llm.messages import Message
from forge.core.phases.phase_review import PhaseReview
from forge.core.rules.verdicts import RuleViolation
from forge.core.session.forge_state import ForgeState

# Extended-thinking tokens a model may spend per call, where its provider supports thinking. One
# value for the whole session, every phase: Anthropic drops the cached conversation whenever the
# thinking settings change, so a per-phase budget would rewrite the whole history into the cache at
# every phase switch. The budget is a ceiling: SYNTHESIZE and VALIDATE briefs ask for the reasoning.
THINKING_BUDGET = 8192


@dataclass(frozen=True, slots=True)
class PhaseDefinition:
    phase: Phase
    tools: tuple[ToolSpec, ...]
    tool_names: tuple[str, ...]
    work_gate: Callable[[ForgeState], RuleViolation | None]
    brief: Callable[[ForgeState], Message]
    review: PhaseReview[Any] | None
    max_tokens: int  # the output bound of one model call in this phase; above THINKING_BUDGET
    # The phase's requests carry only its brief and what followed it, not the session's history: its
    # brief, built from the state, holds all it needs (CRYSTALLIZE: no full-context call at the end).
    own_context: bool = False

    @property
    def review_type(self) -> ReviewType | None:
        """The review the session waits for once the work gate passes; None: the session ends."""
        return self.review.review_type if self.review else None

    @property
    def review_payload(self) -> Callable[[ForgeState], dict[str, Any]] | None:
        """Builds the review event's payload (the same as `build_review_payload(state, review_type)`)."""
        return self.review.present if self.review else None

    @property
    def offers_research(self) -> bool:
        """Whether the phase offers research (and so whether a provider may search on its side)."""
        return RESEARCH in self.tool_names


def names_of(tools: tuple[ToolSpec, ...]) -> tuple[str, ...]:
    return tuple(spec.name for spec in tools)
