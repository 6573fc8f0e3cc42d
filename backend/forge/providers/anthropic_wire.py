"""Mapping between forge's typed conversation and the Anthropic Messages API wire format.

Pure: plain dicts in and out, no SDK and no IO. Responses are read as the dicts the SDK's
`to_dict(exclude_none=True)` gives, i.e. the JSON the API sent minus its nulls.

Invariants:
    - Anthropic ProviderParts (`server_tool_use`, `web_search_tool_result`, thinking, ...) go back
      verbatim, as copies that are never mutated; other providers' ProviderParts are dropped. Thinking
      blocks with their signatures are what the API requires back within a tool-use loop.
    - Extended thinking follows the request (phases that reason ask for a budget); it changes only at
      a phase's brief, a new user turn, never inside a tool-use loop, as the API requires.
    - A ToolCall whose arguments did not parse goes back with `input: {}`; blank text never goes on
      the wire (the API rejects empty text blocks) and a message left with no block is dropped.
    - Roles alternate on the wire (same-role neighbours are merged, as the API itself would) and a
      user message's tool_result blocks come before its other blocks, as the API requires.
    - A tool call the model did not finish (its JSON does not parse, or it is the last block of a
      turn cut at max_tokens) becomes a ToolCall with `parse_error` set: never dropped, never run
      with half its arguments. A call cut by the output limit says so (naming max_tokens and its
      value), whatever its JSON looks like, so the agent can ask for a shorter call.
    - A tool result with citable research hits goes as its JSON (each cited result's `snippet` taken
      out: it is not sent twice) followed by one `search_result` block per hit with citations on, so
      the model can cite a hit's text natively. Citations are on for every search result (the API
      wants them all on or all off). The evidence trail does not change: tools still name sources.
    - Web search hits come only from `web_search_tool_result` blocks: url and title as returned;
      the snippet is text the model quoted from that page (its citations), else the title and page
      age. Nothing is invented. An error result (the search did not run) gives no ServerResearch.

Cache breakpoints (the API allows 4; the prefix order is tools -> system -> messages):
    1. the last tool, which caches the whole tool list (web search included when offered);
    2. the system prompt;
    3. the last block of the last user message: writes the whole conversation, so the next call,
       whose prefix is this request plus the assistant turn, reads it;
    4. the last block of the user message before it: the point the previous call wrote, so the
       read hits even when the new turn added more blocks than the API's look-back window.
    A pause_turn continuation appends the partial assistant turn after breakpoint 3, so it reads
    the prefix the paused call wrote.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from forge.core.domain_types import ToolCallId
from forge.core.llm.messages import (
    Message,
    MessagePart,
    ModelRequest,
    ModelResponse,
    ProviderPart,
    Role,
    ServerResearch,
    StopReason,
    TextPart,
    ToolCall,
    ToolDefinition,
    ToolResult,
    Usage,
)
from forge.core.session.records import ResearchHit
from forge.providers.max_tokens_cut import cut_at_context_window, cut_at_max_tokens

PROVIDER = "anthropic"
EPHEMERAL: Mapping[str, str] = {"type": "ephemeral"}
MIN_THINKING_BUDGET = 1024  # the API's smallest thinking budget
WEB_SEARCH_TOOL_TYPE = "web_search_20250305"
WEB_SEARCH_TOOL_NAME = "web_search"

Block = dict[str, Any]

_STOP_REASONS = {
    "end_turn": StopReason.END_TURN,
    "stop_sequence": StopReason.END_TURN,
    "refusal": StopReason.END_TURN,
    "tool_use": StopReason.TOOL_USE,
    "max_tokens": StopReason.MAX_TOKENS,
    "model_context_window_exceeded": StopReason.MAX_TOKENS,
    "pause_turn": StopReason.PAUSE_TURN,
}


# --- request -------------------------------------------------------------------------------------


def _cached(block: Mapping[str, Any]) -> Block:
    return {**block, "cache_control": dict(EPHEMERAL)}


def system_blocks(system: str) -> list[Block]:
    return [_cached({"type": "text", "text": system})] if system.strip() else []


def tool_params(tools: Sequence[ToolDefinition], web_search_max_uses: int | None) -> list[Block]:
    """Our tools, then the server web search tool when `web_search_max_uses` is given; the last is cached."""
    params: list[Block] = [
        {"name": t.name, "description": t.description, "input_schema": copy.deepcopy(dict(t.input_schema))}
        for t in tools
    ]
    if web_search_max_uses is not None:
        params.append({"type": WEB_SEARCH_TOOL_TYPE, "name": WEB_SEARCH_TOOL_NAME, "max_uses": web_search_max_uses})
    if params:
        params[-1] = _cached(params[-1])
    return params


def _part_block(part: MessagePart) -> Block | None:
    if isinstance(part, TextPart):
        return {"type": "text", "text": part.text} if part.text.strip() else None
    if isinstance(part, ToolCall):
        arguments = {} if part.parse_error else copy.deepcopy(dict(part.arguments))
        return {"type": "tool_use", "id": part.id, "name": part.name, "input": arguments}
    if isinstance(part, ToolResult):
        block: Block = {"type": "tool_result", "tool_use_id": part.call_id, "is_error": part.is_error}
        if part.citable:
            block["content"] = _citable_result(part)
        elif part.content:
            block["content"] = part.content
        return block
    if part.provider == PROVIDER:
        return copy.deepcopy(dict(part.payload))
    return None


def _search_result(hit: ResearchHit) -> Block:
    return {
        "type": "search_result",
        "source": hit.source,
        "title": hit.title.strip() or hit.source,
        "content": [{"type": "text", "text": hit.snippet}],
        "citations": {"enabled": True},
    }


def _without_cited_snippets(content: str, cited: set[str]) -> str:
    """The research result's JSON with the snippets of the cited hits removed (sent as blocks)."""
    try:
        value = json.loads(content)
    except ValueError:
        return content
    results = value.get("results") if isinstance(value, dict) else None
    if not isinstance(results, list):
        return content
    value["results"] = [
        {k: v for k, v in r.items() if k != "snippet"} if isinstance(r, dict) and r.get("source") in cited else r
        for r in results
    ]
    return json.dumps(value, ensure_ascii=False)


