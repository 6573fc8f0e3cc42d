"""The Anthropic Messages API as a StreamingLanguageModel: tools, server web search, prompt caching.

Invariants:
    - Callers see ModelUnavailableError / ContextOverflowError, never SDK exceptions. 429 (after
      its `retry-after`), 529 / `overloaded_error`, 5xx, timeouts, dropped connections and streams
      cut before their end are retried (`sdk_retries`); the SDK's own retries are off.
    - A `pause_turn` (the server paused its own tool loop) is continued inside one call: the partial
      assistant content is sent back as the last assistant message, at most `max_continuations`
      times; the caller gets one ModelResponse with every part, search and token of the turn.
    - Streaming yields each text delta as it arrives, then exactly one ModelResponse. A stream cut
      at any point (after text too) is retried from its start; if text was shown, a StreamReset
      comes first, followed by the text of the turn's already completed continuations, so the
      deltas after the last reset are exactly the text of the final ModelResponse.
    - Every attempt is charged: the usage a failed stream reported (`message_start`: input and
      cache tokens) is added to the final ModelResponse.usage, or carried by the
      ModelUnavailableError when the call fails for good.
    - A stream that ends with its stop reason and every block closed but no `message_stop` is
      complete (nothing was lost, and a retry would be paid twice); one that ends earlier is cut.
    - With `context_1m` every call goes through `client.beta.messages` with the 1M-context beta
      (only for a model whose catalogue context window is below 1M; the others have it by default).
      A model with manual thinking budgets only gets the interleaved-thinking beta when it thinks
      with tools, so it thinks after each tool result as adaptive models do by themselves.
    - What goes on the wire is what the model's capabilities (the catalogue) allow, never decided by
      its name; the effort level is the deployment's for the request's scope (`EffortPolicy`).

Design decisions:
    - Streams are read as raw events and folded by `anthropic_wire.StreamAccumulator`, which parses
      tool input JSON strictly: a tool call cut at max_tokens becomes a ToolCall with parse_error.
    - The output budget is max(request.max_tokens, the configured max_tokens): generated tokens are
      billed, not the budget, and a reply cut at the limit costs a whole extra turn.
    - `complete` streams under the hood when the budget exceeds what the SDK allows a plain call
      (its 10-minute rule, ~21k tokens), so a large `max_tokens` never fails locally.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import random
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

import anthropic
import httpx2

from forge.core.llm.backoff_schedule import RetryPolicy
from forge.core.llm.capabilities import ModelCapabilities, ThinkingMode
from forge.core.llm.effort import EffortPolicy
from forge.core.llm.messages import ModelRequest, ModelResponse, StreamReset, TextDelta, Usage
from forge.ports import ModelUnavailableError
from forge.providers.anthropic_stream_events import StreamAccumulator, StreamCutError
from forge.providers.anthropic_wire import (
    WireTurn,
    request_params,
    response_from_turns,
    turn_from_message,
)
from forge.providers.call_with_retries import FailureKind
from forge.providers.model_catalogue import ModelCatalogue, shipped_catalogue
from forge.providers.sdk_retries import (
    Completed,
    RetryRules,
    call_with_retries_explained,
    charged,
    retry_after_s,
    stream_with_retries,
)

T = TypeVar("T")

CONTEXT_1M_BETA = "context-1m-2025-08-07"
# Thinking between tool calls on models with manual budgets only (adaptive thinking interleaves by itself).
INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14"
ONE_MILLION = 1_000_000
DEFAULT_EFFORT = EffortPolicy()
MAX_CONTINUATIONS = 5
NON_STREAMING_MAX_TOKENS = 21_000  # above this the SDK refuses a non-streaming call (10-minute rule)
RETRYABLE_ERROR_TYPES = frozenset({"overloaded_error", "rate_limit_error", "api_error", "timeout_error"})
CONTEXT_OVERFLOW_PHRASES = ("prompt is too long", "context window", "context length", "exceed context limit")


# --- failures ------------------------------------------------------------------------------------


def _api_message(error: anthropic.APIStatusError) -> str:
    return str(error.api_message or error.message)


def is_context_overflow(error: Exception) -> bool:
    if not isinstance(error, anthropic.APIStatusError):
        return False
    if error.status_code == 413:
        return True
    text = _api_message(error).lower()
    return error.status_code == 400 and any(phrase in text for phrase in CONTEXT_OVERFLOW_PHRASES)


def classify_failure(error: Exception) -> FailureKind:
    """Which failures of an Anthropic call are worth another attempt."""
    if isinstance(error, anthropic.APIConnectionError | httpx2.TransportError | StreamCutError):
        return FailureKind(retryable=True)
    if not isinstance(error, anthropic.APIStatusError):
        return FailureKind(retryable=False)
    if is_context_overflow(error):
        return FailureKind(retryable=False, context_overflow=True)
    status, kind = error.status_code, str(error.type or "")
    if status in (408, 429, 529) or status >= 500 or kind in RETRYABLE_ERROR_TYPES:
        return FailureKind(retryable=True, retry_after_s=retry_after_s(error.response.headers))
    return FailureKind(retryable=False)


def explain_failure(error: Exception, model: str, context_1m: bool) -> str:
    """What a person must fix when a call fails for good (a bad key, model or request)."""
    if not isinstance(error, anthropic.APIStatusError):
        return f"Anthropic call failed: {type(error).__name__}: {error}"
    status, detail = error.status_code, _api_message(error)
    if status == 401:
        return f"Anthropic rejected the API key (401: {detail}); check ANTHROPIC_API_KEY."
    if status == 403:
        beta = " or set ANTHROPIC_CONTEXT_1M=false (the 1M-context beta needs tier 4)" if context_1m else ""
        return f"Anthropic refused the request (403: {detail}); check the key's access to {model!r}{beta}."
    if status == 404:
        return f"Anthropic does not know model {model!r} (404: {detail}); check FORGE_MODEL."
    if status == 402:
        return f"Anthropic requires payment (402: {detail}); check the account's billing."
    return f"Anthropic rejected the request ({status}: {detail})."


# --- the model -----------------------------------------------------------------------------------


class AnthropicModel:
    def __init__(
        self,
        client: anthropic.AsyncAnthropic,
        model: str,
        *,
        max_tokens: int = 8192,
        web_search_max_uses: int = 5,
        web_fetch_max_uses: int = 0,
        context_1m: bool = False,
        retry_policy: RetryPolicy = RetryPolicy(),
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        draw: Callable[[], float] = random.random,
        max_continuations: int = MAX_CONTINUATIONS,
        catalogue: ModelCatalogue | None = None,
        effort: EffortPolicy = DEFAULT_EFFORT,
    ):
        self._client = client
        self._model = model
        self.capabilities: ModelCapabilities = (catalogue or shipped_catalogue()).capabilities(model)
        self._max_tokens = max_tokens
        self._web_search_max_uses = web_search_max_uses
        self._web_fetch_max_uses = web_fetch_max_uses
        self._context_1m = context_1m and self.capabilities.context_window < ONE_MILLION
        self._effort = effort
        self._max_continuations = max_continuations
        explain = functools.partial(explain_failure, model=model, context_1m=context_1m)
        self._rules = RetryRules(classify_failure, explain, retry_policy, sleep, draw)

    @property
    def label(self) -> str:
        return f"anthropic:{self._model}"

    @property
    def context_window(self) -> int:
        return ONE_MILLION if self._context_1m else self.capabilities.context_window

    async def complete(self, request: ModelRequest) -> ModelResponse:
        if self._output_budget(request) > NON_STREAMING_MAX_TOKENS:
            return await self._drain(self.stream(request))
        turns: list[WireTurn] = []
        while self._should_call(turns):
            turns.append(await self._retrying(functools.partial(self._create, self._params(request, turns))))
        return response_from_turns(turns, self._output_budget(request))

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | StreamReset | ModelResponse]:
        turns: list[WireTurn] = []
        wasted = Usage()
        try:
            while self._should_call(turns):
                async with contextlib.aclosing(self._stream_turn(self._params(request, turns))) as items:
                    async for item in items:
                        if isinstance(item, Completed):
                            turns.append(item.result)
                            wasted += item.wasted
                        elif isinstance(item, StreamReset):
                            yield item
                            if shown := _text_of(turns):
                                yield TextDelta(shown)  # the continued turn's text so far, kept
                        else:
                            yield TextDelta(item)
        except ModelUnavailableError as error:
            raise charged(error, sum((t.usage for t in turns), wasted)) from error.__cause__
        response = response_from_turns(turns, self._output_budget(request))
        yield replace(response, usage=response.usage + wasted)

    # -- one call --

    def _output_budget(self, request: ModelRequest) -> int:
        return max(request.max_tokens, self._max_tokens)

    def _should_call(self, turns: Sequence[WireTurn]) -> bool:
        """First call, or continue a paused turn while continuations are left."""
        if not turns:
            return True
        return turns[-1].stop_reason == "pause_turn" and len(turns) <= self._max_continuations

    def _params(self, request: ModelRequest, turns: Sequence[WireTurn]) -> dict[str, Any]:
        params = request_params(
            request,
            model=self._model,
            max_tokens=self._output_budget(request),
            web_search_max_uses=self._web_search_max_uses,
            web_fetch_max_uses=self._web_fetch_max_uses,
            capabilities=self.capabilities,
            effort=self._effort.level_for(request.effort_scope) if request.effort_scope else None,
            continuation=[block for turn in turns for block in turn.blocks],
        )
        betas = [CONTEXT_1M_BETA] if self._context_1m else []
        if self.capabilities.thinking_mode is ThinkingMode.MANUAL and "thinking" in params and "tools" in params:
            betas.append(INTERLEAVED_THINKING_BETA)
        if betas:
            params["betas"] = betas
        return params

    def _messages_api(self, params: dict[str, Any]) -> Any:
        return self._client.beta.messages if "betas" in params else self._client.messages

    async def _create(self, params: dict[str, Any]) -> WireTurn:
        message = await self._messages_api(params).create(**params)
        return turn_from_message(message.to_dict(exclude_none=True))

    async def _retrying(self, operation: Callable[[], Awaitable[T]]) -> T:
        """`operation` under the retry policy; a failure for good names what to fix."""
        return await call_with_retries_explained(operation, self._rules)

    def _stream_turn(self, params: dict[str, Any]) -> AsyncGenerator[str | StreamReset | Completed[WireTurn], None]:
        """One streamed HTTP call, retried from its start: its text pieces, then its WireTurn."""
        return stream_with_retries(
            lambda: self._messages_api(params).create(**params, stream=True),
            StreamAccumulator,
            StreamAccumulator.turn,  # StreamCutError (retryable) if the stream ended before the reply did
            rules=self._rules,
            stream_name="The Anthropic stream",
        )

    @staticmethod
    async def _drain(items: AsyncIterator[TextDelta | StreamReset | ModelResponse]) -> ModelResponse:
        response: ModelResponse | None = None
        async for item in items:
            if isinstance(item, ModelResponse):
                response = item
        assert response is not None, "stream() always ends with a ModelResponse"
        return response


def _text_of(turns: Sequence[WireTurn]) -> str:
    """The text of completed turns, as it was streamed."""
    return "".join(str(b.get("text") or "") for t in turns for b in t.blocks if b.get("type") == "text")


def anthropic_model_from_settings(
    api_key: str,
    model: str,
    base_url: str | None = None,
    http_client: httpx2.AsyncClient | None = None,
    *,
    max_tokens: int = 8192,
    web_search_max_uses: int = 5,
    web_fetch_max_uses: int = 0,
    context_1m: bool = False,
    retry_policy: RetryPolicy = RetryPolicy(),
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    draw: Callable[[], float] = random.random,
    max_continuations: int = MAX_CONTINUATIONS,
    catalogue: ModelCatalogue | None = None,
    effort: EffortPolicy = DEFAULT_EFFORT,
) -> AnthropicModel:
    """An AnthropicModel over a fresh SDK client whose own retries are off (we retry).

    `http_client` must be an `httpx2.AsyncClient`: the anthropic SDK 2.x is built on httpx2."""
    client = anthropic.AsyncAnthropic(api_key=api_key, base_url=base_url, http_client=http_client, max_retries=0)
    return AnthropicModel(
        client,
        model,
        max_tokens=max_tokens,
        web_search_max_uses=web_search_max_uses,
        web_fetch_max_uses=web_fetch_max_uses,
        context_1m=context_1m,
        retry_policy=retry_policy,
        sleep=sleep,
        draw=draw,
        max_continuations=max_continuations,
        catalogue=catalogue,
        effort=effort,
    )
