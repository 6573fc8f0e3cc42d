"""Budgets and λ prices change by a `CurationChange`: only what it names, for every provider; values out
of range are refused."""

from __future__ import annotations

from forge.core.curation.curation_settings import CurationChange, CurationSettings, apply_change, check_change
from forge.core.curation.listwise_selection import CurationBudget
from forge.core.curation.path_navigator import NavigationBudget

SETTINGS = CurationSettings(
    {"anthropic": CurationBudget(60_000, 1_000), "offline": CurationBudget(40_000, 800, lambda_tokens=0.001)},
    NavigationBudget(),
)


def test_a_change_applies_to_every_provider_and_keeps_what_it_does_not_name() -> None:
    changed = apply_change(SETTINGS, CurationChange(carry_tokens=5, navigation_max_edges=7))
    assert {b.carry_tokens for b in changed.budgets.values()} == {5}
    assert changed.budgets["offline"].context_tokens == 40_000 and changed.budgets["offline"].lambda_tokens == 0.001
    assert changed.navigation == NavigationBudget(max_edges=7)


def test_the_redundancy_weight_prices_both_the_curator_and_the_navigator() -> None:
    changed = apply_change(SETTINGS, CurationChange(redundancy_weight=0.9))
    assert changed.budgets["anthropic"].redundancy_weight == 0.9 and changed.navigation.redundancy_weight == 0.9


def test_an_empty_change_changes_nothing() -> None:
    assert CurationChange().empty and apply_change(SETTINGS, CurationChange()) == SETTINGS


def test_a_zero_budget_or_a_negative_price_is_refused() -> None:
    assert check_change(CurationChange(navigation_max_steps=0)) == "navigation_max_steps must be at least 1 (got 0)."
    assert check_change(CurationChange(lambda_tokens=-0.1)) == "lambda_tokens must not be negative (got -0.1)."
    assert check_change(CurationChange(context_tokens=1, lambda_tokens=0.0)) is None
