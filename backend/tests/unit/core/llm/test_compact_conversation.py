from __future__ import annotations

from forge.core.domain_types import ToolCallId
from forge.core.llm.compact_conversation import Compaction, compact_conversation, compacted_to_fit, hard_compaction
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


def test_after_an_overflow_answered_calls_keep_their_keys_and_texts_but_long_lists_become_counts() -> None:
    table = [{"source_concept": "s" * 50, "target_concept": "short"}] * 6
    call = ToolCall(ToolCallId("c1"), "search_cross_domain", {"source_domain": "q" * 500, "mapping": table, "n": 2})
    messages = (
        Message(Role.ASSISTANT, (call,)),
        Message(Role.USER, (ToolResult(call.id, "r" * 300),)),
    )
    assert compact_conversation(messages, keep_recent=2) == messages  # a decision is kept whole by default
    cut_call, result = (m.parts[0] for m in compact_conversation(messages, 2, 200, cut_calls=True))
    assert isinstance(cut_call, ToolCall) and (cut_call.id, cut_call.name) == (call.id, call.name)
    assert cut_call.arguments == {
        "source_domain": "q" * 500,
        "mapping": "[6 items compacted: what they recorded is in the session]",
        "n": 2,
    }
    assert result == messages[1].parts[0]  # the recent result the model reads is kept whole


def _chars(messages: tuple[Message, ...]) -> int:
    return sum(len(str(p)) for m in messages for p in m.parts)


def test_soft_compaction_is_chosen_when_it_fits_and_hard_on_top_of_it_when_it_does_not() -> None:
    exchanges = [m for n in range(6) for m in _exchange(n, str(n) * 3000)]
    messages = (Message(Role.USER, (TextPart("brief"),)), *exchanges)
    soft = compact_conversation(messages)
    hard = hard_compaction(soft)
    assert _chars(hard) < _chars(soft) < _chars(messages)

    assert compacted_to_fit(messages, _chars, _chars(soft)) == (soft, Compaction.SOFT)
    assert compacted_to_fit(messages, _chars, _chars(soft) - 1) == (hard, Compaction.HARD)
    assert compacted_to_fit(messages, _chars, 0) == (hard, Compaction.HARD)  # kept though over: the server judges
    assert hard[-2:] == soft[-2:] and hard[-3] != soft[-3]  # hard keeps only the last 2 messages whole
