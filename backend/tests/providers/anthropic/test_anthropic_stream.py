"""AnthropicModel.stream through the real SDK over recorded SSE streams."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from providers.anthropic.fake_anthropic_api import FakeAnthropicApi, Sleeps

from forge.core.model_messages import (
    ModelRequest,
    ModelResponse,
    ProviderPart,
    StopReason,
    TextDelta,
    TextPart,
    Usage,
    user_text,
)
from forge.ports import ModelUnavailableError
from forge.providers.anthropic_model import AnthropicModel

ModelFactory = Callable[..., AnthropicModel]
REQUEST = ModelRequest("You are Knowledge Forge.", (user_text("Why do emergency waits grow?"),), ())


async def _collect(model: AnthropicModel, request: ModelRequest = REQUEST) -> list[TextDelta | ModelResponse]:
    return [item async for item in model.stream(request)]


async def test_text_deltas_arrive_in_order_then_one_final_response(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.sse("text_stream.sse")
    items = await _collect(make_model())
    assert items[:-1] == [TextDelta("Waits grow"), TextDelta(" sharply as"), TextDelta(" utilisation nears one.")]
    final = items[-1]
    assert isinstance(final, ModelResponse)
    assert final.message.parts == (TextPart("Waits grow sharply as utilisation nears one."),)
    assert final.stop_reason == StopReason.END_TURN
    assert final.usage == Usage(25, 12, 0, 4096)
    assert final.model == "claude-sonnet-4-6"
    assert api.bodies[0]["stream"] is True


async def test_a_tool_call_cut_at_max_tokens_comes_back_with_a_parse_error(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.sse("tool_use_cut_at_max_tokens.sse")
    items = await _collect(make_model())
    final = items[-1]
    assert isinstance(final, ModelResponse) and final.stop_reason == StopReason.MAX_TOKENS
    [call] = final.message.tool_calls
    assert call.id == "toolu_01NaPLk3ZqZp9vRx5Tm8Ydc2" and call.name == "extract_assumptions"
    assert call.parse_error is not None and call.parse_error.startswith("the reply hit max_tokens")


async def test_pause_turn_is_continued_within_one_stream(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    api.sse("web_search_paused_stream.sse").sse("web_search_resumed_stream.sse")
    request = ModelRequest("s", (user_text("Queueing in EDs?"),), (), server_research=True)
    items = await _collect(make_model(), request)
    assert items[:-1] == [
        TextDelta("Searching the literature."),
        TextDelta("Waits rise nonlinearly"),
        TextDelta(" with occupancy."),
    ]
    final = items[-1]
    assert isinstance(final, ModelResponse) and final.stop_reason == StopReason.END_TURN
    assert final.usage == Usage(1510 + 1702, 77 + 31, 0, 1490)
    continuation = api.bodies[1]["messages"][-1]
    assert continuation["role"] == "assistant"
    assert [b["type"] for b in continuation["content"]] == ["text", "server_tool_use", "web_search_tool_result"]
    assert continuation["content"][1]["input"] == {"query": "queueing theory emergency department"}
    [research] = final.server_research
    assert research.query == "queueing theory emergency department"
    assert [(h.source, h.snippet) for h in research.hits] == [
        ("https://pubsonline.informs.org/doi/10.1287/msom.2013.0449", "Waiting times rise nonlinearly with occupancy. ")
    ]
    assert sum(isinstance(p, ProviderPart) for p in final.message.parts) == 2


async def test_overloaded_before_any_text_is_retried(
    api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.sse("overloaded_before_text.sse").sse("text_stream.sse")
    items = await _collect(make_model())
    assert len(api.requests) == 2 and sleeps.delays == [1.0]
    assert [i.text for i in items if isinstance(i, TextDelta)] == [
        "Waits grow",
        " sharply as",
        " utilisation nears one.",
    ]


async def test_a_stream_cut_after_text_was_shown_is_not_retried(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.sse("cut_after_text.sse").sse("text_stream.sse")
    seen: list[TextDelta | ModelResponse] = []
    with pytest.raises(ModelUnavailableError, match="after text was shown"):
        async for item in make_model().stream(REQUEST):
            seen.append(item)
    assert seen == [TextDelta("Waits grow")] and len(api.requests) == 1


async def test_an_overload_then_a_refused_connection_before_any_text_are_retried(
    api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.sse("overloaded_before_text.sse").connection_refused().sse("tool_use_stream.sse")
    items = await _collect(make_model())
    assert len(api.requests) == 3 and sleeps.delays == [1.0, 2.0]
    final = items[-1]
    assert isinstance(final, ModelResponse) and final.message.tool_calls[0].arguments == {
        "query": "hospital emergency wait times"
    }


async def test_a_consumer_that_stops_early_closes_the_stream(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    api.sse("text_stream.sse")
    items = make_model().stream(REQUEST)
    assert await anext(items) == TextDelta("Waits grow")
    await items.aclose()
    assert len(api.requests) == 1


async def test_context_1m_streams_through_the_beta_api(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    api.sse("tool_use_stream.sse")
    items = await _collect(make_model(context_1m=True))
    assert api.requests[0].headers["anthropic-beta"] == "context-1m-2025-08-07"
    final = items[-1]
    assert isinstance(final, ModelResponse) and final.message.tool_calls[0].name == "research"
