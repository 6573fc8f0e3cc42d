"""OpenAICompatibleModel.complete through the real SDK: the JSON body sent and the reply read back."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

import httpx
import pytest
from providers.openai.fake_openai_api import LOCAL_URL, MODEL, FakeOpenAIApi, completion, tool_call

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
from forge.providers.openai_compatible_model import OpenAICompatibleModel, openai_compatible_model_from_settings

ModelFactory = Callable[..., OpenAICompatibleModel]
RESEARCH = ToolDefinition(
    "research",
    "Search the corpus.",
    {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
)
ASSUMPTIONS = ToolDefinition(
    "extract_assumptions",
    "Record assumptions.",
    {"type": "object", "properties": {"assumptions": {"type": "array", "items": {"type": "string"}}}},
)
TOOLS = (RESEARCH, ASSUMPTIONS)


def _request(*messages: Message, tools: tuple[ToolDefinition, ...] = TOOLS) -> ModelRequest:
    return ModelRequest("You are the forge.", messages or (user_text("Why are ER waits long?"),), tools)


async def test_a_text_reply_becomes_text_with_usage_and_the_servers_model_name(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.json(completion("Queues grow when arrivals outpace service."))
    response = await make_model().complete(_request())

    assert response.message == Message(Role.ASSISTANT, (TextPart("Queues grow when arrivals outpace service."),))
    assert response.stop_reason == StopReason.END_TURN
    assert response.usage == Usage(input_tokens=176, output_tokens=80, cache_read_tokens=1024)
    assert response.model == MODEL
    request = api.requests[0]
    assert str(request.url) == "https://api.openai.com/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-proj-test-key"
    assert api.bodies[0] == {
        "model": MODEL,
        "messages": [
            {"role": "system", "content": "You are the forge."},
            {"role": "user", "content": "Why are ER waits long?"},
        ],
        "max_completion_tokens": 4096,
        "tool_choice": "auto",
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "research",
                    "description": "Search the corpus.",
                    "parameters": dict(RESEARCH.input_schema),
                },
            },
            {
                "type": "function",
                "function": {
                    "name": "extract_assumptions",
                    "description": "Record assumptions.",
                    "parameters": dict(ASSUMPTIONS.input_schema),
                },
            },
        ],
    }


async def test_tool_calls_become_tool_calls_with_their_ids_and_parsed_arguments(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.json(
        completion(
            None,
            [
                tool_call("research", '{"query": "ER waits"}', "call_1"),
                tool_call("extract_assumptions", '{"assumptions": ["demand is fixed"]}', "call_2"),
            ],
            finish_reason="tool_calls",
        )
    )
    response = await make_model().complete(_request())

    assert response.message.parts == (
        ToolCall(ToolCallId("call_1"), "research", {"query": "ER waits"}),
        ToolCall(ToolCallId("call_2"), "extract_assumptions", {"assumptions": ["demand is fixed"]}),
    )
    assert response.stop_reason == StopReason.TOOL_USE


async def test_tool_results_go_back_as_tool_messages_answering_their_call_ids(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.json(completion("Noted."))
    conversation = (
        user_text("Why are ER waits long?"),
        Message(
            Role.ASSISTANT,
            (
                TextPart("Searching first."),
                ProviderPart("anthropic", {"type": "server_tool_use", "id": "srvtoolu_1"}),
                ToolCall(ToolCallId("call_1"), "research", {"query": "ER waits"}),
                ToolCall(ToolCallId("call_2"), "extract_assumptions", {}, parse_error="bad JSON"),
            ),
        ),
        Message(
            Role.USER,
            (
                ToolResult(ToolCallId("call_1"), '{"hits": 3}'),
                ToolResult(ToolCallId("call_2"), '{"error_code": "INVALID_INPUT"}', is_error=True),
                TextPart("Also consider triage."),
            ),
        ),
    )
    await make_model().complete(_request(*conversation))

    assert api.bodies[0]["messages"][1:] == [
        {"role": "user", "content": "Why are ER waits long?"},
        {
            "role": "assistant",
            "content": "Searching first.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "research", "arguments": '{"query": "ER waits"}'},
                },
                {"id": "call_2", "type": "function", "function": {"name": "extract_assumptions", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": '{"hits": 3}'},
        {"role": "tool", "tool_call_id": "call_2", "content": 'ERROR: {"error_code": "INVALID_INPUT"}'},
        {"role": "user", "content": "Also consider triage."},
    ]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"query": "ER waits",}', {"query": "ER waits"}),
        ("{'query': 'ER waits'}", {"query": "ER waits"}),
        ('{"query": "ER waits"', {"query": "ER waits"}),
    ],
    ids=["trailing-comma", "single-quotes", "unclosed-brace"],
)
async def test_malformed_arguments_from_a_small_model_are_repaired(
    api: FakeOpenAIApi, make_model: ModelFactory, raw: str, expected: dict[str, str]
) -> None:
    api.json(completion(None, [tool_call("research", raw)], finish_reason="tool_calls"))
    response = await make_model().complete(_request())

    assert response.message.tool_calls == (ToolCall(ToolCallId("call_abc123"), "research", expected),)


async def test_unrepairable_arguments_reach_the_loop_as_a_parse_error_not_a_crash(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.json(completion(None, [tool_call("research", '{"query": }')], finish_reason="tool_calls"))
    response = await make_model().complete(_request())

    (call,) = response.message.tool_calls
    assert (call.id, call.name, call.arguments) == ("call_abc123", "research", {})
    assert call.parse_error is not None and '{\\"query\\": }' in call.parse_error
    assert response.stop_reason == StopReason.TOOL_USE


async def test_a_tool_call_cut_at_max_tokens_is_not_run_with_half_its_arguments(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.json(completion(None, [tool_call("research", '{"query": "ER wai')], finish_reason="length"))
    response = await make_model(max_tokens=6000).complete(_request())

    cut = "the reply hit max_tokens (6000) while writing this call's arguments, so they are incomplete"
    assert response.message.tool_calls == (ToolCall(ToolCallId("call_abc123"), "research", {}, cut),)
    assert response.stop_reason == StopReason.MAX_TOKENS
    assert api.bodies[0]["max_completion_tokens"] == 6000


async def test_a_tool_call_a_small_model_wrote_as_json_text_becomes_a_tool_call(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    text = 'I will search first.\n```json\n{"name": "research", "arguments": {"query": "ER waits"}}\n```'
    api.json(completion(text))
    response = await make_model().complete(_request())

    assert response.message.parts == (
        TextPart("I will search first."),
        ToolCall(ToolCallId("call_0"), "research", {"query": "ER waits"}),
    )
    assert response.stop_reason == StopReason.TOOL_USE


async def test_json_text_naming_a_tool_not_offered_stays_text(api: FakeOpenAIApi, make_model: ModelFactory) -> None:
    text = '{"name": "delete_everything", "arguments": {}}'
    api.json(completion(text))
    response = await make_model().complete(_request())

    assert response.message.parts == (TextPart(text),)
    assert response.stop_reason == StopReason.END_TURN


async def test_tool_calls_without_ids_get_deterministic_ids(api: FakeOpenAIApi, make_model: ModelFactory) -> None:
    calls = [tool_call("research", '{"query": "a"}', None), tool_call("research", '{"query": "b"}', None)]
    api.json(completion(None, calls, finish_reason="tool_calls")).json(completion(None, calls, finish_reason="stop"))
    model = make_model()
    first = await model.complete(_request())
    again = await model.complete(_request())

    assert [c.id for c in first.message.tool_calls] == ["call_0", "call_1"]
    assert again.message.tool_calls == first.message.tool_calls
    assert again.stop_reason == StopReason.TOOL_USE  # Ollama says "stop" even when it calls tools


async def test_a_local_server_gets_requests_at_its_base_url_and_no_real_key(
    api: FakeOpenAIApi, http_client: httpx.AsyncClient
) -> None:
    api.json({"detail": "Not Found"}, 404)  # the probe before the first call: no /v1/models here
    api.json(completion("Hello from llama.cpp.", model="qwen2.5-7b-instruct-q4_k_m.gguf", usage={}))
    model = openai_compatible_model_from_settings(
        None, "qwen2.5-7b-instruct", base_url=LOCAL_URL, http_client=http_client, context_window=32_768
    )
    response = await model.complete(_request())

    assert model.label == "local:qwen2.5-7b-instruct" and model.context_window == 32_768
    assert [str(r.url) for r in api.requests] == [f"{LOCAL_URL}/models", f"{LOCAL_URL}/chat/completions"]
    assert api.requests[1].headers["authorization"] == "Bearer not-needed"
    body = api.bodies[0]
    assert body["model"] == "qwen2.5-7b-instruct" and body["max_tokens"] == 4096
    assert "max_completion_tokens" not in body
    assert response.message.text == "Hello from llama.cpp." and response.model == "qwen2.5-7b-instruct-q4_k_m.gguf"
    assert response.usage.input_tokens > 0 and response.usage.output_tokens > 0  # no usage sent: counted here
    assert model.facts.reachable is False and model.facts.reports_usage is False


async def test_a_phase_budget_is_capped_at_the_output_room_of_a_small_local_context_window(
    api: FakeOpenAIApi, http_client: httpx.AsyncClient
) -> None:
    for _ in range(2):
        api.json({"detail": "Not Found"}, 404).json(completion("ok", usage={}))
    small = openai_compatible_model_from_settings(
        None, "qwen2.5-7b-instruct", base_url=LOCAL_URL, http_client=http_client, context_window=8192
    )
    large = openai_compatible_model_from_settings(
        None, "qwen2.5-7b-instruct", base_url=LOCAL_URL, http_client=http_client, context_window=131_072
    )
    await small.complete(replace(_request(), max_tokens=16_384))
    await large.complete(replace(_request(), max_tokens=16_384))
    # A quarter of the window: the curator keeps the input under the other three quarters.
    assert [body["max_tokens"] for body in api.bodies] == [2048, 16_384]


async def test_the_factory_labels_openai_and_refuses_to_build_without_a_key_or_a_server(
    http_client: httpx.AsyncClient,
) -> None:
    assert openai_compatible_model_from_settings("sk-x", "gpt-4o", http_client=http_client).label == "openai:gpt-4o"
    explicit = openai_compatible_model_from_settings(
        "sk-x", "m", base_url=LOCAL_URL, http_client=http_client, label_prefix="openai"
    )
    assert explicit.label == "openai:m"
    with pytest.raises(ValueError, match="OPENAI_API_KEY"):
        openai_compatible_model_from_settings(None, "gpt-4o")


async def test_no_tools_key_is_sent_when_no_tools_are_offered(api: FakeOpenAIApi, make_model: ModelFactory) -> None:
    api.json(completion('{"name": "research", "arguments": {}}'))
    response = await make_model().complete(_request(tools=()))

    assert "tools" not in api.bodies[0]
    assert json.loads(response.message.text) == {"name": "research", "arguments": {}}
