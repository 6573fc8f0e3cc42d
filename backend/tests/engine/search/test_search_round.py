"""A SEARCH round on scripted structured outputs: seeds from the gate + MOME, the plan under the
profile's quotas, children with lineage (operator, parents), gated like BISO's; failures and
degradation counted."""

from __future__ import annotations

from support.scripted_search import FRAME, POOL, FakeGrounding, Scripted

from forge.core.explore.mapping_quality_gate import MappingTable
from forge.core.hypotheses.pool import GateStatus, Hypothesis, HypothesisId, gate_summary
from forge.core.llm.messages import Usage
from forge.core.search.plan import RuntimeProfile, SearchOperator
from forge.engine.search.operator_registry import OPERATOR_APPLICATIONS
from forge.engine.search.operators import SearchContext
from forge.engine.search.search_round import run_search_round


async def test_children_record_their_operator_and_parents_and_are_gated() -> None:
    model = Scripted()
    run = await run_search_round(model, POOL, FRAME, RuntimeProfile.RESEARCH, round_=2, grounding=FakeGrounding())
    transforms = sum(1 for a in run.plan if a.operator is SearchOperator.TRANSFORM_SPACE)
    assert run.calls == len(model.requests) == len(run.plan) + transforms  # + one logic check per proposal
    assert run.children and all(c.gate.status is GateStatus.PASSED for c in run.children)
    by_id = {c.id: c for c in run.children}
    for n, application in enumerate(run.plan, start=1):
        child = by_id[HypothesisId(f"search-2-{n}-{application.operator.value}")]
        assert child.operator == application.operator.value and child.parents == application.parents
        assert child.round == 2 and child.domain_id == f"dom-{application.parents[0]}"
    combined = [c for c in run.children if c.operator == "combine"]
    assert combined and all(len(c.parents) == 2 and " + " in c.domain_name for c in combined)
    assert set(run.operators) == {op.value for op in SearchOperator}
    assert run.usage == Usage(100 * run.calls, 50 * run.calls)


async def test_each_request_carries_its_parents_the_frame_and_the_operators_instructions() -> None:
    model = Scripted()
    await run_search_round(model, POOL, FRAME, RuntimeProfile.RESEARCH)
    standard = [r for r in model.requests if isinstance(r.offline_context, SearchContext)]
    assert standard
    for request in standard:
        context = request.offline_context
        assert isinstance(context, SearchContext)
        assert OPERATOR_APPLICATIONS[context.operator].instructions in request.instructions
        assert all(p.statement in request.input for p in context.parents)
        assert "without more staff" in request.input


async def test_quotas_limit_operators_and_the_rest_degrades_to_variant_or_refine() -> None:
    model = Scripted()
    quotas = {SearchOperator.OPPOSE: 1, SearchOperator.EXTREME: 0, SearchOperator.COMBINE: 0}
    run = await run_search_round(model, POOL, FRAME, RuntimeProfile.INTERACTIVE, quotas)
    operators = [a.operator for a in run.plan]
    assert operators.count(SearchOperator.OPPOSE) == 1
    assert SearchOperator.EXTREME not in operators and SearchOperator.COMBINE not in operators
    assert run.degraded >= 2
    assert all(a.operator in {SearchOperator.VARIANT, SearchOperator.REFINE} for a in run.plan if a.degraded_from)


async def test_interactive_makes_fewer_calls_than_research() -> None:
    interactive = await run_search_round(Scripted(), POOL, FRAME, RuntimeProfile.INTERACTIVE)
    research = await run_search_round(Scripted(), POOL, FRAME, RuntimeProfile.RESEARCH)
    assert interactive.calls < research.calls


async def test_a_failed_operator_call_is_reported_and_the_others_still_count() -> None:
    run = await run_search_round(
        Scripted(fail=frozenset({SearchOperator.OPPOSE})), POOL, FRAME, RuntimeProfile.RESEARCH
    )
    assert run.failures and all(f.operator is SearchOperator.OPPOSE for f in run.failures)
    assert "oppose" not in run.operators and run.children


async def test_hypotheses_that_failed_the_gate_are_not_expanded() -> None:
    thin = Hypothesis(
        HypothesisId("thin"),
        "d",
        "D",
        "s",
        "thin",
        "A thin idea about waits.",
        "m",
        MappingTable(()),
        "o",
        (),
        gate_summary(MappingTable(()), "A thin idea"),
    )
    model = Scripted()
    run = await run_search_round(model, (thin,), FRAME, RuntimeProfile.RESEARCH)
    assert run.selection.pruned == 1 and run.calls == 0 and run.children == ()


async def test_near_duplicate_children_are_merged_and_say_whom_they_absorbed() -> None:
    run = await run_search_round(Scripted(distinct=False), POOL, FRAME, RuntimeProfile.INTERACTIVE)
    assert len(run.children) < run.calls
    absorbed = {a for c in run.children for a in c.absorbed}
    assert len(absorbed) == run.calls - len(run.children)
