"""Mapping between forge's typed conversation and the OpenAI Chat Completions wire format.

Pure: plain dicts in and out, no SDK and no IO. Responses are read as the dicts the SDK's
`to_dict(exclude_none=True)` gives (the JSON the server sent, minus nulls), so a field a local
server leaves out is simply absent.

Invariants:
    - Request: the system prompt is a `system` message. Our user message carrying ToolResults
      becomes one `tool` message per result, in order (`tool_call_id` = the call's id; "ERROR: "
      before the content of an error result), then one `user` message for its text, if any.
      Assistant ToolCalls become `tool_calls` with JSON-string arguments (`{}` for a call whose
      arguments did not parse). ProviderParts belong to other providers and are dropped. Every
      assistant message is sent, its content a string ("" when it has only tool calls or nothing):
      null content is refused by llama.cpp, a dropped turn breaks user/assistant alternation.
      Tools are `function` tools, with `tool_choice: "auto"` unless one is required. With
      `tool_results_as_text` (a server whose chat format leaves `tool` messages out of the prompt:
      llama-cpp-python's `chatml-function-calling`) the results go as the text of that user message
      instead, each headed by its tool's name and call id, so the model sees them.
    - A refusal (`refusal` instead of `content`) is kept as the reply's text, so the person sees it.
    - Response: every tool call the model made becomes a ToolCall, never dropped. A missing id is
      synthesised as `call_<index>`; arguments go through `parse_tool_arguments`, and arguments
      that cannot be read give `arguments={}` with `parse_error`, so the loop answers with a tool
      error. In a reply cut at max_tokens (`finish_reason: length`) the last call is incomplete
      unless it parses strictly: parse_error naming max_tokens and its value, never run with half
      its arguments (the truncation repair is for small models that stop early, not a cut reply).
      Arguments that end inside an unclosed string are cut whatever the finish_reason (llama-cpp-python
      reported such calls as `tool_calls`): parse_error saying so (`max_tokens_cut.cut_inside_a_string`),
      never run with the fields after the cut lost.
    - A small model that writes its tool call as JSON text (bare, fenced or in <tool_call> tags)
      instead of `tool_calls`: when there are no native calls, the reply was not cut, and the name
      is an offered tool, the JSON becomes ToolCalls and the rest stays text.
    - Stop reason: stop -> END_TURN, tool_calls / function_call -> TOOL_USE, length -> MAX_TOKENS;
      a reply with tool calls and any other reason (Ollama says `stop`) -> TOOL_USE.
    - Usage: input = prompt - cached, cache_read = cached, output = completion; never negative.
    - Streaming: text deltas in order; tool-call fragments joined by `index`, where a fragment with
      a new `id` at an index already taken is a new call (Ollama reuses index 0). A stream with no
      finish_reason was cut (`finished` is False): the caller must not trust it.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
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
    ToolDefinition,
    ToolResult,
    Usage,
)
from forge.core.llm.repair_tool_json import ParsedArguments, find_text_tool_calls, parse_tool_arguments
from forge.providers.max_tokens_cut import cut_at_max_tokens, cut_inside_a_string

ERROR_PREFIX = "ERROR: "

WireMessage = dict[str, Any]

_STOP_REASONS = {
    "stop": StopReason.END_TURN,
    "content_filter": StopReason.END_TURN,
    "tool_calls": StopReason.TOOL_USE,
    "function_call": StopReason.TOOL_USE,
    "length": StopReason.MAX_TOKENS,
}


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _items(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _int(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


# --- request -------------------------------------------------------------------------------------


def _user_messages(message: Message, names: Mapping[str, str], results_as_text: bool) -> list[WireMessage]:
    out: list[WireMessage] = []
    texts: list[str] = []
    for part in message.parts:
        if isinstance(part, ToolResult):
            content = ERROR_PREFIX + part.content if part.is_error else part.content
            if results_as_text:
                texts.append(f"Result of {names.get(part.call_id, 'the tool')} (call {part.call_id}):\n{content}")
            else:
                out.append({"role": "tool", "tool_call_id": part.call_id, "content": content})
    texts += [part.text for part in message.parts if isinstance(part, TextPart) and part.text.strip()]
    if texts:
        out.append({"role": "user", "content": "\n\n".join(texts)})
    return out


def _wire_tool_call(call: ToolCall) -> dict[str, Any]:
    arguments = json.dumps(dict(call.arguments), ensure_ascii=False, default=str)
    return {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": arguments}}


def _assistant_messages(message: Message) -> list[WireMessage]:
    """One assistant message, always: content is a string ("" with tool calls only, or for an empty
    reply), never null (llama.cpp's server answers 500 to a null content, and a dropped empty reply
    would send two user turns in a row, which templates enforcing alternation refuse)."""
    text = message.text if message.text.strip() else ""
    wire: WireMessage = {"role": "assistant", "content": text}
    calls = [_wire_tool_call(call) for call in message.tool_calls]
    if calls:
        wire["tool_calls"] = calls
    return [wire]


def wire_messages(system: str, messages: Sequence[Message], tool_results_as_text: bool = False) -> list[WireMessage]:
    """The `messages` array: system first, then the conversation in the roles the API expects."""
    out: list[WireMessage] = [{"role": "system", "content": system}] if system.strip() else []
    names: dict[str, str] = {}
    for message in messages:
        if message.role == Role.USER:
            out.extend(_user_messages(message, names, tool_results_as_text))
        else:
            names.update((call.id, call.name) for call in message.tool_calls)
            out.extend(_assistant_messages(message))
    return out


def without_max_lengths(schema: Any) -> Any:
    """The schema with every string `maxLength` removed: llama.cpp's grammar (llama-server,
    llama-cpp-python, Ollama) spells a bounded string out as nested optional characters, and one of
    2,000 exceeds its repetition limit ("failed to parse grammar": llama-cpp-python 0.3.36 then
    crashed). The lengths are still checked when the reply is validated."""
    if isinstance(schema, Mapping):
        return {k: without_max_lengths(v) for k, v in schema.items() if k != "maxLength"}
    if isinstance(schema, list):
        return [without_max_lengths(v) for v in schema]
    return schema


def wire_tools(tools: Sequence[ToolDefinition], grammar_safe: bool = False) -> list[dict[str, Any]]:
    def parameters(t: ToolDefinition) -> dict[str, Any]:
        return without_max_lengths(t.input_schema) if grammar_safe else dict(t.input_schema)

    return [
        {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": parameters(t)}}
        for t in tools
    ]


def request_params(
    request: ModelRequest,
    *,
    model: str,
    max_tokens: int,
    token_limit_field: str = "max_tokens",
    schema_format: str = "json_schema",
    grammar_safe: bool = False,
    tool_results_as_text: bool = False,
) -> dict[str, Any]:
    """Keyword arguments for `chat.completions.create` (no `tools` key when none are offered:
    some local servers reject an empty list). `schema_format` "json_object": llama-cpp-python's
    `{"type": "json_object", "schema": ...}` instead of `json_schema`; `grammar_safe` (a local server,
    whose grammar would choke on long bounded strings): schemas go `without_max_lengths`;
    `tool_results_as_text`: tool results as user text (see `wire_messages`)."""
    params: dict[str, Any] = {
        "model": model,
        "messages": wire_messages(request.system, request.messages, tool_results_as_text),
        token_limit_field: max_tokens,
    }
    if request.tools:
        params["tools"] = wire_tools(request.tools, grammar_safe)
    if request.required_tool is not None:
        params["tool_choice"] = {"type": "function", "function": {"name": request.required_tool}}
    elif request.tools:
        # Explicit: llama.cpp's server offers the tools to the model only for an explicit "auto".
        params["tool_choice"] = "auto"
    if request.output_schema is not None:
        # Not strict: OpenAI's strict mode needs every property required and would refuse pydantic's
        # defaults; vLLM, llama.cpp and Ollama constrain decoding to the schema either way, and the
        # structured layer validates and repairs what comes back.
        output = without_max_lengths(request.output_schema) if grammar_safe else dict(request.output_schema)
        schema = {"name": request.output_name or "output", "schema": output, "strict": False}
        params["response_format"] = (
            {"type": "json_object", "schema": schema["schema"]}
            if schema_format == "json_object"
            else {"type": "json_schema", "json_schema": schema}
        )
    return params


# --- response ------------------------------------------------------------------------------------


@dataclass
class RawToolCall:
    """A tool call as the wire gave it: the id may be missing, the arguments are unparsed text."""

    id: str | None = None
    name: str = ""
    arguments: str = ""


def _arguments_text(value: object) -> str:
    if isinstance(value, str):
        return value
    return "" if value is None else json.dumps(value)


def _raw_call(wire: Mapping[str, Any]) -> RawToolCall:
    function = _mapping(wire.get("function"))
    call_id = wire.get("id")
    return RawToolCall(
        call_id if isinstance(call_id, str) and call_id else None,
        str(function.get("name") or ""),
        _arguments_text(function.get("arguments")),
    )


def _tool_call(raw: RawToolCall, index: int, cut: bool, max_tokens: int | None = None) -> ToolCall:
    call_id = ToolCallId(raw.id or f"call_{index}")
    if cut:
        try:
            arguments = json.loads(raw.arguments)
        except json.JSONDecodeError:
            arguments = None
        if isinstance(arguments, dict):
            return ToolCall(call_id, raw.name, arguments)
        return ToolCall(call_id, raw.name, {}, cut_at_max_tokens(max_tokens))
    parsed = parse_tool_arguments(raw.arguments)
    if isinstance(parsed, ParsedArguments) and parsed.unclosed_string:  # cut, whatever the server said
        return ToolCall(call_id, raw.name, {}, cut_inside_a_string(raw.arguments))
    if isinstance(parsed, ParsedArguments):
        return ToolCall(call_id, raw.name, parsed.arguments)
    return ToolCall(call_id, raw.name, {}, parsed.message)


def usage_from(wire: Mapping[str, Any]) -> Usage:
    prompt = _int(wire.get("prompt_tokens"))
    cached = min(prompt, _int(_mapping(wire.get("prompt_tokens_details")).get("cached_tokens")))
    return Usage(
        input_tokens=max(0, prompt - cached),
        output_tokens=_int(wire.get("completion_tokens")),
        cache_read_tokens=max(0, cached),
    )


def _stop_reason(finish_reason: str | None, has_calls: bool) -> StopReason:
    reason = _STOP_REASONS.get(finish_reason or "")
    if has_calls and reason != StopReason.MAX_TOKENS:
        return StopReason.TOOL_USE
    return reason or StopReason.END_TURN


@dataclass(frozen=True, slots=True)
class WireReply:
    """One assistant reply as read off the wire, before it becomes a ModelResponse."""

    text: str
    calls: Sequence[RawToolCall]
    finish_reason: str | None
    usage: Mapping[str, Any]
    model: str


def response_from_reply(reply: WireReply, tool_names: Collection[str], max_tokens: int | None = None) -> ModelResponse:
    """`max_tokens` is the output budget the call was given, named in a cut tool call's parse_error."""
    cut = reply.finish_reason == "length"
    last = len(reply.calls) - 1
    text = reply.text
    calls = [_tool_call(raw, i, cut and i == last, max_tokens) for i, raw in enumerate(reply.calls)]
    found = None if calls or cut else find_text_tool_calls(text, tool_names)
    if found is not None:
        text = found.remaining_text
        calls = [
            ToolCall(ToolCallId(f"call_{i}"), c.name, c.arguments, c.parse_error) for i, c in enumerate(found.calls)
        ]
    parts = ((TextPart(text),) if text.strip() else ()) + tuple(calls)
    return ModelResponse(
        Message(Role.ASSISTANT, parts),
        _stop_reason(reply.finish_reason, bool(calls)),
        usage_from(reply.usage),
        reply.model,
    )


