from __future__ import annotations

from dataclasses import replace

import pytest

from forge.core.llm.messages import Usage
from forge.core.llm.pricing import ModelPrice, cost_of, price_for
from forge.core.rules.verdicts import ErrorCode
from forge.core.session.spend import PhaseSpend, SpendBudget, check_budget, total_spend
from forge.providers.library_prices import LIBRARY_PRICES as PRICES


def test_dated_model_ids_are_priced() -> None:
    price = price_for("claude-sonnet-4-5-20250929", PRICES)
    assert price is not None and price.input == 3.0 and price.cache_read == pytest.approx(0.3)
    mini = price_for("gpt-4o-mini-2024-07-18", PRICES)
    assert mini is not None and mini.input == 0.15


def test_unknown_models_are_unpriced_not_guessed() -> None:
    assert price_for("some-local-model", PRICES) is None
    assert cost_of(Usage(1_000_000, 1_000_000), None) == 0.0


def test_cost_counts_input_output_and_both_cache_kinds() -> None:
    price = price_for("claude-sonnet-4-0", PRICES)
    cost = cost_of(Usage(1_000_000, 100_000, cache_creation_tokens=200_000, cache_read_tokens=1_000_000), price)
    assert cost == pytest.approx(3.0 + 1.5 + 0.75 + 0.3)


def test_phase_spend_adds_up_to_the_session_total() -> None:
    spend = {"decompose": PhaseSpend().plus(Usage(100, 10), 0.01), "explore": PhaseSpend().plus(Usage(50, 5), 0.02)}
    assert total_spend(spend) == PhaseSpend(165, pytest.approx(0.03), 2)  # type: ignore[arg-type]


def test_budget_stops_at_tokens_or_dollars_and_says_which_variable_to_raise() -> None:
    assert check_budget(PhaseSpend(999, 0.5, 3), SpendBudget(max_tokens=1000, max_usd=1.0)) is None
    by_tokens = check_budget(PhaseSpend(1000, 0.5, 3), SpendBudget(max_tokens=1000))
    assert (
        by_tokens is not None
        and by_tokens.code == ErrorCode.BUDGET_EXHAUSTED
        and "FORGE_BUDGET_TOKENS" in by_tokens.message
    )
    by_cost = check_budget(PhaseSpend(10, 1.25, 3), SpendBudget(max_usd=1.0))
    assert by_cost is not None and "FORGE_BUDGET_USD" in by_cost.message
    assert check_budget(PhaseSpend(10**9, 10**3, 1), None) is None


def test_a_prompt_length_tier_applies_per_call_never_to_a_sum_of_calls() -> None:
    base = ModelPrice(input=1.0, output=5.0, cache_write=1.25, cache_read=0.1)
    tiered = ModelPrice(
        input=1.0, output=5.0, cache_write=1.25, cache_read=0.1, long_context=(100_000, replace(base, input=5.0))
    )
    short = Usage(input_tokens=60_000, output_tokens=1_000)
    assert cost_of(short + short, tiered) == pytest.approx(2 * cost_of(short, base))  # 120k summed, 60k per call
    long = Usage(input_tokens=150_000)
    assert cost_of(long, tiered) == pytest.approx(0.75)  # one call over the threshold: every token at the tier
    assert cost_of(short + long, tiered) == pytest.approx(cost_of(short, base) + 0.75)
    assert (short + long).calls == (short, long) and short + long == Usage(210_000, 1_000)


def test_web_searches_count_in_every_budget() -> None:
    price = ModelPrice(input=2.0, output=10.0, cache_write=2.5, cache_read=0.2, web_search_per_thousand=10.0)
    searched = Usage(input_tokens=3_000, output_tokens=200, web_searches=4)  # results are input tokens
    spent = PhaseSpend().plus(searched, cost_of(searched, price)).plus(searched, cost_of(searched, price))
    assert (spent.tokens, spent.web_searches) == (6_400, 8)
    assert spent.cost_usd == pytest.approx(2 * (3_000 * 2.0 + 200 * 10.0) / 1e6 + 8 * 0.01)
    assert total_spend({"explore": spent, "build": spent}).web_searches == 16
    for budget, says in [
        (SpendBudget(max_usd=0.09), "Cost budget"),  # the tokens alone cost 0.016: the fees bind
        (SpendBudget(max_tokens=6_400), "Token budget"),
        (SpendBudget(max_web_searches=8), "Web search budget"),
    ]:
        violation = check_budget(spent, budget)
        assert violation is not None and violation.code == ErrorCode.BUDGET_EXHAUSTED and says in violation.message
    assert check_budget(spent, SpendBudget(max_tokens=10_000, max_usd=1.0, max_web_searches=9)) is None
