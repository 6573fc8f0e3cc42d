"""A Messages API that answers with the offline model's decisions, refusing what the docs refuse.

For whole sessions through the real AnthropicModel (built by the composition root) without a real
model: the fake server sees the wire request, applies the documented rules of `documented_rules` for
the model id in it, and answers as a deterministic model would:
    - an agent turn (tools offered, no `output_config.format`): the offline model's turn for the
      ModelRequest the adapter was asked to send, as content blocks (a signed thinking block first when
      thinking is on, the text, each `tool_use`), streamed as SSE when the request streams;
    - an engine stage (`output_config.format`): the offline generator's value for the StructuredRequest
      being served, as JSON text, checked against the requested schema's required fields.
Which ModelRequest / StructuredRequest is being served comes from `observe_requests` (context
variables set around the real `complete` / `stream` / `generate`; each asyncio task has its own, so
concurrent engine calls do not mix). Usage is deterministic and includes cache reads and writes, so a
cost check covers every price component. A thinking block served in a turn that called tools must come
back unchanged in the next request of that loop, else the API's 400.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import httpx2
import pytest
from providers.anthropic.documented_rules import (
    _output_format_refusal,
    _thinking_refusal,
    _tool_choice_refusal,
    refused,
)

from forge.core.llm.messages import ModelRequest, ModelResponse, TextPart, ToolCall
from forge.ports import StructuredModel, StructuredRequest

AGENT_REQUEST: ContextVar[ModelRequest | None] = ContextVar("agent_request", default=None)
STRUCTURED_REQUEST: ContextVar[StructuredRequest[Any] | None] = ContextVar("structured_request", default=None)

AgentAnswer = Callable[[ModelRequest], Awaitable[ModelResponse]]


def observe_requests(monkeypatch: pytest.MonkeyPatch, model_class: Any, structured_class: Any) -> None:
    """Record, for the fake server, the request each real adapter call serves (nothing else changes)."""
    complete, stream, generate = model_class.complete, model_class.stream, structured_class.generate

    async def observed_complete(self: Any, request: ModelRequest) -> Any:
        AGENT_REQUEST.set(request)
        return await complete(self, request)

    async def observed_stream(self: Any, request: ModelRequest) -> Any:
        AGENT_REQUEST.set(request)
        async for item in stream(self, request):
            yield item

    async def observed_generate(self: StructuredModel, request: StructuredRequest[Any]) -> Any:
        STRUCTURED_REQUEST.set(request)
        return await generate(self, request)

    monkeypatch.setattr(model_class, "complete", observed_complete)
    monkeypatch.setattr(model_class, "stream", observed_stream)
    monkeypatch.setattr(structured_class, "generate", observed_generate)


def signature_of(text: str) -> str:
    return "Eu" + hashlib.sha256(text.encode()).hexdigest()[:40]


def served_usage(body: dict[str, Any], output_text: str) -> dict[str, int]:
    """Deterministic usage: the prompt in 4-character tokens, split into uncached, cache write, cache read."""
    prompt = max(1, len(json.dumps(body)) // 4)
    return {
        "input_tokens": prompt // 10,
        "cache_creation_input_tokens": prompt // 10,
        "cache_read_input_tokens": prompt - 2 * (prompt // 10),
        "output_tokens": max(1, len(output_text) // 4),
    }


def _required_missing(schema: dict[str, Any], value: dict[str, Any]) -> list[str]:
    return [name for name in schema.get("required", ()) if name not in value]


@dataclass(kw_only=True)
class RecordedExchanges:
    """What a fake server keeps for the test's assertions: every answer's status, the refusals, its
    own failures (a test bug), the usages served and the schemas asked for. A subclass answers in
    `_serve(request)`."""

    statuses: list[int] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # the fake itself failed to answer (a test bug)
    usages: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    schema_names: list[str] = field(default_factory=list)
    briefs: dict[str, str] = field(default_factory=dict)  # each phase's first brief on the wire, by its marker line
    tool_inputs: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # the agent's tool calls served

    def keep_exchange(self, messages: list[dict[str, Any]], content: list[dict[str, Any]]) -> None:
        """The phase briefs a request carries (user messages, as sent) and the tool calls served."""
        for message in messages:
            sent = message["content"]
            parts = sent if isinstance(sent, list) else [{"type": "text", "text": sent}]
            for text in (str(p.get("text", "")) for p in parts if p.get("type") == "text"):
                if message["role"] == "user" and text.startswith("[forge phase="):
                    self.briefs.setdefault(text.splitlines()[0], text)
        self.tool_inputs += [(b["name"], b["input"]) for b in content if b.get("type") == "tool_use"]

    async def __call__(self, request: Any) -> Any:
        try:
            return await self._serve(request)  # type: ignore[attr-defined]
        except Exception as error:  # the SDK would call it a connection error and retry: keep it for the test
            self.failures.append(repr(error))
            raise

    def _refuse(self, problem: str) -> None:
        self.statuses.append(400)
        self.refusals.append(problem)


@dataclass
class OfflineDecisionsApi(RecordedExchanges):
    """The fake Messages API; `statuses` and `usages` are kept for the test's assertions."""

    agent: AgentAnswer
    structured: StructuredModel
    thinking_returned: int = 0  # tool-loop requests that carried served thinking blocks back
    web_search_tools: set[str] = field(default_factory=set)  # the server web-search tool versions offered
    web_fetch_tools: set[str] = field(default_factory=set)  # the server web-fetch tool versions offered
    forced_tools: list[str] = field(default_factory=list)  # structured outputs asked by a forced tool call
    _searched_for: set[str] = field(default_factory=set)  # one search per conversation (its first message)
    _thinking_by_call: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    async def _serve(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        problem = self._refusal(body)
        if problem is not None:
            self._refuse(problem)
            return refused(problem)
        fmt = (body.get("output_config") or {}).get("format")
        forced = (
            (body.get("tool_choice") or {}).get("name")
            if (body.get("tool_choice") or {}).get("type") == "tool"
            else None
        )
        if forced:
            content = self._thought(body, await self._forced_tool_content(body, str(forced)))
        else:
            content = self._thought(body, await (self._structured_content(fmt) if fmt else self._agent_content()))
        searches = [] if fmt or forced else self._web_search(body)
        if not fmt and not forced:
            self.keep_exchange(body["messages"], content)
        content = [*searches, *content]
        text = "".join(b.get("text", "") + json.dumps(b.get("input", "")) for b in content)
        usage: dict[str, Any] = served_usage(body, text)
        if searches:
            fetches = sum(b["type"] == "web_fetch_tool_result" for b in searches)
            usage["server_tool_use"] = {
                "web_search_requests": 1,
                **({"web_fetch_requests": fetches} if fetches else {}),
            }
        self.usages.append((str(body["model"]), dict(usage)))
        self.statuses.append(200)
        stop = "tool_use" if any(b["type"] == "tool_use" for b in content) else "end_turn"
        message = {
            "id": f"msg_{len(self.statuses):04d}", "type": "message", "role": "assistant", "model": body["model"],
            "content": content, "stop_reason": stop, "stop_sequence": None, "usage": usage,
        }  # fmt: skip
        if body.get("stream"):
            return httpx2.Response(200, content=sse_of(message).encode(), headers={"content-type": "text/event-stream"})
        return httpx2.Response(200, json=message, headers={"request-id": "req_fake"})

    def _refusal(self, body: dict[str, Any]) -> str | None:
        model = str(body["model"])
        return (
            _thinking_refusal(model, body)
            or _tool_choice_refusal(model, body)
            or _output_format_refusal(model, body)
            or self._history_refusal(body)
        )

    def _history_refusal(self, body: dict[str, Any]) -> str | None:
        """The last assistant turn of a tool loop must carry its thinking blocks back unchanged."""
        assistants = [m for m in body["messages"] if m["role"] == "assistant" and isinstance(m["content"], list)]
        if not assistants:
            return None
        blocks = assistants[-1]["content"]
        for call in (b for b in blocks if b["type"] == "tool_use"):
            served = self._thinking_by_call.get(call["id"], [])
            if served != [b for b in blocks if b["type"] in ("thinking", "redacted_thinking")]:
                return "messages: thinking blocks must be passed back unchanged in a tool-use loop"
            self.thinking_returned += bool(served)
        return None

    def _web_search(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        """Where the server web-search tool is offered, one search at a conversation's first turn of a
        phase: `server_tool_use` and its `web_search_tool_result`, billed in usage.server_tool_use."""
        tools = [t for t in body.get("tools") or () if str(t.get("type", "")).startswith("web_search_")]
        first = json.dumps(body["messages"][-1]["content"])
        if not tools or first in self._searched_for or body["messages"][-1]["role"] != "user":
            return []
        self._searched_for.add(first)
        self.web_search_tools.add(str(tools[0]["type"]))
        call_id = f"srvtoolu_{len(self._searched_for):04d}"
        result = {
            "type": "web_search_result", "url": f"https://example.org/ed-waits/{len(self._searched_for)}",
            "title": "Emergency department wait times", "encrypted_content": "EqgfCioIARgBIiQ3", "page_age": None,
        }  # fmt: skip
        searched = [
            {"type": "server_tool_use", "id": call_id, "name": "web_search", "input": {"query": "ED wait times"}},
            {"type": "web_search_tool_result", "tool_use_id": call_id, "content": [result]},
        ]
        return [*searched, *self._web_fetch(body, str(result["url"]))]

    def _web_fetch(self, body: dict[str, Any], url: str) -> list[dict[str, Any]]:
        """Where web fetch is offered too, the page the search found is fetched (a url from a prior result,
        as the docs require), its text as a document; the usage counts it in web_fetch_requests."""
        tools = [t for t in body.get("tools") or () if str(t.get("type", "")).startswith("web_fetch_")]
        if not tools:
            return []
        self.web_fetch_tools.add(str(tools[0]["type"]))
        call_id = f"srvtoolu_fetch_{len(self._searched_for):04d}"
        page = "Emergency department waits fall when fast-track streams take low-acuity patients."
        document = {
            "type": "document", "title": "Emergency department wait times", "citations": {"enabled": True},
            "source": {"type": "text", "media_type": "text/plain", "data": page},
        }  # fmt: skip
        result = {"type": "web_fetch_result", "url": url, "content": document, "retrieved_at": "2026-12-02T04:00:00Z"}
        return [
            {"type": "server_tool_use", "id": call_id, "name": "web_fetch", "input": {"url": url}},
            {"type": "web_fetch_tool_result", "tool_use_id": call_id, "content": result},
        ]

    async def _agent_content(self) -> list[dict[str, Any]]:
        request = AGENT_REQUEST.get()
        assert request is not None, "an agent call the test did not observe"
        response = await self.agent(request)
        blocks: list[dict[str, Any]] = []
        for part in response.message.parts:
            if isinstance(part, TextPart):
                blocks.append({"type": "text", "text": part.text})
            elif isinstance(part, ToolCall):
                blocks.append(
                    {"type": "tool_use", "id": str(part.id), "name": part.name, "input": dict(part.arguments)}
                )
        return blocks

    def _thought(self, body: dict[str, Any], blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """With thinking on, a signed thinking block first; a tool loop must give it back unchanged."""
        if (body.get("thinking") or {}).get("type") not in ("adaptive", "enabled"):
            return blocks
        note = f"Thinking about turn {len(self.statuses) + 1} before answering."
        thinking = {"type": "thinking", "thinking": note, "signature": signature_of(note + json.dumps(blocks))}
        for block in blocks:
            if block["type"] == "tool_use":
                self._thinking_by_call[block["id"]] = [thinking]
        return [thinking, *blocks]

    async def _forced_tool_content(self, body: dict[str, Any], name: str) -> list[dict[str, Any]]:
        """A forced tool call (structured output without output_config.format): the one tool, called."""
        request = STRUCTURED_REQUEST.get()
        assert request is not None, "an engine call the test did not observe"
        tool = next(t for t in body.get("tools") or () if t.get("name") == name)
        result = await self.structured.generate(request)
        assert hasattr(result, "value"), f"the offline generator failed: {result}"
        value = result.value.model_dump(mode="json")
        assert not _required_missing(tool["input_schema"], value)
        self.schema_names.append(request.name)
        self.forced_tools.append(name)
        return [{"type": "tool_use", "id": f"toolu_forced_{len(self.forced_tools):04d}", "name": name, "input": value}]

    async def _structured_content(self, fmt: dict[str, Any]) -> list[dict[str, Any]]:
        request = STRUCTURED_REQUEST.get()
        assert request is not None, "an engine call the test did not observe"
        result = await self.structured.generate(request)
        assert hasattr(result, "value"), f"the offline generator failed: {result}"
        value = result.value.model_dump(mode="json")
        assert fmt["type"] == "json_schema" and not _required_missing(fmt["schema"], value)
        self.schema_names.append(request.name)
        return [{"type": "text", "text": json.dumps(value)}]


def sse_event(data: dict[str, Any]) -> str:
    return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n"


def _block_events(index: int, block: dict[str, Any]) -> list[dict[str, Any]]:
    start: dict[str, Any]
    deltas: list[dict[str, Any]]
    if block["type"] == "thinking":
        start = {"type": "thinking", "thinking": "", "signature": ""}
        deltas = [
            {"type": "thinking_delta", "thinking": block["thinking"]},
            {"type": "signature_delta", "signature": block["signature"]},
        ]
    elif block["type"] in ("tool_use", "server_tool_use"):
        start = {**block, "input": {}}
        deltas = [{"type": "input_json_delta", "partial_json": json.dumps(block["input"])}]
    elif block["type"] in ("web_search_tool_result", "web_fetch_tool_result"):
        start, deltas = block, []  # a result block arrives whole in its start event
    else:
        start = {"type": "text", "text": ""}
        deltas = [{"type": "text_delta", "text": block["text"]}]
    return [
        {"type": "content_block_start", "index": index, "content_block": start},
        *({"type": "content_block_delta", "index": index, "delta": d} for d in deltas),
        {"type": "content_block_stop", "index": index},
    ]


def sse_of(message: dict[str, Any]) -> str:
    """The message as the API streams it (message_start with the prompt usage, blocks, then the output)."""
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    events = [{"type": "message_start", "message": start}]
    for index, block in enumerate(message["content"]):
        events += _block_events(index, block)
    events += [
        {"type": "message_delta", "delta": {"stop_reason": message["stop_reason"]}, "usage": {"output_tokens": usage["output_tokens"]}},
        {"type": "message_stop"},
    ]  # fmt: skip
    return "".join(sse_event(e) for e in events)
