"""SYNTHESIZE builds on the engine, through the whole exchange with a scripted model: the brief
offers SEARCH's children (operator, parents, lineage) and the starred pool hypotheses as candidate
theses and antitheses; a thesis records the pool ids it came from, and an id the brief did not offer
is refused with the ids it did."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from uuid import UUID

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.scripted_model import ScriptedModel, call, turn

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import AnalogyId, Phase, SemanticDistance, SessionId
from forge.core.explore.mapping_quality_gate import MappingRow, MappingTable, MappingType
from forge.core.hypotheses.pool import GateStatus, GateSummary, Hypothesis, HypothesisId
from forge.core.llm.messages import ToolResult
from forge.core.search.candidates import search_candidates
from forge.core.search.summary import SearchSummary
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Analogy, ResearchHit

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
HIT = ResearchHit("https://example.org/ed-flow", "Emergency department flow", "Boarding delays emergency care.")
ROWS = tuple(MappingRow(s, "drives", "triage", "moves", MappingType.RELATION, "g", "queue/h") for s in ("a", "b"))
JSON_BLOCK = re.compile(r"```json\n(.*)\n```", re.DOTALL)


def hypothesis(hid: str, operator: str = "biso", parents: tuple[str, ...] = (), passed: bool = True) -> Hypothesis:
    gate = GateSummary(GateStatus.PASSED if passed else GateStatus.FAILED, (), 6, 7.0 if passed else 3.0)
    return Hypothesis(
        HypothesisId(hid), "d", "D", "queue buffer", f"title {hid}", f"statement {hid}", "mechanism",
        MappingTable(ROWS), "minutes per patient", ("beds block",), gate, operator,
        tuple(HypothesisId(p) for p in parents),
    )  # fmt: skip


def synthesize_state() -> ForgeState:
    root = hypothesis("b1")
    refined = hypothesis("s1", "refine", ("b1",))
    children = [hypothesis("s2", "oppose", ("s1",)), refined, hypothesis("s3", "refine", ("b1",), passed=False)]
    summary = SearchSummary(0, "interactive", "mome", (HypothesisId("b1"),), 3, 3, 3)
    starred = Analogy(AnalogyId(UUID(int=7)), "D", "t", "x", SemanticDistance.FAR, starred=True, hypothesis_id="b9")
    state = ForgeState(
        problem=PROBLEM,
        search=replace(summary, candidates=search_candidates(children, [root, refined])),
        cross_domain_analogies=[starred],
    )
    state.enter_phase(Phase.SYNTHESIZE)
    return state


async def test_the_brief_offers_searchs_children_and_a_thesis_records_where_it_came_from() -> None:
    state = synthesize_state()
    model = ScriptedModel(
        [
            turn(call("research", {"query": "queue buffer emergency department"})),
            turn(
                call(
                    "state_thesis",
                    {
                        "thesis": "Buffering triage like a queue cuts waits",
                        "evidence_sources": [HIT.source],
                        "hypothesis_ids": ["s2", "nope"],
                    },
                )
            ),
            turn(
                call(
                    "state_thesis",
                    {
                        "thesis": "Buffering triage like a queue cuts waits",
                        "evidence_sources": [HIT.source],
                        "hypothesis_ids": ["s2", "b9"],
                    },
                )
            ),
            turn(text="one thesis stated"),
        ]
    )
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids, "scripted")
    await record_run(AgentRunner(model, max_nudges=0), ctx, [phase_kickoff(state)])

    brief = model.requests[0].messages[0].text
    assert "CANDIDATES: the engine searched the hypothesis pool for you" in brief
    context = json.loads(JSON_BLOCK.findall(brief)[-1])
    offered = context["search_candidates"]
    assert [c["id"] for c in offered] == ["s2", "s1", "s3"]  # gate-passed first, one operator in turn
    assert offered[0]["operator"] == "oppose" and offered[0]["parents"] == ["s1"]
    assert offered[0]["lineage"] == ["biso: title b1", "refine: title s1"]
    assert offered[2]["gate_passed"] is False
    assert context["starred_analogies"][0]["hypothesis_id"] == "b9"

    refused = next(p for p in model.requests[2].messages[-1].parts if isinstance(p, ToolResult))
    assert refused.is_error and "hypothesis_ids ['nope'] are not in the brief" in refused.content
    assert "s2, s1, s3, b9" in refused.content
    (claim,) = state.current_round_claims
    assert claim.hypothesis_ids == ("s2", "b9")
