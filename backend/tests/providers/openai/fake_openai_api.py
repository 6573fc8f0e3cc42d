"""A scripted OpenAI-compatible Chat Completions server behind httpx.MockTransport, for driving the
real `openai` SDK.

Replies are served in order, as the documented wire format (JSON bodies, SSE `data:` chunks ending
with `data: [DONE]`, error bodies); every request is kept, so tests assert the exact URL, headers and
JSON body the adapter sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import openai

from forge.core.llm.backoff_schedule import RetryPolicy
from forge.providers.openai_compatible_model import OpenAICompatibleModel

MODEL = "gpt-4o-2024-08-06"
API_KEY = "sk-proj-test-key"
OPENAI_URL = "https://api.openai.com/v1"
LOCAL_URL = "http://127.0.0.1:8080/v1"
USAGE = {
    "prompt_tokens": 1200,
    "completion_tokens": 80,
    "total_tokens": 1280,
    "prompt_tokens_details": {"cached_tokens": 1024},
}

Reply = Callable[[httpx.Request], httpx.Response]


def tool_call(name: str, arguments: str, call_id: str | None = "call_abc123") -> dict[str, Any]:
    call: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": arguments}}
    if call_id is not None:
        call["id"] = call_id
    return call


def completion(
    content: str | None = None,
    tool_calls: list[dict[str, Any]] | None = None,
    finish_reason: str = "stop",
    usage: dict[str, Any] | None = None,
    model: str = MODEL,
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
    if tool_calls is not None:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG",
        "object": "chat.completion",
        "created": 1741570283,
        "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}],
        "usage": USAGE if usage is None else usage,
        "system_fingerprint": "fp_06737a9306",
    }


def chunk(
    delta: dict[str, Any] | None = None, finish_reason: str | None = None, usage: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One `chat.completion.chunk`; with neither delta nor finish_reason it is the final usage chunk."""
    choices = (
        []
        if delta is None and finish_reason is None
        else [{"index": 0, "delta": delta or {}, "logprobs": None, "finish_reason": finish_reason}]
    )
    body: dict[str, Any] = {
        "id": "chatcmpl-B9MHStream",
        "object": "chat.completion.chunk",
        "created": 1741570283,
        "model": MODEL,
        "system_fingerprint": "fp_06737a9306",
        "choices": choices,
    }
    if usage is not None:
        body["usage"] = usage
    return body


def error_body(message: str, type_: str = "invalid_request_error", code: Any = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": type_, "param": None, "code": code}}


@dataclass
class FakeOpenAIApi:
    replies: list[Reply] = field(default_factory=list)
    requests: list[httpx.Request] = field(default_factory=list)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if len(self.requests) > len(self.replies):
            raise AssertionError(f"{len(self.replies)} replies scripted; request {len(self.requests)} was made")
        return self.replies[len(self.requests) - 1](request)

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests if r.content]  # a GET (a probe) has no body

    def json(self, body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None) -> FakeOpenAIApi:
        content = json.dumps(body).encode()
        hdrs = {"content-type": "application/json", "x-request-id": "req_test", **(headers or {})}
        self.replies.append(lambda _: httpx.Response(status, content=content, headers=hdrs))
        return self

    def error(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> FakeOpenAIApi:
        return self.json(body, status, headers)

    def sse(self, *chunks: dict[str, Any] | str, done: bool = True) -> FakeOpenAIApi:
        """A stream of chunks (a str is sent as a raw SSE block, e.g. an `event: error`)."""
        blocks = [c if isinstance(c, str) else f"data: {json.dumps(c)}\n\n" for c in chunks]
        content = ("".join(blocks) + ("data: [DONE]\n\n" if done else "")).encode()
        headers = {"content-type": "text/event-stream"}
        self.replies.append(lambda _: httpx.Response(200, content=content, headers=headers))
        return self

    def refuse_connection(self) -> FakeOpenAIApi:
        def refuse(request: httpx.Request) -> httpx.Response:
            raise httpx.ConnectError("[Errno 111] Connection refused", request=request)

        self.replies.append(refuse)
        return self


@dataclass
class Sleeps:
    delays: list[float] = field(default_factory=list)

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


def build_model(
    http_client: httpx.AsyncClient,
    sleeps: Sleeps,
    *,
    base_url: str = OPENAI_URL,
    model: str = MODEL,
    max_attempts: int = 3,
    **options: Any,
) -> OpenAICompatibleModel:
    """The adapter over the real SDK (its retries off), with instant, recorded sleeps."""
    # The SDK takes an httpx.AsyncClient at run time; its annotation names only httpx2's.
    sdk_http: Any = http_client
    client = openai.AsyncOpenAI(api_key=API_KEY, base_url=base_url, http_client=sdk_http, max_retries=0)
    policy = RetryPolicy(max_attempts=max_attempts, base_delay_s=1.0, jitter=0.0)
    return OpenAICompatibleModel(client, model, retry_policy=policy, sleep=sleeps, draw=lambda: 0.5, **options)
