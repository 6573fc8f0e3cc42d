"""Models are priced by exact id (dated snapshots and aliases); only a new snapshot of a listed id
falls back to that id; anything else is unpriced, and says so."""

from __future__ import annotations

import re

import pytest

from forge.core.llm.messages import Usage
from forge.core.llm.pricing import Unpriced, cost_of, lookup_price, price_for
from forge.providers.library_prices import LIBRARY_PRICES as PRICES

# The ids the hand-kept table listed before genai-prices replaced it (issue #35): each still priced.
LISTED_IDS = (
    "claude-opus-4-20250514", "claude-opus-4-0", "claude-opus-4-1-20250805", "claude-opus-4-1",
    "claude-opus-4-5-20251101", "claude-opus-4-5", "claude-sonnet-4-20250514", "claude-sonnet-4-0",
    "claude-sonnet-4-5-20250929", "claude-sonnet-4-5", "claude-sonnet-4-6", "claude-3-7-sonnet-20250219",
    "claude-haiku-4-5-20251001", "claude-haiku-4-5", "claude-3-5-haiku-20241022", "claude-3-haiku-20240307",
    "gpt-4o", "gpt-4o-2024-08-06", "gpt-4o-2024-11-20", "gpt-4o-2024-05-13", "gpt-4o-mini", "gpt-4o-mini-2024-07-18",
    "gpt-4.1", "gpt-4.1-2025-04-14", "gpt-4.1-mini", "gpt-4.1-mini-2025-04-14", "gpt-4.1-nano", "gpt-4.1-nano-2025-04-14",
)  # fmt: skip

MILLION_EACH = Usage(1_000_000, 1_000_000)


def _cost(model: str, usage: Usage = MILLION_EACH) -> float:
    return cost_of(usage, price_for(model, PRICES))


def test_claude_opus_4_snapshot_costs_15_and_75_not_the_opus_4_5_price() -> None:
    assert _cost("claude-opus-4-20250514") == pytest.approx(15.0 + 75.0)
    assert _cost("claude-opus-4-0") == pytest.approx(15.0 + 75.0)
    assert _cost("claude-opus-4-5-20251101") == pytest.approx(5.0 + 25.0)


def test_opus_4_cache_tokens_are_priced_from_its_own_input_price() -> None:
    usage = Usage(cache_creation_tokens=1_000_000, cache_read_tokens=1_000_000)
    assert _cost("claude-opus-4-20250514", usage) == pytest.approx(18.75 + 1.50)


def test_a_family_name_is_not_an_id_so_it_is_not_priced() -> None:
    assert price_for("claude-opus-4", PRICES) is None
    assert price_for("claude-sonnet", PRICES) is None


def test_a_new_snapshot_of_a_listed_id_gets_that_ids_price() -> None:
    assert price_for("claude-sonnet-4-5-20991231", PRICES) == price_for("claude-sonnet-4-5", PRICES)
    assert price_for("gpt-4.1-mini-2099-12-31", PRICES) == price_for("gpt-4.1-mini", PRICES)


def test_a_dated_id_of_an_unlisted_family_stays_unknown() -> None:
    found = lookup_price("claude-opus-4-20991231", PRICES)
    assert isinstance(found, Unpriced)
    assert "'claude-opus-4-20991231' is not in the price table" in found.message


def test_gpt_4o_first_snapshot_keeps_its_own_price() -> None:
    assert _cost("gpt-4o-2024-05-13") == pytest.approx(5.0 + 15.0)
    assert _cost("gpt-4o-2024-08-06") == pytest.approx(2.5 + 10.0)


def test_the_default_models_are_priced() -> None:
    sonnet = price_for("claude-sonnet-4-6", PRICES)
    assert sonnet is not None and (sonnet.input, sonnet.output, sonnet.cache_write) == (3.0, 15.0, 3.75)
    assert sonnet.cache_read == pytest.approx(0.3)
    assert price_for("gpt-4o", PRICES) is not None


def test_unknown_models_cost_nothing_and_say_why() -> None:
    found = lookup_price("llama-3.1-8b-instruct", PRICES)
    assert isinstance(found, Unpriced) and "$0" in found.message
    assert _cost("llama-3.1-8b-instruct") == 0.0


def test_each_listed_snapshot_costs_what_its_listed_alias_costs_except_gpt_4o_may_2024() -> None:
    pairs = [
        (model, alias)
        for model in LISTED_IDS
        for alias in (re.sub(r"-(\d{8}|\d{4}-\d{2}-\d{2})$", "", model), re.sub(r"-\d{8}$", "-0", model))
        if alias != model and alias in LISTED_IDS
    ]
    differing = {model for model, alias in pairs if PRICES[model] != PRICES[alias]}
    assert len(pairs) >= 8
    assert differing == {"gpt-4o-2024-05-13"}
