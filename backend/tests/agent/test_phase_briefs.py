"""phase_kickoff: the message that opens the current phase is that phase's own brief."""

from __future__ import annotations

from dataclasses import replace

import pytest

from forge.agent.phase_briefs import RECORD_AFTER_READING, phase_kickoff, refreshed_conversation, tools_block
from forge.agent.phases.registry import phase_definition
from forge.core.domain_types import Phase
from forge.core.frame.problem_frame import audit_frame, make_frame
from forge.core.llm.messages import Message, Role, TextPart
from forge.core.saga.records import (
    Checkpoint,
    Directive,
    DirectiveId,
    DirectiveKind,
    Finding,
    FindingId,
    FindingKind,
    SupervisorFinding,
)
from forge.core.saga.state import SupervisionState
from forge.core.session.forge_state import ForgeState


@pytest.mark.parametrize("phase", list(Phase))
def test_phase_kickoff_is_the_current_phases_brief(phase: Phase) -> None:
    state = ForgeState(problem="How can a hospital cut emergency wait times without more staff?")
    state.enter_phase(phase)
    brief, kickoff = phase_definition(phase).brief(state).text, phase_kickoff(state).text
    assert kickoff.startswith(f"[forge phase={phase.value} round=1]\n")
    head, _, context = brief.rpartition("\n\n```json")
    assert kickoff == f"{head}\n\n{tools_block(state)}\n\n```json{context}"  # the tools block before the JSON


@pytest.mark.parametrize("phase", list(Phase))
def test_each_brief_lists_the_phases_tools_one_line_each_from_the_registry(phase: Phase) -> None:
    state = ForgeState(problem="How can a hospital cut emergency wait times without more staff?")
    state.enter_phase(phase)
    block = tools_block(state).splitlines()
    offered = phase_definition(phase).tool_names
    assert block[0] == "TOOLS THIS PHASE (any other tool returns TOOL_NOT_IN_PHASE):"
    assert [line.split(":")[0] for line in block[1 : 1 + len(offered)]] == [f"- {name}" for name in offered]
    assert block[1 + len(offered) :] == ([RECORD_AFTER_READING] if "research" in offered else [])


def framed_state() -> ForgeState:
    """A session whose frame holds the person's constraint, one of its own and one the person adopted
    from the supervisor, with a success criterion."""
    frame = make_frame(
        "Cut emergency wait times",
        "emergency department",
        "median wait under 30 minutes",
        hard_constraints=["without more staff", "no new beds", "no patient waits over 4 hours"],
        success_criteria=["median wait under 30 minutes within 6 months"],
    )
    assert not isinstance(frame, str)
    directive = Directive(
        DirectiveId("d1"),
        DirectiveKind.ADD_CONSTRAINT,
        FindingId("f1"),
        "m",
        constraint="no patient waits over 4 hours",
    )
    return ForgeState(
        problem="How can a hospital cut emergency wait times?\n\nConstraints:\n- without more staff",
        problem_frame=audit_frame(frame),
        supervision=SupervisionState(directives=(directive,), adopted=(DirectiveId("d1"),)),
    )


@pytest.mark.parametrize("phase", list(Phase))
def test_every_brief_holds_one_hard_constraints_block_and_the_success_criteria(phase: Phase) -> None:
    state = framed_state()
    state.enter_phase(phase)
    text = phase_kickoff(state).text
    assert text.count("HARD CONSTRAINTS") == 1
    block = text.split("HARD CONSTRAINTS", 1)[1].split("\n\n", 1)[0]
    assert "- without more staff (the person's)" in block
    assert "- no new beds (frame)" in block
    assert "- no patient waits over 4 hours (adopted from the supervisor)" in block
    assert "SUCCESS CRITERIA (how the answer will be judged):\n- median wait under 30 minutes within 6 months" in text


def test_without_a_frame_the_block_holds_the_persons_constraints() -> None:
    state = ForgeState(problem="How can a hospital cut emergency wait times?\n\nConstraints:\n- without more staff")
    text = phase_kickoff(state).text
    assert (
        "HARD CONSTRAINTS (limits, not preferences: a claim that breaks one is wrong):\n- without more staff\n" in text
    )
    assert "SUCCESS CRITERIA" not in text


def test_an_unanswered_brief_is_rebuilt_once_a_stage_changed_what_it_says() -> None:
    state = ForgeState(problem="How can a hospital cut emergency wait times?")
    stored = [phase_kickoff(state)]
    assert refreshed_conversation(state, stored) is None  # nothing changed
    state.problem_frame = framed_state().problem_frame  # the frame stage ran
    refreshed = refreshed_conversation(state, stored)
    assert refreshed is not None and len(refreshed) == 1 and "SUCCESS CRITERIA" in refreshed[0].text
    answered = [*stored, Message(Role.ASSISTANT, (TextPart("working"),))]
    assert refreshed_conversation(state, answered) is None  # the model already read the old one


def test_the_validate_brief_lists_the_red_teams_open_challenges() -> None:
    failing = Finding(FindingKind.RED_TEAM_CHALLENGE, 1.0, 1.0, ("h7",), "h7 fails 1 red-team challenge(s). scale: ...")
    dismissed = replace(failing, hypothesis_ids=("h8",))
    state = ForgeState(
        problem="p",
        supervision=SupervisionState(
            findings=(
                SupervisorFinding(FindingId("f1"), Checkpoint.CP5, 0, failing),
                SupervisorFinding(FindingId("f2"), Checkpoint.CP5, 0, dismissed, dismissed=True),
            )
        ),
    )
    state.enter_phase(Phase.VALIDATE)
    text = phase_kickoff(state).text
    assert "RED TEAM: `challenges` lists" in text
    assert '"challenges":[{"from":"CP-5 red team","targets":["h7"],"challenge":"h7 fails 1' in text
    assert "h8" not in text and "VERIFY, an independent verifier" not in text  # no verdicts in this state