def _citable_result(part: ToolResult) -> list[Block]:
    text = _without_cited_snippets(part.content, {h.source for h in part.citable})
    head: list[Block] = [{"type": "text", "text": text}] if text.strip() else []
    return [*head, *(_search_result(h) for h in part.citable)]


def message_params(messages: Sequence[Message]) -> list[Block]:
    """Messages as the API wants them: roles alternate, and tool results open a user message."""
    wire: list[Block] = []
    for message in messages:
        blocks = [b for b in (_part_block(p) for p in message.parts) if b is not None]
        if not blocks:
            continue
        if wire and wire[-1]["role"] == message.role.value:
            wire[-1]["content"].extend(blocks)  # a dropped message between them: one turn, as the API would
        else:
            wire.append({"role": message.role.value, "content": blocks})
    user_turns = [m for m in wire if m["role"] == Role.USER.value]
    for turn in user_turns:
        turn["content"].sort(key=lambda b: b.get("type") != "tool_result")  # stable: results first
    for turn in user_turns[-2:]:
        turn["content"][-1] = _cached(turn["content"][-1])
    return wire


def request_params(
    request: ModelRequest,
    *,
    model: str,
    max_tokens: int,
    web_search_max_uses: int,
    continuation: Sequence[Mapping[str, Any]] = (),
    thinking: bool = False,
) -> dict[str, Any]:
    """The body of one Messages API call; `continuation` is a paused turn's content so far.

    With `thinking` (the model supports extended thinking) and a request that asks for it, the body
    enables it with the request's budget, kept below max_tokens and at least the API's 1,024."""
    messages = message_params(request.messages)
    if continuation:
        messages.append({"role": Role.ASSISTANT.value, "content": [copy.deepcopy(dict(b)) for b in continuation]})
    params: dict[str, Any] = {"model": model, "max_tokens": max_tokens, "messages": messages}
    system = system_blocks(request.system)
    if system:
        params["system"] = system
    searching = request.server_research and web_search_max_uses > 0
    tools = tool_params(request.tools, web_search_max_uses if searching else None)
    if tools:
        params["tools"] = tools
    if request.required_tool is not None:
        # A forced tool call cannot be combined with extended thinking (the API refuses both).
        params["tool_choice"] = {"type": "tool", "name": request.required_tool}
        return params
    budget = min(request.thinking_budget, max_tokens - MIN_THINKING_BUDGET)
    if thinking and budget >= MIN_THINKING_BUDGET:
        params["thinking"] = {"type": "enabled", "budget_tokens": budget}
    return params


def supports_extended_thinking(model: str) -> bool:
    """Claude 3.7 and every Claude 4+ model think; older ones reject the parameter."""
    return not model.startswith(("claude-3-5", "claude-3-haiku", "claude-3-opus", "claude-3-sonnet", "claude-2"))


# --- response ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WireTurn:
    """One HTTP response: its raw content blocks, why it stopped, what it cost.

    `input_errors` maps a block index to (why its tool input did not parse, the raw JSON)."""

    blocks: tuple[Block, ...]
    stop_reason: str | None
    usage: Usage
    model: str
    input_errors: Mapping[int, tuple[str, str]] = field(default_factory=dict)


