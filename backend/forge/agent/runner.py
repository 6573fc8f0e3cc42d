"""The agent loop: a plain step loop around a LanguageModel.

A step is one model call and what follows from it (its tool calls and results, or a nudge, or the
pause): the loop yields it as one `Step` — the messages it appended, its events, the tool calls it
ran — which the caller commits in ONE transaction together with the state the step changed. Text a
streaming model writes meanwhile is yielded as `Live` events that are never stored.

Invariants:
    - Never crashes on a tool: dispatch turns every failure into a tool error returned to the model
      (and a `tool_error` event).
    - A phase ends only when its work gate passes (code-enforced): a model that stops early is told
      what is missing (bounded nudges; a turn that only ran server-side research is not counted);
      then the step that pauses carries the review event and `done` — the review and `done` are
      emitted here and nowhere else — and has `ends_run`.
    - Every run ends with a step that has `ends_run` and whose last event is `done` (pause, the
      document, a provider failure, the budget, MAX_ITERATIONS), unless the caller stops it.
    - A history that ends with the model's own message (a run stopped after a reply) is continued
      with a short "continue" message, so every call is answered from a user turn.
    - One stable tool list for the whole session (every tool, fixed order): the phase is enforced
      by dispatch (TOOL_NOT_IN_PHASE), and a provider's prompt cache survives phase changes. A model
      with a small window (≤ SMALL_WINDOW, local servers) is offered only the phase's tools.
    - Every model reply is a new turn (`ForgeState.model_turn`): research its tool calls run is read,
      and so may be cited, only from the next turn on.
    - A reply's text is capped (`cap_reply`) in the history and in its `agent_text` event.
    - A model that loops is stopped (`core.llm.repeated_calls`): a call repeated REFUSE_AT times is
      answered with a REPEATED_CALL tool error instead of running again; at STOP_AT the run ends with
      MODEL_LOOPING. A run in which the model called no tool at all and ran out of nudges ends with
      MODEL_CALLED_NO_TOOL ("answered in prose"), not only the phase's incomplete-work code. A model
      whose calls are refused as invalid input STOP_AFTER times in a row ends with MODEL_INVALID_CALLS.
    - A call over the window's input ceiling is compacted before it is sent (softly, or hard if that
      is not enough: `compacted_to_fit`); one the server still refuses as too long is compacted hard
      and retried once.
    - Before the first call of a run, a model on a server it learns (`ServerFittedModel`: a local
      server) learns it, and the curator is fitted to the server's window and token margin.
    - Every request's messages are curated under the model's token budget (`curate_request`); the
      history itself is never changed by curation, and the call's `context_usage` event carries
      the curation summary (what was kept, shortened or dropped, and why). What it left out is the
      `recall` tool's (`ctx.recallable`), and the call's budgets (curation, navigation) are read
      from the curator's live settings for that call.
"""

from __future__ import annotations

import functools
import json
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field

from forge.agent.call_model import Live, account_usage, call_model, record_server_research
from forge.agent.curate_request import RequestCurator
from forge.agent.dispatch_tool_call import dispatch_tool_call
from forge.agent.model_stop_messages import PROSE_ONLY, cap_reply, no_tool_message, truncated_call
from forge.agent.phase_briefs import messages_to_send
from forge.agent.phases.phase_definition import THINKING_BUDGET
from forge.agent.phases.registry import phase_definition
from forge.agent.system_prompt import SYSTEM_PROMPT
from forge.agent.tool_context import ToolContext, ToolOutcome
from forge.agent.tool_registry import all_tool_definitions, tools_for_phase
from forge.core.curation.curate_conversation import CurationSummary
from forge.core.llm.compact_conversation import compacted_to_fit, hard_compaction
from forge.core.llm.context_window_split import input_ceiling
from forge.core.llm.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    Role,
    StopReason,
    ToolCall,
    ToolResult,
    user_text,
)
from forge.core.llm.pricing import ModelPrice
from forge.core.llm.repeated_calls import RepeatVerdict, RepeatWatch, looping_message, repeated_message
from forge.core.rules.verdicts import ErrorCode, RuleViolation
from forge.core.session import events as ev
from forge.core.session.forge_state import ForgeState
from forge.core.session.spend import SpendBudget, check_budget, total_spend
from forge.ports import ContextOverflowError, LanguageModel, ModelUnavailableError, ServerFittedModel
from forge.providers.library_prices import LIBRARY_PRICES

MAX_ITERATIONS = 50
MAX_NUDGES = 3
PREVIEW_CHARS = 240
SMALL_WINDOW = 32_768  # at most this, a request offers only the phase's tools (all of them take ~7k tokens)


