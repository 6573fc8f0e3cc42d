"""AnthropicModel.complete through the real SDK over a scripted API: what is sent, what comes back."""

from __future__ import annotations

from collections.abc import Callable

from providers.anthropic.fake_anthropic_api import API_KEY, MODEL, FakeAnthropicApi, recorded_json

from forge.core.domain_types import ToolCallId
from forge.core.llm.messages import (
    Message,
    ModelRequest,
    ProviderPart,
    Role,
    StopReason,
    TextPart,
    ToolCall,
    ToolDefinition,
    ToolResult,
    Usage,
    user_text,
)
from forge.providers.anthropic_model import AnthropicModel

EPHEMERAL = {"type": "ephemeral"}
RESEARCH = ToolDefinition(
    "research", "Search the corpus.", {"type": "object", "properties": {"query": {"type": "string"}}}
)
FUNDAMENTALS = ToolDefinition(
    "decompose_to_fundamentals", "Record fundamentals.", {"type": "object", "properties": {"fundamentals": {}}}
)
SYSTEM = "You are Knowledge Forge."
QUESTION = user_text("How can a hospital cut emergency wait times without more staff?")

ModelFactory = Callable[..., AnthropicModel]


def _request(*messages: Message, server_research: bool = False) -> ModelRequest:
    return ModelRequest(SYSTEM, messages or (QUESTION,), (RESEARCH, FUNDAMENTALS), server_research=server_research)


async def test_plain_text_reply(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    api.json("text_reply.json")
    model = make_model()
    response = await model.complete(_request())
    assert response.message == Message(
        Role.ASSISTANT,
        (
            TextPart(
                "Emergency waits are a queueing effect: arrivals cluster in the evening while service capacity stays flat."
            ),
        ),
    )
    assert response.stop_reason == StopReason.END_TURN
    assert response.usage == Usage(412, 23, 0, 0)
    assert response.model == "claude-sonnet-4-6" and response.server_research == ()
    assert (model.label, model.context_window) == (f"anthropic:{MODEL}", 200_000)
    request = api.requests[0]
    assert request.url.path == "/v1/messages"
    assert request.headers["authorization"] == f"Bearer {API_KEY}"  # how SDK 2.x sends the key
    assert "anthropic-beta" not in request.headers


async def test_request_body_caches_system_tools_and_conversation(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.json("text_reply.json")
    await make_model().complete(_request())
    body = api.bodies[0]
    assert body["model"] == MODEL and body["max_tokens"] == 8192 and "stream" not in body
    assert body["system"] == [{"type": "text", "text": SYSTEM, "cache_control": EPHEMERAL}]
    assert body["tools"] == [
        {"name": "research", "description": "Search the corpus.", "input_schema": RESEARCH.input_schema},
        {
            "name": "decompose_to_fundamentals",
            "description": "Record fundamentals.",
            "input_schema": FUNDAMENTALS.input_schema,
            "cache_control": EPHEMERAL,
        },
    ]
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": QUESTION.text, "cache_control": EPHEMERAL}]}
    ]


async def test_tool_use_becomes_a_tool_call(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    api.json("tool_use_reply.json")
    response = await make_model().complete(_request())
    assert response.message.parts == (
        TextPart("I'll start by researching the state of the art."),
        ToolCall(
            ToolCallId("toolu_01A09q90qw90lq917835lq9"),
            "research",
            {"query": "emergency department wait times queueing"},
        ),
    )
    assert response.stop_reason == StopReason.TOOL_USE


async def test_history_goes_back_as_blocks_with_anthropic_parts_verbatim_and_others_dropped(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    paused = recorded_json("web_search_paused.json")["content"]
    call = ToolCall(ToolCallId("toolu_01A09q90qw90lq917835lq9"), "research", {"query": "ED waits"})
    assistant = Message(
        Role.ASSISTANT,
        (
            TextPart("Searching."),
            ProviderPart("anthropic", paused[1]),
            ProviderPart("anthropic", paused[2]),
            ProviderPart("openai", {"type": "reasoning", "summary": []}),
            call,
        ),
    )
    results = Message(Role.USER, (ToolResult(call.id, '{"hits": []}', is_error=False),))
    api.json("text_reply.json")
    await make_model().complete(_request(QUESTION, assistant, results))
    sent = api.bodies[0]["messages"]
    assert sent[1] == {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Searching."},
            paused[1],
            paused[2],
            {"type": "tool_use", "id": call.id, "name": "research", "input": {"query": "ED waits"}},
        ],
    }
    assert sent[2]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": call.id,
            "content": '{"hits": []}',
            "is_error": False,
            "cache_control": EPHEMERAL,
        }
    ]
    assert sent[0]["content"][0]["cache_control"] == EPHEMERAL  # the prefix the previous call wrote


