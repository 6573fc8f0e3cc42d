"""The provider-independent conversation types."""

from __future__ import annotations

from forge.core.domain_types import ToolCallId
from forge.core.llm.messages import Message, Role, TextPart, ToolCall, ToolResult, Usage, user_text


def test_message_text_joins_only_text_parts() -> None:
    call = ToolCall(ToolCallId("c1"), "research", {"query": "q"})
    message = Message(Role.ASSISTANT, (TextPart("a"), call, TextPart("b")))
    assert message.text == "ab"


def test_message_separates_tool_calls_and_results() -> None:
    call = ToolCall(ToolCallId("c1"), "research", {"query": "q"})
    result = ToolResult(ToolCallId("c1"), "ok")
    assert Message(Role.ASSISTANT, (TextPart("x"), call)).tool_calls == (call,)
    assert Message(Role.USER, (result,)).tool_results == (result,)
    assert Message(Role.USER, (result,)).tool_calls == ()


def test_unparsed_tool_call_keeps_the_parse_error() -> None:
    call = ToolCall(ToolCallId("c1"), "research", {}, parse_error="Expecting value")
    assert call.parse_error == "Expecting value"


def test_user_text_is_a_single_text_part_from_the_user() -> None:
    message = user_text("hello")
    assert message.role == Role.USER
    assert message.parts == (TextPart("hello"),)


def test_usage_adds_field_by_field_and_totals() -> None:
    total = Usage(1, 2, 3, 4) + Usage(10, 20, 30, 40)
    assert total == Usage(11, 22, 33, 44)
    assert total.total == 110


def test_empty_usage_is_the_identity() -> None:
    assert Usage() + Usage(5, 6) == Usage(5, 6)
    assert Usage().total == 0
