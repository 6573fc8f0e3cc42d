"""Recorded exchanges with a real local server: the scenarios, and the httpx transports that record
them (`scripts/record_local_server.py`, by hand against a running server) and replay them (the suite).

A recording is one JSON file per scenario under `recordings/`: what the server was, and each HTTP
exchange in order, the request (method, path, JSON body) and the response exactly as it came (status,
content type, body text) or how it failed (the httpx error's class and message; a response whose
body broke off keeps the bytes that came before the error).

Invariants:
    - A scenario is the product's own provider (`OpenAICompatibleModel` over the real `openai` SDK)
      making the calls: recording and replay run the same function over different transports.
    - Replay serves the exchanges in order and fails the test on a request the recording does not
      have, or that differs from it in what decides the server's answer (method, path, `stream`,
      `tool_choice`, `response_format` type, the tools offered, the messages' roles).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import openai

from forge.core.llm.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    Role,
    StreamReset,
    TextDelta,
    ToolCall,
    ToolDefinition,
    ToolResult,
    user_text,
)
from forge.providers.openai_compatible_model import OpenAICompatibleModel
from forge.providers.openai_server_facts import KnownServers

RECORDINGS = Path(__file__).parent / "recordings"
MODEL = "gemma-3-270m"
BASE_URL = "http://127.0.0.1:8080/v1"
WINDOW = 16_384  # the server's --n_ctx, given as OPENAI_CONTEXT_WINDOW (llama-cpp-python reports none)
MAX_TOKENS = 512

RESEARCH = ToolDefinition(
    "research",
    "Search the corpus for sources on a question.",
    {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
)
ASK_RESEARCH = ModelRequest(
    "You are a research assistant. Use the research tool.",
    (user_text("Find sources on hospital emergency department triage."),),
    (RESEARCH,),
    max_tokens=MAX_TOKENS,
)
ANSWER_SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}, "confidence": {"type": "number"}},
    "required": ["answer", "confidence"],
}
ASK_JSON = ModelRequest(
    "Answer in JSON.",
    (user_text("What is the capital of France?"),),
    (),
    max_tokens=MAX_TOKENS,
    output_schema=ANSWER_SCHEMA,
    output_name="answer",
)

Made = TextDelta | StreamReset | ModelResponse


# --- the transports ------------------------------------------------------------------------------


class _Body(httpx.AsyncByteStream):
    """A response body: the bytes that came, then the error that broke it off (if any)."""

    def __init__(self, chunks: list[bytes], error: BaseException | None):
        self._chunks, self._error = chunks, error

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            yield chunk
        if self._error is not None:
            raise self._error


def _request_entry(request: httpx.Request) -> dict[str, Any]:
    body = json.loads(request.content) if request.content else None
    return {"method": request.method, "path": request.url.path, "json": body}


def _transport_error(kind: str, message: str, request: httpx.Request) -> httpx.TransportError:
    error_type = getattr(httpx, kind, None)
    if not (isinstance(error_type, type) and issubclass(error_type, httpx.TransportError)):
        error_type = httpx.RemoteProtocolError
    return error_type(message, request=request)


@dataclass
class RecordingTransport(httpx.AsyncBaseTransport):
    """Passes each request to the real server and keeps the exchange."""

    inner: httpx.AsyncBaseTransport = field(default_factory=lambda: httpx.AsyncHTTPTransport())
    exchanges: list[dict[str, Any]] = field(default_factory=list)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        entry: dict[str, Any] = {"request": _request_entry(request)}
        self.exchanges.append(entry)
        try:
            response = await self.inner.handle_async_request(request)
        except httpx.TransportError as error:
            entry["response"] = {"error": type(error).__name__, "message": str(error)}
            raise
        chunks: list[bytes] = []
        broke: httpx.TransportError | None = None
        try:
            async for chunk in response.stream:  # type: ignore[union-attr]
                chunks.append(chunk)
        except httpx.TransportError as error:
            broke = error
        finally:
            await response.aclose()
        entry["response"] = {
            "status": response.status_code,
            "content_type": response.headers.get("content-type", ""),
            "body": b"".join(chunks).decode("utf-8", errors="replace"),
        }
        if broke is not None:
            entry["response"] |= {"error": type(broke).__name__, "message": str(broke)}
        headers = {"content-type": entry["response"]["content_type"]}
        return httpx.Response(response.status_code, headers=headers, stream=_Body(chunks, broke))


def _decisive(entry: dict[str, Any]) -> dict[str, Any]:
    """What in a request decides the server's answer (what replay checks)."""
    body = entry.get("json") or {}
    tools = [t.get("function", {}).get("name") for t in body.get("tools") or ()]
    return {
        "method": entry["method"],
        "path": entry["path"],
        "stream": body.get("stream", False),
        "tool_choice": body.get("tool_choice"),
        "response_format": (body.get("response_format") or {}).get("type"),
        "tools": tools,
        "roles": [m.get("role") for m in body.get("messages") or ()],
    }


