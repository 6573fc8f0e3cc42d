"""Compacting a conversation that no longer fits: keep the decisions, drop the bulk.

Invariants:
    - The last `keep_recent` messages are untouched; so is every user text (the phase briefs and the
      person's reviews), and every tool call (the decisions) unless `cut_calls`: after the server
      refused the conversation as too long, every answered call — recent ones too — keeps its name,
      keys and texts, but a long list in its arguments (a mapping table, rows of a box) becomes a
      marked count: what the call recorded is in the ForgeState, and its result is kept. Texts stay
      whole: they say what a call was about, and the model (the offline one too) reads its own
      calls to know what it has done.
    - Older tool results longer than `max_result_chars` are cut to a marked excerpt; older
      provider blocks (e.g. raw web-search payloads) are dropped — their research is already in the
      ForgeState — and a message left empty says what was removed.
    - `compacted_to_fit` chooses how hard: softly (the defaults) when that brings the request under
      the ceiling, else hard (`HARD`: the last 2 messages in full, older results cut to 200
      characters, long argument lists counted) on top of the soft result, kept even if it is still
      over: the server is the judge, and one that refuses it as too long gets `hard_compaction`.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from forge.core.llm.messages import Message, MessagePart, ProviderPart, TextPart, ToolCall, ToolResult

MAX_RESULT_CHARS = 400
HARD_KEEP_RECENT = 2
HARD_RESULT_CHARS = 200


class Compaction(StrEnum):
    SOFT = "soft"
    HARD = "hard"


def _excerpt(value: Any, limit: int) -> Any:
    """A tool call's argument with every list longer than `limit` characters cut to a marked count."""
    if isinstance(value, dict):
        return {k: _excerpt(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        if len(str(value)) > limit:
            return f"[{len(value)} items compacted: what they recorded is in the session]"
        return [_excerpt(v, limit) for v in value]
    return value


def _compact_part(part: MessagePart, max_result_chars: int, cut_calls: bool = False) -> MessagePart | None:
    if isinstance(part, ProviderPart):
        return None
    if cut_calls and isinstance(part, ToolCall):
        return _cut_call(part, max_result_chars)
    if isinstance(part, ToolResult) and len(part.content) > max_result_chars:
        excerpt = part.content[:max_result_chars]
        marker = f" … [compacted: {len(part.content) - max_result_chars} more characters]"
        return ToolResult(part.call_id, excerpt + marker, part.is_error)
    return part


def _compact_message(message: Message, max_result_chars: int, cut_calls: bool = False) -> Message:
    parts = tuple(p for p in (_compact_part(p, max_result_chars, cut_calls) for p in message.parts) if p is not None)
    if not parts:
        parts = (TextPart("[provider research blocks compacted; results are kept in the session state]"),)
    return Message(message.role, parts)


def compact_conversation(
    messages: tuple[Message, ...],
    keep_recent: int = 6,
    max_result_chars: int = MAX_RESULT_CHARS,
    cut_calls: bool = False,
) -> tuple[Message, ...]:
    cut = max(0, len(messages) - keep_recent)
    older = tuple(_compact_message(m, max_result_chars, cut_calls) for m in messages[:cut])
    if not cut_calls:
        return older + messages[cut:]
    recent = tuple(Message(m.role, tuple(_cut_call(p, max_result_chars) for p in m.parts)) for m in messages[cut:])
    return older + recent


def _cut_call(part: MessagePart, limit: int) -> MessagePart:
    if isinstance(part, ToolCall):
        return ToolCall(part.id, part.name, _excerpt(dict(part.arguments), limit), part.parse_error)
    return part


def hard_compaction(messages: tuple[Message, ...]) -> tuple[Message, ...]:
    """What is sent after the server refused the conversation as too long: keep less in full."""
    return compact_conversation(messages, HARD_KEEP_RECENT, HARD_RESULT_CHARS, cut_calls=True)


def compacted_to_fit(
    messages: tuple[Message, ...], tokens_sent: Callable[[tuple[Message, ...]], int], ceiling: int
) -> tuple[tuple[Message, ...], Compaction]:
    """Messages over `ceiling` (as `tokens_sent` measures the request they make), compacted softly if
    that is enough, else hard on top of the soft result."""
    soft = compact_conversation(messages)
    if tokens_sent(soft) <= ceiling:
        return soft, Compaction.SOFT
    return hard_compaction(soft), Compaction.HARD
