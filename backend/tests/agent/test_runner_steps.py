"""The step loop: what one step commits, live text, and the real-model edge cases of issue #10."""

from __future__ import annotations

from collections.abc import AsyncIterator

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.scripted_model import call, turn

from forge.agent.model_stop_messages import MAX_REPLY_CHARS
from forge.agent.phase_briefs import phase_kickoff
from forge.agent.phases.registry import phase_definition
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, SessionId, ToolCallId
from forge.core.llm.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    Role,
    ServerResearch,
    StopReason,
    StreamReset,
    TextDelta,
    TextPart,
    ToolCall,
    Usage,
)
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit
from forge.ports import ModelUnavailableError

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
HIT = ResearchHit("https://example.org/ed-flow", "Emergency department flow", "Boarding delays emergency care.")


class StreamScript:
    """A streaming model: each turn is a list of items to yield (deltas, resets, the response, errors)."""

    def __init__(self, turns: list[list[TextDelta | StreamReset | ModelResponse | Exception]]):
        self.turns = turns
        self.requests: list[ModelRequest] = []

    @property
    def label(self) -> str:
        return "stream-script:claude-sonnet-4-5"

    @property
    def context_window(self) -> int:
        return 200_000

    async def complete(self, request: ModelRequest) -> ModelResponse:
        raise AssertionError("the runner streams from a streaming model")

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | StreamReset | ModelResponse]:
        self.requests.append(request)
        for item in self.turns[len(self.requests) - 1]:
            if isinstance(item, Exception):
                raise item
            yield item


def _reply(text: str, stop: StopReason = StopReason.END_TURN, **extra: object) -> ModelResponse:
    return ModelResponse(
        Message(Role.ASSISTANT, (TextPart(text),)), stop, Usage(1000, 200), "claude-sonnet-4-5", **extra
    )  # type: ignore[arg-type]


def _ctx(state: ForgeState) -> ToolContext:
    ids = CountingIds()
    return ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids, "stream-script")


async def test_a_step_holds_the_reply_its_tool_results_and_their_events_together() -> None:
    model = StreamScript(
        [[ModelResponse(turn(call("research", {"query": "emergency waits"})), StopReason.TOOL_USE, Usage(10, 5))]]
    )
    state = ForgeState(problem=PROBLEM)
    run = await record_run(AgentRunner(model, max_iterations=1), _ctx(state), [phase_kickoff(state)])
    first = run.steps[0]
    assert [m.role for m in first.appended] == [Role.ASSISTANT, Role.USER]
    assert [e.type for e in first.events] == [EventType.CONTEXT_USAGE, EventType.TOOL_CALL, EventType.TOOL_RESULT]
    assert [t.name for t in first.tool_calls] == ["research"] and not first.ends_run
    last = run.steps[-1]
    assert last.ends_run and last.events[-1].type == EventType.DONE  # MAX_ITERATIONS ends the run recoverably


async def test_a_long_streamed_reply_becomes_few_live_events_and_one_capped_stored_text() -> None:
    text = "waiting line " * 23_077  # ~300,000 characters, streamed 24 characters at a time
    deltas: list[TextDelta | StreamReset | ModelResponse | Exception] = [
        TextDelta(text[i : i + 24]) for i in range(0, len(text), 24)
    ]
    model = StreamScript([[*deltas, _reply(text)]])
    state = ForgeState(problem=PROBLEM)
    run = await record_run(AgentRunner(model, max_iterations=1, max_nudges=0), _ctx(state), [phase_kickoff(state)])
    live = [e for e in run.live if e.type == EventType.AGENT_TEXT_DELTA]
    assert "".join(e.data["text"] for e in live) == text
    assert len(live) <= 150  # coalesced by size and time, not one event per 24-character delta (12,500)
    stored = [e.data for e in run.events if e.type == EventType.AGENT_TEXT]
    assert len(stored) == 1 and len(stored[0]) < MAX_REPLY_CHARS + 100 and "were cut" in stored[0]
    assert run.messages[1].text == stored[0]  # the history holds the capped reply too


