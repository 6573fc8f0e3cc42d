"""Structured output through the real Anthropic SDK: forced tool use on the wire, validated result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from providers.anthropic.fake_anthropic_api import FakeAnthropicApi
from pydantic import BaseModel

from forge.core.llm.messages import Usage
from forge.ports import StructuredRequest, StructuredResult
from forge.providers.anthropic_model import AnthropicModel
from forge.providers.structured_via_tools import ToolCallingStructuredModel


class Contradiction(BaseModel):
    improving: int
    worsening: int
    why: str


REQUEST = StructuredRequest(
    name="record_contradiction",
    purpose="The technical contradiction as two TRIZ parameters.",
    instructions="Name the improving and the worsening TRIZ parameter (1..39).",
    input="Faster triage worsens accuracy.",
    output=Contradiction,
)


def tool_reply(arguments: dict[str, Any], stop_reason: str = "tool_use") -> dict[str, Any]:
    return {
        "id": "msg_01Struct",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": [{"type": "tool_use", "id": "toolu_01Struct", "name": "record_contradiction", "input": arguments}],
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {
            "input_tokens": 310,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": 42,
        },
    }


async def test_forced_tool_use_on_the_wire_and_a_validated_value(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    api.json_body(tool_reply({"improving": 9, "worsening": 28, "why": "speed vs measurement accuracy"}))
    result = await ToolCallingStructuredModel(make_model()).generate(REQUEST)
    assert result == StructuredResult(
        Contradiction(improving=9, worsening=28, why="speed vs measurement accuracy"), Usage(310, 42), 1
    )
    (body,) = api.bodies
    assert body["tool_choice"] == {"type": "tool", "name": "record_contradiction"}
    assert [t["name"] for t in body["tools"]] == ["record_contradiction"]
    assert body["tools"][0]["input_schema"]["required"] == ["improving", "worsening", "why"]


async def test_an_invalid_value_is_answered_with_an_error_tool_result_and_asked_again(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    api.json_body(tool_reply({"improving": "nine"})).json_body(
        tool_reply({"improving": 9, "worsening": 28, "why": "x"})
    )
    result = await ToolCallingStructuredModel(make_model()).generate(REQUEST)
    assert isinstance(result, StructuredResult) and result.attempts == 2 and result.usage == Usage(620, 84)
    retry = api.bodies[1]["messages"]
    assert retry[1]["content"][0]["type"] == "tool_use"
    feedback = retry[2]["content"][0]
    assert feedback["type"] == "tool_result" and feedback["is_error"] is True
    assert feedback["tool_use_id"] == "toolu_01Struct" and "worsening" in str(feedback["content"])
