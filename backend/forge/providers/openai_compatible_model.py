"""Any OpenAI-compatible Chat Completions server as a StreamingLanguageModel: OpenAI itself, or a
local llama.cpp server, vLLM or Ollama reached through `base_url`.

Invariants:
    - Callers see ModelUnavailableError / ContextOverflowError, never SDK exceptions. 429 (after its
      `retry-after`), 408, 5xx, timeouts, dropped connections, error events and streams cut before
      a finish_reason are retried (`sdk_retries`); the SDK's own retries are off. A request
      that does not fit the context window (OpenAI's `context_length_exceeded`, vLLM's "maximum
      context length", llama.cpp's `exceed_context_size_error`) is a ContextOverflowError. Other
      4xx fail at once with a message naming what to fix: the key, the model, the base_url.
    - Streaming yields each text delta as it arrives, then exactly one ModelResponse. A stream cut
      at any point (after text too) is retried from its start, with a StreamReset first if text was
      shown, so the deltas after the last reset are the completed attempt's (see `sdk_retries`).
    - Streams ask for usage (`stream_options.include_usage`); whatever usage a failed attempt's
      stream reported is added to the final ModelResponse.usage, or carried by the
      ModelUnavailableError when the call fails for good. A stream cut before its usage chunk
      reported none, and is charged nothing: we do not guess.
    - Tool-call arguments are read leniently (see `openai_wire`): a call is never dropped, and one
      whose arguments cannot be read reaches the loop with `parse_error` set.

Design decisions:
    - The output budget is max(request.max_tokens, the configured max_tokens), as for Anthropic, but
      at most half the context window unless the configured max_tokens is larger: a phase asking for
      16k must not make a small local model's server refuse every request.
      api.openai.com gets it as `max_completion_tokens` (reasoning models refuse `max_tokens`);
      other servers as `max_tokens`, which llama.cpp, vLLM and Ollama all read.
    - A local server needs no key: the SDK still sends one ("not-needed"), which such servers ignore.
    - `request.server_research` is ignored: these servers run no search of their own, so research
      goes through the `research` tool.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

import httpx
import httpx2
import openai

from forge.core.llm.backoff_schedule import RetryPolicy
from forge.core.llm.messages import ModelRequest, ModelResponse, StreamReset, TextDelta
from forge.ports import ModelUnavailableError
from forge.providers.call_with_retries import FailureKind
from forge.providers.openai_wire import StreamAccumulator, request_params, response_from_completion
from forge.providers.sdk_retries import (
    Completed,
    RetryRules,
    call_with_retries_explained,
    retry_after_s,
    stream_with_retries,
)

T = TypeVar("T")

DEFAULT_CONTEXT_WINDOW = 128_000
LOCAL_API_KEY = "not-needed"
CONTEXT_OVERFLOW_CODES = frozenset({"context_length_exceeded"})
CONTEXT_OVERFLOW_TYPES = frozenset({"exceed_context_size_error"})
CONTEXT_OVERFLOW_PHRASES = (
    "maximum context length",
    "context length",
    "context window",
    "context size",
    "prompt is too long",
)
RETRYABLE_STATUSES = frozenset({408, 429})


class StreamCutError(Exception):
    """The stream ended without a finish_reason: the server or the connection stopped mid-reply."""


def is_openai_url(base_url: str) -> bool:
    host = urlsplit(base_url).hostname or ""
    return host == "openai.com" or host.endswith(".openai.com")


# --- failures ------------------------------------------------------------------------------------


def _api_message(error: openai.APIError) -> str:
    """The server's own words: `error.message` of the body, or a bare string body (Ollama's)."""
    body = error.body
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return str(body["message"])
    return body if isinstance(body, str) and body else error.message


def is_context_overflow(error: Exception) -> bool:
    if not isinstance(error, openai.APIError):
        return False
    if (error.code or "") in CONTEXT_OVERFLOW_CODES or str(error.type or "") in CONTEXT_OVERFLOW_TYPES:
        return True
    status = error.status_code if isinstance(error, openai.APIStatusError) else None
    text = _api_message(error).lower()
    return status in (None, 400, 413) and any(phrase in text for phrase in CONTEXT_OVERFLOW_PHRASES)


def classify_failure(error: Exception) -> FailureKind:
    """Which failures of a Chat Completions call are worth another attempt."""
    if is_context_overflow(error):
        return FailureKind(retryable=False, context_overflow=True)
    if isinstance(error, openai.APIConnectionError | httpx.TransportError | httpx2.TransportError | StreamCutError):
        return FailureKind(retryable=True)
    if isinstance(error, openai.APIStatusError):
        if error.code == "insufficient_quota":  # a 429 that waiting will not fix
            return FailureKind(retryable=False)
        if error.status_code in RETRYABLE_STATUSES or error.status_code >= 500:
            return FailureKind(retryable=True, retry_after_s=retry_after_s(error.response.headers))
        return FailureKind(retryable=False)
    # An `error` event inside a stream: the server failed mid-reply.
    return FailureKind(retryable=isinstance(error, openai.APIError))


def explain_failure(error: Exception, model: str, endpoint: str, local: bool) -> str:
    """What a person must fix when a call fails for good (a bad key, model, base_url or request)."""
    if not isinstance(error, openai.APIStatusError):
        return f"The call to {endpoint} failed: {type(error).__name__}: {error}"
    status, detail = error.status_code, _api_message(error)
    if status == 401:
        hint = " (a local server started with --api-key needs that key there)" if local else ""
        return f"{endpoint} rejected the API key (401: {detail}); check OPENAI_API_KEY{hint}."
    if status == 403:
        return f"{endpoint} refused the request (403: {detail}); check the key's access to model {model!r}."
    if status == 404:
        return (
            f"{endpoint} does not know model {model!r} or the URL is wrong (404: {detail}); check the "
            "model name in FORGE_MODEL and OPENAI_BASE_URL (OpenAI-compatible servers usually end in /v1)."
        )
    if error.code == "insufficient_quota":
        return f"{endpoint} says the account has no quota left (429: {detail}); check its plan and billing."
    return f"{endpoint} rejected the request ({status}: {detail})."


# --- the model -----------------------------------------------------------------------------------


class OpenAICompatibleModel:
    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        *,
        label_prefix: str = "openai",
        context_window: int = DEFAULT_CONTEXT_WINDOW,
        max_tokens: int = 4096,
        retry_policy: RetryPolicy = RetryPolicy(),
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        draw: Callable[[], float] = random.random,
    ):
        self._client = client
        self._model = model
        self._label_prefix = label_prefix
        self._context_window = context_window
        self._max_tokens = max_tokens
        self._base_url = str(client.base_url)
        self._on_openai = is_openai_url(self._base_url)
        explain = functools.partial(explain_failure, model=model, endpoint=self._endpoint, local=not self._on_openai)
        self._rules = RetryRules(classify_failure, explain, retry_policy, sleep, draw)

    @property
    def label(self) -> str:
        return f"{self._label_prefix}:{self._model}"

    @property
    def context_window(self) -> int:
        return self._context_window

    @property
    def _endpoint(self) -> str:
        return "OpenAI" if self._on_openai else f"The server at {self._base_url}"

    async def complete(self, request: ModelRequest) -> ModelResponse:
        completion = await self._retrying(functools.partial(self._create, self._params(request)))
        return response_from_completion(
            completion, tool_names=_tool_names(request), fallback_model=self._model, max_tokens=self._budget(request)
        )

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | StreamReset | ModelResponse]:
        params = {**self._params(request), "stream": True, "stream_options": {"include_usage": True}}
        items = stream_with_retries(
            lambda: self._client.chat.completions.create(**params),
            StreamAccumulator,
            _finished,
            rules=self._rules,
            stream_name=f"The stream from {self._endpoint}",
        )
        try:
            async with contextlib.aclosing(items):
                async for item in items:
                    if isinstance(item, str):
                        yield TextDelta(item)
                    elif isinstance(item, StreamReset):
                        yield item
                    else:
                        yield self._response(request, item)
        except ModelUnavailableError as error:
            raise self._with_server_hint(error) from error.__cause__

    def _response(self, request: ModelRequest, completed: Completed[StreamAccumulator]) -> ModelResponse:
        response = completed.result.response(
            tool_names=_tool_names(request), fallback_model=self._model, max_tokens=self._budget(request)
        )
        return replace(response, usage=response.usage + completed.wasted)

    # -- one call --

    def _budget(self, request: ModelRequest) -> int:
        return min(max(request.max_tokens, self._max_tokens), max(self._max_tokens, self._context_window // 2))

    def _params(self, request: ModelRequest) -> dict[str, Any]:
        return request_params(
            request,
            model=self._model,
            max_tokens=self._budget(request),
            token_limit_field="max_completion_tokens" if self._on_openai else "max_tokens",
        )

    async def _create(self, params: dict[str, Any]) -> dict[str, Any]:
        completion = await self._client.chat.completions.create(**params)
        return cast(dict[str, Any], completion.to_dict(exclude_none=True))

    async def _retrying(self, operation: Callable[[], Awaitable[T]]) -> T:
        """`operation` under the retry policy; a failure for good names what to fix."""
        try:
            return await call_with_retries_explained(operation, self._rules)
        except ModelUnavailableError as error:
            raise self._with_server_hint(error) from error.__cause__

    def _with_server_hint(self, error: ModelUnavailableError) -> ModelUnavailableError:
        """A refused connection (not a timeout) most likely means no server at the base_url: say so."""
        cause = error.__cause__
        if isinstance(cause, openai.APIConnectionError) and not isinstance(cause, openai.APITimeoutError):
            hint = f"{error}; is the server at {self._base_url} running? (check OPENAI_BASE_URL)"
            return ModelUnavailableError(hint, usage=error.usage)
        return error


def _finished(accumulator: StreamAccumulator) -> StreamAccumulator:
    """The accumulator of a stream that ended properly; StreamCutError (retryable) if it was cut."""
    if not accumulator.finished:
        raise StreamCutError("the stream ended before the server said why the reply finished")
    return accumulator


def _tool_names(request: ModelRequest) -> frozenset[str]:
    return frozenset(tool.name for tool in request.tools)


def openai_compatible_model_from_settings(
    api_key: str | None,
    model: str,
    base_url: str | None = None,
    http_client: httpx.AsyncClient | httpx2.AsyncClient | None = None,
    context_window: int | None = None,
    label_prefix: str | None = None,
    *,
    max_tokens: int = 4096,
    retry_policy: RetryPolicy = RetryPolicy(),
) -> OpenAICompatibleModel:
    """An OpenAICompatibleModel over a fresh SDK client whose own retries are off (we retry).

    `label_prefix` defaults to "local" for a base_url that is not OpenAI's, else "openai". No
    network call is made here."""
    local = base_url is not None and not is_openai_url(base_url)
    if not api_key:
        if base_url is None:
            raise ValueError("OpenAI needs OPENAI_API_KEY; or set OPENAI_BASE_URL to use a local server")
        api_key = LOCAL_API_KEY
    client = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, http_client=cast(Any, http_client), max_retries=0)
    return OpenAICompatibleModel(
        client,
        model,
        label_prefix=label_prefix or ("local" if local else "openai"),
        context_window=context_window or DEFAULT_CONTEXT_WINDOW,
        max_tokens=max_tokens,
        retry_policy=retry_policy,
    )
