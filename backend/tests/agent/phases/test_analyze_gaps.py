"""analyze_gaps through the agent loop: the model's gaps are recorded, the path navigator walks the graph
and the HKG under the live navigation budget, and the thin regions reach the build review as curiosity."""

from __future__ import annotations

import json
from uuid import UUID

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.scripted_model import ScriptedModel, call, turn

from forge.agent.curate_request import LiveCurationSettings, RequestCurator
from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.curation.curation_settings import CurationChange
from forge.core.curation.graph_gaps import HkgNeighbourhood
from forge.core.domain_types import ClaimId, ClaimStatus, ClaimType, EdgeId, EdgeType, Phase, SessionId
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, Edge

PROBLEM = "How can a hospital cut emergency department queue waiting time?"


def _claim(n: int, text: str) -> Claim:
    return Claim(ClaimId(UUID(int=n)), text, ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE, status=ClaimStatus.VALIDATED)


HUB = _claim(1, "emergency department queue waiting time grows with utilization")
SPOKE = _claim(2, "triage nurses shorten the emergency department queue")
OTHER = _claim(3, "waiting time in the emergency department peaks at night")
LONELY = _claim(4, "fast track for minor cases in the emergency department queue")


class FakeHkg:
    def __init__(self) -> None:
        self.queries: list[str] = []

    async def neighbourhood(self, query: str, limit: int) -> HkgNeighbourhood:
        self.queries.append(query)
        return HkgNeighbourhood((("t:queue", "emergency department queue"),), (), ("t:queue",))


def _build_state() -> ForgeState:
    state = ForgeState(problem=PROBLEM)
    state.enter_phase(Phase.BUILD)
    state.knowledge_graph_nodes = [HUB, SPOKE, OTHER, LONELY]
    state.knowledge_graph_edges = [
        Edge(EdgeId(UUID(int=11)), SPOKE.id, HUB.id, EdgeType.SUPPORTS),
        Edge(EdgeId(UUID(int=12)), OTHER.id, HUB.id, EdgeType.EXTENDS),
        Edge(EdgeId(UUID(int=13)), OTHER.id, SPOKE.id, EdgeType.SUPPORTS),
        Edge(EdgeId(UUID(int=14)), LONELY.id, HUB.id, EdgeType.EXTENDS),
    ]
    return state


async def test_thin_regions_are_returned_to_the_model_kept_in_the_state_and_offered_at_the_review() -> None:
    state = _build_state()
    hkg = FakeHkg()
    script = [turn(call("analyze_gaps", {"gaps": ["Does triage help at night?"]})), turn(text="Gaps recorded.")]
    model = ScriptedModel(script)
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, model.label, hkg=hkg)
    run = await record_run(AgentRunner(model, max_nudges=0), ctx, [phase_kickoff(state)])

    result = json.loads(model.requests[1].messages[-1].tool_results[0].content)
    assert result["gaps"] == ["Does triage help at night?"]
    assert [t["id"] for t in result["thin_regions"]] == ["hkg:t:queue", f"kg:{LONELY.id}"]
    assert result["navigation"]["session_graph"]["stop_reason"] == "stop_rule"
    assert result["navigation"]["hkg"]["selected"] == ["t:queue"]
    assert PROBLEM in hkg.queries[0] and "Does triage help at night?" in hkg.queries[0]
    assert [i.id for i in state.curiosity_items] == ["hkg:t:queue", f"kg:{LONELY.id}"]
    review = next(e for e in run.events if e.type == EventType.REVIEW_BUILD)
    assert [c["id"] for c in review.data["curiosity"]] == ["hkg:t:queue", f"kg:{LONELY.id}"]
    assert run.events[-1].type == EventType.DONE


async def test_a_navigation_budget_changed_live_bounds_the_next_walk() -> None:
    state = _build_state()
    settings = LiveCurationSettings()
    settings.update(CurationChange(navigation_max_edges=1))
    model = ScriptedModel([turn(call("analyze_gaps", {"gaps": ["night?"]})), turn(text="ok")])
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, model.label)
    runner = AgentRunner(model, max_nudges=0, curator=RequestCurator(model.label, model.context_window, settings))
    await record_run(runner, ctx, [phase_kickoff(state)])
    navigation = json.loads(model.requests[1].messages[-1].tool_results[0].content)["navigation"]
    assert navigation["session_graph"]["edges_examined"] == 1
    assert navigation["session_graph"]["stop_reason"] == "edge_budget"
    assert navigation["hkg"] is None  # no hypergraph given: the walk is the session graph's only
