"""Issue #35's "done when", on the Anthropic side: whole sessions, autopilot and reviews posted through
the API, run to the AnswerPack on claude-opus-5-5, claude-sonnet-5-5, claude-sonnet-4-6, claude-fable-5-1 and
claude-haiku-5-5 (and claude-sonnet-4-0, which has no structured outputs: forced tools; and once on PostgreSQL) through
the real AnthropicModel and its structured output, built by the composition root (only the SDK's
HTTP client is a MockTransport), against a server that refuses what the docs say each model refuses
and answers with the offline model's decisions. Every request is obeyed (no 4xx), every engine stage
gets its results through the model, and the session's cost is the served tokens at genai-prices' price.
"""

from __future__ import annotations

import functools
import json
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import genai_prices
import httpx2
import pytest
from providers.sessions.offline_decisions_api import OfflineDecisionsApi, observe_requests
from providers.sessions.session_over_api import (
    CONSTRAINTS,
    app_client,
    engine_requests_missing,
    offline_deciders,
    run_to_the_answer,
    stages_of,
    stages_without_results,
)
from support.fresh_database import migrated_database_url

from forge.config import Settings
from forge.providers import anthropic_model
from forge.providers.anthropic_model import AnthropicModel
from forge.providers.structured_output import SchemaStructuredModel

MODELS = ["claude-opus-5-5", "claude-sonnet-5-5", "claude-sonnet-4-6", "claude-fable-5-1", "claude-haiku-5-5"]


@pytest.fixture
async def fake_api(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[OfflineDecisionsApi]:
    """The fake API behind the SDK client every AnthropicModel the composition root builds gets."""
    offline, structured = offline_deciders()
    api = OfflineDecisionsApi(offline.complete, structured)
    async with httpx2.AsyncClient(transport=httpx2.MockTransport(api)) as http_client:
        made = functools.partial(anthropic_model.anthropic_model_from_settings, http_client=http_client)
        monkeypatch.setattr(anthropic_model, "anthropic_model_from_settings", made)
        observe_requests(monkeypatch, AnthropicModel, SchemaStructuredModel)
        yield api


WEB_SEARCH_USD = Decimal("0.01")  # Anthropic's documented $10 per 1,000 searches


def expected_cost(usages: list[tuple[str, dict[str, Any]]]) -> float:
    """The served tokens priced by genai-prices itself (its `input_tokens` include the cached ones),
    plus the web searches the server ran at the documented price."""
    total = Decimal(0)
    for model, served in usages:
        cached = served["cache_creation_input_tokens"] + served["cache_read_input_tokens"]
        usage = genai_prices.Usage(
            input_tokens=served["input_tokens"] + cached,
            cache_write_tokens=served["cache_creation_input_tokens"],
            cache_read_tokens=served["cache_read_input_tokens"],
            output_tokens=served["output_tokens"],
        )
        total += genai_prices.calc_price(usage, model, provider_id="anthropic").total_price
        total += WEB_SEARCH_USD * (served.get("server_tool_use") or {}).get("web_search_requests", 0)
    return float(total)


@pytest.mark.parametrize("autopilot", [True, False], ids=["autopilot", "reviews"])
@pytest.mark.parametrize("model_id", MODELS)
async def test_a_whole_session_reaches_the_answer_pack_on_the_model(
    fake_api: OfflineDecisionsApi, tmp_path: Path, model_id: str, autopilot: bool
) -> None:
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}",
        model=f"anthropic:{model_id}",
        anthropic_api_key="sk-ant-api03-test-key",
    )
    async for client in app_client(settings):
        sid, events = await run_to_the_answer(client, autopilot=autopilot)
        pack = await client.get(f"/api/v1/sessions/{sid}/answer.json")
        session = (await client.get(f"/api/v1/sessions/{sid}")).json()

    assert fake_api.failures == [] and fake_api.refusals == [] and set(fake_api.statuses) == {200}
    assert fake_api.thinking_returned > 0  # the tool loops thought, and gave the thinking back
    assert pack.status_code == 200 and pack.json()["direct_answer"]
    assert {model for model, _ in fake_api.usages} == {model_id}
    assert engine_requests_missing(set(fake_api.schema_names)) == set()
    assert stages_without_results(events) == [], stages_of(events)
    assert session["total_cost_usd"] == pytest.approx(expected_cost(fake_api.usages), rel=1e-6, abs=1e-5)
    assert session["total_cost_usd"] > 0
    # Issue 36 item 2, on the wire: EXPLORE's brief carries the pool, and the analogies cite its ids.
    explore = fake_api.briefs["[forge phase=explore round=1]"]
    pool = brief_context(explore)["pool"]
    assert pool and all(
        {"id", "domain", "statement", "mechanism", "observable", "mapping_score", "gate"} <= set(c) for c in pool
    )
    cited = [
        i["hypothesis_id"] for name, i in fake_api.tool_inputs if name == "search_cross_domain" and "hypothesis_id" in i
    ]
    assert cited and set(cited) <= {c["id"] for c in pool}
    assert_the_engine_feeds_the_answer(fake_api, pack.json())


