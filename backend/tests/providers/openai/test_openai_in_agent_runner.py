"""OpenAICompatibleModel satisfies the port: the AgentRunner drives it over the scripted API, streaming,
and a tool call whose JSON cannot be read goes back to the model as an INVALID_INPUT tool error."""

from __future__ import annotations

import json
from collections.abc import Callable

from providers.openai.fake_openai_api import USAGE, FakeOpenAIApi, chunk
from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner, ToolExecuted
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import SessionId
from forge.core.llm.messages import Message, ToolResult
from forge.core.session.events import EventType, SessionEvent
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import ResearchHit
from forge.ports import StreamingLanguageModel
from forge.providers.openai_compatible_model import OpenAICompatibleModel

ModelFactory = Callable[..., OpenAICompatibleModel]
PROBLEM = "How can a hospital cut emergency wait times without more staff?"
HITS = [ResearchHit("corpus://queueing/littles-law", "Little's law", "Queue length equals arrival rate times wait.")]
MALFORMED = '{"query": hospital emergency waits}'  # an unquoted value: no repair can know where it ends


async def _run(model: StreamingLanguageModel) -> tuple[list[SessionEvent], list[ToolExecuted], list[Message]]:
    """Two model calls of the DECOMPOSE phase; the events, executed tools and last checkpoint."""
    ids = CountingIds()
    state = ForgeState(problem=PROBLEM)
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch(HITS), FixedClock(), ids, model.label)
    run = await record_run(AgentRunner(model, max_iterations=2), ctx, [phase_kickoff(state)])
    return run.events, run.tool_calls, run.messages


async def test_a_malformed_tool_call_goes_back_to_the_model_as_an_invalid_input_tool_error(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.sse(
        chunk({"role": "assistant", "content": "Searching."}),
        chunk(
            {
                "tool_calls": [
                    {"index": 0, "id": "call_q1", "type": "function", "function": {"name": "research", "arguments": ""}}
                ]
            }
        ),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": MALFORMED}}]}),
        chunk({}, finish_reason="tool_calls"),
        chunk(usage=USAGE),
    )
    api.sse(chunk({"content": "I will resend it."}), chunk({}, finish_reason="stop"))
    events, executed, messages = await _run(make_model())

    tool_errors = [e.data for e in events if e.type == EventType.TOOL_ERROR]
    assert [(e["tool"], e["error_code"]) for e in tool_errors] == [("research", "INVALID_INPUT")]
    assert [(x.name, x.arguments, x.error_code) for x in executed] == [("research", {}, "INVALID_INPUT")]
    assert [e.data for e in events if e.type == EventType.AGENT_TEXT][:1] == ["Searching."]
    assert not [e for e in events if e.type == EventType.ERROR and e.data["code"] == "MODEL_ERROR"]

    # The conversation keeps the failed call and its error result ...
    (result,) = messages[2].parts
    assert isinstance(result, ToolResult) and result.call_id == "call_q1" and result.is_error
    # ... and the error went back to the model as the `tool` message answering call_q1.
    second = api.bodies[1]["messages"]
    assistant, tool = second[2], second[3]
    assert assistant["tool_calls"] == [
        {"id": "call_q1", "type": "function", "function": {"name": "research", "arguments": "{}"}}
    ]
    assert tool["role"] == "tool" and tool["tool_call_id"] == "call_q1"
    assert tool["content"].startswith("ERROR: ")
    error = json.loads(tool["content"].removeprefix("ERROR: "))
    assert error["error_code"] == "INVALID_INPUT" and "hospital emergency waits" in error["message"]
    assert len(api.requests) == 2