async def test_web_search_tool_is_sent_only_when_server_research_is_on(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.json("text_reply.json").json("text_reply.json")
    model = make_model(web_search_max_uses=2)
    await model.complete(_request(server_research=False))
    await model.complete(_request(server_research=True))
    off, on = (body["tools"] for body in api.bodies)
    assert all(t["name"] != "web_search" for t in off)
    assert on[-1] == {"type": "web_search_20260209", "name": "web_search", "max_uses": 2, "cache_control": EPHEMERAL}


async def test_pause_turn_is_continued_and_merged_into_one_response(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.json("web_search_paused.json").json("web_search_resumed.json")
    response = await make_model().complete(_request(server_research=True))
    assert len(api.requests) == 2
    first, second = api.bodies
    paused_content = recorded_json("web_search_paused.json")["content"]
    assert second["messages"][:-1] == first["messages"]
    assert second["messages"][-1] == {"role": "assistant", "content": paused_content}
    assert response.stop_reason == StopReason.END_TURN
    assert response.usage == Usage(1510 + 3120, 102 + 88, 0, 1490, web_searches=1 + 1)
    assert response.message.text == (
        "Let me look up current research on emergency department crowding."
        "Crowding is driven by boarding of admitted patients: so the bottleneck is downstream, not at triage."
    )
    provider_parts = [p.payload for p in response.message.parts if isinstance(p, ProviderPart)]
    assert [p["type"] for p in provider_parts] == ["server_tool_use", "web_search_tool_result"] * 2
    assert provider_parts[1] == paused_content[2]
    [research] = response.server_research
    assert research.query == "emergency department crowding interventions"
    assert [(h.source, h.title) for h in research.hits] == [
        (
            "https://www.ncbi.nlm.nih.gov/pmc/articles/PMC3825996/",
            "Emergency department crowding: causes and solutions",
        ),
        (
            "https://www.ahrq.gov/research/findings/factsheets/errors-safety/improving-patient-flow.html",
            "Improving Patient Flow and Reducing Emergency Department Crowding",
        ),
    ]


async def test_pause_turn_continuations_are_bounded(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    for _ in range(3):
        api.json("web_search_paused.json")
    response = await make_model(max_continuations=2).complete(_request(server_research=True))
    assert len(api.requests) == 3
    assert response.stop_reason == StopReason.PAUSE_TURN
    assert len(api.bodies[2]["messages"][-1]["content"]) == 2 * len(recorded_json("web_search_paused.json")["content"])


async def test_cache_token_usage_is_mapped(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    api.json("cached_reply.json")
    response = await make_model().complete(_request())
    assert response.usage == Usage(
        input_tokens=37, output_tokens=19, cache_creation_tokens=1288, cache_read_tokens=10544
    )


async def test_context_1m_uses_the_beta_header_and_window(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    api.json("text_reply.json")
    model = make_model(context_1m=True)
    await model.complete(_request())
    assert api.requests[0].headers["anthropic-beta"] == "context-1m-2025-08-07"
    assert "betas" not in api.bodies[0]
    assert model.context_window == 1_000_000


async def test_a_larger_request_budget_wins_over_the_configured_one(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.json("text_reply.json").json("text_reply.json")
    model = make_model(max_tokens=8192)
    await model.complete(ModelRequest(SYSTEM, (QUESTION,), (), max_tokens=1024))
    await model.complete(ModelRequest(SYSTEM, (QUESTION,), (), max_tokens=16_000))
    assert [b["max_tokens"] for b in api.bodies] == [8192, 16_000]


async def test_a_budget_too_large_for_a_plain_call_is_streamed(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    api.sse("text_stream.sse")
    response = await make_model(max_tokens=32_000).complete(_request())
    assert api.bodies[0]["stream"] is True and api.bodies[0]["max_tokens"] == 32_000
    assert response.message.text == "Waits grow sharply as utilisation nears one."