def usage_from(usage: Mapping[str, Any] | None) -> Usage:
    u = usage or {}
    return Usage(
        int(u.get("input_tokens") or 0),
        int(u.get("output_tokens") or 0),
        int(u.get("cache_creation_input_tokens") or 0),
        int(u.get("cache_read_input_tokens") or 0),
    )


def stop_reason_from(value: str | None) -> StopReason:
    return _STOP_REASONS.get(value or "", StopReason.END_TURN)


def turn_from_message(message: Mapping[str, Any]) -> WireTurn:
    blocks = tuple(dict(b) for b in message.get("content") or ())
    return WireTurn(blocks, message.get("stop_reason"), usage_from(message.get("usage")), str(message.get("model", "")))


def _tool_call(block: Mapping[str, Any], error: tuple[str, str] | None) -> ToolCall:
    call_id, name = ToolCallId(str(block.get("id", ""))), str(block.get("name", ""))
    arguments = block.get("input")
    if error is not None:
        message, raw = error
        return ToolCall(call_id, name, {"raw": raw} if raw else {}, message)
    if not isinstance(arguments, dict):
        return ToolCall(call_id, name, {}, f"the arguments were {type(arguments).__name__}, not a JSON object")
    return ToolCall(call_id, name, copy.deepcopy(arguments))


def _cut_error(turn: WireTurn, index: int, max_tokens: int | None) -> tuple[str, str] | None:
    """Why the tool call at `index` is incomplete because the reply was cut there, if it was:
    the last block of a turn stopped by the output limit (its raw JSON kept, when streamed)."""
    if index != len(turn.blocks) - 1 or stop_reason_from(turn.stop_reason) != StopReason.MAX_TOKENS:
        return None
    raw = turn.input_errors.get(index, ("", ""))[1]
    if turn.stop_reason == "model_context_window_exceeded":
        return cut_at_context_window(), raw
    return cut_at_max_tokens(max_tokens), raw


def _turn_parts(turn: WireTurn, max_tokens: int | None) -> list[MessagePart]:
    parts: list[MessagePart] = []
    for index, block in enumerate(turn.blocks):
        kind = block.get("type")
        if kind == "text":
            if block.get("text"):
                parts.append(TextPart(str(block["text"])))
        elif kind == "tool_use":
            error = _cut_error(turn, index, max_tokens) or turn.input_errors.get(index)
            parts.append(_tool_call(block, error))
        else:
            parts.append(ProviderPart(PROVIDER, copy.deepcopy(block)))
    return parts


