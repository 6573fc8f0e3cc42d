"""Structured generation by JSON-schema output (no forced tool): Anthropic `output_config.format`,
OpenAI-compatible `response_format: json_schema`; forced tools only where that is all a model has.

Invariants:
    - The method is chosen from what the model accepts (`ModelCapabilities.structured_method`, or the
      OpenAI-compatible setting FORGE_STRUCTURED_OUTPUT), never from its name: JSON schema first;
      forced tool use (`structured_via_tools`) only where the model accepts it and nothing better;
      neither: a StructuredFailure at once, naming the model's limit and what to change.
    - `auto` (OpenAI-compatible servers): a server that refuses `response_format` (a 400 / 422) is
      asked again with a forced tool, and keeps that method for the rest of the process; when that is
      refused too, the StructuredFailure quotes both refusals.
    - The reply's text is parsed as JSON and validated by the pydantic output model; an invalid reply
      is answered with what to fix (the validation errors quoted) and asked again, at most
      `max_attempts` calls; the assistant turn goes back unchanged (thinking blocks included).
    - Every attempt's usage is added up, failed or not. Outages propagate (ModelUnavailableError).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError

from forge.core.llm.capabilities import StructuredMethod
from forge.core.llm.effort import ENGINE_SCOPE
from forge.core.llm.messages import Message, ModelRequest, Role, StopReason, TextPart, Usage
from forge.ports import (
    LanguageModel,
    ModelUnavailableError,
    OutputT,
    StructuredFailure,
    StructuredRequest,
    StructuredResult,
)
from forge.providers.openai_failures import is_request_shape_refusal
from forge.providers.structured_via_tools import ToolCallingStructuredModel, validation_feedback

REFUSED_STATUSES = (400, 422)


def refused_request(error: ModelUnavailableError) -> bool:
    """The server refused the request's shape (not an outage): a 400 or 422 from the SDK, or the 500
    with which llama-cpp-python reports its request validation errors."""
    cause = error.__cause__
    return getattr(cause, "status_code", None) in REFUSED_STATUSES or is_request_shape_refusal(cause)


def _problem_with(response_text: str, stop: StopReason, output: type[OutputT]) -> OutputT | str:
    if stop is StopReason.MAX_TOKENS:
        return "The reply hit max_tokens before the value was complete; send a shorter value (fewer, tighter items)."
    try:
        value = json.loads(response_text)
    except ValueError as error:
        return f"The reply was not one JSON value ({error}); answer with the JSON value alone."
    try:
        return output.model_validate(value)
    except ValidationError as error:
        return validation_feedback(error).replace("Call the tool again with", "Answer again with")


class SchemaStructuredModel:
    """JSON-schema output over a LanguageModel, with forced tools as the fallback the method allows.

    `schema_for` turns the output model into the schema the provider accepts (Anthropic's structured
    outputs take a subset of JSON Schema; `anthropic.transform_schema` gives it)."""

    def __init__(
        self,
        model: LanguageModel,
        method: StructuredMethod,
        *,
        fallback_to_tools: bool = False,
        limit: str = "",
        schema_for: Any = None,
        max_attempts: int = 3,
    ) -> None:
        self._model = model
        self._method = method
        self._fallback = fallback_to_tools
        self._limit = limit
        self._schema_for = schema_for or (lambda output: output.model_json_schema())
        self._tools = ToolCallingStructuredModel(model, max_attempts=max_attempts)
        self._max_attempts = max_attempts

    @property
    def label(self) -> str:
        return self._model.label

    @property
    def method(self) -> StructuredMethod:
        return self._method

    async def generate(self, request: StructuredRequest[OutputT]) -> StructuredResult[OutputT] | StructuredFailure:
        if self._method is StructuredMethod.FORCED_TOOL:
            return await self._tools.generate(request)
        if self._method is StructuredMethod.NONE:
            return StructuredFailure(self._no_method_message(), Usage(), 0)
        try:
            return await self._by_schema(request)
        except ModelUnavailableError as error:
            if not (self._fallback and refused_request(error)):
                raise
            refusal = str(error)
        self._method = StructuredMethod.FORCED_TOOL  # this server: forced tools from now on
        try:
            return await self._tools.generate(request)
        except ModelUnavailableError as error:
            if not refused_request(error):
                raise
            return StructuredFailure(self._neither_message(refusal, str(error)), error.usage, 2)

    async def _by_schema(self, request: StructuredRequest[OutputT]) -> StructuredResult[OutputT] | StructuredFailure:
        messages: list[Message] = [Message(Role.USER, (TextPart(request.input),))]
        usage, problem = Usage(), ""
        schema = self._schema_for(request.output)
        for attempt in range(1, self._max_attempts + 1):
            sent = ModelRequest(
                system=request.instructions,
                messages=tuple(messages),
                tools=(),
                max_tokens=request.max_tokens,
                effort_scope=ENGINE_SCOPE,
                output_schema=schema,
                output_name=request.name,
            )
            response = await self._model.complete(sent)
            usage = usage + response.usage
            checked = _problem_with(response.message.text, response.stop_reason, request.output)
            if isinstance(checked, BaseModel):
                return StructuredResult(checked, usage, attempt)
            problem = checked
            messages += [response.message, Message(Role.USER, (TextPart(problem),))]
        return StructuredFailure(
            f"{self.label} gave no valid `{request.name}` after {self._max_attempts} attempts; last problem: {problem}",
            usage,
            self._max_attempts,
        )

    def _no_method_message(self) -> str:
        limit = self._limit or "it accepts neither a JSON-schema output format nor a forced tool call"
        return f"{self.label} can produce no structured output: {limit}. Choose a model that accepts one (see `forge doctor`)."

    def _neither_message(self, schema_refusal: str, tool_refusal: str) -> str:
        return (
            f"{self.label} refused both ways of asking for structured output. response_format json_schema: "
            f"{schema_refusal} Forced tool call: {tool_refusal} Use a server or chat template that supports "
            "one of them (vLLM, llama.cpp server with --jinja, Ollama), or another model (FORGE_MODEL)."
        )
