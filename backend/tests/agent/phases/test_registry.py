"""The phase registry: one definition per Phase, each complete enough to run its phase."""

from __future__ import annotations

import json

import pytest

from forge.agent.phases.phase_definition import THINKING_BUDGET
from forge.agent.phases.registry import PHASES, phase_definition
from forge.core.domain_types import REVIEW_AFTER_PHASE, Phase, ReviewType
from forge.core.llm.messages import ModelRequest
from forge.core.review.payloads import build_review_payload
from forge.core.session.forge_state import ForgeState
from forge.offline.phases.planning import read_conversation
from forge.providers.anthropic_model import NON_STREAMING_MAX_TOKENS

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


def state_in(phase: Phase, round_index: int = 0) -> ForgeState:
    state = ForgeState(problem=PROBLEM)
    state.current_round = round_index
    state.enter_phase(phase)
    return state


def test_every_phase_has_exactly_one_definition_under_its_own_key_in_pipeline_order() -> None:
    assert list(PHASES) == list(Phase)
    for phase, definition in PHASES.items():
        assert definition.phase == phase
        assert phase_definition(phase) is definition


@pytest.mark.parametrize("phase", list(Phase))
@pytest.mark.parametrize("round_index", [0, 2])
def test_each_brief_starts_with_the_marker_the_offline_model_parses(phase: Phase, round_index: int) -> None:
    message = phase_definition(phase).brief(state_in(phase, round_index))
    assert message.text.splitlines()[0] == f"[forge phase={phase.value} round={round_index + 1}]"
    view = read_conversation([message])
    assert (view.phase, view.round, view.problem) == (phase.value, round_index + 1, PROBLEM)


@pytest.mark.parametrize("phase", list(Phase))
def test_each_brief_carries_the_problem_first_in_its_json_context(phase: Phase) -> None:
    text = phase_definition(phase).brief(state_in(phase)).text
    context = json.loads(text.split("```json\n", 1)[1].rsplit("\n```", 1)[0])
    assert next(iter(context)) == "problem" and context["problem"] == PROBLEM


def test_every_phase_but_crystallize_pauses_for_the_review_that_follows_it() -> None:
    for phase, definition in PHASES.items():
        assert definition.review_type == REVIEW_AFTER_PHASE.get(phase)
    assert PHASES[Phase.CRYSTALLIZE].review is None and PHASES[Phase.CRYSTALLIZE].review_payload is None
    assert {d.review_type for d in PHASES.values()} - {None} == set(ReviewType)


@pytest.mark.parametrize("phase", [p for p in Phase if p in REVIEW_AFTER_PHASE])
def test_a_definitions_review_payload_is_the_review_event_payload(phase: Phase) -> None:
    definition, state = phase_definition(phase), state_in(phase)
    assert definition.review_payload is not None and definition.review_type is not None
    assert definition.review_payload(state) == build_review_payload(state, definition.review_type)


@pytest.mark.parametrize("phase", [Phase.DECOMPOSE, Phase.EXPLORE, Phase.SYNTHESIZE, Phase.CRYSTALLIZE])
def test_the_work_gate_of_a_phase_that_must_produce_something_refuses_a_fresh_state(phase: Phase) -> None:
    violation = phase_definition(phase).work_gate(state_in(phase))
    assert violation is not None and violation.message


def test_research_is_offered_exactly_where_the_definition_says_so() -> None:
    offering = {phase for phase, d in PHASES.items() if d.offers_research}
    assert offering == {Phase.DECOMPOSE, Phase.EXPLORE, Phase.SYNTHESIZE, Phase.VALIDATE}


def test_max_tokens_never_undercuts_todays_default_nor_exceeds_a_non_streaming_call() -> None:
    default = ModelRequest("", (), ()).max_tokens
    for definition in PHASES.values():
        assert default <= definition.max_tokens <= NON_STREAMING_MAX_TOKENS, definition.phase


def test_the_phases_with_the_largest_tool_inputs_get_the_larger_output_bound() -> None:
    bounds = {phase: d.max_tokens for phase, d in PHASES.items()}
    assert bounds[Phase.EXPLORE] == bounds[Phase.DECOMPOSE] == max(bounds.values())


def test_every_phase_has_room_for_the_session_thinking_budget_and_an_answer() -> None:
    for definition in PHASES.values():
        assert definition.max_tokens >= 16_384 > THINKING_BUDGET