@dataclass(frozen=True, slots=True)
class ToolExecuted:
    """For the tool-call log: what was called, with what, and what came back."""

    name: str
    arguments: dict[str, object]
    output: dict[str, object]
    error_code: str | None


@dataclass(frozen=True, slots=True)
class Step:
    """Commit this as one transaction, with the state as the loop left it.

    `replaced_history` (after a compaction) replaces the stored conversation before `appended`."""

    appended: tuple[Message, ...] = ()
    events: tuple[ev.SessionEvent, ...] = ()
    tool_calls: tuple[ToolExecuted, ...] = ()
    replaced_history: tuple[Message, ...] | None = None
    ends_run: bool = False


@dataclass
class _StepDraft:
    appended: list[Message] = field(default_factory=list)
    events: list[ev.SessionEvent] = field(default_factory=list)
    tool_calls: list[ToolExecuted] = field(default_factory=list)
    replaced_history: tuple[Message, ...] | None = None
    looping: str | None = None  # why the run stops: the model repeats itself
    invalid: str | None = None  # why the run stops: the model cannot form a valid call (core.llm.invalid_calls)

    def add_message(self, message: Message, messages: list[Message]) -> None:
        messages.append(message)
        self.appended.append(message)

    def finish(self, *, ends_run: bool = False) -> Step:
        return Step(tuple(self.appended), tuple(self.events), tuple(self.tool_calls), self.replaced_history, ends_run)


RunnerOutput = Step | Live


def _preview(arguments: object) -> str:
    text = json.dumps(arguments, ensure_ascii=False, default=str)
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def _result_content(outcome: ToolOutcome) -> str:
    if outcome.violation:
        v = outcome.violation
        return json.dumps({"error_code": v.code.value, "message": v.message})
    return json.dumps(dict(outcome.payload), ensure_ascii=False, default=str)


def _run_stop(draft: _StepDraft) -> ev.SessionEvent | None:
    """The error that ends the run after this reply: the model loops, or cannot form a valid call."""
    if draft.looping:
        return ev.error("MODEL_LOOPING", draft.looping, recoverable=True)
    return ev.error("MODEL_INVALID_CALLS", draft.invalid, recoverable=True) if draft.invalid else None


def _executed(name: str, arguments: dict[str, object], outcome: ToolOutcome) -> ToolExecuted:
    if outcome.violation:
        v = outcome.violation
        return ToolExecuted(name, arguments, {"message": v.message}, v.code.value)
    return ToolExecuted(name, arguments, dict(outcome.payload), None)


