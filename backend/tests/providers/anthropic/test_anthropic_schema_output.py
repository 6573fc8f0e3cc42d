"""Engine stages on Claude: JSON-schema output (`output_config.format`) instead of a forced tool, on a
fake API that refuses forced tools where the docs say so; forced tools only on a model with nothing
better; no method at all is an actionable failure."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import anthropic
import httpx2
from providers.anthropic.documented_rules import DocumentedRules
from providers.anthropic.fake_anthropic_api import FakeAnthropicApi
from pydantic import BaseModel, Field

from forge.core.llm.capabilities import ModelCapabilities, StructuredMethod
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult
from forge.providers.anthropic_model import AnthropicModel
from forge.providers.structured_output import SchemaStructuredModel


class Frame(BaseModel):
    objective: str = Field(min_length=3)
    hard_constraints: list[str]


REQUEST = StructuredRequest("record_frame", "The frame.", "Frame the problem.", "Cut ED waits, no new staff.", Frame)
THINKING = {"type": "thinking", "thinking": "The constraint is staffing.", "signature": "EqQBCkYIBx"}
GOOD = {"objective": "cut emergency waits", "hard_constraints": ["no more staff"]}


def _reply(model: str, content: list[dict[str, Any]], stop: str = "end_turn") -> dict[str, Any]:
    usage = {"input_tokens": 900, "output_tokens": 60, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    return {"id": "msg_01S", "type": "message", "role": "assistant", "model": model, "content": content,
            "stop_reason": stop, "stop_sequence": None, "usage": usage}  # fmt: skip


def _serve(api: FakeAnthropicApi, rules: DocumentedRules, body: dict[str, Any]) -> None:
    content = json.dumps(body).encode()
    headers = {"content-type": "application/json"}
    api.replies.append(rules.wrap(lambda _: httpx2.Response(200, content=content, headers=headers)))


def _structured(model: AnthropicModel) -> SchemaStructuredModel:
    caps = model.capabilities
    return SchemaStructuredModel(model, caps.structured_method, schema_for=anthropic.transform_schema)


async def test_an_adaptive_only_model_answers_by_output_format_and_repairs_with_its_thinking_kept(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    rules = DocumentedRules()
    bad = {"objective": "x", "hard_constraints": []}
    _serve(api, rules, _reply("claude-opus-5-5", [THINKING, {"type": "text", "text": json.dumps(bad)}]))
    _serve(api, rules, _reply("claude-opus-5-5", [{"type": "text", "text": json.dumps(GOOD)}]))
    model = make_model(model="claude-opus-5-5")

    result = await _structured(model).generate(REQUEST)

    assert rules.refusals == []
    assert isinstance(result, StructuredResult) and result.value == Frame.model_validate(GOOD) and result.attempts == 2
    first, second = api.bodies
    assert "tool_choice" not in first and "tools" not in first
    assert first["output_config"] == {
        "effort": "medium",
        "format": {"type": "json_schema", "schema": anthropic.transform_schema(Frame)},
    }
    assert first["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert second["messages"][1]["content"][0] == THINKING  # the turn goes back unchanged
    assert "objective" in second["messages"][2]["content"][-1]["text"]  # what to fix, quoted
    assert result.usage.input_tokens == 1800


async def test_a_model_without_structured_outputs_forces_its_tool(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    rules = DocumentedRules()
    call = {"type": "tool_use", "id": "toolu_01F", "name": "record_frame", "input": GOOD}
    _serve(api, rules, _reply("claude-sonnet-4-0", [call], "tool_use"))
    model = make_model(model="claude-sonnet-4-0")
    structured = _structured(model)
    result = await structured.generate(REQUEST)
    assert structured.method is StructuredMethod.FORCED_TOOL and rules.refusals == []
    assert isinstance(result, StructuredResult) and result.value == Frame.model_validate(GOOD)
    assert api.bodies[0]["tool_choice"] == {"type": "tool", "name": "record_frame"}
    assert "thinking" not in api.bodies[0] and "output_config" not in api.bodies[0]


async def test_a_model_with_neither_method_fails_at_once_naming_its_limit(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    model = make_model(model="claude-opus-5-5")
    limited = ModelCapabilities("claude-x", structured_outputs=False, forced_tool_use=False)
    structured = SchemaStructuredModel(model, limited.structured_method, limit="claude-x accepts neither")
    result = await structured.generate(REQUEST)
    assert isinstance(result, StructuredFailure) and "claude-x accepts neither" in result.message
    assert api.requests == []
