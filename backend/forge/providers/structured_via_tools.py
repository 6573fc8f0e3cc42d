"""Structured generation for any tool-calling LanguageModel: the output schema is the one tool, and
the model is required to call it. The fallback of `structured_output` for models and servers without
JSON-schema output that accept a forced tool (Opus 5.5, Fable 5.1 and Sonnet 5.5 refuse it).

Invariants:
    - The request offers exactly one tool (name = request.name, input schema = the output model's
      JSON schema) and requires it (`ModelRequest.required_tool`: Anthropic `tool_choice` type
      `tool`, OpenAI-compatible `tool_choice` function), so the reply is data, not prose.
    - The tool's arguments are validated by the pydantic output model. An invalid reply (no call, a
      call whose JSON did not parse — e.g. cut at max_tokens — or a value that fails validation) is
      answered with an error tool result that quotes what to fix, and asked again, at most
      `max_attempts` calls in all; then a StructuredFailure says why.
    - Every attempt's usage is added up and reported, failed or not (the provider charged it).
    - Outages (ModelUnavailableError) propagate: the wrapped model already retried them.

Design decisions:
    - Forced tool use rather than a JSON-mode prompt where no schema output exists: both providers
      validate tool arguments as JSON, the wire code parses and repairs them, and retries, streaming
      cuts and cost accounting are the wrapped model's, already hardened.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from forge.core.llm.messages import (
    Message,
    ModelRequest,
    Role,
    StopReason,
    TextPart,
    ToolCall,
    ToolDefinition,
    ToolResult,
    Usage,
)
from forge.ports import LanguageModel, OutputT, StructuredFailure, StructuredRequest, StructuredResult

MAX_ERRORS_QUOTED = 8


def output_tool(request: StructuredRequest[Any]) -> ToolDefinition:
    return ToolDefinition(request.name, request.purpose, request.output.model_json_schema())


def validation_feedback(error: ValidationError) -> str:
    """The validation errors as a model can act on them: where, what is wrong (a few at most)."""
    lines = []
    for item in error.errors()[:MAX_ERRORS_QUOTED]:
        where = ".".join(str(part) for part in item["loc"]) or "(the whole value)"
        lines.append(f"- {where}: {item['msg']}")
    more = len(error.errors()) - MAX_ERRORS_QUOTED
    if more > 0:
        lines.append(f"- … and {more} more")
    return "The value does not match the schema:\n" + "\n".join(lines) + "\nCall the tool again with a corrected value."


def _problem_with(call: ToolCall | None, name: str, stop: StopReason) -> str | None:
    if call is None:
        return f"Reply by calling the tool `{name}` with the value; the reply held no call of it."
    if call.parse_error is None:
        return None
    if stop is StopReason.MAX_TOKENS:
        return "The reply hit max_tokens before the value was complete; send a shorter value (fewer, tighter items)."
    return f"The tool input was not valid JSON ({call.parse_error}); send the value again as valid JSON."


class ToolCallingStructuredModel:
    def __init__(self, model: LanguageModel, *, max_attempts: int = 3) -> None:
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self._model = model
        self._max_attempts = max_attempts

    @property
    def label(self) -> str:
        return self._model.label

    async def generate(self, request: StructuredRequest[OutputT]) -> StructuredResult[OutputT] | StructuredFailure:
        messages: list[Message] = [Message(Role.USER, (TextPart(request.input),))]
        usage, problem = Usage(), ""
        for attempt in range(1, self._max_attempts + 1):
            response = await self._model.complete(self._request(request, messages))
            usage = usage + response.usage
            call = next((c for c in response.message.tool_calls if c.name == request.name), None)
            problem_or_value = self._check(request.output, call, request.name, response.stop_reason)
            if isinstance(problem_or_value, BaseModel):
                return StructuredResult(problem_or_value, usage, attempt)
            problem = problem_or_value
            messages += [response.message, _feedback(response.message, call, problem)]
        return StructuredFailure(
            f"{self.label} gave no valid `{request.name}` after {self._max_attempts} attempts; last problem: {problem}",
            usage,
            self._max_attempts,
        )

    @staticmethod
    def _check(output: type[OutputT], call: ToolCall | None, name: str, stop: StopReason) -> OutputT | str:
        problem = _problem_with(call, name, stop)
        if problem is not None:
            return problem
        assert call is not None  # _problem_with reports a missing call
        try:
            return output.model_validate(dict(call.arguments))
        except ValidationError as error:
            return validation_feedback(error)

    @staticmethod
    def _request(request: StructuredRequest[Any], messages: list[Message]) -> ModelRequest:
        return ModelRequest(
            system=request.instructions,
            messages=tuple(messages),
            tools=(output_tool(request),),
            max_tokens=request.max_tokens,
            required_tool=request.name,
        )


def _feedback(reply: Message, call: ToolCall | None, problem: str) -> Message:
    """The user turn after an invalid reply: a result for every call it made (the APIs require one),
    the problem on the output tool's result, or as text when there was no call."""
    results: list[TextPart | ToolResult] = [
        ToolResult(c.id, problem if c is call else "Ignored: only the output tool is expected.", is_error=True)
        for c in reply.tool_calls
    ]
    if call is None:
        results.append(TextPart(problem))
    return Message(Role.USER, tuple(results))
