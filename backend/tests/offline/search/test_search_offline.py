"""The offline SEARCH operators: deterministic children built from the parents' text and the frame,
labelled as offline, with lineage, judged by the gate like any model's."""

from __future__ import annotations

from pathlib import Path

from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_structured_model
from forge.bootstrap.model_routing import ModelRoute, Provider
from forge.core.frame.problem_frame import ProblemFrame
from forge.core.hypotheses.pool import GateStatus, Hypothesis
from forge.core.search.plan import RuntimeProfile, SearchOperator
from forge.engine.explore.biso import run_biso
from forge.engine.search.search_round import run_search_round
from forge.engine.search.structural_operators import STRUCTURAL_OPERATORS
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.offline_model import OfflineModel
from forge.offline.search.search_offline import OFFLINE_OPERATORS
from forge.providers.hashed_embedder import HashedTextEmbedder
from forge.services.stages.search_grounding import LazyHkgGrounding

SHIPPED = load_shipped_knowledge()

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
FRAME = ProblemFrame("Cut emergency wait times", "emergency department", "shorter waits", ("without more staff",))
MODEL = build_structured_model(ModelRoute(Provider.OFFLINE, "offline"), OfflineModel(KNOWLEDGE_DIR), SHIPPED.domains)
DEMO_HKG = LazyHkgGrounding(Path("/nonexistent/no-ingested-hypergraph.jsonl"), SHIPPED, HashedTextEmbedder())
OWN_REQUESTS = STRUCTURAL_OPERATORS | {SearchOperator.BLEND_EXPAND, SearchOperator.TRANSFORM_SPACE}


async def pool() -> tuple[Hypothesis, ...]:
    run = await run_biso(MODEL, PROBLEM, FRAME, load_shipped_knowledge().domains[:8], per_domain=2)
    return run.hypotheses


def test_every_text_operator_has_an_offline_generator_and_the_others_their_own_requests() -> None:
    assert set(OFFLINE_OPERATORS) == set(SearchOperator) - OWN_REQUESTS


async def test_a_research_round_applies_every_operator_with_lineage_and_says_it_is_offline() -> None:
    parents = await pool()
    by_id = {h.id: h for h in parents}
    run = await run_search_round(
        MODEL, parents, FRAME, RuntimeProfile.RESEARCH, problem=PROBLEM, round_=1, grounding=DEMO_HKG
    )
    assert run.failures == ()
    assert set(run.operators) == {op.value for op in SearchOperator}
    for child in run.children:
        assert child.parents and all(p in by_id for p in child.parents)
        assert "Offline" in child.mechanism and "not by a language model" in child.mechanism
        assert by_id[child.parents[0]].structure in child.statement
        assert child.gate.status is GateStatus.PASSED


async def test_each_operator_changes_the_claim_in_its_own_way() -> None:
    parents = await pool()
    run = await run_search_round(MODEL, parents, FRAME, RuntimeProfile.RESEARCH, problem=PROBLEM)
    first = {c.operator: c for c in reversed(run.children)}
    assert "without more staff" in first["refine"].statement  # scoped by the frame's hard constraint
    assert first["oppose"].statement.startswith("Counter-hypothesis")
    assert "boundary" in first["extreme"].statement
    assert "different lever" in first["variant"].statement
    assert len(first["combine"].parents) == 2 and " + " in first["combine"].structure


async def test_offline_search_is_deterministic() -> None:
    parents = await pool()
    one = await run_search_round(MODEL, parents, FRAME, RuntimeProfile.INTERACTIVE, problem=PROBLEM)
    two = await run_search_round(MODEL, parents, FRAME, RuntimeProfile.INTERACTIVE, problem=PROBLEM)
    assert one.children == two.children