def brief_context(brief: str) -> dict[str, Any]:
    """The JSON context a phase brief ends with."""
    context: dict[str, Any] = json.loads(brief.rsplit("```json\n", 1)[1].split("\n```")[0])
    return context


def assert_the_engine_feeds_the_answer(api: OfflineDecisionsApi, pack: dict[str, Any]) -> None:
    """Issue 36's "done when", read off the request bodies: the hard constraints in every brief,
    SEARCH's children in SYNTHESIZE's, VERIFY's verdicts (and any supervisor challenges) in VALIDATE's;
    the AnswerPack ranks only verified hypotheses and traces its evidence to the pool ids its claims
    came from."""
    assert set(api.briefs) >= {f"[forge phase={p} round=1]" for p in ("decompose", "explore", "synthesize", "validate")}
    assert all("HARD CONSTRAINTS" in brief and CONSTRAINTS[0] in brief for brief in api.briefs.values())
    synthesize = brief_context(api.briefs["[forge phase=synthesize round=1]"])
    children = {c["id"] for c in synthesize["search_candidates"]}
    assert children and all(c["operator"] and c["parents"] for c in synthesize["search_candidates"])
    validate = brief_context(api.briefs["[forge phase=validate round=1]"])
    assert validate["claims"] and all(c["verify"]["status"] for c in validate["claims"])
    # The red team ran (its requests are among ENGINE_REQUESTS); the challenges it or the supervisor raised, if
    # any, are in the brief with their targets (tests/agent/phases/test_validate_brief_carries_challenges.py).
    assert all(c["challenge"] and c["targets"] for c in validate.get("challenges", []))
    assert all(h["verify_status"] == "passed" and h["verify_score"] is not None for h in pack["ranking"])
    assert {h["verify_status"] for h in pack["unranked"]} <= {"failed", "escalated", "abstained"}
    explored = brief_context(api.briefs["[forge phase=explore round=1]"])["pool"]
    offered = children | {c["id"] for c in explored} | {c["id"] for c in synthesize.get("suggested_domain_results", [])}
    traced = {i for e in pack["key_evidence"] for i in e["hypothesis_ids"]}
    assert traced and traced <= offered


