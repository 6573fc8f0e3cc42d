"""A recording call in the same turn as the research it needs is refused; the next turn it succeeds."""

from __future__ import annotations

import json
from uuid import UUID

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.scripted_model import ScriptedModel, call, turn

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import ClaimId, ClaimType, Phase, SessionId
from forge.core.llm.messages import ToolResult
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, ResearchHit

THESIS = "Pooling the triage queues cuts emergency department waiting times when utilisation is high."
SOURCE = "corpus://queueing/boarding"
HIT = ResearchHit(
    SOURCE,
    "Boarding and emergency department waiting",
    "Boarding of admitted patients, not triage, sets emergency department waiting times at high utilisation.",
)
ANTITHESIS = {
    "claim_index": 0,
    "antithesis": "Pooling triage queues does not cut waiting times: “Boarding of admitted patients, not triage, "
    "sets emergency department waiting times at high utilisation.”",
    "evidence_sources": [SOURCE],
}


def synthesize_state() -> ForgeState:
    state = ForgeState(problem="How can a hospital cut emergency waiting times without more staff?")
    state.enter_phase(Phase.SYNTHESIZE)
    claim = Claim(ClaimId(UUID(int=7)), THESIS, ClaimType.THESIS, 0, Phase.SYNTHESIZE, thesis_text=THESIS)
    state.current_round_claims.append(claim)
    return state


def results(model: ScriptedModel, request: int) -> list[ToolResult]:
    return [p for p in model.requests[request].messages[-1].parts if isinstance(p, ToolResult)]


async def test_find_antithesis_waits_a_turn_for_the_research_it_cites_then_stores_its_quote() -> None:
    query = {"query": "pooling triage queues emergency waiting times boarding"}
    model = ScriptedModel(
        [
            turn(call("research", query), call("find_antithesis", ANTITHESIS)),
            turn(call("find_antithesis", ANTITHESIS)),
            turn(text="The antithesis is recorded."),
        ]
    )
    state, ids = synthesize_state(), CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids, "scripted")
    run = await record_run(AgentRunner(model, max_iterations=3, max_nudges=0), ctx, [phase_kickoff(state)])

    brief = model.requests[0].messages[0].text
    assert "TOOLS THIS PHASE (any other tool returns TOOL_NOT_IN_PHASE):\n- research: " in brief
    assert "Record only after reading the research it cites" in brief
    assert [(e.name, e.error_code) for e in run.tool_calls] == [
        ("research", None),
        ("find_antithesis", "ANTITHESIS_NOT_SEARCHED"),
        ("find_antithesis", None),
    ]
    searched, refused = results(model, 1)
    assert not searched.is_error and json.loads(searched.content)["results"][0]["source"] == SOURCE
    assert refused.is_error and json.loads(refused.content)["message"] == (
        "The research it needs (“pooling triage queues emergency waiting times boarding”) ran in this same turn, "
        "so you have not read its results yet. Wait for them, then call find_antithesis in your next turn, "
        "citing what they found."
    )
    (recorded,) = results(model, 2)
    assert not recorded.is_error
    (claim,) = state.current_round_claims
    assert [(e.source, e.summary) for e in claim.evidence] == [
        (
            SOURCE,
            "“Boarding of admitted patients, not triage, sets emergency department waiting times at high utilisation.”",
        )
    ]
    assert state.model_turn == 3 and [r.turn for r in state.research_log] == [1]
