"""Engine stages on OpenAI-compatible servers: `response_format: json_schema` where the server has it,
a forced tool call where it refuses it (auto), and an error naming both limits when it has neither.

The servers without json_schema are modelled: they answer a request carrying `response_format`
(and, for the last, a forced `tool_choice`) with a 400 in OpenAI's error shape, as servers do for
parameters they do not support."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
from providers.openai.fake_openai_api import FakeOpenAIApi, Sleeps, completion, error_body, tool_call
from pydantic import BaseModel

from forge.core.llm.capabilities import StructuredMethod
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult
from forge.providers.openai_compatible_model import OpenAICompatibleModel
from forge.providers.structured_output import SchemaStructuredModel


class Frame(BaseModel):
    objective: str
    hard_constraints: list[str]


REQUEST = StructuredRequest("record_frame", "The frame.", "Frame the problem.", "Cut ED waits, no new staff.", Frame)
GOOD = {"objective": "cut emergency waits", "hard_constraints": ["no more staff"]}
NO_SCHEMA = "response_format type 'json_schema' is not supported by this server"
NO_FORCING = "tool_choice naming a function is not supported by this chat template"


def _refusing(api: FakeOpenAIApi, *, schema: bool, forcing: bool, reply: dict[str, Any]) -> None:
    """One reply from a server that refuses what it lacks, and otherwise answers `reply`."""

    def serve(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if "response_format" in body and not schema:
            return httpx.Response(400, json=error_body(NO_SCHEMA))
        if "tool_choice" in body and not forcing:
            return httpx.Response(400, json=error_body(NO_FORCING))
        return httpx.Response(200, json=reply)

    api.replies.append(serve)


async def test_a_server_with_json_schema_gets_response_format_and_no_tools(
    api: FakeOpenAIApi, make_model: Callable[..., OpenAICompatibleModel]
) -> None:
    _refusing(api, schema=True, forcing=False, reply=completion(content=json.dumps(GOOD)))
    result = await SchemaStructuredModel(make_model(), StructuredMethod.JSON_SCHEMA).generate(REQUEST)
    assert isinstance(result, StructuredResult) and result.value == Frame.model_validate(GOOD)
    (body,) = api.bodies
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "record_frame", "schema": Frame.model_json_schema(), "strict": False},
    }
    assert "tools" not in body and "tool_choice" not in body


async def test_auto_falls_back_to_a_forced_tool_on_a_server_without_json_schema_and_keeps_it(
    api: FakeOpenAIApi, make_model: Callable[..., OpenAICompatibleModel]
) -> None:
    called = completion(tool_calls=[tool_call("record_frame", json.dumps(GOOD))], finish_reason="tool_calls")
    for _ in range(3):
        _refusing(api, schema=False, forcing=True, reply=called)
    structured = SchemaStructuredModel(make_model(), StructuredMethod.JSON_SCHEMA, fallback_to_tools=True)
    first = await structured.generate(REQUEST)
    second = await structured.generate(REQUEST)
    assert isinstance(first, StructuredResult) and isinstance(second, StructuredResult)
    assert structured.method is StructuredMethod.FORCED_TOOL
    assert ["response_format" in b for b in api.bodies] == [True, False, False]  # asked once, then remembered
    assert api.bodies[1]["tool_choice"] == {"type": "function", "function": {"name": "record_frame"}}


async def test_a_server_with_neither_gives_a_failure_naming_both_limits(
    api: FakeOpenAIApi, make_model: Callable[..., OpenAICompatibleModel]
) -> None:
    for _ in range(2):
        _refusing(api, schema=False, forcing=False, reply=completion(content="{}"))
    structured = SchemaStructuredModel(make_model(), StructuredMethod.JSON_SCHEMA, fallback_to_tools=True)
    result = await structured.generate(REQUEST)
    assert isinstance(result, StructuredFailure)
    assert NO_SCHEMA in result.message and NO_FORCING in result.message and "FORGE_MODEL" in result.message


LLAMA_CPP_PYTHON_REFUSAL = (
    "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input "
    "should be 'text' or 'json_object'\", 'input': 'json_schema', 'ctx': {'expected': \"'text' or 'json_object'\"}}"
)


async def test_llama_cpp_pythons_500_refusing_json_schema_falls_back_to_a_forced_tool_without_retries(
    api: FakeOpenAIApi, make_model: Callable[..., OpenAICompatibleModel], sleeps: Sleeps
) -> None:
    # As llama-cpp-python 0.3.36's server answered (seen with a real one): its validation error as a 500.
    api.error(500, error_body(LLAMA_CPP_PYTHON_REFUSAL, "internal_server_error"))
    api.json(completion(tool_calls=[tool_call("record_frame", json.dumps(GOOD))], finish_reason="tool_calls"))
    structured = SchemaStructuredModel(make_model(), StructuredMethod.JSON_SCHEMA, fallback_to_tools=True)
    result = await structured.generate(REQUEST)

    assert isinstance(result, StructuredResult) and structured.method is StructuredMethod.FORCED_TOOL
    assert len(api.requests) == 2 and sleeps.delays == []  # refused once, not retried as an outage
