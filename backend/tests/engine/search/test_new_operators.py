"""The HKG, blend and transform operators in a SEARCH round, on scripted structured outputs and a fake
HKG: lineage and traces on children, PATH_NOT_FOUND → no call and no evidence, chains limited to the
path, unusable blends refused, the Transform Gate's accept and reject paths, profile degradation."""

from __future__ import annotations

from support.scripted_search import FRAME, POOL, FakeGrounding, Scripted, proposal

from forge.core.hkg.structural_grounding import GroundingStatus
from forge.core.search.concept_space import SpaceOrigin, derive_concept_space
from forge.core.search.plan import HEAVY_OPERATORS, RuntimeProfile, SearchOperator
from forge.core.search.transform_gate import TransformStatus
from forge.engine.search.search_round import run_search_round
from forge.engine.search.structural_operators import StructuralContext
from forge.engine.search.transform_space import LogicCheckContext, TransformContext
from forge.knowledge.load_concept_spaces import load_concept_spaces

OP = SearchOperator
HOSPITAL = next(s for s in load_concept_spaces() if s.domain_id == "healthcare_operations")


async def test_hkg_children_keep_the_path_the_chain_and_the_paths_score_as_grounding() -> None:
    grounding = FakeGrounding()
    run = await run_search_round(Scripted(), POOL, FRAME, RuntimeProfile.RESEARCH, grounding=grounding)
    structural = [c for c in run.children if c.operator in {"hyperpath_expand", "hyperbridge"}]
    assert {c.operator for c in structural} == {"hyperpath_expand", "hyperbridge"}
    for child in structural:
        assert child.hyperpath is not None and child.hyperpath.grounded
        assert [link.hyperedge_id for link in child.hyperpath.chain] == ["e1", "e2"]
        assert child.structural_grounding == child.hyperpath.score == 7.5
    bridges = [c for c in structural if c.operator == "hyperbridge"]
    assert all(len(c.parents) == 2 and c.parents[0] != c.parents[1] for c in bridges)
    assert all(c.structural_grounding is not None for c in run.children)  # every child is grounded
    assert run.hkg_paths == {
        "HKG_PATH_FOUND": len([a for a in run.plan if a.operator in {OP.HYPERPATH_EXPAND, OP.HYPERBRIDGE}])
    }


async def test_hyperpath_requests_carry_the_path_by_reference_and_the_frames_end_terms() -> None:
    model, grounding = Scripted(), FakeGrounding()
    run = await run_search_round(model, POOL, FRAME, RuntimeProfile.INTERACTIVE, grounding=grounding)
    requests = [r for r in model.requests if isinstance(r.offline_context, StructuralContext)]
    assert requests
    for request in requests:
        assert "[e1] —mechanism—" in request.input and "source_domains.json#control/structures/0" in request.input
    structures = {h.structure for h in POOL}
    expand_queries = [q for q in grounding.requests if q.hypothesis_terms[0] in structures]
    assert len(expand_queries) == sum(1 for a in run.plan if a.operator is OP.HYPERPATH_EXPAND)
    assert all(q.frame_terms == ("emergency department", "shorter waits") for q in expand_queries)


async def test_path_not_found_makes_no_call_no_child_and_no_evidence() -> None:
    model = Scripted()
    run = await run_search_round(model, POOL, FRAME, RuntimeProfile.RESEARCH, grounding=FakeGrounding(found=False))
    hkg_planned = [a for a in run.plan if a.operator in {OP.HYPERPATH_EXPAND, OP.HYPERBRIDGE}]
    assert hkg_planned and run.ungrounded == len(hkg_planned)
    assert not any(isinstance(r.offline_context, StructuralContext) for r in model.requests)
    assert not any(c.operator in {"hyperpath_expand", "hyperbridge"} for c in run.children)
    assert all(c.hyperpath is None and c.structural_grounding == 0.0 for c in run.children)
    assert run.hkg_paths == {GroundingStatus.PATH_NOT_FOUND.event_name: len(hkg_planned)}


async def test_without_a_hypergraph_hkg_applications_make_nothing() -> None:
    run = await run_search_round(Scripted(), POOL, FRAME, RuntimeProfile.INTERACTIVE)
    assert "hyperpath_expand" not in run.operators and run.children
    assert all(c.structural_grounding is None for c in run.children)


async def test_a_chain_citing_a_hyperedge_off_the_path_is_refused() -> None:
    run = await run_search_round(
        Scripted(cite=("e1", "e7")), POOL, FRAME, RuntimeProfile.INTERACTIVE, grounding=FakeGrounding()
    )
    refused = [f for f in run.failures if f.operator is OP.HYPERPATH_EXPAND]
    assert refused and all("not on the path: e7" in f.message for f in refused)
    assert "hyperpath_expand" not in run.operators


