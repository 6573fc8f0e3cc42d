"""The English rendering of a research query is a model call: its tokens and cost join the phase's
spend (which the budgets read), once per distinct query — a cached rendering costs nothing."""

from __future__ import annotations

from uuid import UUID

from research.renderings import TableRenderings
from support.fixed_clock import CountingIds, FixedClock

from forge.agent.phases.shared_tools import ResearchInput, research
from forge.agent.tool_context import ToolContext
from forge.core.domain_types import Phase, SessionId
from forge.core.llm.pricing import cost_of, price_for
from forge.core.session.forge_state import ForgeState
from forge.providers.library_prices import LIBRARY_PRICES
from forge.research.cross_language import CrossLanguageResearch, ModelQueryRenderer
from forge.research.local_corpus import LocalCorpusResearch

ZH = "急诊 等待时间 排队"
MODEL = "claude-sonnet-4-6"


async def test_a_rendered_query_is_billed_to_the_phase_once_and_an_english_query_costs_nothing() -> None:
    state = ForgeState(problem="如何缩短急诊等待时间？", current_phase=Phase.EXPLORE)
    table = TableRenderings({ZH: "emergency department waiting time queue"}, label=f"anthropic:{MODEL}")
    provider = CrossLanguageResearch(LocalCorpusResearch.from_directory(), ModelQueryRenderer(table))
    ctx = ToolContext(SessionId(UUID(int=1)), state, provider, FixedClock(), CountingIds())

    await research(ctx, ResearchInput(query=ZH))
    spend = state.spend_by_phase[Phase.EXPLORE.value]
    price = price_for(MODEL, LIBRARY_PRICES)
    assert price is not None
    assert (spend.calls, spend.tokens) == (1, 48)  # the scripted rendering's 40 in + 8 out
    assert spend.cost_usd == cost_of(table.last_usage, price) > 0

    await research(ctx, ResearchInput(query=ZH))  # the same query: the rendering is kept, not asked again
    await research(ctx, ResearchInput(query="emergency department waiting queue"))  # English: no rendering
    assert state.spend_by_phase[Phase.EXPLORE.value] == spend
    assert table.asked == [ZH]
