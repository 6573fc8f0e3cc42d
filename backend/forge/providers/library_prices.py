"""Model prices from genai-prices (pydantic's maintained price data, shipped in its wheel), with a
per-deployment override file, as the Mapping that `core.llm.pricing` reads.

Invariants:
    - No network: only the data bundled in the installed genai-prices is read (its `UpdatePrices`
      background fetcher is never started), so prices change when the package is upgraded.
    - An id is priced when the library knows it as its own id, or as a dated snapshot or `-latest`
      alias of one (the library's own matching); a bare family name the library would map to one of
      its members (`claude-opus-4`) is not priced: that would be a guess.
    - The override file (FORGE_PRICES_FILE: JSON, model id -> {input, output, cache_write, cache_read,
      web_search_per_thousand}, USD per million tokens / per thousand searches) wins over the library;
      `offline` is free.
    - The price used is the one in force now (the library's dated conditions); a tiered price keeps its
      first tier as `long_context`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from forge.core.llm.pricing import ModelPrice

OFFLINE_PRICE = ModelPrice(0.0, 0.0, 0.0, 0.0)
PROVIDERS = ("anthropic", "openai", None)  # where an id is looked for, in order (None: any provider)
_DATED = re.compile(r"-(\d{8}|\d{4}-\d{2}-\d{2})$")


def _rate(value: Any, tier: bool = False) -> float:
    """A library price (Decimal, TieredPrices or None) as a float: its base, or its first tier."""
    if value is None:
        return 0.0
    if isinstance(value, Decimal | int | float):
        return float(value)
    tiers = getattr(value, "tiers", None) or []
    return float(tiers[0].price if tier and tiers else value.base)


def _threshold(prices: Any) -> int | None:
    for name in ("input_mtok", "output_mtok", "cache_read_mtok", "cache_write_mtok"):
        tiers = getattr(getattr(prices, name, None), "tiers", None)
        if tiers:
            return int(tiers[0].start)
    return None


def _model_price(prices: Any, tier: bool = False) -> ModelPrice:
    return ModelPrice(
        _rate(prices.input_mtok, tier),
        _rate(prices.output_mtok, tier),
        _rate(getattr(prices, "cache_write_mtok", None) or prices.input_mtok, tier),
        _rate(getattr(prices, "cache_read_mtok", None) or prices.input_mtok, tier),
        float(getattr(prices, "web_searches_kcount", None) or 0),
    )


def price_from_library(prices: Any) -> ModelPrice:
    """A genai-prices `ModelPrice` as ours (base rates, first tier as `long_context`)."""
    base = _model_price(prices)
    threshold = _threshold(prices)
    if threshold is None:
        return base
    return ModelPrice(**{**_fields(base), "long_context": (threshold, _model_price(prices, tier=True))})


def _fields(price: ModelPrice) -> dict[str, Any]:
    return {name: getattr(price, name) for name in ModelPrice.__dataclass_fields__}


@cache
def _library_lookup(model: str) -> ModelPrice | None:
    from genai_prices.data_snapshot import get_snapshot  # the bundled data; nothing is fetched

    snapshot = get_snapshot()
    for provider in PROVIDERS:
        try:
            _, info = snapshot.find_provider_model(model, None, provider, None)
        except LookupError:
            continue
        if info.id == model or _DATED.search(model) or model.endswith("-latest"):
            return price_from_library(info.get_prices(datetime.now(UTC)))
        return None  # the library would map a family name onto one member: not a price for it
    return None


def overrides_from(path: Path | None) -> dict[str, ModelPrice]:
    """The deployment's prices file; ValueError naming the file and the model when it is malformed."""
    if path is None:
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    try:
        return {str(model): _price_row(row) for model, row in data.items()}
    except (TypeError, AttributeError, KeyError) as error:
        raise ValueError(f"{path}: each model needs input, output, cache_write, cache_read ({error})") from error


def _price_row(row: Mapping[str, Any]) -> ModelPrice:
    return ModelPrice(
        float(row["input"]),
        float(row["output"]),
        float(row["cache_write"]),
        float(row["cache_read"]),
        float(row.get("web_search_per_thousand", 0.0)),
    )


class LibraryPrices(Mapping[str, ModelPrice]):
    """Prices by model id: overrides, then genai-prices' data. Iterates over the overrides only."""

    def __init__(self, overrides: Mapping[str, ModelPrice] | None = None) -> None:
        self._overrides = {"offline": OFFLINE_PRICE, **(overrides or {})}

    def use_overrides(self, overrides: Mapping[str, ModelPrice]) -> None:
        """The deployment's prices (the composition root calls this once, at start)."""
        self._overrides = {"offline": OFFLINE_PRICE, **overrides}

    def __getitem__(self, model: str) -> ModelPrice:
        found = self._overrides.get(model) or _library_lookup(model)
        if found is None:
            raise KeyError(model)
        return found

    def __contains__(self, model: object) -> bool:
        return isinstance(model, str) and (model in self._overrides or _library_lookup(model) is not None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._overrides)

    def __len__(self) -> int:
        return len(self._overrides)


# The process's prices: what the agent's cost accounting reads (with the deployment's overrides once
# `install_prices_file` ran; the composition root calls it when it builds the models).
LIBRARY_PRICES = LibraryPrices()


def install_prices_file(prices_file: Path | None) -> None:
    LIBRARY_PRICES.use_overrides(overrides_from(prices_file))
