"""Prices from genai-prices' shipped data: current models, web searches, long-context tiers, the
deployment's override file, agreement with the library's own calculation, and no fetching."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import genai_prices
import pytest
from genai_prices import update_prices

from forge.core.llm.messages import Usage
from forge.core.llm.pricing import Unpriced, cost_of, lookup_price, price_for
from forge.providers.library_prices import LIBRARY_PRICES, LibraryPrices, overrides_from


def test_the_current_claude_lineup_is_priced_as_documented() -> None:
    opus = price_for("claude-opus-5-5", LIBRARY_PRICES)
    assert opus is not None and (opus.input, opus.output, opus.cache_read) == (4.0, 20.0, pytest.approx(0.2))
    sonnet = price_for("claude-sonnet-5-5", LIBRARY_PRICES)
    assert sonnet is not None and (sonnet.input, sonnet.output) == (2.0, 10.0)
    assert all(price_for(m, LIBRARY_PRICES) is not None for m in ("claude-haiku-5-5", "claude-fable-5-1"))


def test_web_searches_cost_ten_dollars_per_thousand_on_top_of_tokens() -> None:
    price = price_for("claude-sonnet-5-5", LIBRARY_PRICES)
    assert cost_of(Usage(web_searches=3), price) == pytest.approx(0.03)
    assert cost_of(Usage(1_000_000, web_searches=1000), price) == pytest.approx(2.0 + 10.0)


def test_a_long_prompt_is_billed_at_the_long_context_price_for_the_whole_call() -> None:
    price = price_for("claude-sonnet-4-5", LIBRARY_PRICES)
    assert price is not None and price.long_context is not None and price.long_context[0] == 200_000
    assert cost_of(Usage(150_000, 1000, cache_read_tokens=60_000), price) == pytest.approx(
        (150_000 * 6.0 + 1000 * 22.5 + 60_000 * 0.6) / 1_000_000
    )


@pytest.mark.parametrize("model", ["claude-opus-5-5", "claude-sonnet-5-5", "claude-sonnet-4-5", "claude-haiku-5-5"])
@pytest.mark.parametrize("prompt", [50_000, 250_000])
def test_our_cost_equals_the_librarys_own_calculation(model: str, prompt: int) -> None:
    usage = Usage(prompt // 2, 4000, cache_creation_tokens=prompt // 4, cache_read_tokens=prompt // 4)
    library = genai_prices.calc_price(
        genai_prices.Usage(
            input_tokens=usage.input_tokens + usage.cache_creation_tokens + usage.cache_read_tokens,
            cache_write_tokens=usage.cache_creation_tokens,
            cache_read_tokens=usage.cache_read_tokens,
            output_tokens=usage.output_tokens,
        ),
        model,
        provider_id="anthropic",
        genai_request_timestamp=datetime.now(UTC),
    )
    assert cost_of(usage, price_for(model, LIBRARY_PRICES)) == pytest.approx(float(library.total_price))


def test_an_override_file_prices_a_private_model_and_wins_over_the_library(tmp_path: Path) -> None:
    path = tmp_path / "prices.json"
    row = {"input": 0.5, "output": 1.5, "cache_write": 0.5, "cache_read": 0.05}
    path.write_text(json.dumps({"qwen2.5-7b-instruct": row, "claude-opus-5-5": {**row, "input": 3.0}}))
    prices = LibraryPrices(overrides_from(path))
    assert cost_of(Usage(2_000_000), price_for("qwen2.5-7b-instruct", prices)) == pytest.approx(1.0)
    assert (
        price_for("claude-opus-5-5", prices) == price_for("claude-opus-5-5", prices)
        and prices["claude-opus-5-5"].input == 3.0
    )
    path.write_text(json.dumps({"bad": {"input": 1}}))
    with pytest.raises(ValueError, match="cache_read"):
        overrides_from(path)


def test_an_unknown_model_is_unpriced_and_says_the_session_budgets_by_tokens() -> None:
    found = lookup_price("llama-3.1-8b-instruct", LIBRARY_PRICES)
    assert isinstance(found, Unpriced) and "FORGE_BUDGET_TOKENS" in found.message and "not $0" in found.message


def test_prices_are_read_from_the_installed_data_and_nothing_is_fetched() -> None:
    price_for("claude-opus-5-5", LIBRARY_PRICES)
    assert update_prices._shared_updater.ref_count == 0  # the background fetcher was never started
