"""ConversationView: the phase, round, context, outcomes and nudges the offline model reads."""

from __future__ import annotations

import json

from forge.agent.phase_briefs import phase_kickoff
from forge.core.domain_types import Phase, ToolCallId
from forge.core.llm.messages import Message, Role, TextPart, ToolCall, ToolResult, user_text
from forge.core.rules.verdicts import ErrorCode
from forge.core.session.forge_state import ForgeState
from forge.offline.phases.planning import call_identity, read_conversation

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


def _call(call_id: str, name: str, **arguments: object) -> ToolCall:
    return ToolCall(ToolCallId(call_id), name, arguments)


def _result(call_id: str, payload: dict[str, object], is_error: bool = False) -> ToolResult:
    return ToolResult(ToolCallId(call_id), json.dumps(payload), is_error)


class TestReadConversation:
    def test_reads_the_last_phase_marker_and_its_context(self) -> None:
        state = ForgeState(problem=PROBLEM)
        first = phase_kickoff(state)
        state.enter_phase(Phase.EXPLORE)
        state.fundamentals = ["a fundamental"]
        view = read_conversation([first, Message(Role.ASSISTANT, (TextPart("done"),)), phase_kickoff(state)])
        assert (view.phase, view.round) == ("explore", 1)
        assert view.problem == PROBLEM and view.context["fundamentals"] == ["a fundamental"]
        assert view.outcomes == () and view.nudges == ()

    def test_outcomes_pair_calls_with_results_and_expose_error_codes(self) -> None:
        messages = [
            phase_kickoff(ForgeState(problem=PROBLEM)),
            Message(Role.ASSISTANT, (_call("a", "research", query="wait"), _call("b", "map_state_of_art"))),
            Message(
                Role.USER,
                (
                    _result("a", {"query": "wait", "results": []}),
                    _result("b", {"error_code": "STATE_OF_ART_NOT_RESEARCHED", "message": "research first"}, True),
                ),
            ),
            Message(Role.ASSISTANT, (_call("c", "extract_assumptions"),)),
        ]
        view = read_conversation(messages)
        assert [o.ok for o in view.outcomes] == [True, False, False]
        assert view.outcomes[1].error_code is ErrorCode.STATE_OF_ART_NOT_RESEARCHED
        assert not view.outcomes[2].answered
        assert view.research("wait") is view.outcomes[0]
        assert view.done("map_state_of_art") is None

    def test_nudges_restart_the_retry_budget(self) -> None:
        messages = [
            phase_kickoff(ForgeState(problem=PROBLEM)),
            Message(Role.ASSISTANT, (_call("a", "map_state_of_art"),)),
            Message(Role.USER, (_result("a", {"error_code": "TOOL_FAILED", "message": "x"}, True),)),
            Message(Role.ASSISTANT, (TextPart("stopping"),)),
            user_text(
                "Not done yet (DECOMPOSE_INCOMPLETE): DECOMPOSE is incomplete: still missing a state of the art."
            ),
        ]
        view = read_conversation(messages)
        assert [(n.code, n.after_outcomes) for n in view.nudges] == [(ErrorCode.DECOMPOSE_INCOMPLETE, 1)]
        assert view.attempts("map_state_of_art") == []

    def test_without_a_marker_there_is_no_phase(self) -> None:
        view = read_conversation([user_text("hello")])
        assert view.phase is None and view.outcomes == ()

    def test_a_result_that_is_not_json_is_kept_raw(self) -> None:
        messages = [
            phase_kickoff(ForgeState(problem=PROBLEM)),
            Message(Role.ASSISTANT, (_call("a", "research", query="q"),)),
            Message(Role.USER, (ToolResult(ToolCallId("a"), "not json", True),)),
        ]
        outcome = read_conversation(messages).outcomes[0]
        assert outcome.payload["raw"] == "not json" and outcome.error_code is ErrorCode.TOOL_FAILED


def test_call_identity_uses_the_distinguishing_argument() -> None:
    assert call_identity("research", {"query": "q", "limit": 5}) == "research:q"
    assert call_identity("find_antithesis", {"claim_index": 1, "antithesis": "x"}) == "find_antithesis:1"
    assert call_identity("analyze_gaps", {"gaps": ["g"]}) == "analyze_gaps"