def response_from_completion(
    completion: Mapping[str, Any], *, tool_names: Collection[str], fallback_model: str, max_tokens: int | None = None
) -> ModelResponse:
    """A ModelResponse from a `chat.completion` dict (its first choice; none means an empty reply)."""
    choices = [_mapping(c) for c in _items(completion.get("choices"))]
    choice = next((c for c in choices if _int(c.get("index")) == 0), {})
    message = _mapping(choice.get("message"))
    content = message.get("content") or message.get("refusal")
    wires = [_mapping(c) for c in _items(message.get("tool_calls"))]
    if not wires and message.get("function_call"):  # the deprecated single-call form
        wires = [{"function": message["function_call"]}]
    finish = choice.get("finish_reason")
    reply = WireReply(
        content if isinstance(content, str) else "",
        [_raw_call(w) for w in wires],
        finish if isinstance(finish, str) else None,
        _mapping(completion.get("usage")),
        str(completion.get("model") or fallback_model),
    )
    return response_from_reply(reply, tool_names, max_tokens)


# --- streaming -----------------------------------------------------------------------------------


@dataclass
class StreamAccumulator:
    """Folds `chat.completion.chunk` dicts into one reply; `apply` returns each chunk's new text.

    Text and argument fragments are kept as lists of pieces and joined once, so a long reply costs
    time linear in its length. `usage` is the last usage the server sent: the final chunk's with
    `include_usage`, or every chunk's on servers that report it continuously (vLLM)."""

    text: list[str] = field(default_factory=list)
    calls: list[RawToolCall] = field(default_factory=list)
    finish_reason: str | None = None
    wire_usage: Mapping[str, Any] = field(default_factory=dict)
    model: str = ""
    _slot_of_index: dict[int, int] = field(default_factory=dict)
    _arguments: list[list[str]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.finish_reason is not None

    @property
    def usage(self) -> Usage:
        return usage_from(self.wire_usage)

    def apply(self, chunk: Mapping[str, Any]) -> str:
        self.model = str(chunk.get("model") or self.model)
        if usage := _mapping(chunk.get("usage")):
            self.wire_usage = usage
        added: list[str] = []
        for choice in (_mapping(c) for c in _items(chunk.get("choices"))):
            if _int(choice.get("index")) != 0:
                continue
            delta = _mapping(choice.get("delta"))
            content = delta.get("content") or delta.get("refusal")
            if isinstance(content, str) and content:
                added.append(content)
            for position, fragment in enumerate(_items(delta.get("tool_calls"))):
                self._add_fragment(_mapping(fragment), position)
            finish = choice.get("finish_reason")
            if isinstance(finish, str) and finish:
                self.finish_reason = finish
        self.text.extend(added)
        return "".join(added)

    def _add_fragment(self, fragment: Mapping[str, Any], position: int) -> None:
        index = fragment.get("index")
        index = index if isinstance(index, int) else position
        fragment_id = fragment.get("id") if isinstance(fragment.get("id"), str) else None
        slot = self._slot_of_index.get(index)
        if slot is None or (fragment_id and self.calls[slot].id not in (None, fragment_id)):
            self.calls.append(RawToolCall())
            self._arguments.append([])
            slot = self._slot_of_index[index] = len(self.calls) - 1
        call = self.calls[slot]
        call.id = call.id or fragment_id or None
        function = _mapping(fragment.get("function"))
        name = function.get("name")
        if isinstance(name, str) and name and not call.name:
            call.name = name
        self._arguments[slot].append(_arguments_text(function.get("arguments")))

    def response(
        self, *, tool_names: Collection[str], fallback_model: str, max_tokens: int | None = None
    ) -> ModelResponse:
        calls = [RawToolCall(c.id, c.name, "".join(a)) for c, a in zip(self.calls, self._arguments, strict=True)]
        reply = WireReply("".join(self.text), calls, self.finish_reason, self.wire_usage, self.model or fallback_model)
        return response_from_reply(reply, tool_names, max_tokens)
