from __future__ import annotations

from forge.core.domain_types import ToolCallId
from forge.core.llm.compact_conversation import compact_conversation
from forge.core.llm.messages import Message, ProviderPart, Role, TextPart, ToolCall, ToolResult


def _exchange(n: int, result: str) -> tuple[Message, Message]:
    call = ToolCall(ToolCallId(f"c{n}"), "research", {"query": f"q{n}"})
    return Message(Role.ASSISTANT, (call,)), Message(Role.USER, (ToolResult(call.id, result),))


def test_old_bulky_tool_results_are_cut_and_recent_messages_untouched() -> None:
    messages = (Message(Role.USER, (TextPart("brief"),)), *_exchange(1, "x" * 5000), *_exchange(2, "y" * 5000))
    compacted = compact_conversation(messages, keep_recent=2)
    old = compacted[2].parts[0]
    assert isinstance(old, ToolResult) and "compacted: 4600 more characters" in old.content
    assert compacted[3:] == messages[3:] and compacted[0] == messages[0] and compacted[1] == messages[1]


def test_provider_blocks_are_dropped_from_old_messages_and_empty_messages_say_why() -> None:
    old = Message(Role.ASSISTANT, (ProviderPart("anthropic", {"type": "web_search_tool_result"}),))
    compacted = compact_conversation((old, Message(Role.USER, (TextPart("now"),))), keep_recent=1)
    assert isinstance(compacted[0].parts[0], TextPart) and "compacted" in compacted[0].parts[0].text


def test_short_conversations_are_unchanged() -> None:
    messages = _exchange(1, "short")
    assert compact_conversation(messages, keep_recent=6) == messages