class AgentRunner:
    def __init__(
        self,
        model: LanguageModel,
        *,
        max_iterations: int = MAX_ITERATIONS,
        max_nudges: int = MAX_NUDGES,
        budget: SpendBudget | None = None,
        prices: Mapping[str, ModelPrice] = LIBRARY_PRICES,
        curator: RequestCurator | None = None,
    ):
        self._model = model
        self.curator = curator or RequestCurator(model.label, model.context_window)
        self._max_iterations = max_iterations
        self._max_nudges = max_nudges
        self._budget = budget
        self._prices = prices

    def _request(self, ctx: ToolContext, messages: list[Message]) -> tuple[ModelRequest, CurationSummary]:
        state = ctx.state
        small = self._model.context_window <= SMALL_WINDOW
        tools = tools_for_phase(state.current_phase) if small else all_tool_definitions()
        curated = self.curator.curate(state, messages_to_send(state, messages), SYSTEM_PROMPT, tools)
        ctx.recallable = curated.recallable
        ctx.navigation_budget = self.curator.navigation_budget()
        ctx.count_tokens = self.curator.count
        request = ModelRequest(
            SYSTEM_PROMPT,
            curated.context.messages,
            tools,
            max_tokens=phase_definition(state.current_phase).max_tokens,
            server_research=True,
            thinking_budget=THINKING_BUDGET,
            effort_scope=state.current_phase.value,
            cache_anchor=curated.context.settled,
            previous_anchor=curated.context.settled_before,
        )
        return request, curated.context.summary

    async def run(self, ctx: ToolContext, history: list[Message]) -> AsyncIterator[RunnerOutput]:
        """Continue the conversation in `history` until the run pauses, finishes or fails."""
        messages = list(history)
        draft = _StepDraft()
        if not messages or messages[-1].role == Role.ASSISTANT:
            draft.add_message(user_text("Continue the phase where you left off."), messages)
        nudges = 0
        watch = RepeatWatch()
        for _ in range(self._max_iterations):
            over_budget = check_budget(total_spend(ctx.state.spend_by_phase), self._budget)
            if over_budget:
                draft.events += [
                    ev.error(over_budget.code.value, over_budget.message, recoverable=True, severity="warning"),
                    ev.done(error=True, awaiting_input=False),
                ]
                yield draft.finish(ends_run=True)
                return
            response: ModelResponse | None = None
            async for item in self._respond(ctx, messages, draft):
                if isinstance(item, Live):
                    yield item
                else:
                    response = item
            if response is None:
                yield draft.finish(ends_run=True)
                return
            ends, counts_as_nudge = await self._after_reply(ctx, response, messages, draft, (nudges, watch))
            nudges += counts_as_nudge
            yield draft.finish(ends_run=ends)
            if ends:
                return
            draft = _StepDraft()
        draft.events += [
            ev.error(
                "MAX_ITERATIONS",
                f"Stopped after {self._max_iterations} model calls; resume to continue.",
                recoverable=True,
            ),
            ev.done(error=True, awaiting_input=False),
        ]
        yield draft.finish(ends_run=True)

    async def _after_reply(
        self,
        ctx: ToolContext,
        response: ModelResponse,
        messages: list[Message],
        draft: _StepDraft,
        progress: tuple[int, RepeatWatch],
    ) -> tuple[bool, int]:
        """Fold the reply into the step; (whether the run ends, 1 if the reply counts as a nudge).

        `progress`: the nudges so far and the run's repeat watch."""
        nudges, watch = progress
        reply = cap_reply(response.message)
        draft.add_message(reply, messages)
        if reply.shown_text:  # the answer, and the notes a thinking model wrote between tool calls
            draft.events.append(ev.agent_text(reply.shown_text))
        if response.stop_reason == StopReason.PAUSE_TURN and not reply.tool_calls:
            return False, 0  # the provider paused a long server-side turn: call again to let it finish
        if reply.tool_calls:
            paused = await self._execute_calls(ctx, response, reply, messages, draft, watch)
            stop = _run_stop(draft)
            if stop:
                draft.events += [stop, ev.done(error=True, awaiting_input=False)]
                return True, 0
            if paused:
                draft.events += [
                    ev.knowledge_document(ctx.state.knowledge_document_markdown or ""),
                    ev.done(error=False, awaiting_input=False),
                ]
            return paused, 0
        counted = 0 if response.server_research else 1
        watch.other_work += 1 - counted
        return self._end_turn(ctx.state, messages, draft, nudges + counted, watch.called_nothing), counted

    async def _respond(
        self, ctx: ToolContext, messages: list[Message], draft: _StepDraft
    ) -> AsyncIterator[Live | ModelResponse]:
        """One model call, compacting the conversation once if it overflows the context window.

        Ends without a ModelResponse (with error + done in the draft) when the model cannot answer."""
        if isinstance(self._model, ServerFittedModel):  # a local server: its window and tokenizer
            await self._model.learn_server()
            self.curator.fit_to_server(self._model.context_window, self._model.token_margin)
        for attempt in range(2):
            try:
                request, curation = self._request(ctx, messages)
                ceiling = input_ceiling(self._model.context_window)
                if attempt == 0 and curation.tokens_sent > ceiling:  # what must be kept does not fit
                    sent = functools.partial(self._tokens_sent, ctx)
                    self._replace_history(messages, draft, compacted_to_fit(tuple(messages), sent, ceiling)[0])
                    request, curation = self._request(ctx, messages)
                async for item in call_model(self._model, request):
                    if isinstance(item, ModelResponse):
                        ctx.state.model_turn += 1  # this reply's tool calls run in a new turn
                        usage = account_usage(ctx, self._model, item.usage, item.model, self._prices, curation)
                        draft.events.append(usage)
                        draft.events += record_server_research(ctx, item, self._model.label)
                    yield item
                return
            except ContextOverflowError as error:
                if attempt == 1:
                    draft.events.append(
                        ev.error(
                            "CONTEXT_OVERFLOW",
                            f"The conversation does not fit even compacted: {error}",
                            recoverable=True,
                        )
                    )
                    break
                self._replace_history(messages, draft, hard_compaction(tuple(messages)))
            except Exception as error:  # provider failures end the run, recoverably
                if isinstance(error, ModelUnavailableError) and error.usage.total:
                    draft.events.append(account_usage(ctx, self._model, error.usage, "", self._prices))
                draft.events.append(ev.error("MODEL_ERROR", f"The model call failed: {error}", recoverable=True))
                break
        draft.events.append(ev.done(error=True, awaiting_input=False))

    def _tokens_sent(self, ctx: ToolContext, messages: tuple[Message, ...]) -> int:
        return self._request(ctx, list(messages))[1].tokens_sent

    @staticmethod
    def _replace_history(messages: list[Message], draft: _StepDraft, compacted: tuple[Message, ...]) -> None:
        """Replace the history in place with its compacted form (`core.llm.compact_conversation`)."""
        messages[:] = compacted
        draft.replaced_history, draft.appended = tuple(messages), []
        draft.events.append(ev.agent_text("[The conversation was compacted to fit the context window.]"))

    async def _outcome(
        self, ctx: ToolContext, call: ToolCall, cut: bool, watch: RepeatWatch, draft: _StepDraft
    ) -> ToolOutcome:
        """The call run, or refused: cut at max_tokens, repeated, or after the model was found looping."""
        verdict = RepeatVerdict.LOOPING if draft.looping else watch.observe(call)
        if verdict is RepeatVerdict.LOOPING:
            draft.looping = draft.looping or looping_message(call, watch.times(call))
            return ToolOutcome.failed(RuleViolation(ErrorCode.REPEATED_CALL, draft.looping))
        if cut and call.parse_error:
            return ToolOutcome.failed(truncated_call(call.name, phase_definition(ctx.state.current_phase).max_tokens))
        if verdict is RepeatVerdict.REPEATED:
            return ToolOutcome.failed(RuleViolation(ErrorCode.REPEATED_CALL, repeated_message(call, watch.times(call))))
        return await dispatch_tool_call(ctx, call)

    async def _execute_calls(
        self,
        ctx: ToolContext,
        response: ModelResponse,
        reply: Message,
        messages: list[Message],
        draft: _StepDraft,
        watch: RepeatWatch,
    ) -> bool:
        """Run every tool call of one reply; results go back to the model in one user message.

        True when a tool asked the loop to pause (the document is written)."""
        results: list[ToolResult] = []
        paused = False
        cut = response.stop_reason == StopReason.MAX_TOKENS
        for call in reply.tool_calls:
            draft.events.append(ev.tool_call(call.name, _preview(call.arguments)))
            outcome = await self._outcome(ctx, call, cut, watch, draft)
            failed = outcome.violation is not None
            code, why = (outcome.violation.code.value, outcome.violation.message) if outcome.violation else (None, "")
            if watch.invalid.observe(call.name, code, why, unreadable=call.parse_error is not None):
                draft.invalid = draft.invalid or watch.invalid.stop_message()
            cited = () if failed else tuple(h for h in outcome.sources if h.snippet.strip())
            results.append(ToolResult(call.id, _result_content(outcome), failed, cited))
            draft.tool_calls.append(_executed(call.name, dict(call.arguments), outcome))
            if outcome.violation:
                draft.events.append(ev.tool_error(call.name, outcome.violation.code.value, outcome.violation.message))
            else:
                draft.events.append(ev.tool_result(call.name, outcome.summary, outcome.sources))
                draft.events.extend(outcome.notices)
            paused = paused or outcome.pauses
        draft.add_message(Message(Role.USER, tuple(results)), messages)
        return paused

    def _end_turn(
        self, state: ForgeState, messages: list[Message], draft: _StepDraft, nudges: int, prose_only: bool
    ) -> bool:
        """The model stopped calling tools: pause for review if the phase's gate passes, else nudge.

        True when the run ends (paused, finished, or out of nudges). `prose_only`: the model has called
        no tool in this run, which the nudge and the final error say."""
        phase = phase_definition(state.current_phase)
        violation = phase.work_gate(state)
        if violation is None:
            if phase.review is None:  # CRYSTALLIZE with its document: the session is finished
                draft.events.append(ev.done(error=False, awaiting_input=False))
                return True
            state.await_review(phase.review.review_type)
            draft.events += [
                ev.review(phase.review.review_type, phase.review.present(state)),
                ev.done(error=False, awaiting_input=True),
            ]
            return True
        if nudges > self._max_nudges:
            code, message = violation.code.value, f"The model stopped with the phase incomplete: {violation.message}"
            if prose_only:
                code, message = "MODEL_CALLED_NO_TOOL", no_tool_message(nudges, violation)
            draft.events += [ev.error(code, message, recoverable=True), ev.done(error=True, awaiting_input=False)]
            return True
        hint = f"{PROSE_ONLY} " if prose_only else ""
        draft.add_message(user_text(f"{hint}Not done yet ({violation.code.value}): {violation.message}"), messages)
        return False
