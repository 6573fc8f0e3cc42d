"""One model call: streamed when the model can stream, with its cost accounted.

Invariants:
    - While a model streams, its text reaches the person as LIVE `agent_text_delta` events,
      coalesced (at most one per COALESCE_SECONDS unless COALESCE_CHARS accumulate), so a 300k
      character reply is a few hundred events, not one per token. A `StreamReset` from the
      provider becomes a live `agent_text_discarded`: the draft is dropped, never shown twice.
    - Live events are not stored; the runner stores the final reply's text with its step.
    - Server-side research the provider ran is recorded in ForgeState (it satisfies the research
      gates and grounds evidence exactly like the `research` tool) and shown as tool events. What the
      reply's text cited from web search results joins those hits' snippets, whichever turn ran them.
    - Every call's usage is accounted, including the input a failed call was charged.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass
from typing import cast

from forge.agent.tool_context import ToolContext
from forge.core.curation.curate_conversation import CurationSummary
from forge.core.llm.messages import ModelRequest, ModelResponse, StreamReset, TextDelta, Usage
from forge.core.llm.pricing import ModelPrice, cost_of, price_for
from forge.core.research.quoted_evidence import with_cited_quotes
from forge.core.session import events as ev
from forge.core.session.records import ResearchRecord
from forge.core.session.spend import PhaseSpend, total_spend
from forge.ports import LanguageModel, StreamingLanguageModel
from forge.providers.library_prices import LIBRARY_PRICES

COALESCE_SECONDS = 0.1
COALESCE_CHARS = 4_000


@dataclass(frozen=True, slots=True)
class Live:
    """A live-only event (never stored): text as it streams, or a discarded draft."""

    event: ev.SessionEvent


class _Coalescer:
    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now
        self._parts: list[str] = []
        self._size = 0
        self._since = now()

    def add(self, text: str) -> Live | None:
        self._parts.append(text)
        self._size += len(text)
        if self._size >= COALESCE_CHARS or self._now() - self._since >= COALESCE_SECONDS:
            return self.flush()
        return None

    def flush(self) -> Live | None:
        text = "".join(self._parts)
        self._parts, self._size, self._since = [], 0, self._now()
        return Live(ev.agent_text_delta(text)) if text else None

    def discard(self) -> None:
        self._parts, self._size = [], 0


async def call_model(
    model: LanguageModel, request: ModelRequest, now: Callable[[], float] = time.monotonic
) -> AsyncIterator[Live | ModelResponse]:
    """Live events while the model streams, then the ModelResponse (always last)."""
    if not callable(getattr(model, "stream", None)):
        yield await model.complete(request)
        return
    coalescer = _Coalescer(now)
    async for item in cast(StreamingLanguageModel, model).stream(request):
        if isinstance(item, TextDelta):
            live = coalescer.add(item.text) if item.text else None
            if live is not None:
                yield live
        elif isinstance(item, StreamReset):
            coalescer.discard()
            yield Live(ev.agent_text_discarded(item.reason))
        else:
            rest = coalescer.flush()
            if rest is not None:
                yield rest
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
                f"{provider} {research.tool.replace('_', ' ')}",
            )
        )
        events.append(ev.tool_call(research.tool, research.query))
        summary = f"{len(research.hits)} result(s) for “{research.query}”"
        events.append(ev.tool_result(research.tool, summary, research.hits))
    if response.cited_quotes:  # what the reply cited joins the hits it came from, this turn's or earlier
        s.research_log = with_cited_quotes(s.research_log, response.cited_quotes)
        s.web_searches_this_phase = with_cited_quotes(s.web_searches_this_phase, response.cited_quotes)
    return events


@dataclass(frozen=True, slots=True)
class Charge:
    """A call's tokens added to the phase's spend: the model it was priced as, its cost and whether
    that price is known (an unknown price is not $0: the UI warns)."""

    model_name: str
    cost_usd: float
    price_known: bool


def charge_usage(
    ctx: ToolContext, label: str, usage: Usage, model_name: str = "", prices: Mapping[str, ModelPrice] = LIBRARY_PRICES
) -> Charge:
    """Add a call's tokens and cost to the phase's spend (which the budgets read), priced as the
    model `label` ("provider:model") names."""
    # A failed call has no reply naming its model: price it by the model of the label ("provider:model").
    name = model_name or label.partition(":")[2] or label
    # A local server may serve a model under a hosted model's name: it costs nothing per token unless
    # the deployment priced it (FORGE_PRICES_FILE: the keys the price mapping iterates over).
    local = label.startswith("local:")
    # A model whose label names no provider (the offline stand-in, tests' doubles) is billed by nobody:
    # its price is known, and it is $0.
    unbilled = ":" not in label
    price = price_for(name, prices) if not (local or unbilled) or name in set(prices) else None
    cost = 0.0 if price is None else cost_of(usage, price)
    spend = ctx.state.spend_by_phase
    phase = ctx.state.current_phase
    spend[phase.value] = spend.get(phase.value, PhaseSpend()).plus(usage, cost)
    return Charge(name, cost, local or unbilled or price is not None)


def account_usage(
    ctx: ToolContext,
    model: LanguageModel,
    usage: Usage,
    model_name: str = "",
    prices: Mapping[str, ModelPrice] = LIBRARY_PRICES,
    curation: CurationSummary | None = None,
) -> ev.SessionEvent:
    """Add a call's tokens and cost to the phase's spend; the context_usage event for the call
    (with the curation summary of its context, when the runner curated it)."""
    charge = charge_usage(ctx, model.label, usage, model_name, prices)
    phase = ctx.state.current_phase
    spend = ctx.state.spend_by_phase
    context_tokens = usage.input_tokens + usage.cache_read_tokens + usage.cache_creation_tokens + usage.output_tokens
    report = ev.SpendReport(
        phase, spend[phase.value], total_spend(spend), usage.cache_read_tokens, usage.cache_creation_tokens
    )
    return ev.context_usage(
        context_tokens,
        model.context_window,
        charge.model_name,
        charge.cost_usd,
        report,
        curation,
        price_known=charge.price_known,
    )