@dataclass
class ReplayTransport(httpx.AsyncBaseTransport):
    """Serves a recording's responses in order, to the requests it recorded."""

    exchanges: list[dict[str, Any]]
    served: int = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        if self.served >= len(self.exchanges):
            raise AssertionError(f"the recording has {len(self.exchanges)} exchanges; one more was requested")
        entry = self.exchanges[self.served]
        self.served += 1
        sent, recorded = _decisive(_request_entry(request)), _decisive(entry["request"])
        if sent != recorded:
            raise AssertionError(f"request {self.served} differs from the recording: {sent} != {recorded}")
        response = entry["response"]
        error = response.get("error")
        if "status" not in response:
            raise _transport_error(error, response["message"], request)
        broke = _transport_error(error, response["message"], request) if error else None
        headers = {"content-type": response["content_type"]}
        return httpx.Response(response["status"], headers=headers, stream=_Body([response["body"].encode()], broke))


# --- the scenarios -------------------------------------------------------------------------------


async def _no_sleep(_: float) -> None:
    return None


def local_model(
    http_client: httpx.AsyncClient, *, probe: bool = True, base_url: str = BASE_URL
) -> OpenAICompatibleModel:
    """The product's provider for a local server over `http_client`, as the settings build it
    (`probe=False`: a server the product was not told to learn, so it streams calls with tools)."""
    sdk_http: Any = http_client  # the SDK takes an httpx.AsyncClient at run time
    client = openai.AsyncOpenAI(
        api_key="not-needed", base_url=base_url, http_client=sdk_http, max_retries=0, timeout=1800.0
    )
    return OpenAICompatibleModel(
        client,
        MODEL,
        label_prefix="local",
        context_window=WINDOW,
        window_configured=True,
        max_tokens=MAX_TOKENS,
        sleep=_no_sleep,
        probe=probe,
        known_servers=KnownServers(),
    )


async def made(model: OpenAICompatibleModel, request: ModelRequest) -> list[Made]:
    return [item async for item in model.stream(request)]


async def probe(model: OpenAICompatibleModel) -> list[list[Made]]:
    """The probe alone: /v1/models, /props, /api/show, /tokenize, /extras/tokenize/count."""
    await model.learn_server()
    return []


async def tool_call(model: OpenAICompatibleModel) -> list[list[Made]]:
    """The probe, then one call with a tool (recognised as llama-cpp-python's: not streamed)."""
    return [await made(model, ASK_RESEARCH)]


async def streamed_tools_refused(model: OpenAICompatibleModel) -> list[list[Made]]:
    """No probe: a streamed call with a tool (refused), then the same call again."""
    return [await made(model, ASK_RESEARCH), await made(model, ASK_RESEARCH)]


