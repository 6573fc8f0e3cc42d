"""`forge doctor` per role: thinking, effort, structured output, prices and gaps, with warnings for an
unknown price or model and a recommendation of a cross-family verifier; no model is called."""

from __future__ import annotations

from pathlib import Path

from forge.bootstrap.model_routing import DEFAULT_ANTHROPIC_MODEL, resolve_routes
from forge.cli.doctor import diagnose, render
from forge.cli.doctor_models import Finding
from forge.config import Settings
from forge.core.llm.effort import parse_effort


def _by_topic(findings: list[Finding]) -> dict[str, Finding]:
    return {f.topic: f for f in findings}


def _settings(tmp_path: Path, **options: object) -> Settings:
    url = f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}"
    return Settings(database_url=url, data_dir=tmp_path, anthropic_api_key="sk-ant-test-1234", **options)  # type: ignore[arg-type]


def test_the_default_generator_is_the_current_sonnet(tmp_path: Path) -> None:
    assert DEFAULT_ANTHROPIC_MODEL == "claude-sonnet-5-5"
    assert resolve_routes(_settings(tmp_path)).generator.model == "claude-sonnet-5-5"


async def test_each_role_shows_thinking_effort_structured_output_prices_and_gaps(tmp_path: Path) -> None:
    settings = _settings(
        tmp_path, model="anthropic:claude-opus-5-5", verifier_model="anthropic:claude-3-5-haiku-latest"
    )
    findings = _by_topic(await diagnose(settings))
    generator = findings["generator"].value
    assert "thinking: adaptive, effort high (agent) / medium (engine)" in generator
    assert "output_config.format" in generator and "lacks: no forced tool use" in generator
    assert "$4 in / $20 out / $0.2 cache read per MTok, web search $10/1k" in generator
    verifier = findings["verifier (VALIDATE)"].value
    assert "thinking: none" in verifier and "structured output: forced tool call" in verifier


async def test_effort_settings_show_as_the_levels_the_model_accepts(tmp_path: Path) -> None:
    settings = _settings(tmp_path, model="anthropic:claude-sonnet-4-6", effort=parse_effort("xhigh"))
    assert "effort high (agent) / high (engine)" in _by_topic(await diagnose(settings))["generator"].value


async def test_an_unknown_price_and_an_unknown_model_are_warnings_with_their_fix(tmp_path: Path) -> None:
    findings = await diagnose(_settings(tmp_path, model="anthropic:claude-nova-9"))
    generator = _by_topic(findings)["generator"]
    assert generator.ok and generator.warning and "prices: UNKNOWN" in generator.value
    assert "FORGE_PRICES_FILE" in (generator.fix or "") and "FORGE_BUDGET_TOKENS" in (generator.fix or "")
    assert "--refresh-models" in (generator.fix or "")
    assert "! generator" in render(findings)


async def test_a_verifier_of_another_family_is_recommended_when_a_second_provider_is_configured(tmp_path: Path) -> None:
    findings = _by_topic(await diagnose(_settings(tmp_path, openai_api_key="sk-openai")))
    assert "FORGE_VERIFIER_MODEL" in (findings["cross-family verifier"].fix or "")
    findings = _by_topic(
        await diagnose(_settings(tmp_path, openai_api_key="sk-openai", verifier_model="openai:gpt-4o"))
    )
    assert "cross-family verifier" not in findings


async def test_a_dollar_budget_on_an_unpriced_model_is_a_problem_naming_the_token_budget(tmp_path: Path) -> None:
    findings = _by_topic(await diagnose(_settings(tmp_path, model="anthropic:claude-nova-9", budget_usd=2.0)))
    assert not findings["budget"].ok and "FORGE_BUDGET_TOKENS" in (findings["budget"].fix or "")


async def test_doctor_says_when_the_verifier_is_the_generator_itself(tmp_path: Path) -> None:
    same = _by_topic(await diagnose(_settings(tmp_path, model="anthropic:claude-sonnet-4-6")))["self-verification"]
    assert same.warning and "the verifier is the generator itself (anthropic:claude-sonnet-4-6)" in same.value
    assert "no preference-gaming check" in same.value and "FORGE_VERIFIER_MODEL" in (same.fix or "")
    other = await diagnose(
        _settings(tmp_path, model="anthropic:claude-sonnet-4-6", verifier_model="anthropic:claude-opus-5-5")
    )
    assert "self-verification" not in _by_topic(other)
    offline = _by_topic(await diagnose(_settings(tmp_path, model="offline")))["self-verification"]
    assert not offline.warning and "word rules score hypotheses" in offline.value
