"""`forge doctor` reports routes, keys and the database without calling any model."""

from __future__ import annotations

from pathlib import Path

from support.fresh_database import migrated_sqlite_url

from forge.cli.doctor import Finding, diagnose, render
from forge.config import Settings


def _by_topic(findings: list[Finding]) -> dict[str, Finding]:
    return {f.topic: f for f in findings}


async def test_embedded_defaults_are_all_set_once_migrated(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path)
    findings = await diagnose(Settings(database_url=url))
    assert all(f.ok for f in findings), render(findings)
    assert _by_topic(findings)["generator"].value == "offline"
    assert "schema at head" in _by_topic(findings)["database"].value


async def test_unmigrated_database_asks_for_forge_migrate(tmp_path: Path) -> None:
    findings = await diagnose(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"))
    database = _by_topic(findings)["database"]
    assert not database.ok and database.fix == "run `forge migrate`"


async def test_missing_key_and_unreachable_database_are_named_with_their_fix(tmp_path: Path) -> None:
    settings = Settings(
        database_url="postgresql+asyncpg://postgres@127.0.0.1:1/nowhere",
        model="anthropic:claude-sonnet-4-6",
        verifier_model="openai:gpt-4o",
        anthropic_api_key="sk-ant-secret-9876",
    )
    findings = _by_topic(await diagnose(settings))
    assert findings["generator"].ok and findings["ANTHROPIC_API_KEY"].value == "present (…9876)"
    assert not findings["verifier (VALIDATE)"].ok and "OPENAI_API_KEY" in (findings["verifier (VALIDATE)"].fix or "")
    assert not findings["database"].ok and "unreachable" in findings["database"].value
    assert "secret" not in render(list(findings.values()))


async def test_anthropic_research_names_web_search_and_web_fetch(tmp_path: Path) -> None:
    url = await migrated_sqlite_url(tmp_path)
    settings = Settings(
        database_url=url, model="anthropic:claude-sonnet-5-5", anthropic_api_key="sk-ant-x", research="anthropic"
    )
    researcher = _by_topic(await diagnose(settings))["researcher"]
    assert researcher.ok and researcher.value == "Anthropic web search + web fetch (≤3 pages a call) + local corpus"
