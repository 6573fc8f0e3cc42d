"""Failures through the real SDK: what is retried (and how long we wait), what fails at once and says
what to fix, and what is a context overflow the runner can compact away."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from providers.openai.fake_openai_api import LOCAL_URL, FakeOpenAIApi, Sleeps, completion, error_body

from forge.core.llm.messages import ModelRequest, user_text
from forge.ports import ContextOverflowError, ModelUnavailableError
from forge.providers.openai_compatible_model import OpenAICompatibleModel

ModelFactory = Callable[..., OpenAICompatibleModel]
REQUEST = ModelRequest("You are the forge.", (user_text("Why are ER waits long?"),), ())
RATE_LIMITED = error_body(
    "Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 30000.",
    "tokens",
    "rate_limit_exceeded",
)
SERVER_ERROR = error_body("The server had an error while processing your request. Sorry about that!", "server_error")


async def test_a_429_is_retried_after_the_servers_retry_after(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.error(429, RATE_LIMITED, headers={"retry-after": "7"}).json(completion("Done."))
    response = await make_model().complete(REQUEST)

    assert response.message.text == "Done."
    assert sleeps.delays == [7.0] and len(api.requests) == 2
    assert api.bodies[0] == api.bodies[1]


async def test_a_429_before_a_stream_opens_is_retried_too(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.error(429, RATE_LIMITED, headers={"retry-after-ms": "1500"})
    api.sse(
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [{"index": 0, "delta": {"content": "Done."}, "finish_reason": "stop"}],
        }
    )
    texts = [item async for item in make_model().stream(REQUEST)]

    assert len(texts) == 2 and sleeps.delays == [1.5]


async def test_server_errors_are_retried_until_the_attempts_run_out(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    for _ in range(4):
        api.error(500, SERVER_ERROR)
    with pytest.raises(ModelUnavailableError, match="after 4 attempt"):
        await make_model(max_attempts=4).complete(REQUEST)

    assert len(api.requests) == 4 and sleeps.delays == [1.0, 2.0, 4.0]


async def test_a_rejected_key_fails_at_once_and_says_to_check_the_key(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.error(
        401, error_body("Incorrect API key provided: sk-proj-*****-key.", "invalid_request_error", "invalid_api_key")
    )
    with pytest.raises(ModelUnavailableError, match="rejected the API key") as raised:
        await make_model().complete(REQUEST)

    assert "OPENAI_API_KEY" in str(raised.value) and "Incorrect API key" in str(raised.value)
    assert len(api.requests) == 1 and sleeps.delays == []


async def test_an_unknown_model_on_a_local_server_names_the_model_and_the_base_url(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.error(404, {"error": "model 'qwen2.5:7b' not found, try pulling it first"})  # Ollama's shape
    with pytest.raises(ModelUnavailableError) as raised:
        await make_model(base_url=LOCAL_URL, model="qwen2.5:7b").complete(REQUEST)

    message = str(raised.value)
    assert "The server at http://127.0.0.1:8080/v1/" in message and "'qwen2.5:7b'" in message
    assert "FORGE_MODEL" in message and "OPENAI_BASE_URL" in message
    assert "(404: model 'qwen2.5:7b' not found, try pulling it first)" in message
    assert len(api.requests) == 1


async def test_an_exhausted_quota_is_not_retried(api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps) -> None:
    api.error(429, error_body("You exceeded your current quota.", "insufficient_quota", "insufficient_quota"))
    with pytest.raises(ModelUnavailableError, match="no quota left"):
        await make_model().complete(REQUEST)

    assert len(api.requests) == 1 and sleeps.delays == []


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (
            400,
            error_body(
                "This model's maximum context length is 128000 tokens. However, your messages resulted in "
                "130512 tokens. Please reduce the length of the messages.",
                code="context_length_exceeded",
            ),
        ),
        (
            400,
            {
                "error": {
                    "code": 400,
                    "message": "request (25837 tokens) exceeds the available context size (25088 tokens), try increasing it",
                    "type": "exceed_context_size_error",
                    "n_prompt_tokens": 25837,
                    "n_ctx": 25088,
                }
            },
        ),
        (
            400,
            {
                "object": "error",
                "message": "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens "
                "(4904 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.",
                "type": "BadRequestError",
                "param": None,
                "code": 400,
            },
        ),
    ],
    ids=["openai", "llama.cpp", "vllm"],
)
async def test_a_request_too_long_for_the_context_window_is_a_context_overflow(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps, status: int, body: dict[str, object]
) -> None:
    api.error(status, body)
    with pytest.raises(ContextOverflowError):
        await make_model().complete(REQUEST)

    assert len(api.requests) == 1 and sleeps.delays == []


async def test_an_unreachable_local_server_is_retried_then_named(
    api: FakeOpenAIApi, make_model: ModelFactory, sleeps: Sleeps
) -> None:
    api.refuse_connection().refuse_connection()
    with pytest.raises(ModelUnavailableError, match=r"is the server at http://127\.0\.0\.1:8080/v1/ running"):
        await make_model(base_url=LOCAL_URL, max_attempts=2).complete(REQUEST)

    assert len(api.requests) == 2 and sleeps.delays == [1.0]


async def test_a_bad_request_fails_at_once_with_the_servers_reason(
    api: FakeOpenAIApi, make_model: ModelFactory
) -> None:
    api.error(400, error_body("tools param requires --jinja flag"))
    with pytest.raises(ModelUnavailableError, match="--jinja"):
        await make_model(base_url=LOCAL_URL).complete(REQUEST)

    assert len(api.requests) == 1
