"""Prices per model id and the cost of a call.

Invariants:
    - Prices are US dollars per million tokens: input, output, cache write, cache read.
    - A model is priced by its exact id: the table lists dated snapshots and their aliases
      (`claude-opus-4-20250514` and `claude-opus-4-0`), never a family prefix, because one family
      name covers different prices (Opus 4 and 4.1 cost $15/$75, Opus 4.5 and later $5/$25).
    - One fallback, where it is unambiguous: an id that is a listed id plus a snapshot date
      (`-YYYYMMDD` or `-YYYY-MM-DD`) is a new snapshot of that model and gets its price. Anything
      else is unknown: `lookup_price` returns `Unpriced` (saying so), `price_for` None, and the
      call costs $0 while its tokens are still counted. Nothing is guessed. The offline model is free.

Design decisions:
    - The table is data in code, small and reviewed with the code. Prices were checked on
      2026-11-23: Anthropic against https://platform.claude.com/docs/en/about-claude/pricing (the
      "Model pricing" table: base input, 5-minute cache write, cache hit, output) and the model
      pages for the ids; OpenAI against copies of https://developers.openai.com/api/docs/pricing
      read 2026-11-05 (the official page itself was not reachable here; re-check before billing).
    - Left out on purpose: models whose price ModelPrice cannot state (Claude Haiku 5.5 is priced
      by prompt length) or whose price changed recently in ways we could not confirm (Sonnet 5.5's
      cache reads, Opus 5.5, Fable / Mythos). They are unpriced until someone adds them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from forge.core.llm.messages import Usage

PER_MILLION = 1_000_000
PRICES_CHECKED = "2026-11-23"
_SNAPSHOT_DATE = re.compile(r"-(\d{8}|\d{4}-\d{2}-\d{2})$")


@dataclass(frozen=True, slots=True)
class ModelPrice:
    input: float
    output: float
    cache_write: float
    cache_read: float


@dataclass(frozen=True, slots=True)
class Unpriced:
    """A model the table does not know: its calls cost $0 here, which is not its real cost."""

    model: str

    @property
    def message(self) -> str:
        return (
            f"model {self.model!r} is not in the price table (checked {PRICES_CHECKED}): its tokens are "
            "counted but its cost shows as $0; add its exact id to forge/core/llm/pricing.py"
        )


def _anthropic(input_price: float, output_price: float) -> ModelPrice:
    # Anthropic bills 5-minute cache writes at 1.25x and cache hits at 0.1x the input price.
    return ModelPrice(input_price, output_price, input_price * 1.25, input_price * 0.1)


def _openai(input_price: float, output_price: float, cached: float) -> ModelPrice:
    # OpenAI charges nothing extra to write its cache on these models; hits cost `cached`.
    return ModelPrice(input_price, output_price, input_price, cached)


_OPUS_4 = _anthropic(15.0, 75.0)
_OPUS_4_5 = _anthropic(5.0, 25.0)
_SONNET_4 = _anthropic(3.0, 15.0)
_SONNET_5 = ModelPrice(2.0, 10.0, 2.5, 0.2)
_HAIKU_4_5 = _anthropic(1.0, 5.0)
_HAIKU_3_5 = _anthropic(0.8, 4.0)
_GPT_4O = _openai(2.5, 10.0, 1.25)
_GPT_4O_MINI = _openai(0.15, 0.6, 0.075)
_GPT_4_1 = _openai(2.0, 8.0, 0.5)
_GPT_4_1_MINI = _openai(0.4, 1.6, 0.1)
_GPT_4_1_NANO = _openai(0.1, 0.4, 0.025)

DEFAULT_PRICES: Mapping[str, ModelPrice] = {
    # Anthropic: dated snapshot, then its alias(es).
    "claude-opus-4-20250514": _OPUS_4,
    "claude-opus-4-0": _OPUS_4,
    "claude-opus-4-1-20250805": _OPUS_4,
    "claude-opus-4-1": _OPUS_4,
    "claude-opus-4-5-20251101": _OPUS_4_5,
    "claude-opus-4-5": _OPUS_4_5,
    "claude-opus-4-6": _OPUS_4_5,
    "claude-opus-4-7": _OPUS_4_5,
    "claude-opus-4-8": _OPUS_4_5,
    "claude-opus-5": _OPUS_4_5,
    "claude-3-opus-20240229": _OPUS_4,
    "claude-3-opus-latest": _OPUS_4,
    "claude-sonnet-4-20250514": _SONNET_4,
    "claude-sonnet-4-0": _SONNET_4,
    "claude-sonnet-4-5-20250929": _SONNET_4,
    "claude-sonnet-4-5": _SONNET_4,
    "claude-sonnet-4-6": _SONNET_4,
    "claude-sonnet-5": _SONNET_5,
    "claude-3-7-sonnet-20250219": _SONNET_4,
    "claude-3-7-sonnet-latest": _SONNET_4,
    "claude-haiku-4-5-20251001": _HAIKU_4_5,
    "claude-haiku-4-5": _HAIKU_4_5,
    "claude-3-5-haiku-20241022": _HAIKU_3_5,
    "claude-3-5-haiku-latest": _HAIKU_3_5,
    "claude-3-haiku-20240307": ModelPrice(0.25, 1.25, 0.30, 0.03),
    # OpenAI: alias, then its dated snapshots (gpt-4o's first snapshot kept its launch price).
    "gpt-4o": _GPT_4O,
    "gpt-4o-2024-08-06": _GPT_4O,
    "gpt-4o-2024-11-20": _GPT_4O,
    "gpt-4o-2024-05-13": _openai(5.0, 15.0, 5.0),
    "gpt-4o-mini": _GPT_4O_MINI,
    "gpt-4o-mini-2024-07-18": _GPT_4O_MINI,
    "gpt-4.1": _GPT_4_1,
    "gpt-4.1-2025-04-14": _GPT_4_1,
    "gpt-4.1-mini": _GPT_4_1_MINI,
    "gpt-4.1-mini-2025-04-14": _GPT_4_1_MINI,
    "gpt-4.1-nano": _GPT_4_1_NANO,
    "gpt-4.1-nano-2025-04-14": _GPT_4_1_NANO,
    "offline": ModelPrice(0.0, 0.0, 0.0, 0.0),
}


def lookup_price(model: str, prices: Mapping[str, ModelPrice] = DEFAULT_PRICES) -> ModelPrice | Unpriced:
    """The price of `model`: its exact id, else (a new snapshot) its id without the snapshot date."""
    if model in prices:
        return prices[model]
    undated = _SNAPSHOT_DATE.sub("", model)
    if undated != model and undated in prices:
        return prices[undated]
    return Unpriced(model)


def price_for(model: str, prices: Mapping[str, ModelPrice] = DEFAULT_PRICES) -> ModelPrice | None:
    """`lookup_price`, with None for a model the table does not know."""
    found = lookup_price(model, prices)
    return None if isinstance(found, Unpriced) else found


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