def _quotes_by_url(blocks: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    quotes: dict[str, list[str]] = {}
    citations = [c for b in blocks if b.get("type") == "text" for c in b.get("citations") or ()]
    for citation in citations:
        if citation.get("type") == "web_search_result_location" and citation.get("cited_text"):
            found = quotes.setdefault(str(citation.get("url", "")), [])
            if citation["cited_text"] not in found:
                found.append(str(citation["cited_text"]))
    return quotes


def _hit(result: Mapping[str, Any], quotes: Mapping[str, list[str]]) -> ResearchHit:
    url = str(result["url"])
    title = str(result.get("title") or url)
    page_age = result.get("page_age")
    fallback = f"{title} (page age: {page_age})" if page_age else title
    return ResearchHit(url, title, " … ".join(quotes.get(url, ())) or fallback)


def server_research(blocks: Sequence[Mapping[str, Any]]) -> tuple[ServerResearch, ...]:
    """Each web search the server ran, with its query and hits, in order."""
    queries = {
        b.get("id"): str((b.get("input") or {}).get("query", ""))
        for b in blocks
        if b.get("type") == "server_tool_use" and b.get("name") == WEB_SEARCH_TOOL_NAME
    }
    quotes = _quotes_by_url(blocks)
    found: list[ServerResearch] = []
    for block in blocks:
        content = block.get("content")
        if block.get("type") != "web_search_tool_result" or not isinstance(content, list):
            continue  # not a search result, or an error object: the search did not run
        results = [r for r in content if isinstance(r, dict) and r.get("type") == "web_search_result" and r.get("url")]
        found.append(ServerResearch(queries.get(block.get("tool_use_id"), ""), tuple(_hit(r, quotes) for r in results)))
    return tuple(found)


def response_from_turns(turns: Sequence[WireTurn], max_tokens: int | None = None) -> ModelResponse:
    """One ModelResponse for a turn that may have been paused and continued several times.

    `max_tokens` is the output budget the calls were given, named in a cut tool call's parse_error."""
    parts = [part for turn in turns for part in _turn_parts(turn, max_tokens)]
    usage = sum((t.usage for t in turns), Usage())
    model = next((t.model for t in reversed(turns) if t.model), "")
    research = server_research([b for t in turns for b in t.blocks])
    stop = stop_reason_from(turns[-1].stop_reason if turns else None)
    return ModelResponse(Message(Role.ASSISTANT, tuple(parts)), stop, usage, model, research)


# --- streaming -----------------------------------------------------------------------------------


class StreamCutError(ConnectionError):
    """The event stream ended before the reply was complete (retryable)."""


class StreamAccumulator:
    """Builds one WireTurn from raw stream events (as dicts).

    Keeps each tool input's raw JSON and parses it strictly when its block stops: the SDK's
    partial-mode parser would turn a cut-off input into a plausible but partial dict. Text,
    thinking and JSON deltas are kept as lists of pieces and joined once, so a long reply costs
    time linear in its length. `usage` is what the stream has reported so far (`message_start`,
    then each `message_delta`), so a failed attempt is still charged."""

    def __init__(self) -> None:
        self._message: Block | None = None
        self._pieces: dict[tuple[int, str], list[str]] = {}
        self._json: dict[int, list[str]] = {}
        self._errors: dict[int, tuple[str, str]] = {}
        self._open: set[int] = set()
        self._stopped = False

    @property
    def usage(self) -> Usage:
        return usage_from(self._message.get("usage")) if self._message is not None else Usage()

    def apply(self, event: Mapping[str, Any]) -> str:
        """Fold one event in; returns the text it added ("" if none)."""
        kind = event.get("type")
        if kind == "message_start":
            self._message = copy.deepcopy(dict(event["message"]))
            self._message["content"] = list(self._message.get("content") or [])
        elif kind == "message_stop":
            self._stopped = True
        elif self._message is None:
            raise StreamCutError(f"stream event {kind!r} arrived before message_start")
        elif kind == "content_block_start":
            self._open.add(len(self._message["content"]))
            self._message["content"].append(copy.deepcopy(dict(event["content_block"])))
        elif kind == "content_block_delta":
            return self._delta(int(event["index"]), event["delta"])
        elif kind == "content_block_stop":
            self._close(int(event["index"]))
        elif kind == "message_delta":
            self._message.update({k: v for k, v in (event.get("delta") or {}).items() if v is not None})
            usage = self._message.setdefault("usage", {})
            usage.update({k: v for k, v in (event.get("usage") or {}).items() if v is not None})
        return ""

    def _delta(self, index: int, delta: Mapping[str, Any]) -> str:
        assert self._message is not None
        block = self._message["content"][index]
        kind = delta.get("type")
        if kind == "text_delta":
            self._pieces.setdefault((index, "text"), []).append(delta["text"])
            return str(delta["text"])
        if kind == "input_json_delta":
            self._json.setdefault(index, []).append(delta.get("partial_json", ""))
        elif kind == "citations_delta":
            block.setdefault("citations", []).append(copy.deepcopy(delta["citation"]))
        elif kind == "thinking_delta":
            self._pieces.setdefault((index, "thinking"), []).append(delta["thinking"])
        elif kind == "signature_delta":
            block["signature"] = delta["signature"]
        return ""

    def _close(self, index: int) -> None:
        assert self._message is not None
        self._open.discard(index)
        pieces = self._json.pop(index, None)
        if pieces is None:
            return
        raw = "".join(pieces)
        block = self._message["content"][index]
        try:
            value = json.loads(raw) if raw.strip() else {}
        except json.JSONDecodeError as error:
            value, self._errors[index] = {}, (f"invalid JSON ({error})", raw)
        if not isinstance(value, dict):
            value, self._errors[index] = {}, ("the arguments are not a JSON object", raw)
        block["input"] = value

    def _complete(self) -> bool:
        """Ended properly: `message_stop` arrived, or only it is missing (the stop reason came in a
        `message_delta` and every block was closed), so nothing of the reply was lost."""
        assert self._message is not None
        return self._stopped or (self._message.get("stop_reason") is not None and not self._open)

    def turn(self) -> WireTurn:
        """The finished turn; StreamCutError if the stream ended before the reply was complete."""
        if self._message is None or not self._complete():
            raise StreamCutError("the response stream ended before message_stop")
        for index in list(self._json):
            self._close(index)
        content = self._message["content"]
        for (index, key), pieces in self._pieces.items():
            content[index][key] = str(content[index].get(key) or "") + "".join(pieces)
        self._pieces.clear()
        return WireTurn(
            tuple(content),
            self._message.get("stop_reason"),
            self.usage,
            str(self._message.get("model", "")),
            dict(self._errors),
        )
