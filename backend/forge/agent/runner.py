"""The agent loop: an async iterator of typed events around LanguageModel.complete.

Invariants:
    - Never crashes on a tool: dispatch turns every failure into a tool error returned to the model
      (and a `tool_error` event).
    - After every model step whose tool results were appended, it yields a Checkpoint with the full
      conversation, so the caller persists state + messages and a session can resume from there.
    - A phase ends only when its work gate passes (code-enforced): a model that stops early is told
      what is missing (bounded nudges); then the loop pauses with the phase's review event.
    - At most `max_iterations` model calls per run; then a recoverable error, never an endless loop.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from forge.agent.dispatch_tool_call import dispatch_tool_call
from forge.agent.system_prompt import SYSTEM_PROMPT
from forge.agent.tool_context import ToolContext, ToolOutcome
from forge.agent.tool_registry import tools_for_phase
from forge.core import session_events as ev
from forge.core.domain_types import REVIEW_AFTER_PHASE, Phase
from forge.core.enforce_phase_gates import (
    check_build_work_complete,
    check_decompose_work_complete,
    check_explore_work_complete,
    check_synthesis_complete,
    check_validate_work_complete,
)
from forge.core.forge_state import ForgeState
from forge.core.model_messages import Message, ModelRequest, ModelResponse, Role, ToolResult, Usage, user_text
from forge.core.review_payloads import build_review_payload
from forge.core.rule_verdicts import ErrorCode, RuleViolation
from forge.ports import LanguageModel

MAX_ITERATIONS = 50
MAX_NUDGES = 3
PREVIEW_CHARS = 240

WORK_GATES: dict[Phase, Callable[[ForgeState], RuleViolation | None]] = {
    Phase.DECOMPOSE: check_decompose_work_complete,
    Phase.EXPLORE: check_explore_work_complete,
    Phase.SYNTHESIZE: check_synthesis_complete,
    Phase.VALIDATE: check_validate_work_complete,
    Phase.BUILD: check_build_work_complete,
}


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """Persist now: the conversation so far and the usage of the step that produced it."""

    messages: tuple[Message, ...]
    usage: Usage


@dataclass(frozen=True, slots=True)
class ToolExecuted:
    """For the tool-call log: what was called, with what, and what came back."""

    name: str
    arguments: dict[str, object]
    output: dict[str, object]
    error_code: str | None


RunnerOutput = ev.SessionEvent | Checkpoint | ToolExecuted


class _Pause:
    """Internal marker yielded by `_execute_calls`: a tool asked the loop to pause."""


def _preview(arguments: object) -> str:
    text = json.dumps(arguments, ensure_ascii=False, default=str)
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def _result_content(outcome: ToolOutcome) -> str:
    if outcome.violation:
        v = outcome.violation
        return json.dumps({"error_code": v.code.value, "message": v.message})
    return json.dumps(dict(outcome.payload), ensure_ascii=False, default=str)


def _executed(name: str, arguments: dict[str, object], outcome: ToolOutcome) -> ToolExecuted:
    if outcome.violation:
        v = outcome.violation
        return ToolExecuted(name, arguments, {"message": v.message}, v.code.value)
    return ToolExecuted(name, arguments, dict(outcome.payload), None)


def _phase_gate(state: ForgeState) -> RuleViolation | None:
    gate = WORK_GATES.get(state.current_phase)
    return gate(state) if gate else None


class AgentRunner:
    def __init__(self, model: LanguageModel, *, max_iterations: int = MAX_ITERATIONS, max_nudges: int = MAX_NUDGES):
        self._model = model
        self._max_iterations = max_iterations
        self._max_nudges = max_nudges

    async def run(self, ctx: ToolContext, history: list[Message]) -> AsyncIterator[RunnerOutput]:
        """Continue the conversation in `history` (which ends with a user message) until a pause."""
        messages = list(history)
        nudges = 0
        for _ in range(self._max_iterations):
            request = ModelRequest(SYSTEM_PROMPT, tuple(messages), tools_for_phase(ctx.state.current_phase))
            try:
                response = await self._model.complete(request)
            except Exception as error:  # provider failures end the run, recoverably
                yield ev.error("MODEL_ERROR", f"The model call failed: {error}", recoverable=True)
                yield ev.done(error=True, awaiting_input=False)
                return
            yield self._usage_event(response)
            messages.append(response.message)
            if response.message.text.strip():
                yield ev.agent_text(response.message.text)
            if response.message.tool_calls:
                paused = False
                async for item in self._execute_calls(ctx, response, messages):
                    if isinstance(item, _Pause):
                        paused = True
                    else:
                        yield item
                if paused:
                    yield ev.knowledge_document(ctx.state.knowledge_document_markdown or "")
                    yield ev.done(error=False, awaiting_input=False)
                    return
                continue
            nudges += 1
            async for item in self._end_turn(ctx.state, messages, response.usage, nudges):
                yield item
            if ctx.state.awaiting_user_input or nudges > self._max_nudges:
                return
        yield ev.error(
            "MAX_ITERATIONS", f"Stopped after {self._max_iterations} model calls; resume to continue.", recoverable=True
        )
        yield ev.done(error=True, awaiting_input=False)

    async def _execute_calls(
        self, ctx: ToolContext, response: ModelResponse, messages: list[Message]
    ) -> AsyncIterator[RunnerOutput | _Pause]:
        """Run every tool call of one response; results go back to the model in one user message."""
        results: list[ToolResult] = []
        paused = False
        for call in response.message.tool_calls:
            yield ev.tool_call(call.name, _preview(call.arguments))
            outcome = await dispatch_tool_call(ctx, call)
            results.append(ToolResult(call.id, _result_content(outcome), outcome.violation is not None))
            yield _executed(call.name, dict(call.arguments), outcome)
            if outcome.violation:
                yield ev.tool_error(call.name, outcome.violation.code.value, outcome.violation.message)
            else:
                yield ev.tool_result(call.name, outcome.summary)
            paused = paused or outcome.pauses
        messages.append(Message(Role.USER, tuple(results)))
        yield Checkpoint(tuple(messages), response.usage)
        if paused:
            yield _Pause()

    async def _end_turn(
        self, state: ForgeState, messages: list[Message], usage: Usage, nudges: int
    ) -> AsyncIterator[RunnerOutput]:
        """The model stopped calling tools: pause for review if the phase's gate passes, else nudge."""
        violation = self._end_of_turn_violation(state)
        if violation is None:
            yield Checkpoint(tuple(messages), usage)
            review_type = REVIEW_AFTER_PHASE[state.current_phase]
            state.await_review(review_type)
            yield ev.review(review_type, build_review_payload(state, review_type))
            yield ev.done(error=False, awaiting_input=True)
            return
        if nudges > self._max_nudges:
            yield Checkpoint(tuple(messages), usage)
            yield ev.error(
                violation.code.value,
                f"The model stopped with the phase incomplete: {violation.message}",
                recoverable=True,
            )
            yield ev.done(error=True, awaiting_input=False)
            return
        messages.append(user_text(f"Not done yet ({violation.code.value}): {violation.message}"))
        yield Checkpoint(tuple(messages), usage)

    def _end_of_turn_violation(self, state: ForgeState) -> RuleViolation | None:
        if state.current_phase == Phase.CRYSTALLIZE:
            return RuleViolation(ErrorCode.PHASE_WORK_INCOMPLETE, "Call generate_knowledge_document to finish.")
        return _phase_gate(state)

    def _usage_event(self, response: ModelResponse) -> ev.SessionEvent:
        context_tokens = (
            response.usage.input_tokens + response.usage.cache_read_tokens + response.usage.cache_creation_tokens
        )
        return ev.context_usage(
            context_tokens + response.usage.output_tokens,
            self._model.context_window,
            response.model or self._model.label,
        )
