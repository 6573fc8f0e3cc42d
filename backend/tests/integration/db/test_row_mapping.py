"""Messages survive the database's JSON encoding part for part (pure mapping, no database needed)."""

from forge.core.domain_types import ToolCallId
from forge.core.llm.messages import Message, Role, ToolResult
from forge.core.session.records import ResearchHit
from forge.db.row_mapping import decode_message, encode_message


def test_a_tool_results_citable_research_hits_round_trip() -> None:
    hit = ResearchHit("corpus://queueing/little", "Little's Law", "L = lambda W.")
    message = Message(Role.USER, (ToolResult(ToolCallId("t1"), '{"results": []}', citable=(hit,)),))

    assert decode_message(encode_message(message)) == message


def test_a_result_stored_before_citable_hits_existed_decodes_without_them() -> None:
    raw = {"role": "user", "parts": [{"kind": "tool_result", "call_id": "t1", "content": "{}", "is_error": True}]}

    assert decode_message(raw) == Message(Role.USER, (ToolResult(ToolCallId("t1"), "{}", True),))
