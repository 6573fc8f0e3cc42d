"""Prices per model id and the cost of a call (pure: the prices themselves come from a mapping the
caller passes; in the product `providers.library_prices`, genai-prices' data plus overrides).

Invariants:
    - Prices are US dollars per million tokens: input, output, cache write (5 minutes), cache read;
      web searches per thousand. A `long_context` price (Claude's prompts above a threshold, Haiku
      5.5's prompt-length tiers) applies to the whole call when its input (uncached, cache write and
      cache read) exceeds the threshold, as the providers bill it.
    - A model is priced by its id as the mapping knows it; one fallback, where it is unambiguous: an
      id that is a known id plus a snapshot date (`-YYYYMMDD` or `-YYYY-MM-DD`) gets that id's price.
      Anything else is `Unpriced`: its tokens are counted and the session budgets by tokens; its cost
      is unknown, which is said (doctor, usage events), never shown as a real $0. The offline model is free.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from forge.core.llm.messages import Usage

PER_MILLION = 1_000_000
_SNAPSHOT_DATE = re.compile(r"-(\d{8}|\d{4}-\d{2}-\d{2})$")


@dataclass(frozen=True, slots=True)
class ModelPrice:
    input: float
    output: float
    cache_write: float
    cache_read: float
    web_search_per_thousand: float = 0.0
    long_context: tuple[int, ModelPrice] | None = None  # (input threshold, the price above it)


@dataclass(frozen=True, slots=True)
class Unpriced:
    """A model the table does not know: its calls cost $0 here, which is not its real cost."""

    model: str

    @property
    def message(self) -> str:
        return (
            f"model {self.model!r} is not in the price table (genai-prices' data and FORGE_PRICES_FILE): "
            "its tokens are counted and the session budgets by tokens (set FORGE_BUDGET_TOKENS); its cost "
            "is unknown, not $0 — add its prices to a FORGE_PRICES_FILE"
        )


def lookup_price(model: str, prices: Mapping[str, ModelPrice]) -> ModelPrice | Unpriced:
    """The price of `model`: its exact id, else (a new snapshot) its id without the snapshot date."""
    if model in prices:
        return prices[model]
    undated = _SNAPSHOT_DATE.sub("", model)
    if undated != model and undated in prices:
        return prices[undated]
    return Unpriced(model)


def price_for(model: str, prices: Mapping[str, ModelPrice]) -> ModelPrice | None:
    """`lookup_price`, with None for a model the table does not know."""
    found = lookup_price(model, prices)
    return None if isinstance(found, Unpriced) else found


def cost_of(usage: Usage, price: ModelPrice | None) -> float:
    """The call's cost in USD; 0.0 when the price is unknown (callers say it is unknown)."""
    if price is None:
        return 0.0
    if price.long_context is not None and len(usage.calls) > 1:
        return sum(cost_of(call, price) for call in usage.calls)  # the tier is set by each call's prompt
    prompt = usage.input_tokens + usage.cache_creation_tokens + usage.cache_read_tokens
    if price.long_context is not None and prompt > price.long_context[0]:
        price = price.long_context[1]
    total = (
        usage.input_tokens * price.input
        + usage.output_tokens * price.output
        + usage.cache_creation_tokens * price.cache_write
        + usage.cache_read_tokens * price.cache_read
    )
    return total / PER_MILLION + usage.web_searches * price.web_search_per_thousand / 1000
