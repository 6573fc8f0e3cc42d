"""A deterministic LanguageModel for tests: replays scripted assistant turns and records requests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from forge.core.domain_types import ToolCallId
from forge.core.llm.messages import (
    Message,
    ModelRequest,
    ModelResponse,
    Role,
    StopReason,
    TextPart,
    ToolCall,
    Usage,
)


def call(name: str, arguments: Mapping[str, Any] | None = None, parse_error: str | None = None) -> ToolCall:
    return ToolCall(ToolCallId(f"scripted-{name}"), name, dict(arguments or {}), parse_error)


def turn(*calls: ToolCall, text: str = "") -> Message:
    parts: tuple[TextPart | ToolCall, ...] = ((TextPart(text),) if text else ()) + calls
    return Message(Role.ASSISTANT, parts)


class ScriptedModel:
    """Answers request N with script[N]; the requests it saw are kept for assertions."""

    def __init__(self, script: Sequence[Message], label: str = "scripted model"):
        self._script = list(script)
        self._label = label
        self.requests: list[ModelRequest] = []

    @property
    def label(self) -> str:
        return self._label

    @property
    def context_window(self) -> int:
        return 100_000

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        if len(self.requests) > len(self._script):
            raise AssertionError(f"the script has {len(self._script)} turns; request {len(self.requests)} was made")
        message = self._script[len(self.requests) - 1]
        # Give each call a unique id per turn so results can be matched.
        parts = tuple(
            ToolCall(ToolCallId(f"t{len(self.requests)}-{i}"), p.name, p.arguments, p.parse_error)
            if isinstance(p, ToolCall)
            else p
            for i, p in enumerate(message.parts)
        )
        stop = StopReason.TOOL_USE if any(isinstance(p, ToolCall) for p in parts) else StopReason.END_TURN
        return ModelResponse(Message(Role.ASSISTANT, parts), stop, Usage(100, 20), "scripted")
