"""The loop around real-model behaviour: streaming, server research, cost, budget, context overflow."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.scripted_model import call, turn

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import SessionId
from forge.core.llm.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    ProviderPart,
    Role,
    ServerResearch,
    StopReason,
    TextDelta,
    TextPart,
    ToolResult,
    Usage,
)
from forge.core.session.events import EventType, SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit
from forge.core.session.spend import SpendBudget
from forge.ports import ContextOverflowError

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
HIT = ResearchHit("https://example.org/ed-flow", "Emergency department flow", "Boarding delays emergency care.")


class ReplayModel:
    """Answers with the given responses (or raises the given exceptions), in order."""

    def __init__(self, replies: list[ModelResponse | Exception], model: str = "claude-sonnet-4-5"):
        self.replies = replies
        self.requests: list[ModelRequest] = []
        self.model = model

    @property
    def label(self) -> str:
        return f"replay:{self.model}"

    @property
    def context_window(self) -> int:
        return 200_000

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        reply = self.replies[len(self.requests) - 1]
        if isinstance(reply, Exception):
            raise reply
        return reply


class StreamingReplayModel(ReplayModel):
    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | ModelResponse]:
        response = await self.complete(request)
        for word in response.message.text.split(" "):
            yield TextDelta(word + " ")
        yield response


def _text(text: str, usage: Usage = Usage(1000, 200), **extra: object) -> ModelResponse:
    return ModelResponse(
        Message(Role.ASSISTANT, (TextPart(text),)), StopReason.END_TURN, usage, "claude-sonnet-4-5", **extra
    )  # type: ignore[arg-type]


def _calls(message: Message, usage: Usage = Usage(1000, 200)) -> ModelResponse:
    return ModelResponse(message, StopReason.TOOL_USE, usage, "claude-sonnet-4-5")


async def _run(model: ReplayModel, state: ForgeState, **kwargs: object) -> list[SessionEvent]:
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids, model.label)
    run = await record_run(AgentRunner(model, max_nudges=0, **kwargs), ctx, [phase_kickoff(state)])  # type: ignore[arg-type]
    return run.events + run.live


async def test_streamed_text_is_shown_live_and_stored_once_with_its_step() -> None:
    model = StreamingReplayModel([_text("Queues dominate emergency waits")])
    events = await _run(model, ForgeState(problem=PROBLEM))
    stored = [e.data for e in events if e.type == EventType.AGENT_TEXT]
    live = "".join(e.data["text"] for e in events if e.type == EventType.AGENT_TEXT_DELTA)
    assert stored == ["Queues dominate emergency waits"]
    assert live.strip() == "Queues dominate emergency waits"


async def test_server_side_web_search_is_recorded_as_research_and_unlocks_rule_12() -> None:
    state = ForgeState(problem=PROBLEM)
    searched = ModelResponse(
        Message(
            Role.ASSISTANT,
            (
                ProviderPart("anthropic", {"type": "server_tool_use", "id": "srvtoolu_1"}),
                call("map_state_of_art", {"summary": "Boarding delays care.", "sources": [HIT.source]}),
            ),
        ),
        StopReason.TOOL_USE,
        Usage(1000, 200),
        "claude-sonnet-4-5",
        server_research=(ServerResearch("hospital emergency wait times", (HIT,)),),
    )
    model = ReplayModel([searched, _text("done")])
    events = await _run(model, state)
    assert state.research_log[0].query == "hospital emergency wait times"
    assert state.research_log[0].provider == "replay:claude-sonnet-4-5 web search"
    assert state.state_of_art is not None and state.state_of_art.evidence[0].source == HIT.source
    web = [e.data for e in events if e.type == EventType.TOOL_RESULT and e.data["tool"] == "web_search"]
    assert web == [
        {
            "tool": "web_search",
            "summary": "1 result(s) for “hospital emergency wait times”",
            "sources": [{"source": HIT.source, "title": HIT.title}],
        }
    ]
    assert model.requests[0].server_research is True  # DECOMPOSE allows research


async def test_each_call_is_priced_and_the_phase_and_session_spend_add_up() -> None:
    state = ForgeState(problem=PROBLEM)
    model = ReplayModel([_calls(turn(call("get_session_status"))), _text("done")])
    events = await _run(model, state)
    usage = [e.data for e in events if e.type == EventType.CONTEXT_USAGE]
    per_call = 1000 * 3.0 / 1e6 + 200 * 15.0 / 1e6  # claude-sonnet-4 prices
    assert usage[0]["cost_usd"] == pytest.approx(per_call)
    assert usage[1]["session_cost_usd"] == pytest.approx(2 * per_call)
    assert usage[1]["phase"] == "decompose" and usage[1]["phase_tokens"] == 2400
    assert state.spend_by_phase["decompose"].calls == 2


async def test_a_spent_budget_stops_the_run_cleanly_before_the_next_call() -> None:
    state = ForgeState(problem=PROBLEM)
    model = ReplayModel([_calls(turn(call("get_session_status"))) for _ in range(5)])
    events = await _run(model, state, budget=SpendBudget(max_tokens=2500))
    assert len(model.requests) == 3  # 1200 tokens per call: the third call reaches 3600 >= 2500
    assert events[-2].type == EventType.ERROR and events[-2].data["code"] == "BUDGET_EXHAUSTED"
    assert "FORGE_BUDGET_TOKENS" in events[-2].data["message"]
    assert events[-1].data == {"error": True, "awaiting_input": False}


async def test_context_overflow_compacts_old_tool_results_and_retries_once() -> None:
    state = ForgeState(problem=PROBLEM)
    big = "x" * 5000
    history = [
        phase_kickoff(state),
        turn(call("get_session_status")),
        Message(Role.USER, (ToolResult(call("get_session_status").id, big),)),
    ]
    history += [turn(call("get_session_status")), Message(Role.USER, (ToolResult(call("x").id, "small"),))] * 4
    model = ReplayModel([ContextOverflowError("prompt is too long"), _text("done")])
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids, model.label)
    events = (await record_run(AgentRunner(model, max_nudges=0), ctx, history)).events
    retried = model.requests[1].messages
    compacted = retried[2].parts[0]
    assert isinstance(compacted, ToolResult) and "compacted" in compacted.content and len(compacted.content) < 500
    assert retried[1] == history[1]  # the decision (the tool call) is kept
    assert any(e.type == EventType.AGENT_TEXT and "compacted" in e.data for e in events)


async def test_a_second_overflow_ends_the_run_recoverably() -> None:
    model = ReplayModel([ContextOverflowError("too long"), ContextOverflowError("still too long")])
    events = await _run(model, ForgeState(problem=PROBLEM))
    assert [e.type for e in events][-2:] == [EventType.ERROR, EventType.DONE]
    assert events[-2].data["code"] == "CONTEXT_OVERFLOW" and events[-2].data["recoverable"] is True


async def test_a_paused_server_turn_is_continued_without_a_nudge() -> None:
    paused = ModelResponse(
        Message(Role.ASSISTANT, (TextPart("Searching…"),)), StopReason.PAUSE_TURN, Usage(100, 10), "claude-sonnet-4-6"
    )
    model = ReplayModel([paused, _text("done")])
    await _run(model, ForgeState(problem=PROBLEM))
    follow_up = model.requests[1].messages
    assert follow_up[-1].role == Role.ASSISTANT and follow_up[-1].text == "Searching…"  # no "Not done yet" nudge


class LocalReplayModel(ReplayModel):
    @property
    def label(self) -> str:
        return "local:gpt-4o"


async def test_a_local_server_is_free_even_when_it_serves_a_hosted_models_name() -> None:
    reply = ModelResponse(
        Message(Role.ASSISTANT, (TextPart("done"),)), StopReason.END_TURN, Usage(10_000, 1000), "gpt-4o"
    )
    events = await _run(LocalReplayModel([reply]), ForgeState(problem=PROBLEM))
    usage = next(e.data for e in events if e.type == EventType.CONTEXT_USAGE)
    assert usage["cost_usd"] == 0.0 and usage["session_tokens"] == 11_000
