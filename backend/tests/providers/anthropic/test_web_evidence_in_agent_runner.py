"""A recorded web search through the real SDK: what the model quotes from a result becomes the evidence."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from providers.anthropic.fake_anthropic_api import FakeAnthropicApi
from support.agent_run import record_run
from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch

from forge.agent.phase_briefs import phase_kickoff
from forge.agent.runner import AgentRunner
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import ClaimId, ClaimType, Phase, SessionId
from forge.core.session.events import EventType
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim
from forge.providers.anthropic_model import AnthropicModel

THESIS = "Pooling the triage queues cuts emergency department waiting times when utilisation is high."
PMC = "https://www.ncbi.nlm.nih.gov/pmc/articles/PMC3825996/"
AHRQ = "https://www.ahrq.gov/research/findings/factsheets/errors-safety/improving-patient-flow.html"
ACEP = "https://www.acep.org/administration/crowding--boarding"


def synthesize_state() -> ForgeState:
    state = ForgeState(problem="How can a hospital cut emergency wait times without more staff?")
    state.enter_phase(Phase.SYNTHESIZE)
    claim = Claim(ClaimId(UUID(int=7)), THESIS, ClaimType.THESIS, 0, Phase.SYNTHESIZE, thesis_text=THESIS)
    state.current_round_claims.append(claim)
    return state


async def test_quotes_in_the_reply_and_in_find_antithesis_are_stored_as_the_web_evidence(
    api: FakeAnthropicApi, make_model: Callable[..., AnthropicModel]
) -> None:
    api.sse("web_search_then_antithesis.sse").sse("text_stream.sse")
    model, state, ids = make_model(), synthesize_state(), CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, model.label)
    run = await record_run(AgentRunner(model, max_iterations=2, max_nudges=0), ctx, [phase_kickoff(state)])

    # The search ran on the server in the same turn, so find_antithesis could cite it: no tool error.
    assert [(e.name, e.error_code) for e in run.tool_calls] == [("find_antithesis", None)]
    assert [e.data["tool"] for e in run.events if e.type == EventType.TOOL_RESULT] == ["web_search", "find_antithesis"]
    (claim,) = state.current_round_claims
    assert claim.antithesis_text and claim.antithesis_text.startswith("Pooling triage queues cannot cut waits")
    assert [(e.source, e.summary) for e in claim.evidence] == [
        # quoted in find_antithesis and found in what the reply cited from the page: checked
        (PMC, "“the most commonly cited cause of crowding is the boarding of admitted patients in the ED”"),
        # quoted after naming AHRQ; its page text came encrypted, so the quote is stored marked unchecked
        (
            AHRQ,
            "“smoothing elective surgical admissions reduced ED boarding more than any front-end change” "
            "(not checked: the search returned the page text encrypted)",
        ),
        # cited without a quote: the title and page age, as before
        (ACEP, "Crowding & Boarding"),
    ]
    (record,) = state.research_log
    assert record.query == "pooling triage queues emergency department waiting times criticism"
    assert record.turn == 0 and all(h.page_text_hidden for h in record.hits)
    first = api.bodies[0]
    assert first["tools"][-1]["type"] == "web_search_20260209"
    brief = first["messages"][0]["content"][0]["text"]
    assert "TOOLS THIS PHASE" in brief and "- find_antithesis: Record the strongest counter-position" in brief
