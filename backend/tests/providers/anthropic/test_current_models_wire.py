"""Requests as the current Claude models accept them, through the real SDK against a fake API that
refuses what the documentation says each model refuses (`documented_rules`).

Shapes: an adaptive-only model (Opus 5.5: adaptive thinking with display and effort, no forced tools,
thinking blocks back unchanged), a model with adaptive thinking and effort (Sonnet 4.6), an older model
with manual budgets only (Sonnet 4.5)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from providers.anthropic.documented_rules import DocumentedRules
from providers.anthropic.fake_anthropic_api import FakeAnthropicApi, sse_event

from forge.core.domain_types import ToolCallId
from forge.core.llm.effort import parse_effort
from forge.core.llm.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    ProviderPart,
    Role,
    ToolDefinition,
    ToolResult,
    user_text,
)
from forge.ports import ModelUnavailableError
from forge.providers.anthropic_model import AnthropicModel

RESEARCH = ToolDefinition(
    "research", "Search sources.", {"type": "object", "properties": {"query": {"type": "string"}}}
)
THINKING = {
    "type": "thinking",
    "thinking": "Queueing theory first: waits grow with occupancy.",
    "signature": "EqQBCkYIBx",
}


def _message(model: str, content: list[dict[str, Any]], stop: str) -> dict[str, Any]:
    usage = {"input_tokens": 2100, "output_tokens": 180, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
    return {
        "id": "msg_01Cur",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": usage,
    }


def _serve(api: FakeAnthropicApi, rules: DocumentedRules, body: dict[str, Any]) -> None:
    content = json.dumps(body).encode()
    headers = {"content-type": "application/json", "request-id": "req_011"}
    api.replies.append(rules.wrap(lambda _: httpx2.Response(200, content=content, headers=headers)))


def _agent_request(*messages: Message) -> ModelRequest:
    return ModelRequest(
        "You are a careful analyst.",
        messages or (user_text("How can a hospital cut emergency waits?"),),
        (RESEARCH,),
        max_tokens=16_384,
        thinking_budget=8192,
        effort_scope="synthesize",
    )


async def test_an_adaptive_only_model_gets_adaptive_thinking_with_display_and_effort_and_its_blocks_back(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    rules = DocumentedRules()
    call = {"type": "tool_use", "id": "toolu_01Q", "name": "research", "input": {"query": "queueing"}}
    _serve(api, rules, _message("claude-opus-5-5", [THINKING, call], "tool_use"))
    _serve(api, rules, _message("claude-opus-5-5", [{"type": "text", "text": "Pool the triage nurses."}], "end_turn"))
    model = make_model(model="claude-opus-5-5")

    first = await model.complete(_agent_request())
    result = Message(Role.USER, (ToolResult(ToolCallId("toolu_01Q"), '{"results": []}'),))
    second = await model.complete(
        _agent_request(user_text("How can a hospital cut emergency waits?"), first.message, result)
    )

    assert rules.refusals == []
    sent = api.bodies
    assert sent[0]["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert sent[0]["output_config"] == {"effort": "high"} and "tool_choice" not in sent[0]
    assert sent[1]["messages"][1]["content"][0] == THINKING  # the thinking block, unchanged
    assert sent[0]["thinking"] == sent[1]["thinking"] and sent[0]["output_config"] == sent[1]["output_config"]
    assert first.message.shown_text == THINKING["thinking"]  # the notes between tool calls reach the feed
    assert first.message.text == "" and second.message.text == "Pool the triage nurses."
    assert model.context_window == 1_000_000


async def test_the_fake_api_refuses_forced_tools_and_manual_thinking_on_an_adaptive_only_model(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    """The guard of the other tests: what the docs say is refused is refused here too."""
    rules = DocumentedRules()
    _serve(api, rules, _message("claude-opus-5-5", [], "end_turn"))
    forced = ModelRequest("s", (user_text("q"),), (RESEARCH,), required_tool="research")
    with pytest.raises(ModelUnavailableError, match="forced tool use"):
        await make_model(model="claude-opus-5-5").complete(forced)
    body = {"model": "claude-opus-5-5", "messages": [], "thinking": {"type": "enabled", "budget_tokens": 2048}}
    assert rules.check(httpx2.Request("POST", "https://api.anthropic.com/v1/messages", json=body)) == (
        '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and '
        '"output_config.effort" to control thinking behavior.'
    )


async def test_a_model_with_adaptive_thinking_and_effort_gets_the_nearest_level_it_accepts(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    rules = DocumentedRules()
    _serve(api, rules, _message("claude-sonnet-4-6", [{"type": "text", "text": "Done."}], "end_turn"))
    model = make_model(model="claude-sonnet-4-6", effort=parse_effort("synthesize=xhigh,engine=low"))
    await model.complete(_agent_request())
    assert rules.refusals == []
    assert api.bodies[0]["thinking"] == {"type": "adaptive", "display": "summarized"}
    assert api.bodies[0]["output_config"] == {"effort": "high"}  # no xhigh on Sonnet 4.6
    assert "anthropic-beta" not in api.requests[0].headers  # adaptive thinking interleaves without a beta


async def test_an_older_model_with_manual_budgets_gets_budget_tokens_and_no_effort(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    rules = DocumentedRules()
    _serve(api, rules, _message("claude-sonnet-4-5", [{"type": "text", "text": "Done."}], "end_turn"))
    await make_model(model="claude-sonnet-4-5").complete(_agent_request())
    assert rules.refusals == []
    assert api.bodies[0]["thinking"] == {"type": "enabled", "budget_tokens": 8192}
    assert "output_config" not in api.bodies[0]
    assert api.requests[0].headers["anthropic-beta"] == "interleaved-thinking-2025-05-14"  # thinks between tools


async def test_a_streamed_turn_keeps_its_thinking_block_whole_and_shows_its_notes(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    """The stream of an adaptive-only model: thinking and signature deltas, then a tool call."""
    start = _message("claude-opus-5-5", [], "tool_use") | {"stop_reason": None}
    events = [
        {"type": "message_start", "message": start},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": "", "signature": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Queueing theory first: "}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "waits grow with occupancy."}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQBCkYIBx"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_01Q", "name": "research", "input": {}}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": '{"query": "queueing"}'}},
        {"type": "content_block_stop", "index": 1},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 180}},
        {"type": "message_stop"},
    ]  # fmt: skip
    api.sse_text("".join(sse_event(e) for e in events))
    items = [item async for item in make_model(model="claude-opus-5-5").stream(_agent_request())]
    final = items[-1]
    assert isinstance(final, ModelResponse)
    assert final.message.shown_text == THINKING["thinking"]
    thinking = final.message.parts[0]
    assert isinstance(thinking, ProviderPart) and thinking.payload == THINKING  # whole, to go back unchanged
    assert [c.name for c in final.message.tool_calls] == ["research"]
