"""BUILD through the real loop: kept claims enter the graph with extends, merged_from and supports edges."""

from __future__ import annotations

from uuid import UUID

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import ClaimId, ClaimStatus, ClaimType, EdgeType, Phase, SessionId
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, ClaimScores
from forge.offline.offline_model import OFFLINE_LABEL, OfflineModel

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
EARLIER = ClaimId(UUID(int=501))
KEPT = ClaimId(UUID(int=502))
MERGED = ClaimId(UUID(int=503))
DROPPED = ClaimId(UUID(int=504))


def _claim(claim_id: ClaimId, text: str, status: ClaimStatus, **extra: object) -> Claim:
    return Claim(
        claim_id,
        text,
        ClaimType.SYNTHESIS,
        1,
        Phase.SYNTHESIZE,
        status=status,
        scores=ClaimScores(0.7, 0.7, 0.7, 0.7),
        antithesis_text="If staff are not interchangeable, it will not.",
        **extra,
    )  # type: ignore[arg-type]


def _state() -> ForgeState:
    state = ForgeState(problem=PROBLEM, current_phase=Phase.BUILD, current_round=1)
    earlier = _claim(EARLIER, "Pooling staff reduces emergency wait times.", ClaimStatus.VALIDATED)
    kept_text = "Smoothing arrivals reduces emergency wait times without more staff."
    state.knowledge_graph_nodes = [earlier]
    state.past_round_claims = [earlier]
    state.current_round_claims = [
        _claim(KEPT, kept_text, ClaimStatus.VALIDATED, builds_on=(EARLIER,)),  # as create_synthesis records it
        _claim(
            MERGED,
            "Smoothing arrivals cuts emergency wait times.",
            ClaimStatus.SUPERSEDED,
            rejection_reason=f"merged into: {kept_text}",
        ),
        _claim(
            DROPPED,
            "Hiring reduces emergency wait times.",
            ClaimStatus.REJECTED,
            rejection_reason="breaks the constraint",
        ),
    ]
    return state


async def test_build_adds_kept_claims_with_typed_edges_then_records_gaps() -> None:
    state = _state()
    ids = CountingIds(seed=900)
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, OFFLINE_LABEL)
    history = [phase_kickoff(state)]
    events = (await record_run(AgentRunner(OfflineModel()), ctx, history)).events
    assert not [e for e in events if e.type in (EventType.TOOL_ERROR, EventType.ERROR)]
    assert [c.id for c in state.knowledge_graph_nodes] == [EARLIER, MERGED, KEPT]
    edges = {(e.source, e.target, e.edge_type) for e in state.knowledge_graph_edges}
    assert (KEPT, EARLIER, EdgeType.EXTENDS) in edges
    assert (KEPT, MERGED, EdgeType.MERGED_FROM) in edges
    assert (MERGED, EARLIER, EdgeType.SUPPORTS) in edges
    assert any(g.startswith("Rejected direction") and "Hiring" in g for g in state.gaps)
    assert any(g.startswith("Boundary not yet measured") for g in state.gaps)
    assert events[-2].type == EventType.REVIEW_BUILD
