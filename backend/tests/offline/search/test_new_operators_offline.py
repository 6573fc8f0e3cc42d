"""The offline HKG, blend and transform generators: deterministic, built only from the path, the parents'
tables and the concept space, labelled offline; they refuse what they cannot do honestly."""

from __future__ import annotations

import pytest
from support.scripted_search import FRAME, POOL, found_trace

from forge.core.hkg.structural_grounding import GroundingRequest, GroundingStatus
from forge.core.hypotheses.pool import HypothesisId
from forge.core.search.concept_space import derive_concept_space
from forge.core.search.hyperpath_trace import HyperpathTrace
from forge.core.search.plan import SearchOperator
from forge.core.search.transform_gate import audit_transform
from forge.engine.search.blend_expand import blend_child, blend_request
from forge.engine.search.structural_operators import structural_child, structural_request
from forge.engine.search.transform_space import logic_check_request, proposal_of, transform_request, verdict_of
from forge.knowledge.load_concept_spaces import load_concept_spaces
from forge.offline.search.blend_offline import offline_blend
from forge.offline.search.structural_offline import offline_structural
from forge.offline.search.transform_offline import offline_logic_check, offline_transform

HOSPITAL = next(s for s in load_concept_spaces() if s.domain_id == "healthcare_operations")
REQUEST = GroundingRequest.for_hyperpath_expand(("queue buffer",), ("emergency department",))


def test_hyperpath_expand_offline_follows_the_path_step_by_step_and_says_it_is_offline() -> None:
    trace = found_trace(REQUEST)
    request = structural_request(SearchOperator.HYPERPATH_EXPAND, POOL[:1], "p", FRAME, trace)
    output = offline_structural(request)
    assert output == offline_structural(request)
    assert [link.hyperedge_id for link in output.chain] == ["e1", "e2"]
    assert "load → delay → wait" in output.hypothesis.statement
    assert "not by a language model" in output.hypothesis.mechanism
    child = structural_child(output, SearchOperator.HYPERPATH_EXPAND, POOL[:1], trace, HypothesisId("c"), 0)
    assert not isinstance(child, str) and child.gate.status.value == "passed"


def test_hyperbridge_offline_names_both_parents_and_the_bridge() -> None:
    trace = found_trace(REQUEST)
    output = offline_structural(structural_request(SearchOperator.HYPERBRIDGE, POOL[:2], "p", FRAME, trace))
    assert "queue buffer" in output.hypothesis.statement and "feedback loop" in output.hypothesis.statement


def test_the_offline_hkg_operators_refuse_to_write_a_chain_without_a_path() -> None:
    empty = HyperpathTrace(GroundingStatus.PATH_NOT_FOUND, 0.0, ("a",), ("b",))
    with pytest.raises(TypeError):
        offline_structural(structural_request(SearchOperator.HYPERPATH_EXPAND, POOL[:1], "p", FRAME, empty))


def test_blend_offline_passes_the_emergence_check_from_the_parents_tables() -> None:
    output = offline_blend(blend_request(POOL[:2], "p", FRAME))
    assert len(output.cross_space_mappings) >= 2 and output.generic_space
    child = blend_child(output, POOL[:2], HypothesisId("c"), 0)
    assert not isinstance(child, str) and child.blend is not None
    assert "not by a language model" in child.mechanism


def test_blend_offline_of_a_hypothesis_with_itself_is_refused_as_not_emergent() -> None:
    output = offline_blend(blend_request((POOL[0], POOL[0]), "p", FRAME))
    refused = blend_child(output, (POOL[0], POOL[0]), HypothesisId("c"), 0)
    assert isinstance(refused, str) and "does not draw on both inputs" in refused


@pytest.mark.parametrize("space", [HOSPITAL, derive_concept_space(FRAME)], ids=["shipped", "derived"])
def test_transform_offline_proposes_a_whitelisted_change_to_a_mutable_element(space: object) -> None:
    from forge.core.search.concept_space import ConceptSpace

    assert isinstance(space, ConceptSpace)
    output = offline_transform(transform_request(POOL[0], "p", FRAME, space))
    proposal = proposal_of(output)
    assert audit_transform(proposal, space) == ()
    assert proposal.target_id not in {e.id for e in (*space.hard_constraints, *space.assumptions_fixed)}
    verdict = verdict_of(offline_logic_check(logic_check_request(POOL[0], space, proposal, output.hypothesis)))
    assert verdict.passed


def test_the_offline_logic_check_fails_a_hypothesis_that_ignores_the_change() -> None:
    output = offline_transform(transform_request(POOL[0], "p", FRAME, HOSPITAL))
    unrelated = output.hypothesis.model_copy(update={"statement": "Paint the walls a calmer colour.", "mechanism": "x"})
    check = offline_logic_check(logic_check_request(POOL[0], HOSPITAL, proposal_of(output), unrelated))
    assert not verdict_of(check).passed and "Offline rule check, not a model." in check.reasons
