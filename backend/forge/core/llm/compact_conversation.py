"""Compacting a conversation that no longer fits: keep the decisions, drop the bulk.

Invariants:
    - The last `keep_recent` messages are untouched; so is every tool call (the decisions) and
      every user text (the phase briefs and the person's reviews).
    - Older tool results longer than `max_result_chars` are cut to a marked excerpt; older
      provider blocks (e.g. raw web-search payloads) are dropped — their research is already in the
      ForgeState — and a message left empty says what was removed.
"""

from __future__ import annotations

from forge.core.llm.messages import Message, MessagePart, ProviderPart, TextPart, ToolResult

MAX_RESULT_CHARS = 400


def _compact_part(part: MessagePart, max_result_chars: int) -> MessagePart | None:
    if isinstance(part, ProviderPart):
        return None
    if isinstance(part, ToolResult) and len(part.content) > max_result_chars:
        excerpt = part.content[:max_result_chars]
        marker = f" … [compacted: {len(part.content) - max_result_chars} more characters]"
        return ToolResult(part.call_id, excerpt + marker, part.is_error)
    return part


def _compact_message(message: Message, max_result_chars: int) -> Message:
    parts = tuple(p for p in (_compact_part(p, max_result_chars) for p in message.parts) if p is not None)
    if not parts:
        parts = (TextPart("[provider research blocks compacted; results are kept in the session state]"),)
    return Message(message.role, parts)


def compact_conversation(
    messages: tuple[Message, ...], keep_recent: int = 6, max_result_chars: int = MAX_RESULT_CHARS
) -> tuple[Message, ...]:
    cut = max(0, len(messages) - keep_recent)
    older = tuple(_compact_message(m, max_result_chars) for m in messages[:cut])
    return older + messages[cut:]
