"""A scripted Anthropic Messages API behind httpx2.MockTransport, for driving the real SDK.

Replies are served in order from recordings (JSON bodies, SSE streams, error bodies); every request
is kept, so tests assert the exact JSON body and headers the adapter sent.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

from forge.core.llm.backoff_schedule import RetryPolicy
from forge.providers.anthropic_model import AnthropicModel, anthropic_model_from_settings

RECORDINGS = Path(__file__).parent / "recordings"
MODEL = "claude-sonnet-4-6"
API_KEY = "sk-ant-api03-test-key"

Reply = Callable[[httpx2.Request], httpx2.Response]


def recording(name: str) -> str:
    return (RECORDINGS / name).read_text(encoding="utf-8")


def recorded_json(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(recording(name))
    return data


@dataclass
class FakeAnthropicApi:
    replies: list[Reply] = field(default_factory=list)
    requests: list[httpx2.Request] = field(default_factory=list)

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        if len(self.requests) > len(self.replies):
            raise AssertionError(f"{len(self.replies)} replies scripted; request {len(self.requests)} was made")
        return self.replies[len(self.requests) - 1](request)

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [json.loads(r.content) for r in self.requests]

    def json(self, name: str, status: int = 200, headers: dict[str, str] | None = None) -> FakeAnthropicApi:
        body = recording(name).encode()
        hdrs = {"content-type": "application/json", "request-id": "req_011CSHoTest", **(headers or {})}
        self.replies.append(lambda _: httpx2.Response(status, content=body, headers=hdrs))
        return self

    def json_body(self, body: dict[str, Any], status: int = 200) -> FakeAnthropicApi:
        """A reply given as its JSON (for replies built in a test, e.g. a structured output)."""
        content = json.dumps(body).encode()
        hdrs = {"content-type": "application/json", "request-id": "req_011CSHoTest"}
        self.replies.append(lambda _: httpx2.Response(status, content=content, headers=hdrs))
        return self

    def sse(self, name: str) -> FakeAnthropicApi:
        return self.sse_text(recording(name))

    def sse_text(self, text: str) -> FakeAnthropicApi:
        """A stream given as its SSE text (for streams built in a test, e.g. a very long reply)."""
        body = text.encode()
        self.replies.append(lambda _: httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"}))
        return self

    def connection_refused(self) -> FakeAnthropicApi:
        def refuse(request: httpx2.Request) -> httpx2.Response:
            raise httpx2.ConnectError("[Errno 111] Connection refused", request=request)

        self.replies.append(refuse)
        return self


@dataclass
class Sleeps:
    """An injected sleep that records the delays instead of waiting."""

    delays: list[float] = field(default_factory=list)

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def build_model(
    api: FakeAnthropicApi,
    http_client: httpx2.AsyncClient,
    sleeps: Sleeps,
    **options: Any,
) -> AnthropicModel:
    """The adapter as production builds it (the factory), over the fake API."""
    policy: RetryPolicy = options.pop("retry_policy", RetryPolicy(max_attempts=5, base_delay_s=1.0, jitter=0.0))
    sleep: Callable[[float], Awaitable[None]] = sleeps
    return anthropic_model_from_settings(
        API_KEY, options.pop("model", MODEL), None, http_client, retry_policy=policy, sleep=sleep, **options
    )


def sse_event(data: dict[str, Any]) -> str:
    """One SSE event of the Messages API stream: its `event:` line names the data's type."""
    return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n"


def text_stream(pieces: list[str], *, usage: dict[str, int], output_tokens: int) -> str:
    """A complete streamed text reply made of `pieces`, as the API sends it."""
    message = {"id": "msg_01Built", "type": "message", "role": "assistant", "model": MODEL, "content": []}
    events = [
        {"type": "message_start", "message": {**message, "stop_reason": None, "usage": usage}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        *({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}} for p in pieces),
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": output_tokens}},
        {"type": "message_stop"},
    ]
    return "".join(sse_event(e) for e in events)
