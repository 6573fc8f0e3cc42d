"""The EXPLORE engine stage counts the domains BISO declined (issue 42 item 2): a scripted model that
returns zero hypotheses with a reason for one domain; the stage's summary and counts say so, the
state keeps the reason on that domain's yield, and nothing is padded in its place."""

from __future__ import annotations

from typing import Any

from support.fixed_clock import CountingIds, FixedClock
from support.memory_research import MemoryResearch
from support.shipped_triz import SHIPPED_TRIZ

from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, SessionId
from forge.core.session.forge_state import ForgeState
from forge.engine.explore.biso import BisoContext, BisoOutput
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.explore.biso_offline import offline_biso
from forge.offline.offline_model import OfflineModel
from forge.offline.offline_structured_model import OfflineStructuredModel, offline_context
from forge.ports import StructuredRequest
from forge.services.stages.engine_stages import EngineConfig, EngineStages

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
DOMAINS = load_shipped_knowledge().domains
REASON = "None of its structures has a mechanism that acts on waiting; the mapping would be words only."


class DeclinesOne:
    """The offline generator, except that the first domain asked about is declined with REASON."""

    def __init__(self) -> None:
        self.declined: str | None = None

    def __call__(self, request: StructuredRequest[Any]) -> BisoOutput:
        domain = offline_context(request, BisoContext).domain
        if self.declined in (None, domain.id):
            self.declined = domain.id
            return BisoOutput(hypotheses=[], decline_reason=REASON)
        return offline_biso(request)


async def test_the_stage_counts_a_declined_domain_and_keeps_its_reason() -> None:
    generator = DeclinesOne()
    structured = OfflineStructuredModel({BisoOutput: generator})
    stages = EngineStages(structured, OfflineModel(), DOMAINS, EngineConfig(concurrency=1))
    state = ForgeState(problem=PROBLEM, current_phase=Phase.EXPLORE)
    ids = CountingIds()
    ctx = ToolContext(SessionId(ids()), state, MemoryResearch([]), FixedClock(), ids, "offline", SHIPPED_TRIZ)
    output = await stages.run(ctx, lambda event: None)
    assert output is not None and state.biso is not None
    (event,) = [e for e in output.events if e.data.get("stage") == "biso"]
    assert event.data["counts"]["declined"] == 1 == state.biso.declined
    assert "1 domain(s) declined as not fitting" in event.data["summary"]
    (declined,) = [d for d in state.biso.domains if d.declined]
    assert (declined.domain_id, declined.declined, declined.hypotheses) == (generator.declined, REASON, 0)
    assert all(h.domain_id != generator.declined for h in output.hypotheses)
