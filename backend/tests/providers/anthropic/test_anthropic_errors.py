"""AnthropicModel failures: what is retried (and how long it waits), what fails at once, and why."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from providers.anthropic.fake_anthropic_api import FakeAnthropicApi, Sleeps

from forge.core.llm.backoff_schedule import RetryPolicy
from forge.core.llm.messages import ModelRequest, StopReason, TextDelta, user_text
from forge.ports import ContextOverflowError, ModelUnavailableError
from forge.providers.anthropic_model import AnthropicModel

ModelFactory = Callable[..., AnthropicModel]
REQUEST = ModelRequest("You are Knowledge Forge.", (user_text("Why do emergency waits grow?"),), ())


async def test_429_waits_the_retry_after_seconds_then_succeeds(
    api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.json("rate_limit_error.json", 429, {"retry-after": "17"}).json("text_reply.json")
    response = await make_model().complete(REQUEST)
    assert sleeps.delays == [17.0]
    assert len(api.requests) == 2
    assert response.stop_reason == StopReason.END_TURN


async def test_529_overloaded_is_retried_with_exponential_backoff(
    api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    for _ in range(3):
        api.json("overloaded_error.json", 529)
    api.json("text_reply.json")
    response = await make_model().complete(REQUEST)
    assert sleeps.delays == [1.0, 2.0, 4.0]
    assert len(api.requests) == 4 and response.message.text


async def test_backoff_jitter_comes_from_the_injected_draw(
    api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.json("overloaded_error.json", 529).json("text_reply.json")
    model = make_model(retry_policy=RetryPolicy(base_delay_s=2.0, jitter=0.25), draw=lambda: 1.0)
    await model.complete(REQUEST)
    assert sleeps.delays == [2.5]


async def test_persistent_500s_give_up_after_max_attempts(
    api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    policy = RetryPolicy(max_attempts=5, jitter=0.0)
    for _ in range(policy.max_attempts):
        api.json("api_error.json", 500)
    with pytest.raises(ModelUnavailableError, match="after 5 attempt"):
        await make_model(retry_policy=policy).complete(REQUEST)
    assert len(api.requests) == policy.max_attempts  # the SDK's own retries are off
    assert len(sleeps.delays) == policy.max_attempts - 1


async def test_a_refused_connection_is_retried(api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps) -> None:
    api.connection_refused().json("text_reply.json")
    response = await make_model().complete(REQUEST)
    assert response.message.text and len(api.requests) == 2 and sleeps.delays == [1.0]


async def test_401_fails_at_once_and_says_to_check_the_api_key(
    api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.json("authentication_error.json", 401)
    with pytest.raises(ModelUnavailableError, match="check ANTHROPIC_API_KEY") as raised:
        await make_model().complete(REQUEST)
    assert "invalid x-api-key" in str(raised.value)
    assert len(api.requests) == 1 and sleeps.delays == []


async def test_404_names_the_unknown_model(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    api.json("not_found_error.json", 404)
    with pytest.raises(ModelUnavailableError, match=r"'claude-sonnet-9'.*check FORGE_MODEL"):
        await make_model(model="claude-sonnet-9").complete(REQUEST)


async def test_prompt_too_long_is_a_context_overflow(
    api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.json("prompt_too_long.json", 400)
    with pytest.raises(ContextOverflowError, match="prompt is too long"):
        await make_model().complete(REQUEST)
    assert len(api.requests) == 1 and sleeps.delays == []


async def test_streaming_429_before_any_text_is_retried(
    api: FakeAnthropicApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.json("rate_limit_error.json", 429, {"retry-after": "3"}).sse("text_stream.sse")
    items = [item async for item in make_model().stream(REQUEST)]
    assert sleeps.delays == [3.0] and len(api.requests) == 2
    assert sum(isinstance(i, TextDelta) for i in items) == 3


async def test_streaming_prompt_too_long_is_a_context_overflow(api: FakeAnthropicApi, make_model: ModelFactory) -> None:
    api.json("prompt_too_long.json", 400)
    with pytest.raises(ContextOverflowError):
        [item async for item in make_model().stream(REQUEST)]