@pytest.mark.parametrize("model_id", ["claude-opus-5-5", "claude-sonnet-4-6"])
async def test_server_web_searches_are_recorded_and_billed_per_search(
    fake_api: OfflineDecisionsApi, tmp_path: Path, model_id: str
) -> None:
    """FORGE_RESEARCH=anthropic: the server's web searches and fetches reach the session as research and
    its cost counts each search at $10 per 1,000 on top of the tokens (a fetch: its tokens alone)."""
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}",
        model=f"anthropic:{model_id}",
        anthropic_api_key="sk-ant-api03-test-key",
        research="anthropic",
    )
    async for client in app_client(settings):
        sid, events = await run_to_the_answer(client, autopilot=True)
        session = (await client.get(f"/api/v1/sessions/{sid}")).json()

    searches = sum((u.get("server_tool_use") or {}).get("web_search_requests", 0) for _, u in fake_api.usages)
    fetches = sum((u.get("server_tool_use") or {}).get("web_fetch_requests", 0) for _, u in fake_api.usages)
    assert fake_api.failures == [] and fake_api.refusals == [] and searches >= 3
    assert fake_api.web_search_tools == {"web_search_20260209"}
    # The agent's turns search the web (each search an event); VERIFY's prior-art queries do too (#38),
    # each a turn of its own, and its stage says it searched the web.
    agent_searches = sum(e.type == "tool_call" and e.data["tool"] == "web_search" for e in events)
    verify_stages = [e.data for e in events if e.type == "engine_stage" and e.data["stage"] == "verify"]
    verify_searches = sum(d["counts"]["web_searches"] for d in verify_stages)  # not the corpus's fallbacks
    assert agent_searches > 0 and verify_searches > 0 and agent_searches + verify_searches == searches
    claims_verify = next(d for d in verify_stages if "claims" in d["counts"])
    assert "prior-art searches on the web (anthropic web search)" in claims_verify["summary"]
    # Web fetch goes with web search (the current version, web_fetch_20260318): each fetch reaches the
    # session as research and costs only its tokens (no fee: expected_cost prices tokens and searches).
    assert fake_api.web_fetch_tools == {"web_fetch_20260318"} and fetches == searches
    fetched = [e for e in events if e.type == "tool_result" and e.data["tool"] == "web_fetch"]
    assert len(fetched) == agent_searches  # VERIFY reads the search results, not the fetched pages
    assert session["total_cost_usd"] == pytest.approx(expected_cost(fake_api.usages), rel=1e-6, abs=1e-5)


async def test_without_structured_outputs_every_engine_stage_asks_by_a_forced_tool(
    fake_api: OfflineDecisionsApi, tmp_path: Path
) -> None:
    """claude-sonnet-4-20250514 refuses output_config.format (the fake says so, as the API would): the
    catalogue gives it the forced-tool method, so no request is refused and every engine stage's
    structured output comes back as a call of the one tool it was forced to."""
    settings = Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'forge.db'}",
        model="anthropic:claude-sonnet-4-20250514",
        anthropic_api_key="sk-ant-api03-test-key",
    )
    async for client in app_client(settings):
        sid, events = await run_to_the_answer(client, autopilot=True)
        session = (await client.get(f"/api/v1/sessions/{sid}")).json()

    assert fake_api.failures == [] and fake_api.refusals == [] and set(fake_api.statuses) == {200}
    assert fake_api.forced_tools and fake_api.forced_tools == fake_api.schema_names
    assert engine_requests_missing(set(fake_api.schema_names)) == set()
    assert stages_without_results(events) == [], stages_of(events)
    assert session["total_cost_usd"] == pytest.approx(expected_cost(fake_api.usages), rel=1e-6, abs=1e-5)


@pytest.mark.postgres
async def test_a_whole_session_on_postgresql(fake_api: OfflineDecisionsApi, tmp_path: Path) -> None:
    """The same session, its state and events stored in PostgreSQL (a migrated throwaway database)."""
    async with migrated_database_url("postgresql", tmp_path, prefix="forge_session") as url:
        settings = Settings(
            database_url=url, model="anthropic:claude-opus-5-5", anthropic_api_key="sk-ant-api03-test-key"
        )
        async for client in app_client(settings):
            sid, events = await run_to_the_answer(client, autopilot=True)
            pack = await client.get(f"/api/v1/sessions/{sid}/answer.json")
            session = (await client.get(f"/api/v1/sessions/{sid}")).json()

    assert fake_api.failures == [] and fake_api.refusals == [] and set(fake_api.statuses) == {200}
    assert pack.status_code == 200 and pack.json()["direct_answer"]
    assert stages_without_results(events) == [], stages_of(events)
    assert session["total_cost_usd"] == pytest.approx(expected_cost(fake_api.usages), rel=1e-6, abs=1e-5)