async def json_object_schema(model: OpenAICompatibleModel) -> list[list[Made]]:
    """The probe, then an engine-style call for JSON of a schema (`json_object` + `schema`)."""
    return [[await model.complete(ASK_JSON)]]


ASK_PROSE = ModelRequest(
    "Answer in one sentence.", (user_text("Why do emergency rooms have queues?"),), (), max_tokens=64
)


async def streamed_prose(model: OpenAICompatibleModel) -> list[list[Made]]:
    """The probe, then a streamed call without tools (llama-cpp-python's stream reports no usage)."""
    return [await made(model, ASK_PROSE)]


REFRAME = ToolDefinition(
    "reframe_problem",
    "Record alternative formulations of the problem that open different solution spaces.",
    {
        "type": "object",
        "properties": {
            "reframings": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "text": {"type": "string"},
                        "reframing_type": {
                            "enum": ["scope_change", "entity_question", "variable_change", "domain_change"],
                            "type": "string",
                        },
                    },
                    "required": ["text", "reframing_type"],
                },
            }
        },
        "required": ["reframings"],
    },
)
EARLIER_REFRAMING = {
    "reframings": [
        {
            "text": 'How might the hospital treat "low-acuity" patients outside the emergency room?',
            "reframing_type": "scope_change",
        }
    ]
}


def reframe_request(problem: str) -> ModelRequest:
    """DECOMPOSE after one reframing: the model's earlier call (with quotes in its text) in the history."""
    earlier = ToolCall("call_1", "reframe_problem", EARLIER_REFRAMING)  # type: ignore[arg-type]
    result = ToolResult("call_1", '{"recorded": 1, "needed": 3, "types_missing": ["entity_question"]}')  # type: ignore[arg-type]
    return ModelRequest(
        "You reframe problems. Call reframe_problem with new reframings; quote terms in double quotes.",
        (
            user_text(problem),
            Message(Role.ASSISTANT, (earlier,)),
            Message(Role.USER, (result,)),
            user_text('Add an "entity_question" reframing that quotes a "term" from the problem.'),
        ),
        (REFRAME,),
        max_tokens=MAX_TOKENS,
    )


PROBLEM = 'How can a hospital cut "door-to-doctor" emergency wait times without more staff?'


async def escaped_quote(model: OpenAICompatibleModel) -> list[list[Made]]:
    """The probe, then a call whose history holds an earlier call with quotes in its strings (the
    chat format renders them HTML-escaped: what the 270M model copied in the real session). Its tool
    result goes as a `tool` message, as the product sent it in that session (recorded so): since then
    llama-cpp-python gets results as user text, and the model did not write `&#34;` in 8 tries."""
    await model.learn_server()
    model.facts.tool_results_as_text = False
    return [await made(model, reframe_request(PROBLEM))]


Scenario = Callable[[OpenAICompatibleModel], Awaitable[list[list[Made]]]]
SCENARIOS: dict[str, tuple[Scenario, bool]] = {  # name: (the calls, whether the model probes)
    "probe": (probe, True),
    "tool_call": (tool_call, True),
    "streamed_tools_refused": (streamed_tools_refused, False),
    "json_object_schema": (json_object_schema, True),
    "streamed_prose": (streamed_prose, True),
    "escaped_quote": (escaped_quote, True),
}


def load(name: str, server: str = "") -> dict[str, Any]:
    """A recording: llama-cpp-python's at the top of `recordings/`, another server's in its folder."""
    path = RECORDINGS / server / f"{name}.json"
    recording: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return recording


async def replay(name: str, server: str = "") -> tuple[OpenAICompatibleModel, list[list[Made]], ReplayTransport]:
    """The scenario run again over its recording: the model, what its calls made, the transport."""
    transport = ReplayTransport(load(name, server)["exchanges"])
    scenario, probes = SCENARIOS[name]
    async with httpx.AsyncClient(transport=transport) as http_client:
        model = local_model(http_client, probe=probes)
        results = await scenario(model)
    return model, results, transport
