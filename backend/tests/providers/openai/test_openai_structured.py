"""Structured output through the real openai SDK: a required function call, validated result."""

from __future__ import annotations

import json
from collections.abc import Callable

from providers.openai.fake_openai_api import FakeOpenAIApi, completion, tool_call
from pydantic import BaseModel

from forge.ports import StructuredRequest, StructuredResult
from forge.providers.openai_compatible_model import OpenAICompatibleModel
from forge.providers.structured_via_tools import ToolCallingStructuredModel


class Frame(BaseModel):
    objective: str
    hard_constraints: list[str]


REQUEST = StructuredRequest(
    name="record_frame",
    purpose="The problem frame.",
    instructions="Frame the problem.",
    input="Cut emergency waits without more staff.",
    output=Frame,
)


async def test_required_function_on_the_wire_and_a_validated_value(
    api: FakeOpenAIApi, make_model: Callable[..., OpenAICompatibleModel]
) -> None:
    value = {"objective": "cut emergency waits", "hard_constraints": ["no more staff"]}
    api.json(completion(tool_calls=[tool_call("record_frame", json.dumps(value))], finish_reason="tool_calls"))
    result = await ToolCallingStructuredModel(make_model()).generate(REQUEST)
    assert isinstance(result, StructuredResult) and result.value == Frame.model_validate(value)
    (body,) = api.bodies
    assert body["tool_choice"] == {"type": "function", "function": {"name": "record_frame"}}
    assert [t["function"]["name"] for t in body["tools"]] == ["record_frame"]


async def test_a_value_missing_a_field_is_sent_back_as_a_tool_message(
    api: FakeOpenAIApi, make_model: Callable[..., OpenAICompatibleModel]
) -> None:
    good = {"objective": "cut emergency waits", "hard_constraints": []}
    api.json(completion(tool_calls=[tool_call("record_frame", '{"objective": "x"}')], finish_reason="tool_calls"))
    api.json(completion(tool_calls=[tool_call("record_frame", json.dumps(good), "call_2")], finish_reason="tool_calls"))
    result = await ToolCallingStructuredModel(make_model()).generate(REQUEST)
    assert isinstance(result, StructuredResult) and result.attempts == 2
    tool_message = api.bodies[1]["messages"][-1]
    assert tool_message["role"] == "tool" and tool_message["tool_call_id"] == "call_abc123"
    assert "hard_constraints" in tool_message["content"]
