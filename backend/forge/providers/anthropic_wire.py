"""Mapping between forge's typed conversation and the Anthropic Messages API wire format.

Pure: plain dicts in and out, no SDK and no IO. Responses are read as the dicts the SDK's
`to_dict(exclude_none=True)` gives, i.e. the JSON the API sent minus its nulls.

Invariants:
    - Anthropic ProviderParts (`server_tool_use`, `web_search_tool_result`, thinking, ...) go back
      verbatim, as copies that are never mutated; other providers' ProviderParts are dropped. Thinking
      blocks with their signatures are what the API requires back within a tool-use loop.
    - Thinking is what the model's capabilities allow (`core.llm.capabilities`, never its name):
      adaptive thinking (`display: summarized`, so the notes the model writes between tool calls come
      back as text) with `output_config.effort` where accepted; a manual `budget_tokens` only on a
      model that has nothing else; nothing on a model without thinking. `enabled` / `disabled` are
      sent only to models that accept them. The settings depend on the effort scope alone, so they
      never change inside a tool-use loop, as the API requires, and the cache holds within a scope.
    - A forced tool (`tool_choice` tool) is sent only when asked (structured output on a model that
      accepts it, see `structured_output`); on a model that thinks by default it goes with thinking
      `disabled`, the API refusing forced tools while thinking. A requested output schema goes as
      `output_config.format` (structured outputs).
    - A thinking block's text is shown (ProviderPart.shown) but the block goes back unchanged.
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
    - Server web searches and fetches become ServerResearch (`anthropic_server_research`). Web fetch
      is offered with web search, where the model has a fetch version; a fetch costs no fee, only the
      tokens of the page (cut at WEB_FETCH_MAX_CONTENT_TOKENS), and usage counts it (`web_fetches`).

Cache breakpoints (the API allows 4; the prefix order is tools -> system -> messages):
    1. the last tool, which caches the whole tool list (web search included when offered);
    2. the system prompt;
    3. the last block of the last user message: writes the whole conversation, so the next call,
       whose prefix is this request plus the assistant turn, reads it;
    4. the end of the curator's settled prefix (`cache_anchor`), and on a phase's first call whose
       compaction moved it, also where the calls before had it (`previous_anchor`): that call reads
       what they wrote however many blocks lie between (the API looks back only 20 blocks from a
       breakpoint), and the calls after it read the new point;
    5. the last block of the user message before the last: the point the previous call wrote, so the
       read hits even when the new turn added more blocks than the API's look-back window.
    Past four in all, the later ones in this list go first (a previous anchor leaves out 5, which then
    lies in what the compaction rewrote); with three in the messages, 1 goes (2 caches the tools).
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
from forge.core.llm.capabilities import LATEST_WEB_SEARCH_TOOL, ModelCapabilities, ThinkingMode
from forge.core.llm.messages import (
    Message,
    MessagePart,
    ModelRequest,
    ModelResponse,
    ProviderPart,
    Role,
    StopReason,
    TextPart,
    ToolCall,
    ToolDefinition,
    ToolResult,
    Usage,
)
from forge.core.session.records import ResearchHit
from forge.providers.anthropic_server_research import (
    WEB_FETCH_TOOL_NAME,
    WEB_SEARCH_TOOL_NAME,
    cited_quotes,
    server_research,
)
from forge.providers.max_tokens_cut import cut_at_context_window, cut_at_max_tokens

PROVIDER = "anthropic"
EPHEMERAL: Mapping[str, str] = {"type": "ephemeral"}
MIN_THINKING_BUDGET = 1024  # the API's smallest thinking budget
WEB_SEARCH_TOOL_TYPE = LATEST_WEB_SEARCH_TOOL  # for models the catalogue gives no version
THINKING_DISPLAY = "summarized"  # thinking text (and the notes between tool calls) comes back readable
WEB_FETCH_MAX_CONTENT_TOKENS = 8_000  # a fetched page is cut there: it is input tokens, billed as such
MAX_BREAKPOINTS = 4  # cache_control blocks per request
UNCACHEABLE_BLOCKS = ("thinking", "redacted_thinking")  # the API refuses cache_control on them

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


def tool_params(
    tools: Sequence[ToolDefinition],
    web_search_max_uses: int | None,
    web_search_tool: str = WEB_SEARCH_TOOL_TYPE,
    web_fetch: tuple[str, int] | None = None,
) -> list[Block]:
    """Our tools, then the server web search tool when `web_search_max_uses` is given and the web fetch
    tool when `web_fetch` (its version, max uses) is; the last is cached."""
    params: list[Block] = [
        {"name": t.name, "description": t.description, "input_schema": copy.deepcopy(dict(t.input_schema))}
        for t in tools
    ]
    if web_search_max_uses is not None:
        params.append({"type": web_search_tool, "name": WEB_SEARCH_TOOL_NAME, "max_uses": web_search_max_uses})
    if web_fetch is not None:
        version, uses = web_fetch
        params.append(
            {
                "type": version,
                "name": WEB_FETCH_TOOL_NAME,
                "max_uses": uses,
                "max_content_tokens": WEB_FETCH_MAX_CONTENT_TOKENS,
                "citations": {"enabled": True},
            }
        )
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


def message_params(messages: Sequence[Message], anchors: Sequence[int] = (), cached_turns: int = 2) -> list[Block]:
    """Messages as the API wants them: roles alternate, and tool results open a user message. Cache
    breakpoints, at most MAX_BREAKPOINTS - 1 (one is the system prompt's), in this order: the last user
    turn, the last block of `messages[:anchor]` for each anchor (`ModelRequest.cache_anchor`, then
    `previous_anchor`), the user turn before the last (`cached_turns` of them: 0 marks no turn)."""
    wire: list[Block] = []
    anchored: dict[int, Block] = {}
    for index, message in enumerate(messages):
        blocks = [b for b in (_part_block(p) for p in message.parts) if b is not None]
        if not blocks:
            continue
        anchored.update({anchor: blocks[-1] for anchor in anchors if index < anchor})
        if wire and wire[-1]["role"] == message.role.value:
            wire[-1]["content"].extend(blocks)  # a dropped message between them: one turn, as the API would
        else:
            wire.append({"role": message.role.value, "content": blocks})
    user_turns = [m for m in wire if m["role"] == Role.USER.value]
    for turn in user_turns:
        turn["content"].sort(key=lambda b: b.get("type") != "tool_result")  # stable: results first
    turns = [t["content"][-1] for t in user_turns[len(user_turns) - cached_turns :]] if cached_turns else []
    wanted = [*turns[-1:], *(anchored[a] for a in anchors if a in anchored), *turns[:-1]]
    marked: list[Block] = []
    for block in wanted:
        if block.get("type") not in UNCACHEABLE_BLOCKS and all(block is not b for b in marked):
            marked.append(block)
    for block in marked[: MAX_BREAKPOINTS - 1]:
        block["cache_control"] = dict(EPHEMERAL)
    return wire


def _breakpoints(blocks: Sequence[Block]) -> int:
    return sum(1 for b in blocks if "cache_control" in b)


def request_params(
    request: ModelRequest,
    *,
    model: str,
    max_tokens: int,
    web_search_max_uses: int,
    capabilities: ModelCapabilities,
    effort: str | None = None,
    continuation: Sequence[Mapping[str, Any]] = (),
    web_fetch_max_uses: int = 0,
) -> dict[str, Any]:
    """The body of one Messages API call; `continuation` is a paused turn's content so far.
    Web fetch goes with web search (the fetch tool reads pages a search found), where the model has it.

    `effort` is the level wanted for the request's scope (None: the model's default); the model gets
    the nearest level it accepts. Thinking follows `capabilities` (see the module's invariants)."""
    # An engine call's one message is its own input, sent once: a cache write there is never read
    # (it costs 1.25x), so only its instructions (shared by the stage's calls) and schema tool are marked.
    one_shot = len(request.messages) == 1 and (request.output_schema is not None or request.required_tool is not None)
    anchors = (request.cache_anchor, request.previous_anchor)
    messages = message_params(request.messages, anchors, cached_turns=0 if one_shot else 2)
    if continuation:
        messages.append({"role": Role.ASSISTANT.value, "content": [copy.deepcopy(dict(b)) for b in continuation]})
    params: dict[str, Any] = {"model": model, "max_tokens": max_tokens, "messages": messages}
    system = system_blocks(request.system)
    if system:
        params["system"] = system
    web_tool, fetch_tool = capabilities.web_search_tool, capabilities.web_fetch_tool
    searching = request.server_research and web_search_max_uses > 0 and web_tool is not None
    fetching = searching and web_fetch_max_uses > 0 and fetch_tool is not None
    web_fetch = (fetch_tool, web_fetch_max_uses) if fetching and fetch_tool else None
    tools = tool_params(
        request.tools, web_search_max_uses if searching else None, web_tool or WEB_SEARCH_TOOL_TYPE, web_fetch
    )
    in_messages = _breakpoints([b for m in messages for b in m["content"]])
    if tools and system and in_messages + 2 > MAX_BREAKPOINTS:
        tools[-1].pop("cache_control")  # the system prompt's breakpoint caches the tools before it
    if tools:
        params["tools"] = tools
    if request.required_tool is not None:
        params["tool_choice"] = {"type": "tool", "name": request.required_tool}
        if capabilities.thinking_mode is ThinkingMode.ADAPTIVE and "disabled" in capabilities.thinking_types:
            params["thinking"] = {"type": "disabled"}  # it thinks by default; a forced tool needs it off
        return params
    params.update(thinking_params(request, capabilities, max_tokens, effort))
    if request.output_schema is not None:
        output_format = {"type": "json_schema", "schema": copy.deepcopy(dict(request.output_schema))}
        params.setdefault("output_config", {})["format"] = output_format
    return params


def thinking_params(
    request: ModelRequest, capabilities: ModelCapabilities, max_tokens: int, effort: str | None
) -> dict[str, Any]:
    """`thinking` and `output_config.effort` as this model accepts them."""
    params: dict[str, Any] = {}
    mode = capabilities.thinking_mode
    if mode is ThinkingMode.ADAPTIVE:
        params["thinking"] = {"type": "adaptive", "display": THINKING_DISPLAY}
    elif mode is ThinkingMode.MANUAL:
        budget = min(request.thinking_budget, max_tokens - MIN_THINKING_BUDGET)
        if budget >= MIN_THINKING_BUDGET:
            params["thinking"] = {"type": "enabled", "budget_tokens": budget}
    level = capabilities.effort_for(effort) if mode is not ThinkingMode.NONE else None
    if level is not None:
        params["output_config"] = {"effort": level}
    return params


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
        int((u.get("server_tool_use") or {}).get("web_search_requests") or 0),
        int((u.get("server_tool_use") or {}).get("web_fetch_requests") or 0),
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
            shown = str(block.get("thinking") or "") if kind == "thinking" else ""
            parts.append(ProviderPart(PROVIDER, copy.deepcopy(block), shown))
    return parts


def response_from_turns(turns: Sequence[WireTurn], max_tokens: int | None = None) -> ModelResponse:
    """One ModelResponse for a turn that may have been paused and continued several times.

    `max_tokens` is the output budget the calls were given, named in a cut tool call's parse_error."""
    parts = [part for turn in turns for part in _turn_parts(turn, max_tokens)]
    usage = sum((t.usage for t in turns), Usage())
    model = next((t.model for t in reversed(turns) if t.model), "")
    blocks = [b for t in turns for b in t.blocks]
    stop = stop_reason_from(turns[-1].stop_reason if turns else None)
    message = Message(Role.ASSISTANT, tuple(parts))
    return ModelResponse(message, stop, usage, model, server_research(blocks), cited_quotes(blocks))
