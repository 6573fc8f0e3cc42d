"""The offline model acts on the person's claim feedback first in VALIDATE: it answers it with
revise_claim, keeping the text (rules do not rewrite a claim from free text), before it tests the claim."""

from __future__ import annotations

from uuid import UUID

from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import ClaimId, ClaimType, Phase, SessionId
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, ResearchHit
from forge.offline.offline_model import OfflineModel
from forge.offline.phases.plan_validate import KEPT

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
TEXT = "Pooling the separate triage lines into one shared queue will reduce emergency wait times without more staff."
HIT = ResearchHit("corpus://pooling", "Pooling", "Pooling triage lines into a shared queue reduces emergency waits.")


async def test_feedback_is_answered_before_the_claim_is_tested_and_the_text_is_kept() -> None:
    state = ForgeState(problem=PROBLEM)
    claim = Claim(ClaimId(UUID(int=1)), TEXT, ClaimType.SYNTHESIS, 0, Phase.SYNTHESIZE, user_feedback="Which lines?")
    state.current_round_claims = [claim]
    state.enter_phase(Phase.VALIDATE)
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([HIT]), FixedClock(), ids, "offline")
    record = await record_run(AgentRunner(OfflineModel(), max_nudges=0), ctx, [phase_kickoff(state)])

    names = [t.name for t in record.tool_calls]
    assert names[0] == "revise_claim" and names.index("revise_claim") < names.index("attempt_falsification")
    assert all(t.error_code is None for t in record.tool_calls if t.name == "revise_claim")
    revised = state.current_round_claims[0]
    assert revised.text == TEXT and revised.feedback_response == KEPT and revised.revised_from is None
