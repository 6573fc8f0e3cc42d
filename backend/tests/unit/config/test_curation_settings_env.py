"""FORGE_CURATION_* and FORGE_NAVIGATION_* set the budgets the server starts with; unset keeps the default."""

from __future__ import annotations

import pytest

from forge.config import Settings
from forge.core.curation.curation_settings import CurationChange


def test_unset_variables_change_nothing() -> None:
    assert Settings.from_env({}).curation == CurationChange()


def test_each_variable_sets_its_budget_or_price() -> None:
    env = {
        "FORGE_CURATION_CONTEXT_TOKENS": "30000",
        "FORGE_CURATION_CARRY_TOKENS": "500",
        "FORGE_CURATION_LAMBDA_TOKENS": "0.0001",
        "FORGE_CURATION_REDUNDANCY_WEIGHT": "0.5",
        "FORGE_NAVIGATION_MAX_STEPS": "6",
        "FORGE_NAVIGATION_MAX_EDGES": "20",
        "FORGE_NAVIGATION_MAX_TOKENS": "800",
        "FORGE_NAVIGATION_LAMBDA_TOKENS": "0.001",
        "FORGE_NAVIGATION_LAMBDA_EDGE": "0.02",
    }
    assert Settings.from_env(env).curation == CurationChange(30_000, 500, 0.0001, 0.5, 6, 20, 800, 0.001, 0.02)


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [("FORGE_CURATION_CARRY_TOKENS", "many", "must be a number"), ("FORGE_NAVIGATION_MAX_STEPS", "0", "at least 1")],
)
def test_a_bad_value_stops_the_start_and_says_why(name: str, value: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Settings.from_env({name: value})
