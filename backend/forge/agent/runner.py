"""The agent loop: an async iterator of typed events around a LanguageModel.

Invariants:
    - Never crashes on a tool: dispatch turns every failure into a tool error returned to the model
      (and a `tool_error` event).
    - After every model step whose tool results were appended, it yields a Checkpoint with the full
      conversation, so the caller persists state + messages and a session can resume from there.
    - A phase ends only when its work gate passes (code-enforced): a model that stops early is told
      what is missing (bounded nudges); then the loop pauses with the phase's review event.
    - At most `max_iterations` model calls per run; then a recoverable error, never an endless loop.
    - Every call's tokens and cost are added to the phase's spend; a run stops cleanly (with an
      `error` event) once the session's budget is spent. A context overflow compacts old tool
      results once and retries; a provider failure ends the run recoverably.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass

from forge.agent.call_model import account_usage, call_model, record_server_research
from forge.agent.dispatch_tool_call import dispatch_tool_call
from forge.agent.system_prompt import SYSTEM_PROMPT
from forge.agent.tool_context import ToolContext, ToolOutcome
from forge.agent.tool_registry import tools_for_phase
from forge.core import session_events as ev
from forge.core.compact_conversation import compact_conversation
from forge.core.domain_types import REVIEW_AFTER_PHASE, Phase
from forge.core.forge_state import ForgeState
from forge.core.model_messages import (
    Message,
    ModelRequest,
    ModelResponse,
    Role,
    StopReason,
    ToolResult,
    Usage,
    user_text,
)
from forge.core.model_pricing import DEFAULT_PRICES, ModelPrice
from forge.core.phases.close_build import check_build_work_complete
from forge.core.phases.close_crystallize import check_crystallize_work_complete
from forge.core.phases.close_decompose import check_decompose_work_complete
from forge.core.phases.close_explore import check_explore_work_complete
from forge.core.phases.close_synthesize import check_synthesis_complete
from forge.core.phases.close_validate import check_validate_work_complete
from forge.core.review_payloads import build_review_payload
from forge.core.rule_verdicts import RuleViolation
from forge.core.session_spend import SpendBudget, check_budget, total_spend
from forge.ports import ContextOverflowError, LanguageModel

MAX_ITERATIONS = 50
MAX_NUDGES = 3
PREVIEW_CHARS = 240

WORK_GATES: dict[Phase, Callable[[ForgeState], RuleViolation | None]] = {
    Phase.DECOMPOSE: check_decompose_work_complete,
    Phase.EXPLORE: check_explore_work_complete,
    Phase.SYNTHESIZE: check_synthesis_complete,
    Phase.VALIDATE: check_validate_work_complete,
    Phase.BUILD: check_build_work_complete,
    Phase.CRYSTALLIZE: check_crystallize_work_complete,
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
    return WORK_GATES[state.current_phase](state)


class AgentRunner:
    def __init__(
        self,
        model: LanguageModel,
        *,
        max_iterations: int = MAX_ITERATIONS,
        max_nudges: int = MAX_NUDGES,
        budget: SpendBudget | None = None,
        prices: Mapping[str, ModelPrice] = DEFAULT_PRICES,
    ):
        self._model = model
        self._max_iterations = max_iterations
        self._max_nudges = max_nudges
        self._budget = budget
        self._prices = prices

    def _request(self, ctx: ToolContext, messages: list[Message]) -> ModelRequest:
        tools = tools_for_phase(ctx.state.current_phase)
        research_allowed = any(t.name == "research" for t in tools)
        return ModelRequest(SYSTEM_PROMPT, tuple(messages), tools, server_research=research_allowed)

    async def run(self, ctx: ToolContext, history: list[Message]) -> AsyncIterator[RunnerOutput]:
        """Continue the conversation in `history` (which ends with a user message) until a pause."""
        messages = list(history)
        nudges = 0
        for _ in range(self._max_iterations):
            over_budget = check_budget(total_spend(ctx.state.spend_by_phase), self._budget)
            if over_budget:
                yield ev.error(over_budget.code.value, over_budget.message, recoverable=True, severity="warning")
                yield ev.done(error=True, awaiting_input=False)
                return
            response: ModelResponse | None = None
            async for item in self._respond(ctx, messages):
                if isinstance(item, ModelResponse):
                    response = item
                else:
                    yield item
            if response is None:
                return
            messages.append(response.message)
            if response.stop_reason == StopReason.PAUSE_TURN and not response.message.tool_calls:
                continue  # the provider paused a long server-side turn: call again to let it finish
            if response.message.tool_calls:
                paused = False
                async for out in self._execute_calls(ctx, response, messages):
                    if isinstance(out, _Pause):
                        paused = True
                    else:
                        yield out
                if paused:
                    yield ev.knowledge_document(ctx.state.knowledge_document_markdown or "")
                    yield ev.done(error=False, awaiting_input=False)
                    return
                continue
            nudges += 1
            async for out in self._end_turn(ctx.state, messages, response.usage, nudges):
                yield out
            finished = ctx.state.awaiting_user_input or ctx.state.knowledge_document_markdown is not None
            if finished or nudges > self._max_nudges:
                return
        yield ev.error(
            "MAX_ITERATIONS", f"Stopped after {self._max_iterations} model calls; resume to continue.", recoverable=True
        )
        yield ev.done(error=True, awaiting_input=False)

    async def _respond(self, ctx: ToolContext, messages: list[Message]) -> AsyncIterator[RunnerOutput | ModelResponse]:
        """One model call, compacting the conversation once if it overflows the context window.

        Ends without a ModelResponse (after error + done events) when the model cannot answer."""
        for attempt in range(2):
            try:
                async for item in call_model(self._model, self._request(ctx, messages)):
                    if isinstance(item, ModelResponse):
                        yield account_usage(ctx, self._model, item, self._prices)
                        for event in record_server_research(ctx, item, self._model.label):
                            yield event
                    yield item
                return
            except ContextOverflowError as error:
                if attempt == 1:
                    yield ev.error(
                        "CONTEXT_OVERFLOW", f"The conversation does not fit even compacted: {error}", recoverable=True
                    )
                    break
                messages[:] = compact_conversation(tuple(messages))
                yield ev.agent_text("[The conversation was compacted to fit the context window.]")
            except Exception as error:  # provider failures end the run, recoverably
                yield ev.error("MODEL_ERROR", f"The model call failed: {error}", recoverable=True)
                break
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
                yield ev.tool_result(call.name, outcome.summary, outcome.sources)
            paused = paused or outcome.pauses
        messages.append(Message(Role.USER, tuple(results)))
        yield Checkpoint(tuple(messages), response.usage)
        if paused:
            yield _Pause()

    async def _end_turn(
        self, state: ForgeState, messages: list[Message], usage: Usage, nudges: int
    ) -> AsyncIterator[RunnerOutput]:
        """The model stopped calling tools: pause for review if the phase's gate passes, else nudge."""
        violation = _phase_gate(state)
        if violation is None:
            yield Checkpoint(tuple(messages), usage)
            review_type = REVIEW_AFTER_PHASE.get(state.current_phase)
            if review_type is None:  # CRYSTALLIZE with its document: the session is finished
                yield ev.done(error=False, awaiting_input=False)
                return
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
