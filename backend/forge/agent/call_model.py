"""One model call: streamed when the model can stream, with its cost accounted.

Invariants:
    - Text reaches the person as it arrives: each streamed delta becomes an `agent_text` event; a
      non-streaming model's text becomes one `agent_text` event. The last item is the ModelResponse.
    - Server-side research the provider ran is recorded in ForgeState (it satisfies the research
      gates and grounds evidence exactly like the `research` tool) and shown as tool events.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import cast

from forge.agent.tool_context import ToolContext
from forge.core import session_events as ev
from forge.core.model_messages import ModelRequest, ModelResponse, StreamReset, TextDelta
from forge.core.model_pricing import DEFAULT_PRICES, ModelPrice, cost_of, price_for
from forge.core.records import ResearchRecord
from forge.core.session_spend import PhaseSpend, total_spend
from forge.ports import LanguageModel, StreamingLanguageModel


async def call_model(model: LanguageModel, request: ModelRequest) -> AsyncIterator[ev.SessionEvent | ModelResponse]:
    if not callable(getattr(model, "stream", None)):
        response = await model.complete(request)
        if response.message.text.strip():
            yield ev.agent_text(response.message.text)
        yield response
        return
    async for item in cast(StreamingLanguageModel, model).stream(request):
        if isinstance(item, TextDelta):
            if item.text:
                yield ev.agent_text(item.text)
        elif isinstance(item, StreamReset):
            continue
        else:
            yield item


def record_server_research(ctx: ToolContext, response: ModelResponse, provider: str) -> list[ev.SessionEvent]:
    events: list[ev.SessionEvent] = []
    s = ctx.state
    for research in response.server_research:
        s.record_research(
            ResearchRecord(
                research.query,
                research.hits,
                s.current_phase,
                s.current_round,
                ctx.clock.now(),
                f"{provider} web search",
            )
        )
        events.append(ev.tool_call("web_search", research.query))
        summary = f"{len(research.hits)} result(s) for “{research.query}”"
        events.append(ev.tool_result("web_search", summary, research.hits))
    return events


def account_usage(
    ctx: ToolContext,
    model: LanguageModel,
    response: ModelResponse,
    prices: Mapping[str, ModelPrice] = DEFAULT_PRICES,
) -> ev.SessionEvent:
    """Add the call's tokens and cost to the phase's spend; the context_usage event for the call."""
    name = response.model or model.label
    # A local server may serve a model under a hosted model's name: it still costs nothing per token.
    local = model.label.startswith("local:")
    cost = 0.0 if local else cost_of(response.usage, price_for(name, prices))
    phase = ctx.state.current_phase
    spend = ctx.state.spend_by_phase
    spend[phase.value] = spend.get(phase.value, PhaseSpend()).plus(response.usage, cost)
    usage = response.usage
    context_tokens = usage.input_tokens + usage.cache_read_tokens + usage.cache_creation_tokens + usage.output_tokens
    report = ev.SpendReport(
        phase, spend[phase.value], total_spend(spend), usage.cache_read_tokens, usage.cache_creation_tokens
    )
    return ev.context_usage(context_tokens, model.context_window, name, cost, report)
