"""OpenAICompatibleModel.stream through the real SDK: deltas in order, fragments assembled, usage
(of failed attempts too), and retries after a cut, with a StreamReset when text was shown."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from providers.openai.fake_openai_api import LOCAL_URL, MODEL, USAGE, FakeOpenAIApi, Sleeps, chunk, error_body

from forge.core.domain_types import ToolCallId
from forge.core.llm.messages import (
    ModelRequest,
    ModelResponse,
    StopReason,
    StreamReset,
    TextDelta,
    TextPart,
    ToolCall,
    ToolDefinition,
    Usage,
    user_text,
)
from forge.ports import ModelUnavailableError
from forge.providers.openai_compatible_model import OpenAICompatibleModel

ModelFactory = Callable[..., OpenAICompatibleModel]
TOOLS = (
    ToolDefinition("research", "Search.", {"type": "object", "properties": {"query": {"type": "string"}}}),
    ToolDefinition("extract_assumptions", "Assume.", {"type": "object"}),
)
REQUEST = ModelRequest("You are the forge.", (user_text("Why are ER waits long?"),), TOOLS)


def _fragment(index: int, arguments: str, call_id: str | None = None, name: str | None = None) -> dict[str, object]:
    fragment: dict[str, object] = {"index": index, "function": {"arguments": arguments}}
    if call_id is not None:
        fragment.update(id=call_id, type="function")
        fragment["function"] = {"name": name, "arguments": arguments}
    return {"role": "assistant", "content": None, "tool_calls": [fragment]} if call_id else {"tool_calls": [fragment]}


async def _collect(model: OpenAICompatibleModel) -> tuple[list[str], ModelResponse]:
    deltas: list[str] = []
    final: list[ModelResponse] = []
    async for item in model.stream(REQUEST):
        if isinstance(item, TextDelta):
            deltas.append(item.text)
        else:
            final.append(item)
    assert len(final) == 1, "exactly one ModelResponse, last"
    return deltas, final[0]


async def test_text_streams_as_deltas_in_order_then_one_response_with_the_final_chunks_usage(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.sse(
        chunk({"role": "assistant", "content": "", "refusal": None}),
        chunk({"content": "Queues"}),
        chunk({"content": " grow"}),
        chunk({"content": "."}),
        chunk({}, finish_reason="stop"),
        chunk(usage=USAGE),
    )
    deltas, response = await _collect(make_model())

    assert deltas == ["Queues", " grow", "."]
    assert response.message.parts == (TextPart("Queues grow."),)
    assert response.stop_reason == StopReason.END_TURN
    assert response.usage == Usage(input_tokens=176, output_tokens=80, cache_read_tokens=1024)
    assert response.model == MODEL
    body = api.bodies[0]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert [m["role"] for m in body["messages"]] == ["system", "user"]


async def test_tool_call_fragments_are_assembled_by_index(api: FakeOpenAIApi, make_model: ModelFactory) -> None:
    api.sse(
        chunk({"role": "assistant", "content": "Let me check."}),
        chunk(_fragment(0, "", "call_A", "research")),
        chunk(_fragment(0, '{"que')),
        chunk(_fragment(1, "", "call_B", "extract_assumptions")),
        chunk(_fragment(0, 'ry": "ER waits"}')),
        chunk(_fragment(1, '{"assumptions": ["demand is fixed"]}')),
        chunk({}, finish_reason="tool_calls"),
        chunk(usage=USAGE),
    )
    deltas, response = await _collect(make_model())

    assert deltas == ["Let me check."]
    assert response.message.parts == (
        TextPart("Let me check."),
        ToolCall(ToolCallId("call_A"), "research", {"query": "ER waits"}),
        ToolCall(ToolCallId("call_B"), "extract_assumptions", {"assumptions": ["demand is fixed"]}),
    )
    assert response.stop_reason == StopReason.TOOL_USE


async def test_calls_that_reuse_index_zero_with_new_ids_stay_separate(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.sse(  # Ollama sends each call whole, every one at index 0
        chunk(_fragment(0, '{"query": "a"}', "call_x", "research")),
        chunk(_fragment(0, '{"query": "b"}', "call_y", "research")),
        chunk({}, finish_reason="tool_calls"),
    )
    _, response = await _collect(make_model())

    assert response.message.tool_calls == (
        ToolCall(ToolCallId("call_x"), "research", {"query": "a"}),
        ToolCall(ToolCallId("call_y"), "research", {"query": "b"}),
    )
    # A server that sends no usage chunk: the reply is counted locally (cl100k × the margin).
    assert response.usage.input_tokens > 0 and response.usage.output_tokens > 0


async def test_streamed_arguments_are_repaired_and_missing_ids_synthesised(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.sse(
        chunk({"tool_calls": [{"index": 0, "function": {"name": "research", "arguments": "{'query': "}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": "'ER waits',}"}}]}),
        chunk({}, finish_reason="tool_calls"),
    )
    _, response = await _collect(make_model())

    assert response.message.tool_calls == (ToolCall(ToolCallId("call_0"), "research", {"query": "ER waits"}),)


async def test_a_tool_call_streamed_as_text_becomes_a_tool_call_after_the_text_was_shown(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.sse(
        chunk({"content": '<tool_call>\n{"name": "research", '}),
        chunk({"content": '"arguments": {"query": "ER waits"}}\n</tool_call>'}),
        chunk({}, finish_reason="stop"),
    )
    deltas, response = await _collect(make_model())

    assert len(deltas) == 2
    assert response.message.parts == (ToolCall(ToolCallId("call_0"), "research", {"query": "ER waits"}),)
    assert response.stop_reason == StopReason.TOOL_USE


async def test_a_stream_that_fails_before_any_text_is_retried(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.sse(chunk({"role": "assistant", "content": ""}), done=False)  # cut: no finish_reason
    api.error(503, error_body("Loading model", "unavailable_error", 503))  # llama.cpp while loading
    api.sse(chunk({"content": "Ready."}), chunk({}, finish_reason="stop"))
    deltas, response = await _collect(make_model())

    assert deltas == ["Ready."] and response.message.text == "Ready."
    assert len(api.requests) == 3 and sleeps.delays == [1.0, 2.0]


async def test_a_stream_cut_after_text_is_reset_and_retried_keeping_only_the_completed_text(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.sse(chunk({"content": "Queues grow"}), done=False)  # cut: no finish_reason
    api.sse(chunk({"content": "Queues"}), chunk({"content": " grow."}), chunk({}, finish_reason="stop"))
    items = [item async for item in make_model().stream(REQUEST)]

    assert items[0] == TextDelta("Queues grow")
    assert isinstance(items[1], StreamReset) and "StreamCutError" in items[1].reason
    assert items[2:4] == [TextDelta("Queues"), TextDelta(" grow.")]
    final = items[-1]
    assert isinstance(final, ModelResponse) and final.message.parts == (TextPart("Queues grow."),)
    assert len(items) == 5 and len(api.requests) == 2 and sleeps.delays == [1.0]


async def test_usage_a_cut_stream_reported_is_added_to_the_response(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    running = {"prompt_tokens": 900, "completion_tokens": 3, "prompt_tokens_details": {"cached_tokens": 512}}
    api.sse(chunk({"content": "Queues"}, usage=running), done=False)  # vLLM: usage on every chunk
    api.sse(chunk({"content": "Queues grow."}), chunk({}, finish_reason="stop"), chunk(usage=USAGE))
    items = [item async for item in make_model().stream(REQUEST)]

    final = items[-1]
    assert isinstance(final, ModelResponse)
    cut = Usage(input_tokens=388, output_tokens=3, cache_read_tokens=512)
    assert final.usage == cut + Usage(input_tokens=176, output_tokens=80, cache_read_tokens=1024)


async def test_when_every_attempt_is_cut_the_error_carries_the_usage_they_reported(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    running = {"prompt_tokens": 900, "completion_tokens": 3}
    for _ in range(3):
        api.sse(chunk({"content": "Queues"}, usage=running), done=False)
    with pytest.raises(ModelUnavailableError, match="after 3 attempt") as failure:
        _ = [item async for item in make_model().stream(REQUEST)]

    assert failure.value.usage == Usage(input_tokens=2700, output_tokens=9)
    assert len(api.requests) == 3 and sleeps.delays == [1.0, 2.0]


async def test_a_refused_connection_while_streaming_still_names_the_server(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    for _ in range(3):
        api.refuse_connection()
    with pytest.raises(ModelUnavailableError, match=r"is the server at http://127\.0\.0\.1:8080/v1/ running"):
        _ = [item async for item in make_model(base_url=LOCAL_URL).stream(REQUEST)]


async def test_a_streamed_tool_call_cut_at_length_is_max_tokens_with_the_budget_named(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.sse(
        chunk(_fragment(0, "", "call_A", "research")),
        chunk(_fragment(0, '{"query": "ER wa')),
        chunk({}, finish_reason="length"),
        chunk(usage=USAGE),
    )
    _, response = await _collect(make_model(max_tokens=5000))

    cut = "the reply hit max_tokens (5000) while writing this call's arguments, so they are incomplete"
    assert response.message.tool_calls == (ToolCall(ToolCallId("call_A"), "research", {}, cut),)
    assert response.stop_reason == StopReason.MAX_TOKENS


async def test_a_300_000_character_reply_streams_whole(api: FakeOpenAIApi, make_model: ModelFactory) -> None:
    pieces = [f"{i:05d}" + "y" * 25 for i in range(10_000)]
    api.sse(*(chunk({"content": p}) for p in pieces), chunk({}, finish_reason="stop"), chunk(usage=USAGE))
    deltas, response = await _collect(make_model())

    assert deltas == pieces
    assert len(response.message.text) == 300_000 and response.message.text == "".join(pieces)


async def test_an_error_event_before_any_text_is_retried(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    error_event = 'event: error\ndata: {"error": {"message": "The server had an error", "type": "server_error"}}\n\n'
    api.sse(error_event, done=False)
    api.sse(chunk({"content": "Fine."}), chunk({}, finish_reason="stop"))
    deltas, _ = await _collect(make_model())

    assert deltas == ["Fine."] and len(api.requests) == 2 and sleeps.delays == [1.0]
