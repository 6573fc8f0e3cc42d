"""AnthropicModel satisfies the port: the AgentRunner drives it over the scripted API, streaming."""

from __future__ import annotations

from collections.abc import Callable

from providers.anthropic.fake_anthropic_api import FakeAnthropicApi
from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import SessionId
from forge.core.llm.messages import Role, ToolCall, ToolResult
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit
from forge.ports import StreamingLanguageModel
from forge.providers.anthropic_model import AnthropicModel

ModelFactory = Callable[..., AnthropicModel]
PROBLEM = "How can a hospital cut emergency wait times without more staff?"
HITS = [ResearchHit("corpus://queueing/littles-law", "Little's law", "Queue length equals arrival rate times wait.")]
EPHEMERAL = {"type": "ephemeral"}


async def test_runner_executes_the_models_tool_call_and_sends_the_result_back(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.sse("tool_use_stream.sse").sse("text_stream.sse")
    model: StreamingLanguageModel = make_model()
    ids = CountingIds()
    state = ForgeState(problem=PROBLEM)
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch(HITS), FixedClock(), ids, model.label)
    run = await record_run(AgentRunner(model, max_iterations=2), ctx, [phase_kickoff(state)])
    events, executed, messages = run.events, run.tool_calls, run.messages

    assert [(e.name, e.arguments, e.error_code) for e in executed] == [
        ("research", {"query": "hospital emergency wait times"}, None)
    ]
    errors = [e.data["code"] for e in events if e.type == EventType.ERROR]
    assert errors == ["MAX_ITERATIONS"] and len(api.requests) == 2  # no model error: both calls answered
    texts = [e.data for e in events if e.type == EventType.AGENT_TEXT]
    assert texts[:2] == ["First, the state of the art.", "Waits grow sharply as utilisation nears one."]
    assert "".join(e.data["text"] for e in run.live if e.type == EventType.AGENT_TEXT_DELTA).startswith("First")
    usage = next(e.data for e in events if e.type == EventType.CONTEXT_USAGE)
    assert usage["cache_creation_tokens"] == 2900 and usage["model"] == "claude-sonnet-4-6"
    assert usage["tokens_limit"] == 200_000 and usage["cost_usd"] > 0

    # The assistant turn and its tool result are in the conversation and went back to the API.
    assistant, results = messages[1], messages[2]
    assert assistant.role == Role.ASSISTANT
    assert isinstance(assistant.parts[1], ToolCall) and assistant.parts[1].id == "toolu_01T1x1fJ34qAmk2tNTrN7Up6"
    assert isinstance(results.parts[0], ToolResult) and results.parts[0].call_id == "toolu_01T1x1fJ34qAmk2tNTrN7Up6"
    first, second = api.bodies
    assert first["tools"][-1]["type"] == "web_search_20260209"  # DECOMPOSE offers research
    assert second["messages"][1]["content"][1] == {
        "type": "tool_use",
        "id": "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
        "name": "research",
        "input": {"query": "hospital emergency wait times"},
    }
    tool_result = second["messages"][2]["content"][0]
    assert tool_result["type"] == "tool_result" and tool_result["tool_use_id"] == "toolu_01T1x1fJ34qAmk2tNTrN7Up6"
    assert tool_result["cache_control"] == EPHEMERAL and second["messages"][0]["content"][-1]["cache_control"]
