"""Prices per model and the cost of a call.

Invariants:
    - Prices are US dollars per million tokens: input, output, cache write, cache read.
    - A model is priced by the longest matching name prefix; an unknown model costs nothing and is
      reported as unpriced (never guessed). The offline model is free.

Design decisions:
    - The table is data in code, small and reviewed with the code; prices change, so it is dated
      (checked 2026-11) and every call's tokens are reported too, so cost can be recomputed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from forge.core.model_messages import Usage

PER_MILLION = 1_000_000


@dataclass(frozen=True, slots=True)
class ModelPrice:
    input: float
    output: float
    cache_write: float
    cache_read: float


def _anthropic(input_price: float, output_price: float) -> ModelPrice:
    # Anthropic bills 5-minute cache writes at 1.25x and cache reads at 0.1x the input price.
    return ModelPrice(input_price, output_price, input_price * 1.25, input_price * 0.1)


def _openai(input_price: float, output_price: float, cached: float) -> ModelPrice:
    return ModelPrice(input_price, output_price, input_price, cached)


DEFAULT_PRICES: Mapping[str, ModelPrice] = {
    "claude-opus-4-1": _anthropic(15.0, 75.0),
    "claude-opus-4-0": _anthropic(15.0, 75.0),
    "claude-opus-4-5": _anthropic(5.0, 25.0),
    "claude-opus-4": _anthropic(5.0, 25.0),
    "claude-sonnet-4": _anthropic(3.0, 15.0),
    "claude-3-7-sonnet": _anthropic(3.0, 15.0),
    "claude-haiku-4": _anthropic(1.0, 5.0),
    "claude-3-5-haiku": _anthropic(0.8, 4.0),
    "gpt-4o-mini": _openai(0.15, 0.6, 0.075),
    "gpt-4o": _openai(2.5, 10.0, 1.25),
    "gpt-4.1-mini": _openai(0.4, 1.6, 0.1),
    "gpt-4.1": _openai(2.0, 8.0, 0.5),
    "offline": ModelPrice(0.0, 0.0, 0.0, 0.0),
}


def price_for(model: str, prices: Mapping[str, ModelPrice] = DEFAULT_PRICES) -> ModelPrice | None:
    matches = [name for name in prices if model.startswith(name)]
    return prices[max(matches, key=len)] if matches else None


def cost_of(usage: Usage, price: ModelPrice | None) -> float:
    if price is None:
        return 0.0
    total = (
        usage.input_tokens * price.input
        + usage.output_tokens * price.output
        + usage.cache_creation_tokens * price.cache_write
        + usage.cache_read_tokens * price.cache_read
    )
    return total / PER_MILLION
