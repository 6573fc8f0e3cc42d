"""OfflineModel: a deterministic LanguageModel that needs no key and no network.

Invariants: it reads only the ModelRequest, finds the phase from the last `[forge phase=...]` marker
and answers with that phase's planned tool calls (only tools offered), or its summary. Same request,
same response; call ids `offline-<phase>-<round>-<turn>-<k>`; `label` says what it is; usage is
counted with the shipped cl100k_base tokenizer; knowledge is read on the first request.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

from forge.core.curation.curate_conversation import message_text
from forge.core.domain_types import ToolCallId
from forge.core.identity_memo import IdentityMemo
from forge.core.llm.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    Role,
    StopReason,
    TextPart,
    ToolCall,
    ToolDefinition,
    Usage,
)
from forge.offline.offline_knowledge import OfflineKnowledge, load_offline_knowledge
from forge.offline.phases.plan_build import plan_build
from forge.offline.phases.plan_crystallize import plan_crystallize
from forge.offline.phases.plan_decompose import plan_decompose
from forge.offline.phases.plan_explore import plan_explore
from forge.offline.phases.plan_synthesize import plan_synthesize
from forge.offline.phases.plan_validate import plan_validate
from forge.offline.phases.planning import MARKER, ConversationView, PhasePlan, read_conversation
from forge.providers.token_counting import CountingProvider, token_counter_for

OFFLINE_LABEL = "offline model (deterministic, no network)"
OFFLINE_TOKENS = token_counter_for(CountingProvider.OFFLINE)

Planner = Callable[[ConversationView, OfflineKnowledge], PhasePlan]
PLANNERS: dict[str, Planner] = {
    "decompose": plan_decompose,
    "explore": plan_explore,
    "synthesize": plan_synthesize,
    "validate": plan_validate,
    "build": plan_build,
    "crystallize": plan_crystallize,
}


def estimate_usage(request: ModelRequest, response: Message) -> Usage:
    """Tokens (cl100k_base, shipped) of everything sent and of the answer, counted as the context
    curator counts them (`message_text`, tools as one text each), so its counts are reused."""
    count = OFFLINE_TOKENS.count_tokens
    sent = count(request.system) + _tools_tokens(request.tools)
    sent += sum(count(message_text(message)) for message in request.messages)
    return Usage(sent, count(message_text(response)))


# The runner sends one tuple of tool definitions with every request (`all_tool_definitions`): its
# count is kept per tuple instead of serialising twenty schemas per call.
_TOOLS_TOKENS: IdentityMemo[int] = IdentityMemo(16)


def _tools_tokens(tools: Sequence[ToolDefinition]) -> int:
    def count() -> int:
        texts = (f"{t.name} {t.description} {json.dumps(t.input_schema, default=str)}" for t in tools)
        return sum(OFFLINE_TOKENS.count_tokens(text) for text in texts)

    return _TOOLS_TOKENS.get(tools, count)


def _call_numbering(messages: Sequence[Message]) -> tuple[str, int]:
    """("<phase>-<round>-", turn) counting from the first brief of the latest marker; ("", turn) without one."""
    markers = [(i, match) for i, m in enumerate(messages) if m.role == Role.USER and (match := MARKER.match(m.text))]
    if not markers:
        return "", sum(1 for m in messages if m.role == Role.ASSISTANT) + 1
    latest = markers[-1][1]
    first = next(i for i, match in markers if match.group(0) == latest.group(0))
    turns = sum(1 for m in messages[first:] if m.role == Role.ASSISTANT)
    return f"{latest.group(1)}-{latest.group(2)}-", turns + 1


class OfflineModel:
    """The built-in deterministic engine (see the module docstring)."""

    def __init__(self, knowledge_dir: Path | None = None) -> None:
        self._knowledge_dir = knowledge_dir
        self._knowledge: OfflineKnowledge | None = None

    @property
    def label(self) -> str:
        return OFFLINE_LABEL

    @property
    def context_window(self) -> int:
        return 200_000

    def _loaded(self) -> OfflineKnowledge:
        if self._knowledge is None:
            self._knowledge = load_offline_knowledge(self._knowledge_dir)
        return self._knowledge

    def _plan(self, request: ModelRequest) -> PhasePlan:
        view = read_conversation(request.messages)
        planner = PLANNERS.get(view.phase or "")
        if planner is None:
            return PhasePlan(
                summary="The offline model found no `[forge phase=...]` marker, so there is no phase work to do."
            )
        return planner(view, self._loaded())

    async def complete(self, request: ModelRequest) -> ModelResponse:
        plan = self._plan(request)
        offered = {t.name for t in request.tools}
        prefix, turn = _call_numbering(request.messages)
        calls = [c for c in plan.calls if c.name in offered]
        if calls:
            parts: tuple[TextPart | ToolCall, ...] = tuple(
                ToolCall(ToolCallId(f"offline-{prefix}{turn}-{k}"), c.name, dict(c.arguments))
                for k, c in enumerate(calls)
            )
            stop = StopReason.TOOL_USE
        else:
            parts = (TextPart(plan.summary or "The offline model has nothing further to do in this phase."),)
            stop = StopReason.END_TURN
        message = Message(Role.ASSISTANT, parts)
        return ModelResponse(message, stop, estimate_usage(request, message), OFFLINE_LABEL)
