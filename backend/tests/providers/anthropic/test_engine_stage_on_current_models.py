"""The issue's failure, as a test: the engine's first stage (the problem frame) on Opus 5.5 and
Sonnet 5.5, built as production builds it (`build_structured_model`), against an API that refuses
forced tools and manual thinking as the documentation says. It used to be refused at once."""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx2
import pytest
from providers.anthropic.documented_rules import DocumentedRules
from providers.anthropic.fake_anthropic_api import FakeAnthropicApi

from forge.bootstrap.adapters import build_structured_model
from forge.bootstrap.model_routing import ModelRoute, Provider
from forge.engine.frame.frame_problem import Framed, frame_problem
from forge.providers.anthropic_model import AnthropicModel

PROBLEM = "How can a hospital cut emergency wait times?\n\nConstraints:\n- no new beds"
FRAME = {
    "objective": "Cut emergency wait times",
    "target_object": "emergency department",
    "target_outcome": "median wait under 30 minutes",
    "hard_constraints": ["no new hires"],
}


@pytest.mark.parametrize("model_id", ["claude-opus-5-5", "claude-sonnet-5-5", "claude-fable-5-1"])
async def test_the_frame_stage_runs_through_the_model_without_a_forced_tool(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel], model_id: str
) -> None:
    rules = DocumentedRules()
    reply = {
        "id": "msg_01F", "type": "message", "role": "assistant", "model": model_id,
        "content": [{"type": "thinking", "thinking": "", "signature": "EqQB"}, {"type": "text", "text": json.dumps(FRAME)}],
        "stop_reason": "end_turn", "stop_sequence": None,
        "usage": {"input_tokens": 1200, "output_tokens": 240, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
    }  # fmt: skip
    body = json.dumps(reply).encode()
    api.replies.append(
        rules.wrap(lambda _: httpx2.Response(200, content=body, headers={"content-type": "application/json"}))
    )
    model = make_model(model=model_id)
    structured = build_structured_model(ModelRoute(Provider.ANTHROPIC, model_id), model, ())

    framed = await frame_problem(structured, PROBLEM)

    assert rules.refusals == [] and isinstance(framed, Framed)
    assert framed.audited.frame.hard_constraints == ("no new beds", "no new hires")
    (sent,) = api.bodies
    assert "tool_choice" not in sent and sent["output_config"]["format"]["type"] == "json_schema"
    assert sent["thinking"]["type"] == "adaptive"
