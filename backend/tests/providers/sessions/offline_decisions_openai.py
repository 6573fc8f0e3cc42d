"""An OpenAI-compatible Chat Completions server with `json_schema` support that answers with the
offline model's decisions (see `offline_decisions_api` for how the served request is known).

What it refuses, as OpenAI and the compatible servers (vLLM, llama.cpp) document: an empty `tools`
list, a `response_format.json_schema` without a valid `name` or `schema`, a `tool` message that answers
no `tool_calls` id of an earlier assistant message, an assistant `tool_calls` entry that is not a
`function` call with string arguments. Usage is deterministic with cached prompt tokens.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import httpx
from providers.sessions.offline_decisions_api import AGENT_REQUEST, STRUCTURED_REQUEST, AgentAnswer, RecordedExchanges

from forge.core.llm.messages import TextPart, ToolCall
from forge.ports import StructuredModel

SCHEMA_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def refused(message: str) -> httpx.Response:
    body = {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}}
    return httpx.Response(400, json=body)


def _format_refusal(body: dict[str, Any]) -> str | None:
    fmt = body.get("response_format")
    if fmt is None:
        return None
    spec = fmt.get("json_schema") or {}
    if fmt.get("type") != "json_schema" or not SCHEMA_NAME.match(str(spec.get("name", ""))):
        return "Invalid 'response_format.json_schema.name': must match ^[a-zA-Z0-9_-]{1,64}$"
    if not isinstance(spec.get("schema"), dict):
        return "Missing required parameter: 'response_format.json_schema.schema'."
    return None


def _history_refusal(messages: list[dict[str, Any]]) -> str | None:
    called: set[str] = set()
    for message in messages:
        for call in message.get("tool_calls") or ():
            fn = call.get("function") or {}
            if call.get("type") != "function" or not isinstance(fn.get("arguments"), str):
                return "Invalid 'messages': tool_calls must be function calls with string arguments."
            called.add(str(call.get("id")))
        if message["role"] == "tool" and message.get("tool_call_id") not in called:
            return "Invalid parameter: messages with role 'tool' must be a response to a preceding 'tool_calls'."
    return None


def sse_chunks(model: str, message: dict[str, Any], finish: str, usage: dict[str, Any] | None) -> str:
    base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1764640000, "model": model}
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": message.get("content") or ""}]
    for index, call in enumerate(message.get("tool_calls") or ()):
        deltas.append({"tool_calls": [{**call, "index": index}]})
    chunks = [{**base, "choices": [{"index": 0, "delta": d, "finish_reason": None}]} for d in deltas]
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
    if usage is not None:
        chunks.append({**base, "choices": [], "usage": usage})
    return "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"


@dataclass
class OpenAIDecisionsApi(RecordedExchanges):
    agent: AgentAnswer
    structured: StructuredModel
    reports_usage: bool = True  # llama.cpp-style servers send none

    async def _serve(self, request: httpx.Request) -> httpx.Response:
        if not request.url.path.endswith("/chat/completions"):  # a local server's probes: not offered here
            return httpx.Response(404, json={"error": {"message": "Not Found", "type": "not_found_error"}})
        body = json.loads(request.content)
        problem = self._refusal(body)
        if problem is not None:
            self._refuse(problem)
            return refused(problem)
        message = await self._answer(body)
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        prompt = max(1, len(json.dumps(body["messages"])) // 4)
        completion = max(1, len(json.dumps(message)) // 4)
        usage = {
            "prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
            "prompt_tokens_details": {"cached_tokens": prompt * 3 // 4},
        }  # fmt: skip
        self.usages.append((str(body["model"]), usage))
        self.statuses.append(200)
        sent = usage if self.reports_usage else None
        if body.get("stream"):
            text = sse_chunks(body["model"], message, finish, sent)
            return httpx.Response(200, content=text.encode(), headers={"content-type": "text/event-stream"})
        choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": finish}
        reply = {"id": "chatcmpl-fake", "object": "chat.completion", "created": 1764640000, "model": body["model"]}
        return httpx.Response(200, json={**reply, "choices": [choice], **({"usage": sent} if sent else {})})

    async def _answer(self, body: dict[str, Any]) -> dict[str, Any]:
        return await (self._structured(body) if body.get("response_format") else self._agent())

    def _refusal(self, body: dict[str, Any]) -> str | None:
        if "tools" in body and not body["tools"]:
            return "Invalid 'tools': empty array. Expected an array with minimum length 1."
        return _format_refusal(body) or _history_refusal(body["messages"])

    async def _agent(self) -> dict[str, Any]:
        request = AGENT_REQUEST.get()
        assert request is not None, "an agent call the test did not observe"
        response = await self.agent(request)
        text = "".join(p.text for p in response.message.parts if isinstance(p, TextPart))
        calls = [
            {"id": str(p.id), "type": "function", "function": {"name": p.name, "arguments": json.dumps(p.arguments)}}
            for p in response.message.parts
            if isinstance(p, ToolCall)
        ]
        message: dict[str, Any] = {"role": "assistant", "content": text or None, "refusal": None}
        return {**message, "tool_calls": calls} if calls else message

    async def _structured(self, body: dict[str, Any]) -> dict[str, Any]:
        request = STRUCTURED_REQUEST.get()
        assert request is not None, "an engine call the test did not observe"
        result = await self.structured.generate(request)
        assert hasattr(result, "value"), f"the offline generator failed: {result}"
        value = result.value.model_dump(mode="json")
        schema = body["response_format"]["json_schema"]["schema"]
        assert all(name in value for name in schema.get("required", ())), (request.name, schema.get("required"))
        self.schema_names.append(request.name)
        return {"role": "assistant", "content": json.dumps(value), "refusal": None}
