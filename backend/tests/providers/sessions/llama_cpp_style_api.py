"""A llama.cpp-style OpenAI-compatible server: what llama-cpp-python 0.3.36's server did with a small
GGUF model, `--chat_format chatml-function-calling --n_ctx 16384` (issue #41, and `bench/bench_local_model.py`
against the real one), answered with the offline model's decisions like `OpenAIDecisionsApi`:

- an assistant message with `content: null` is a 500 (its chat template concatenates the content);
- `tools` reach the model only with an explicit `tool_choice: "auto"` (or a named function): without
  it the model never sees them and answers in prose;
- a streamed request with tools and `tool_choice: "auto"` is a 500 "Automatic streaming tool choice
  is not supported";
- `response_format` is `{"type": "json_object", "schema": ...}` (grammar-constrained JSON); OpenAI's
  `json_schema` is a 500 listing its request validation error;
- no usage is reported;
- a prompt plus `max_tokens` beyond n_ctx is a 400 `context_length_exceeded` (counted by the server's
  tokenizer: here cl100k × TOKENIZER_RATIO, a tokenizer that yields 17% more than cl100k);
- `/v1/models` lists the model without its window; `/extras/tokenize/count` counts tokens; `/props`
  and `/api/show` do not exist (404).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import httpx
from providers.sessions.offline_decisions_openai import OpenAIDecisionsApi

from forge.providers.token_counting import cl100k_length

TOKENIZER_RATIO = 1.17
# Its request validation error, as a 500 (seen with the real server; `test_openai_schema_output`).
RESPONSE_FORMAT_REFUSAL = (
    "1 validation error:\n  {{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input "
    "should be 'text' or 'json_object'\", 'input': '{kind}'}}"
)
PROSE = "I will research the problem and list its fundamentals, assumptions and reframings."


def server_error(message: str, status: int = 500) -> httpx.Response:
    kind = "internal_server_error" if status == 500 else "invalid_request_error"
    code = "context_length_exceeded" if status == 400 else None
    return httpx.Response(status, json={"error": {"message": message, "type": kind, "param": None, "code": code}})


def server_tokens(text: str) -> int:
    return math.ceil(cl100k_length(text) * TOKENIZER_RATIO)


def prompt_tokens(body: dict[str, Any]) -> int:
    """The rendered prompt's tokens: each message's text and calls with a few tokens of role markers,
    and the tools' schemas (a chat template renders them into the prompt)."""
    texts = [
        str(m.get("content") or "") + "".join(_rendered(c) for c in m.get("tool_calls") or ()) for m in body["messages"]
    ]
    tools = [json.dumps(t["function"], ensure_ascii=False) for t in body.get("tools") or ()]
    return sum(server_tokens(t) + 4 for t in texts) + sum(server_tokens(t) for t in tools)


def _rendered(call: dict[str, Any]) -> str:
    return f"{call['function']['name']}({call['function']['arguments']})"


@dataclass
class LlamaCppStyleApi(OpenAIDecisionsApi):
    n_ctx: int = 16_384
    reports_usage: bool = False
    model_id: str = "gemma-3-270m"
    served_5xx: list[str] = field(default_factory=list)
    prose_replies: int = 0
    largest_request: int = 0  # the most tokens (prompt + max_tokens) any accepted request asked for
    unstreamed_tool_calls: int = 0  # accepted requests offering tools without streaming
    constrained_replies: int = 0  # accepted `json_object` + `schema` requests (grammar-constrained)
    probe_requests: list[str] = field(default_factory=list)  # the paths of every request but a chat completion

    async def _serve(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if not path.endswith("/chat/completions"):
            self.probe_requests.append(path)
        if path.endswith("/v1/models"):
            return httpx.Response(200, json={"object": "list", "data": [{"id": self.model_id, "object": "model"}]})
        if path.endswith("/extras/tokenize/count"):
            return httpx.Response(200, json={"count": server_tokens(json.loads(request.content)["input"])})
        if not path.endswith("/chat/completions"):
            return httpx.Response(404, json={"detail": "Not Found"})
        body = json.loads(request.content)
        refusal = self._llama_refusal(body)
        if refusal is not None:
            self.statuses.append(refusal.status_code)
            if refusal.status_code >= 500:
                self.served_5xx.append(refusal.json()["error"]["message"])
            return refusal
        if body.get("tools") and body.get("tool_choice") is None and not body.get("response_format"):
            body = {key: value for key, value in body.items() if key != "tools"}
        if body.get("response_format"):  # its grammar-constrained JSON, answered as the offline model decides
            self.constrained_replies += 1
            schema = {"name": "output", "schema": body["response_format"]["schema"], "strict": False}
            body = {**body, "response_format": {"type": "json_schema", "json_schema": schema}}
        return await super()._serve(httpx.Request("POST", request.url, content=json.dumps(body).encode()))

    def _llama_refusal(self, body: dict[str, Any]) -> httpx.Response | None:
        if any(m.get("role") == "assistant" and m.get("content") is None for m in body["messages"]):
            return server_error('can only concatenate str (not "NoneType") to str')
        fmt = body.get("response_format")
        if fmt is not None and (fmt.get("type") != "json_object" or not isinstance(fmt.get("schema"), dict)):
            return server_error(RESPONSE_FORMAT_REFUSAL.format(kind=fmt.get("type")))
        if body.get("stream") and body.get("tools") and body.get("tool_choice") == "auto":
            return server_error("Automatic streaming tool choice is not supported")
        prompt = prompt_tokens(body)
        asked = prompt + int(body.get("max_tokens") or 0)
        if asked > self.n_ctx:
            return server_error(
                f"This model's maximum context length is {self.n_ctx} tokens. However, you requested {asked} "
                f"tokens ({prompt} in the messages, {body.get('max_tokens')} in the completion).",
                400,
            )
        self.largest_request = max(self.largest_request, asked)
        self.unstreamed_tool_calls += bool(body.get("tools")) and not body.get("stream")
        return None

    async def _answer(self, body: dict[str, Any]) -> dict[str, Any]:
        if not body.get("tools") and not body.get("response_format"):  # tools not offered: prose
            self.prose_replies += 1
            return {"role": "assistant", "content": PROSE}
        return await super()._answer(body)