async def test_blend_children_keep_their_network_and_both_parents() -> None:
    run = await run_search_round(Scripted(), POOL, FRAME, RuntimeProfile.RESEARCH, grounding=FakeGrounding())
    blends = [c for c in run.children if c.operator == "blend_expand"]
    assert blends
    for child in blends:
        assert child.blend is not None and len(child.parents) == 2
        assert child.blend.emergent and all(e.observable_link for e in child.blend.emergent)


async def test_the_transform_gate_accepts_a_verified_proposal_into_the_pool() -> None:
    run = await run_search_round(Scripted(), POOL, FRAME, RuntimeProfile.RESEARCH, space=HOSPITAL)
    (record,) = run.transforms
    assert record.status is TransformStatus.ACCEPTED and record.space_id == "healthcare_operations"
    (child,) = [c for c in run.children if c.operator == "transform_space"]
    assert child.transform == record and child.parents == (record.parent,)
    assert run.concept_space == HOSPITAL.name


async def test_a_proposal_on_a_hard_constraint_is_rejected_without_a_logic_call_and_kept_as_a_record() -> None:
    space = derive_concept_space(FRAME)
    assert space.origin is SpaceOrigin.DERIVED and space.hard_constraints[0].id == "hc:1"
    model = Scripted(transform=proposal("relax_threshold", "hc:1", "without more staff"))
    run = await run_search_round(model, POOL, FRAME, RuntimeProfile.RESEARCH, space=space)
    (record,) = run.transforms
    assert record.status is TransformStatus.REJECTED and "may never be transformed" in record.reasons[0]
    assert not any(isinstance(r.offline_context, LogicCheckContext) for r in model.requests)
    assert "transform_space" not in run.operators


async def test_an_op_off_the_whitelist_is_rejected() -> None:
    # healthcare_operations does not allow drop_constraint
    model = Scripted(transform=proposal("drop_constraint", "sp:2", "patients stay on one ward per episode"))
    run = await run_search_round(model, POOL, FRAME, RuntimeProfile.RESEARCH, space=HOSPITAL)
    (record,) = run.transforms
    assert record.status is TransformStatus.REJECTED and "allowed operations" in record.reasons[0]


async def test_a_failing_logic_check_rejects_the_proposal() -> None:
    model = Scripted(logic=(8.0, 4.0, 8.0))
    run = await run_search_round(model, POOL, FRAME, RuntimeProfile.RESEARCH, space=HOSPITAL)
    (record,) = run.transforms
    assert record.status is TransformStatus.REJECTED and record.logic == (8.0, 4.0, 8.0)
    assert sum(isinstance(r.offline_context, LogicCheckContext) for r in model.requests) == 1
    assert "transform_space" not in run.operators


async def test_a_failed_logic_call_never_accepts() -> None:
    class NoVerifier(Scripted):
        def _answer(self, context: object, n: int) -> object:
            return None if isinstance(context, LogicCheckContext) else super()._answer(context, n)

    run = await run_search_round(NoVerifier(), POOL, FRAME, RuntimeProfile.RESEARCH, space=HOSPITAL)
    (record,) = run.transforms
    assert record.status is TransformStatus.REJECTED and "never accepted unverified" in record.reasons[0]


async def test_the_verifier_role_runs_the_logic_check_when_given() -> None:
    generator, verifier = Scripted(), Scripted()
    await run_search_round(generator, POOL, FRAME, RuntimeProfile.RESEARCH, space=HOSPITAL, verifier=verifier)
    assert [type(r.offline_context) for r in verifier.requests] == [LogicCheckContext]
    assert any(isinstance(r.offline_context, TransformContext) for r in generator.requests)


async def test_interactive_never_asks_a_heavy_operator_and_research_degrades_past_the_quotas() -> None:
    interactive = await run_search_round(Scripted(), POOL, FRAME, RuntimeProfile.INTERACTIVE, grounding=FakeGrounding())
    assert not {a.operator for a in interactive.plan} & HEAVY_OPERATORS
    quotas = {OP.HYPERBRIDGE: 1, OP.BLEND_EXPAND: 0, OP.TRANSFORM_SPACE: 0}
    research = await run_search_round(
        Scripted(), POOL, FRAME, RuntimeProfile.RESEARCH, quotas, grounding=FakeGrounding()
    )
    operators = [a.operator for a in research.plan]
    assert operators.count(OP.HYPERBRIDGE) == 1 and OP.BLEND_EXPAND not in operators
    assert OP.TRANSFORM_SPACE not in operators and research.transforms == ()
    degraded = [a for a in research.plan if a.degraded_from in HEAVY_OPERATORS]
    assert degraded and all(a.operator in {OP.VARIANT, OP.REFINE} for a in degraded)
