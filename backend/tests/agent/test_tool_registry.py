"""The explicit tool registry: 19 custom tools of 003, revise_claim, research and recall, exposed per
phase with JSON schemas.

003 lists 20 custom tools; its `submit_user_insight` is person-only (issue 17): a model tool that adds a
validated claim would skip validation, so the person's insight enters through the build decision.
`revise_claim` (issue 36) is VALIDATE's first step: it acts on the person's claim feedback.
"""

from __future__ import annotations

from collections import Counter

from forge.agent.phases.registry import PHASES
from forge.agent.phases.shared_tools import SHARED_TOOLS
from forge.agent.tool_registry import ALL_TOOLS, all_tool_definitions, tool_names_for_phase, tools_for_phase
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
}
PERSON_ONLY = {"submit_user_insight"}


def test_registry_holds_the_spec_tools_and_research_but_no_person_only_tool() -> None:
    assert set(ALL_TOOLS) == SPEC_TOOLS | {"revise_claim", "research", "recall"}
    assert not PERSON_ONLY & {d.name for d in all_tool_definitions()}


def test_every_tool_has_an_object_json_schema_and_a_description() -> None:
    for phase in Phase:
        for definition in tools_for_phase(phase):
            assert definition.input_schema["type"] == "object", definition.name
            assert definition.description


def test_recall_is_offered_in_every_phase() -> None:
    assert all("recall" in tool_names_for_phase(phase) for phase in Phase)


def test_research_is_offered_where_research_gates_apply_and_not_in_build_or_crystallize() -> None:
    offered = {phase: {d.name for d in tools_for_phase(phase)} for phase in Phase}
    for phase in (Phase.DECOMPOSE, Phase.EXPLORE, Phase.SYNTHESIZE, Phase.VALIDATE):
        assert "research" in offered[phase]
    assert "research" not in offered[Phase.BUILD] and "research" not in offered[Phase.CRYSTALLIZE]
    assert offered[Phase.CRYSTALLIZE] == {"generate_knowledge_document", "get_session_status", "recall"}
    assert "get_negative_knowledge" in offered[Phase.SYNTHESIZE]  # rule 10 must be satisfiable in round 2+


def test_each_phase_offers_its_own_tools_and_not_the_next_phases() -> None:
    offered = {phase: {d.name for d in tools_for_phase(phase)} for phase in Phase}
    assert "create_synthesis" not in offered[Phase.DECOMPOSE]
    assert "score_claim" in offered[Phase.VALIDATE] and "score_claim" not in offered[Phase.SYNTHESIZE]


def test_every_tool_is_owned_by_exactly_one_phase_definition_or_the_shared_list() -> None:
    owners = Counter(spec.name for d in PHASES.values() for spec in d.tools) + Counter(s.name for s in SHARED_TOOLS)
    assert set(owners) == set(ALL_TOOLS)
    assert [name for name, count in owners.items() if count != 1] == []


def test_each_phase_offers_every_tool_it_owns_and_only_registered_tools() -> None:
    for phase, definition in PHASES.items():
        offered = tool_names_for_phase(phase)
        assert offered == definition.tool_names
        assert {spec.name for spec in definition.tools} <= set(offered), phase
        assert set(offered) <= set(ALL_TOOLS) and len(set(offered)) == len(offered), phase


def test_every_registered_tool_is_offered_by_some_phase() -> None:
    offered = {name for d in PHASES.values() for name in d.tool_names}
    assert offered == set(ALL_TOOLS)


def test_all_tool_definitions_lists_every_tool_once_in_a_stable_order() -> None:
    first, second = all_tool_definitions(), all_tool_definitions()
    assert first == second
    assert [d.name for d in first] == list(ALL_TOOLS)
    assert len({d.name for d in first}) == len(first) == len(SPEC_TOOLS) + 3  # revise_claim, research, recall


def test_all_tool_definitions_holds_each_phases_tools_exactly_as_the_phase_offers_them() -> None:
    by_name = {d.name: d for d in all_tool_definitions()}
    for phase in Phase:
        for definition in tools_for_phase(phase):
            assert by_name[definition.name] == definition
