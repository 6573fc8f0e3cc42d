"""Routing by role: provider:model per role, offline by default, what a route is missing."""

from __future__ import annotations

import pytest

from forge.bootstrap.model_routing import Provider, missing_for, parse_route, resolve_routes
from forge.config import Settings

DB = "sqlite+aiosqlite:///x.db"


def test_without_keys_every_role_is_the_offline_model() -> None:
    routes = resolve_routes(Settings(database_url=DB))
    assert routes.generator.name == "offline" and routes.verifier.name == "offline" and routes.researcher == "local"


def test_an_anthropic_key_makes_anthropic_the_default_generator() -> None:
    routes = resolve_routes(Settings(database_url=DB, anthropic_api_key="sk-ant-test"))
    assert routes.generator.provider == Provider.ANTHROPIC and routes.verifier == routes.generator


def test_the_verifier_can_be_another_model_family() -> None:
    settings = Settings(database_url=DB, model="anthropic:claude-opus-4-5", verifier_model="openai:gpt-4o")
    routes = resolve_routes(settings)
    assert routes.generator.name == "anthropic:claude-opus-4-5" and routes.verifier.name == "openai:gpt-4o"


def test_local_servers_need_a_model_name_and_a_base_url() -> None:
    with pytest.raises(ValueError, match="needs a model name"):
        parse_route("local")
    route = parse_route("local:qwen2.5-7b-instruct")
    assert missing_for(route, Settings(database_url=DB)) == ["OPENAI_BASE_URL (e.g. http://127.0.0.1:8080/v1)"]
    assert missing_for(route, Settings(database_url=DB, openai_base_url="http://127.0.0.1:8080/v1")) == []


def test_unknown_provider_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="anthropic, openai, local"):
        parse_route("gemini:pro")


def test_a_keyless_anthropic_route_says_which_key_is_missing() -> None:
    assert missing_for(parse_route("anthropic"), Settings(database_url=DB)) == ["ANTHROPIC_API_KEY"]
