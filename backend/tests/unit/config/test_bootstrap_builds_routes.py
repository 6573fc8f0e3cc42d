"""The composition root builds each provider from settings without any network call."""

from __future__ import annotations

from pathlib import Path

import pytest

from forge.bootstrap.build_container import build_container
from forge.config import Settings


async def test_anthropic_route_builds_the_anthropic_model(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'f.db'}",
        model="anthropic:claude-sonnet-4-6",
        anthropic_api_key="sk-ant-test",
    )
    container = build_container(settings)
    assert container.model.label == "anthropic:claude-sonnet-4-6"
    await container.close()


async def test_a_route_without_its_key_is_refused_with_what_to_set(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'f.db'}", model="anthropic:claude-sonnet-4-6")
    with pytest.raises(ValueError, match="ANTHROPIC_API_KEY"):
        build_container(settings)


async def test_web_research_requires_the_anthropic_generator(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'f.db'}", research="web")
    with pytest.raises(ValueError, match="FORGE_MODEL=anthropic"):
        build_container(settings)


async def test_local_route_builds_an_openai_compatible_model_with_its_context_window(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'f.db'}",
        model="local:qwen2.5-7b-instruct",
        openai_base_url="http://127.0.0.1:8080/v1",
        openai_context_window=16_384,
    )
    container = build_container(settings)
    assert container.model.label == "local:qwen2.5-7b-instruct" and container.model.context_window == 16_384
    await container.close()
