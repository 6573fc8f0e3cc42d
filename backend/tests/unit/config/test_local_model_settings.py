"""FORGE_MODEL_TIMEOUT_S and the engine's concurrency against a local server (FORGE_LOCAL_CONCURRENCY)."""

from __future__ import annotations

import pytest

from forge.bootstrap.model_routing import engine_concurrency, resolve_routes
from forge.config import Settings

DB = {"DATABASE_URL": "sqlite+aiosqlite:///x.db"}
LOCAL = {**DB, "FORGE_MODEL": "local:gemma-3-270m", "OPENAI_BASE_URL": "http://127.0.0.1:8080/v1"}


def _concurrency(env: dict[str, str]) -> int:
    settings = Settings.from_env(env)
    return engine_concurrency(settings, resolve_routes(settings))


def test_a_local_server_gets_one_engine_call_at_a_time_unless_told_otherwise() -> None:
    assert _concurrency(LOCAL) == 1
    assert _concurrency({**LOCAL, "FORGE_LOCAL_CONCURRENCY": "4"}) == 4
    assert _concurrency({**LOCAL, "FORGE_ENGINE_CONCURRENCY": "6"}) == 6
    assert _concurrency({**DB, "FORGE_MODEL": "openai:gpt-4o", "OPENAI_API_KEY": "sk-x"}) == 24


def test_the_model_timeout_is_seconds_above_zero() -> None:
    assert Settings.from_env(DB).model_timeout_s is None
    assert Settings.from_env({**DB, "FORGE_MODEL_TIMEOUT_S": "1800"}).model_timeout_s == 1800.0
    with pytest.raises(ValueError, match="FORGE_MODEL_TIMEOUT_S"):
        Settings.from_env({**DB, "FORGE_MODEL_TIMEOUT_S": "0"})
