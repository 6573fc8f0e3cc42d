"""Issue #35's "done when", on OpenAI-compatible servers: whole sessions, autopilot and reviews posted
through the API, run to the AnswerPack through the real OpenAICompatibleModel and its
`response_format: json_schema` output, built by the composition root (only the SDK's HTTP client is
a MockTransport): on OpenAI (`openai:gpt-4.1-mini`, priced by genai-prices) and on a local server
(`local:qwen3-8b`, priced by the deployment's FORGE_PRICES_FILE). No request is refused, every
engine stage gets its results through the model, and the session's cost is the served tokens at
that price.
"""

from __future__ import annotations

import functools
import json
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import genai_prices
import httpx
import pytest
from providers.sessions.offline_decisions_api import observe_requests
from providers.sessions.offline_decisions_openai import OpenAIDecisionsApi
from providers.sessions.session_over_api import (
    app_client,
    engine_requests_missing,
    offline_deciders,
    run_to_the_answer,
    stages_of,
    stages_without_results,
)
from support.sse_client import Received

from forge.config import Settings
from forge.providers import openai_compatible_model
from forge.providers.openai_compatible_model import OpenAICompatibleModel
from forge.providers.structured_output import SchemaStructuredModel


@pytest.fixture
async def fake_server(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[OpenAIDecisionsApi]:
    offline, structured = offline_deciders()
    api = OpenAIDecisionsApi(offline.complete, structured)
    async with httpx.AsyncClient(transport=httpx.MockTransport(api)) as http_client:
        made = functools.partial(openai_compatible_model.openai_compatible_model_from_settings, http_client=http_client)
        monkeypatch.setattr(openai_compatible_model, "openai_compatible_model_from_settings", made)
        observe_requests(monkeypatch, OpenAICompatibleModel, SchemaStructuredModel)
        yield api


LOCAL_PRICE = {"input": 0.2, "output": 0.8, "cache_write": 0.2, "cache_read": 0.05}  # USD per million


def settings_for(route: str, tmp_path: Path) -> Settings:
    database = f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}"
    if route.startswith("openai:"):
        return Settings(database_url=database, model=route, openai_api_key="sk-proj-test-key")
    prices = tmp_path / "prices.json"
    prices.write_text(json.dumps({route.split(":", 1)[1]: LOCAL_PRICE}), encoding="utf-8")
    return Settings(database_url=database, model=route, openai_base_url="http://127.0.0.1:8080/v1", prices_file=prices)


def expected_cost(route: str, usages: list[tuple[str, dict[str, Any]]]) -> float:
    """OpenAI: the served tokens priced by genai-prices itself; the local model: the prices file's rates."""
    total = Decimal(0)
    rates = {k: Decimal(str(v)) for k, v in LOCAL_PRICE.items()}
    for model, served in usages:
        prompt, cached = served["prompt_tokens"], served["prompt_tokens_details"]["cached_tokens"]
        output = served["completion_tokens"]
        if route.startswith("local:"):
            billed = (prompt - cached) * rates["input"] + cached * rates["cache_read"] + output * rates["output"]
            total += billed / 1_000_000
            continue
        usage = genai_prices.Usage(input_tokens=prompt, cache_read_tokens=cached, output_tokens=output)
        total += genai_prices.calc_price(usage, model, provider_id="openai").total_price
    return float(total)


def session_tokens(events: list[Received]) -> int:
    return max(int(e.data.get("session_tokens", 0)) for e in events if e.type == "context_usage")


@pytest.mark.parametrize("autopilot", [True, False], ids=["autopilot", "reviews"])
@pytest.mark.parametrize("route", ["openai:gpt-4.1-mini", "local:qwen3-8b"])
async def test_a_whole_session_reaches_the_answer_pack_on_an_openai_compatible_server(
    fake_server: OpenAIDecisionsApi, tmp_path: Path, route: str, autopilot: bool
) -> None:
    async for client in app_client(settings_for(route, tmp_path)):
        sid, events = await run_to_the_answer(client, autopilot=autopilot)
        pack = await client.get(f"/api/v1/sessions/{sid}/answer.json")
        session = (await client.get(f"/api/v1/sessions/{sid}")).json()

    assert fake_server.failures == [] and fake_server.refusals == [] and set(fake_server.statuses) == {200}
    assert pack.status_code == 200 and pack.json()["direct_answer"]
    assert {model for model, _ in fake_server.usages} == {route.split(":", 1)[1]}
    assert engine_requests_missing(set(fake_server.schema_names)) == set()
    assert stages_without_results(events) == [], stages_of(events)
    assert session["total_cost_usd"] == pytest.approx(expected_cost(route, fake_server.usages), rel=1e-6, abs=1e-5)
    assert session["total_cost_usd"] > 0
    served = sum(u["prompt_tokens"] + u["completion_tokens"] for _, u in fake_server.usages)
    assert 0 < session_tokens(events) <= served  # counted (the agent's share; engine calls add the rest)
