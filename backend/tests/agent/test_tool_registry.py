"""The explicit tool registry: 20 custom tools + research, exposed per phase with JSON schemas."""

from __future__ import annotations

from forge.agent.tool_registry import ALL_TOOLS, tools_for_phase
from forge.core.domain_types import Phase

SPEC_TOOLS = {
    "decompose_to_fundamentals",
    "map_state_of_art",
    "extract_assumptions",
    "reframe_problem",
    "build_morphological_box",
    "search_cross_domain",
    "identify_contradictions",
    "map_adjacent_possible",
    "state_thesis",
    "find_antithesis",
    "create_synthesis",
    "attempt_falsification",
    "check_novelty",
    "score_claim",
    "add_to_knowledge_graph",
    "analyze_gaps",
    "get_negative_knowledge",
    "generate_knowledge_document",
    "get_session_status",
    "submit_user_insight",
}


def test_registry_holds_the_twenty_spec_tools_and_research() -> None:
    assert set(ALL_TOOLS) == SPEC_TOOLS | {"research"}


def test_every_tool_has_an_object_json_schema_and_a_description() -> None:
    for phase in Phase:
        for definition in tools_for_phase(phase):
            assert definition.input_schema["type"] == "object", definition.name
            assert definition.description


def test_research_is_offered_where_research_gates_apply_and_not_in_build_or_crystallize() -> None:
    offered = {phase: {d.name for d in tools_for_phase(phase)} for phase in Phase}
    for phase in (Phase.DECOMPOSE, Phase.EXPLORE, Phase.SYNTHESIZE, Phase.VALIDATE):
        assert "research" in offered[phase]
    assert "research" not in offered[Phase.BUILD] and "research" not in offered[Phase.CRYSTALLIZE]
    assert offered[Phase.CRYSTALLIZE] == {"generate_knowledge_document", "get_session_status"}
    assert "get_negative_knowledge" in offered[Phase.SYNTHESIZE]  # rule 10 must be satisfiable in round 2+


def test_each_phase_offers_its_own_tools_and_not_the_next_phases() -> None:
    offered = {phase: {d.name for d in tools_for_phase(phase)} for phase in Phase}
    assert "create_synthesis" not in offered[Phase.DECOMPOSE]
    assert "score_claim" in offered[Phase.VALIDATE] and "score_claim" not in offered[Phase.SYNTHESIZE]
