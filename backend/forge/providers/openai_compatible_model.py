"""Any OpenAI-compatible Chat Completions server as a StreamingLanguageModel: OpenAI itself, or a
local llama.cpp server, vLLM or Ollama reached through `base_url`.

Invariants:
    - Callers see ModelUnavailableError / ContextOverflowError, never SDK exceptions. 429 (after its
      `retry-after`), 408, 5xx, timeouts (hosted APIs only: see `openai_failures`), dropped connections, error events and streams cut before
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
      reported none, and is charged nothing: we do not guess for a failed attempt (a completed reply
      without usage is counted locally, below).
    - Tool-call arguments are read leniently (see `openai_wire`): a call is never dropped, and one
      whose arguments cannot be read reaches the loop with `parse_error` set.

    - Tool calls are streamed unless the probe recognised llama-cpp-python's server (which refuses
      them), and until a server refuses a streamed call with tools (a 500 naming it, or, on a local
      server, a stream with tools cut before anything came);
      from then on (learned once per server and model) such calls are made without streaming, and the
      reply's text is yielded as one delta. Calls without tools still stream.
    - A local server (`probe=True`) is learned before its first call (`learn_server`, see
      `openai_server_facts`): its context window replaces the configured one (the smaller of the
      two when OPENAI_CONTEXT_WINDOW is set), its tokenizer gives the token margin. The facts are
      shared through `known_servers` (built from settings: the process's KNOWN_SERVERS), so a server
      is probed once per process however many model objects are built for it (a model object given
      none keeps its own).
    - A server other than OpenAI gets schemas without string `maxLength` (`openai_wire.without_max_lengths`:
      llama.cpp's grammars choke on long bounded strings); validation still checks the lengths.
    - A reply without usage (llama.cpp's streams) is counted locally: the sent messages and tools
      and the reply, in cl100k tokens × the token margin, so budgets and the context meter work.

Design decisions:
    - The output budget is max(request.max_tokens, the configured max_tokens), as for Anthropic, but
      at most the window's output room (`core.llm.context_window_split`: a quarter), so input under
      the curator's ceiling plus output always fits: a phase asking for 16k must not make a small
      local model's server refuse or cut every request.
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
import json
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar, cast

import httpx
import httpx2
import openai

from forge.core.llm.backoff_schedule import RetryPolicy
from forge.core.llm.context_window_split import output_room
from forge.core.llm.messages import ModelRequest, ModelResponse, StreamReset, TextDelta, Usage
from forge.ports import ModelUnavailableError
from forge.providers.openai_failures import (
    EmptyToolStreamError,
    StreamCutError,
    classify_failure,
    explain_failure,
    is_openai_url,
    is_streamed_tools_refusal,
)
from forge.providers.openai_server_facts import (
    KNOWN_SERVERS,
    PROBE_TIMEOUT_S,
    KnownServers,
    ServerFacts,
    probe_server,
)
from forge.providers.openai_wire import StreamAccumulator, request_params, response_from_completion
from forge.providers.sdk_retries import Completed, RetryRules, call_with_retries_explained, stream_with_retries
from forge.providers.token_counting import TiktokenCounter

T = TypeVar("T")

DEFAULT_CONTEXT_WINDOW = 128_000
DEFAULT_TIMEOUT_S = 600.0
LOCAL_API_KEY = "not-needed"
LOCAL_MARGIN = 1.1

__all__ = ["OpenAICompatibleModel", "StreamCutError", "is_openai_url", "openai_compatible_model_from_settings"]


class OpenAICompatibleModel:
    def __init__(
        self,
        client: openai.AsyncOpenAI,
        model: str,
        *,
        label_prefix: str = "openai",
        context_window: int = DEFAULT_CONTEXT_WINDOW,
        window_configured: bool = False,
        max_tokens: int = 4096,
        retry_policy: RetryPolicy = RetryPolicy(),
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        draw: Callable[[], float] = random.random,
        probe: bool = False,
        known_servers: KnownServers | None = None,
    ):
        self._client = client
        self._model = model
        self._label_prefix = label_prefix
        self._context_window = context_window
        self._window_configured = window_configured
        self._max_tokens = max_tokens
        self._base_url = str(client.base_url)
        self._on_openai = is_openai_url(self._base_url)
        self._probe = probe
        self.facts = ServerFacts()
        self._known = known_servers or KnownServers()
        self._learned = asyncio.Lock() if probe else None
        timeout = client.timeout.read if isinstance(client.timeout, httpx.Timeout | httpx2.Timeout) else client.timeout
        local = not self._on_openai
        explain = functools.partial(
            explain_failure, model=model, endpoint=self._endpoint, local=local, timeout_s=float(timeout or 0)
        )
        classify = functools.partial(classify_failure, local=local)
        self._rules = RetryRules(classify, explain, retry_policy, sleep, draw)

    @property
    def label(self) -> str:
        return f"{self._label_prefix}:{self._model}"

    @property
    def context_window(self) -> int:
        return self._context_window

    @property
    def token_margin(self) -> float | None:
        return self.facts.token_margin

    @property
    def _endpoint(self) -> str:
        return "OpenAI" if self._on_openai else f"The server at {self._base_url}"

    # -- learning the server --

    async def learn_server(self) -> None:
        """Probe the server once (a local server only; what another model object over the same server
        and model learned is taken as it is); its context window replaces the default."""
        if self._learned is None:
            return
        async with self._learned:
            if self.facts.reachable is not None:
                return
            known = self._known.facts_of(self._base_url, self._model)
            self.facts = known or await probe_server(self._get_json, self._post_json, self._base_url, self._model)
            self._known.remember(self._base_url, self._model, self.facts)
            learned = self.facts.context_window
            if learned:
                configured = self._context_window if self._window_configured else learned
                self._context_window = min(learned, configured)

    async def _get_json(self, url: str) -> Any:
        response = await self._client.get(url, cast_to=httpx.Response, options={"timeout": PROBE_TIMEOUT_S})
        return response.json()

    async def _post_json(self, url: str, body: Mapping[str, Any]) -> Any:
        options: Any = {"timeout": PROBE_TIMEOUT_S}
        response = await self._client.post(url, body=dict(body), cast_to=httpx.Response, options=options)
        return response.json()

    # -- calls --

    async def complete(self, request: ModelRequest) -> ModelResponse:
        await self.learn_server()
        params = self._params(request)
        completion = await self._retrying(functools.partial(self._create, params))
        response = response_from_completion(
            completion, tool_names=_tool_names(request), fallback_model=self._model, max_tokens=self._budget(request)
        )
        return self._counted(params, response)

    async def stream(self, request: ModelRequest) -> AsyncIterator[TextDelta | StreamReset | ModelResponse]:
        await self.learn_server()
        if request.tools and not self.facts.streams_tools:
            async for made in self._unstreamed(request):
                yield made
            return
        params = {**self._params(request), "stream": True, "stream_options": {"include_usage": True}}
        items = stream_with_retries(
            lambda: self._client.chat.completions.create(**params),
            StreamAccumulator,
            functools.partial(_finished, with_tools=bool(request.tools)),
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
                        yield self._counted(params, self._response(request, item))
        except ModelUnavailableError as error:
            if not (request.tools and self._refused_streaming(error.__cause__)):
                raise self._with_server_hint(error) from error.__cause__
            self.facts.streams_tools = False
            self.facts.notes.append("refuses streamed calls with tools: they are made without streaming")
            async for unstreamed in self._unstreamed(request):
                yield unstreamed

    def _refused_streaming(self, cause: BaseException | None) -> bool:
        """How servers refuse a streamed call with tools: a 500 naming it; on a reachable local server,
        a stream cut before anything came, or a dropped connection (llama-cpp-python raises mid-stream)."""
        if is_streamed_tools_refusal(cause) or isinstance(cause, EmptyToolStreamError):
            return True
        dropped = isinstance(cause, openai.APIConnectionError) and not isinstance(cause, openai.APITimeoutError)
        return dropped and not self._on_openai and bool(self.facts.reachable)

    async def _unstreamed(self, request: ModelRequest) -> AsyncIterator[TextDelta | ModelResponse]:
        """The call made without streaming: its text as one delta, then the response."""
        response = await self.complete(request)
        if response.message.text:
            yield TextDelta(response.message.text)
        yield response

    def _response(self, request: ModelRequest, completed: Completed[StreamAccumulator]) -> ModelResponse:
        response = completed.result.response(
            tool_names=_tool_names(request), fallback_model=self._model, max_tokens=self._budget(request)
        )
        return replace(response, usage=response.usage + completed.wasted)

    def _counted(self, params: Mapping[str, Any], response: ModelResponse) -> ModelResponse:
        """The response, its usage counted locally when the server reported none."""
        if response.usage.total:
            self.facts.reports_usage = True
            return response
        self.facts.reports_usage = False
        counter = TiktokenCounter(margin=self.facts.token_margin or LOCAL_MARGIN)
        sent = json.dumps([params.get("messages"), params.get("tools")], ensure_ascii=False, default=str)
        calls = [json.dumps(dict(c.arguments), ensure_ascii=False) + c.name for c in response.message.tool_calls]
        written = response.message.text + "".join(calls)
        return replace(response, usage=Usage(counter.count_tokens(sent), counter.count_tokens(written)))

    # -- one call --

    def _budget(self, request: ModelRequest) -> int:
        return min(max(request.max_tokens, self._max_tokens), output_room(self._context_window))

    def _params(self, request: ModelRequest) -> dict[str, Any]:
        return request_params(
            request,
            model=self._model,
            max_tokens=self._budget(request),
            token_limit_field="max_completion_tokens" if self._on_openai else "max_tokens",
            schema_format=self.facts.schema_format,
            grammar_safe=not self._on_openai,
            tool_results_as_text=self.facts.tool_results_as_text,
        )

    async def _create(self, params: dict[str, Any]) -> dict[str, Any]:
        completion = await self._client.chat.completions.create(**params)
        return cast(dict[str, Any], completion.to_dict(exclude_none=True))

    async def _retrying(self, operation: Callable[[], Awaitable[T]]) -> T:
        """`operation` under the retry policy; a failure for good names what to fix."""
        try:
            return await call_with_retries_explained(operation, self._rules)
        except ModelUnavailableError as error:
            if is_streamed_tools_refusal(error.__cause__):
                raise
            raise self._with_server_hint(error) from error.__cause__

    def _with_server_hint(self, error: ModelUnavailableError) -> ModelUnavailableError:
        """A refused connection (not a timeout) most likely means no server at the base_url: say so."""
        cause = error.__cause__
        if isinstance(cause, openai.APIConnectionError) and not isinstance(cause, openai.APITimeoutError):
            hint = f"{error}; is the server at {self._base_url} running? (check OPENAI_BASE_URL)"
            return ModelUnavailableError(hint, usage=error.usage)
        return error


def _finished(accumulator: StreamAccumulator, with_tools: bool = False) -> StreamAccumulator:
    """The accumulator of a stream that ended properly; StreamCutError (retryable) if it was cut, and
    EmptyToolStreamError if tools were offered and it was cut before anything at all came."""
    if not accumulator.finished and with_tools and not accumulator.text and not accumulator.calls:
        raise EmptyToolStreamError("the stream with tools ended before anything came (streamed tools refused?)")
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
    timeout_s: float = DEFAULT_TIMEOUT_S,
    known_servers: KnownServers = KNOWN_SERVERS,
) -> OpenAICompatibleModel:
    """An OpenAICompatibleModel over a fresh SDK client whose own retries are off (we retry).

    `label_prefix` defaults to "local" for a base_url that is not OpenAI's, else "openai"; a local
    server is probed before its first call, once per process (`known_servers`). No network call is made here."""
    local = base_url is not None and not is_openai_url(base_url)
    if not api_key:
        if base_url is None:
            raise ValueError("OpenAI needs OPENAI_API_KEY; or set OPENAI_BASE_URL to use a local server")
        api_key = LOCAL_API_KEY
    timeout = httpx2.Timeout(timeout_s, connect=min(timeout_s, 10.0))
    client = openai.AsyncOpenAI(
        api_key=api_key, base_url=base_url, http_client=cast(Any, http_client), max_retries=0, timeout=timeout
    )
    return OpenAICompatibleModel(
        client,
        model,
        label_prefix=label_prefix or ("local" if local else "openai"),
        context_window=context_window or DEFAULT_CONTEXT_WINDOW,
        window_configured=context_window is not None,
        max_tokens=max_tokens,
        retry_policy=retry_policy,
        probe=local,
        known_servers=known_servers,
    )
