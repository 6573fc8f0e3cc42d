"""AnthropicModel.stream through the real SDK over recorded SSE streams: deltas, resets after a cut,
and the usage of every attempt."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from providers.anthropic.fake_anthropic_api import FakeAnthropicApi, Sleeps, text_stream

from forge.core.llm.backoff_schedule import RetryPolicy
from forge.core.llm.messages import (
    ModelRequest,
    ModelResponse,
    ProviderPart,
    StopReason,
    StreamReset,
    TextDelta,
    TextPart,
    Usage,
    user_text,
)
from forge.ports import ModelUnavailableError
from forge.providers.anthropic_model import AnthropicModel

ModelFactory = Callable[..., AnthropicModel]
REQUEST = ModelRequest("You are Knowledge Forge.", (user_text("Why do emergency waits grow?"),), ())


async def _collect(
    model: AnthropicModel, request: ModelRequest = REQUEST
) -> list[TextDelta | StreamReset | ModelResponse]:
    return [item async for item in model.stream(request)]


def _draft(items: list[TextDelta | StreamReset | ModelResponse]) -> str:
    """What a consumer that honours StreamReset shows at the end."""
    shown: list[str] = []
    for item in items:
        if isinstance(item, StreamReset):
            shown.clear()
        elif isinstance(item, TextDelta):
            shown.append(item.text)
    return "".join(shown)


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
    assert (
        call.parse_error
        == "the reply hit max_tokens (8192) while writing this call's arguments, so they are incomplete"
    )
    assert api.bodies[0]["max_tokens"] == 8192


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
    assert final.usage == Usage(1510 + 1702, 77 + 31, 0, 1490, web_searches=1)
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


async def test_a_stream_cut_after_text_is_reset_and_retried_keeping_only_the_completed_text(
    api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.sse("cut_after_text.sse").sse("text_stream.sse")
    items = await _collect(make_model())
    assert items[0] == TextDelta("Waits grow")
    assert isinstance(items[1], StreamReset) and "StreamCutError" in items[1].reason
    assert items[2:-1] == [TextDelta("Waits grow"), TextDelta(" sharply as"), TextDelta(" utilisation nears one.")]
    final = items[-1]
    assert isinstance(final, ModelResponse)
    assert final.message.parts == (TextPart("Waits grow sharply as utilisation nears one."),)
    assert _draft(items) == final.message.text
    assert len(api.requests) == 2 and sleeps.delays == [1.0]


async def test_the_usage_of_a_cut_attempt_is_added_to_the_response(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.sse("cut_after_text.sse").sse("text_stream.sse")
    final = (await _collect(make_model()))[-1]
    assert isinstance(final, ModelResponse)
    assert final.usage == Usage(25, 1, 0, 0) + Usage(25, 12, 0, 4096)  # message_start of the cut attempt


async def test_an_overload_before_text_is_charged_its_message_start_without_a_reset(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.sse("overloaded_before_text.sse").sse("text_stream.sse")
    items = await _collect(make_model())
    assert not any(isinstance(i, StreamReset) for i in items)
    final = items[-1]
    assert isinstance(final, ModelResponse) and final.usage == Usage(50, 13, 0, 4096)


async def test_when_every_attempt_is_cut_the_error_carries_their_usage(
    api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.sse("cut_after_text.sse").sse("cut_after_text.sse").sse("cut_after_text.sse")
    seen: list[TextDelta | StreamReset | ModelResponse] = []
    model = make_model(retry_policy=RetryPolicy(max_attempts=3, jitter=0.0))
    with pytest.raises(ModelUnavailableError, match="after 3 attempt") as failure:
        async for item in model.stream(REQUEST):
            seen.append(item)
    assert failure.value.usage == Usage(75, 3, 0, 0)
    assert [type(i).__name__ for i in seen] == ["TextDelta", "StreamReset", "TextDelta", "StreamReset", "TextDelta"]
    assert len(api.requests) == 3 and sleeps.delays == [1.0, 2.0]


async def test_a_failure_for_good_after_a_cut_is_explained_and_charged(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.sse("cut_after_text.sse").json("authentication_error.json", 401)
    with pytest.raises(ModelUnavailableError, match="ANTHROPIC_API_KEY") as failure:
        await _collect(make_model())
    assert failure.value.usage == Usage(25, 1, 0, 0)


async def test_a_cut_continuation_keeps_the_paused_turns_text_after_the_reset(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.sse("web_search_paused_stream.sse").sse("cut_after_text.sse").sse("web_search_resumed_stream.sse")
    request = ModelRequest("s", (user_text("Queueing in EDs?"),), (), server_research=True)
    items = await _collect(make_model(), request)
    reset = next(i for i, item in enumerate(items) if isinstance(item, StreamReset))
    assert items[reset - 2 : reset] == [TextDelta("Searching the literature."), TextDelta("Waits grow")]
    assert items[reset + 1] == TextDelta("Searching the literature.")
    final = items[-1]
    assert isinstance(final, ModelResponse)
    assert final.message.text == "Searching the literature.Waits rise nonlinearly with occupancy."
    assert _draft(items) == final.message.text
    assert final.usage == Usage(1510, 77, 0, 0, web_searches=1) + Usage(25, 1, 0, 0) + Usage(1702, 31, 0, 1490)
    assert api.bodies[1] == api.bodies[2]  # the retry resends the same continuation


async def test_complete_over_a_stream_returns_only_the_completed_attempt(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.sse("cut_after_text.sse").sse("text_stream.sse")
    response = await make_model(max_tokens=32_000).complete(REQUEST)  # above the SDK's non-streaming limit
    assert response.message.text == "Waits grow sharply as utilisation nears one."
    assert response.usage == Usage(50, 13, 0, 4096)
    assert all(body["stream"] is True for body in api.bodies)


async def test_a_stream_missing_only_message_stop_is_complete_and_not_paid_twice(
    api: FakeAnthropicApi, make_model: ModelFactory
) -> None:
    api.sse("text_stream_without_message_stop.sse")
    final = (await _collect(make_model()))[-1]
    assert isinstance(final, ModelResponse)
    assert final.message.text == "Waits grow sharply as utilisation nears one."
    assert final.stop_reason == StopReason.END_TURN and final.usage == Usage(25, 12, 0, 4096)
    assert len(api.requests) == 1


async def test_a_300_000_character_reply_streams_whole(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    pieces = [f"{i:05d}" + "x" * 25 for i in range(10_000)]  # 10,000 deltas of 30 characters
    api.sse_text(text_stream(pieces, usage={"input_tokens": 40, "output_tokens": 1}, output_tokens=75_000))
    items = await _collect(make_model())
    final = items[-1]
    assert isinstance(final, ModelResponse)
    assert len(final.message.text) == 300_000 and final.message.text == "".join(pieces)
    assert [i.text for i in items if isinstance(i, TextDelta)] == pieces
    assert final.usage == Usage(40, 75_000, 0, 0)


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