async def test_a_stream_reset_discards_the_draft_and_the_text_is_stored_once() -> None:
    model = StreamScript(
        [
            [
                TextDelta("Queues dom"),
                StreamReset("connection reset"),
                TextDelta("Queues dominate."),
                _reply("Queues dominate."),
            ]
        ]
    )
    state = ForgeState(problem=PROBLEM)
    run = await record_run(AgentRunner(model, max_iterations=1, max_nudges=0), _ctx(state), [phase_kickoff(state)])
    kinds = [e.type for e in run.live]
    assert EventType.AGENT_TEXT_DISCARDED in kinds
    after_reset = kinds.index(EventType.AGENT_TEXT_DISCARDED)
    assert "".join(e.data["text"] for e in run.live[after_reset + 1 :]) == "Queues dominate."
    assert [e.data for e in run.events if e.type == EventType.AGENT_TEXT] == ["Queues dominate."]


async def test_a_turn_that_only_ran_server_research_is_not_counted_as_a_nudge() -> None:
    searched = ServerResearch("emergency waits", (HIT,))
    replies: list[list[TextDelta | StreamReset | ModelResponse | Exception]] = [
        [_reply("Searched.", server_research=(searched,))] for _ in range(3)
    ]
    replies.append([_reply("Stopping.")])
    model = StreamScript(replies)
    state = ForgeState(problem=PROBLEM)
    run = await record_run(AgentRunner(model, max_iterations=10, max_nudges=0), _ctx(state), [phase_kickoff(state)])
    # With max_nudges=0 the first counted stop ends the run: three research-only turns did not count.
    assert len(model.requests) == 4
    assert [e.data["code"] for e in run.events if e.type == EventType.ERROR] == ["DECOMPOSE_INCOMPLETE"]


async def test_a_tool_call_cut_at_max_tokens_is_told_that_the_reply_hit_max_tokens() -> None:
    cut = ToolCall(ToolCallId("t1"), "reframe_problem", {}, "unterminated string at character 4000")
    response = ModelResponse(Message(Role.ASSISTANT, (cut,)), StopReason.MAX_TOKENS, Usage(10, 4096))
    model = StreamScript([[response]])
    state = ForgeState(problem=PROBLEM)
    run = await record_run(AgentRunner(model, max_iterations=1), _ctx(state), [phase_kickoff(state)])
    error = next(e.data for e in run.events if e.type == EventType.TOOL_ERROR)
    bound = phase_definition(Phase.DECOMPOSE).max_tokens
    assert f"max_tokens ({bound})" in error["message"] and "shorter" in error["message"]
    assert model.requests[0].max_tokens == bound  # the phase's own output bound is what was asked for
    result = run.messages[2].tool_results[0]
    assert result.is_error and "max_tokens" in result.content


async def test_a_failed_call_is_charged_for_what_the_provider_billed() -> None:
    failure = ModelUnavailableError("overloaded after text", usage=Usage(input_tokens=5_000, output_tokens=40))
    model = StreamScript([[TextDelta("Partial"), failure]])
    state = ForgeState(problem=PROBLEM)
    run = await record_run(AgentRunner(model), _ctx(state), [phase_kickoff(state)])
    usage = next(e.data for e in run.events if e.type == EventType.CONTEXT_USAGE)
    assert usage["session_tokens"] == 5_040 and usage["session_cost_usd"] > 0
    assert [e.data["code"] for e in run.events if e.type == EventType.ERROR] == ["MODEL_ERROR"]
    assert run.steps[-1].ends_run and not [e for e in run.events if e.type == EventType.AGENT_TEXT]


async def test_a_history_ending_with_the_models_reply_is_continued_from_a_user_turn() -> None:
    model = StreamScript([[_reply("Resumed.")]])
    state = ForgeState(problem=PROBLEM)
    history = [phase_kickoff(state), Message(Role.ASSISTANT, (TextPart("Before the crash."),))]
    run = await record_run(AgentRunner(model, max_iterations=1, max_nudges=0), _ctx(state), history)
    sent = model.requests[0].messages
    assert sent[-1].role == Role.USER and "Continue" in sent[-1].text
    assert run.steps[0].appended[0] == sent[-1]  # the continue message is committed with the step
