"""A Messages API that refuses what the documentation says each model refuses, with the API's 400.

The rules are written here from the docs, independently of forge's catalogue, so a catalogue or wire
regression is refused as the real API would refuse it (platform.claude.com, "What's new in Claude
Opus 5.5" / "Sonnet 5.5", the thinking and effort pages, checked 2026-12-02):
    - Opus 5.5, Fable 5.1: thinking is always adaptive; `enabled` and `disabled` are a 400. Sonnet
      5.5: `enabled` and `disabled` are a 400 (`between_tools` turns up-front thinking off).
    - Opus 5.5, Fable 5.1, Sonnet 5.5: forced tool use (`tool_choice` `any` or `tool`) is a 400.
    - Older models without adaptive thinking (Sonnet 4.5) refuse `adaptive` and `output_config.effort`.
    - Thinking blocks are bound to the conversation: an assistant turn that had them must carry them
      back unchanged (same text, same signature), else a 400.
The error messages follow the documented shape (`{"type": "error", "error": {"type":
"invalid_request_error", "message": ...}}`); the thinking message is the API's own wording.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx2

ADAPTIVE_ONLY = frozenset({"claude-opus-5-5", "claude-fable-5-1", "claude-sonnet-5-5"})
NO_FORCED_TOOLS = ADAPTIVE_ONLY
MANUAL_ONLY = frozenset({"claude-sonnet-4-5", "claude-sonnet-4-5-20250929"})
EFFORT_LEVELS = {
    "claude-opus-5-5": {"low", "medium", "high", "xhigh", "max"},
    "claude-sonnet-5-5": {"low", "medium", "high", "xhigh", "max"},
    "claude-fable-5-1": {"low", "medium", "high", "xhigh", "max"},
    "claude-sonnet-4-6": {"low", "medium", "high", "max"},
    "claude-haiku-5-5": {"low", "medium", "high", "xhigh", "max"},
}
# Structured outputs (output_config.format) came with Claude 4.5 / Opus 4.1: older models refuse it.
NO_STRUCTURED_OUTPUTS = frozenset({"claude-sonnet-4-20250514", "claude-opus-4-20250514", "claude-3-7-sonnet-20250219"})

Reply = Callable[[httpx2.Request], httpx2.Response]


def refused(message: str) -> httpx2.Response:
    body = {"type": "error", "error": {"type": "invalid_request_error", "message": message}, "request_id": "req_011"}
    return httpx2.Response(400, json=body, headers={"request-id": "req_011"})


def _thinking_refusal(model: str, body: dict[str, Any]) -> str | None:
    kind = (body.get("thinking") or {}).get("type")
    if model in ADAPTIVE_ONLY and kind in ("enabled", "disabled"):
        return (
            f'"thinking.type.{kind}" is not supported for this model. Use "thinking.type.adaptive" and '
            '"output_config.effort" to control thinking behavior.'
        )
    if model in MANUAL_ONLY and kind == "adaptive":
        return '"thinking.type.adaptive" is not supported for this model.'
    effort = (body.get("output_config") or {}).get("effort")
    if effort is not None and effort not in EFFORT_LEVELS.get(model, set()):
        return f"output_config.effort: {effort!r} is not supported for this model."
    return None


def _output_format_refusal(model: str, body: dict[str, Any]) -> str | None:
    if model in NO_STRUCTURED_OUTPUTS and (body.get("output_config") or {}).get("format") is not None:
        return "output_config.format: structured outputs are not supported for this model."
    return None


def _tool_choice_refusal(model: str, body: dict[str, Any]) -> str | None:
    choice = (body.get("tool_choice") or {}).get("type")
    if model in NO_FORCED_TOOLS and choice in ("any", "tool"):
        return f"tool_choice.type {choice!r} (forced tool use) is not supported for this model; use 'auto'."
    if choice in ("any", "tool") and (body.get("thinking") or {}).get("type") in ("enabled", "adaptive"):
        return "Thinking may not be enabled when tool_choice forces tool use."
    return None


@dataclass
class DocumentedRules:
    """Wraps scripted replies: a request breaking a documented rule gets the API's 400 instead."""

    served_thinking: list[dict[str, Any]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)

    def _history_refusal(self, body: dict[str, Any]) -> str | None:
        sent = [
            b for m in body["messages"] if m["role"] == "assistant" for b in m["content"] if b["type"] == "thinking"
        ]
        missing = [b for b in self.served_thinking if b not in sent]
        if missing:
            return "messages: thinking blocks must be passed back unchanged in a tool-use loop"
        return None

    def check(self, request: httpx2.Request) -> str | None:
        body = json.loads(request.content)
        model = str(body["model"])
        return _thinking_refusal(model, body) or _tool_choice_refusal(model, body) or self._history_refusal(body)

    def wrap(self, reply: Reply) -> Reply:
        def serve(request: httpx2.Request) -> httpx2.Response:
            problem = self.check(request)
            if problem is not None:
                self.refusals.append(problem)
                return refused(problem)
            response = reply(request)
            content = json.loads(response.content) if response.headers.get("content-type") == "application/json" else {}
            self.served_thinking += [b for b in content.get("content") or () if b.get("type") == "thinking"]
            return response

        return serve
