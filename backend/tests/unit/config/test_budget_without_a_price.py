"""A dollar budget never binds silently at $0: with an unpriced model the session budgets by tokens."""

from __future__ import annotations

import pytest

from forge.bootstrap.model_routing import resolve_routes, session_budget, unpriced_routes
from forge.config import Settings
from forge.core.session.spend import SpendBudget
from forge.providers.library_prices import LIBRARY_PRICES

URL = "sqlite+aiosqlite:///unused.db"


def _settings(**options: object) -> Settings:
    return Settings(
        database_url=URL, anthropic_api_key="sk-ant-x", openai_base_url="http://127.0.0.1:8080/v1", **options
    )  # type: ignore[arg-type]


def test_priced_models_keep_both_budgets() -> None:
    settings = _settings(model="anthropic:claude-opus-5-5", budget_usd=2.5, budget_tokens=10_000)
    assert session_budget(settings, resolve_routes(settings), LIBRARY_PRICES) == SpendBudget(10_000, 2.5)


def test_an_unpriced_model_budgets_by_tokens_and_a_dollar_budget_alone_is_refused() -> None:
    settings = _settings(model="anthropic:claude-nova-9", budget_usd=2.5, budget_tokens=10_000)
    routes = resolve_routes(settings)
    assert unpriced_routes(routes, LIBRARY_PRICES) == ["anthropic:claude-nova-9"]
    assert session_budget(settings, routes, LIBRARY_PRICES) == SpendBudget(10_000, None)
    alone = _settings(model="anthropic:claude-nova-9", budget_usd=2.5)
    with pytest.raises(ValueError, match="FORGE_BUDGET_TOKENS"):
        session_budget(alone, resolve_routes(alone), LIBRARY_PRICES)


def test_a_local_server_is_free_not_unpriced() -> None:
    settings = _settings(model="local:qwen2.5-7b-instruct", budget_usd=1.0)
    assert unpriced_routes(resolve_routes(settings), LIBRARY_PRICES) == []
