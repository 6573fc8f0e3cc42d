"""Issue #35's "done when", on the Anthropic side: whole sessions, autopilot and reviews posted through
the API, run to the AnswerPack on claude-opus-5-5, claude-sonnet-5-5 and claude-sonnet-4-6 through
the real AnthropicModel and its structured output, built by the composition root (only the SDK's
HTTP client is a MockTransport), against a server that refuses what the docs say each model refuses
and answers with the offline model's decisions. Every request is obeyed (no 4xx), every engine stage
gets its results through the model, and the session's cost is the served tokens at genai-prices' price.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from providers.sessions.offline_decisions_api import OfflineDecisionsApi, observe_requests
from support.reviews import REVIEW_EVENTS, review_for
from support.sse_client import Received, read_stream, run_and_stream

from forge.api.app import create_app
from forge.bootstrap.adapters import KNOWLEDGE_DIR, build_structured_model
from forge.bootstrap.build_container import build_container
from forge.bootstrap.model_routing import ModelRoute, Provider
from forge.config import Settings
from forge.core.llm.messages import Usage
from forge.core.llm.pricing import cost_of
from forge.db.migrate import upgrade_database
from forge.knowledge.load_knowledge import load_shipped_knowledge
from forge.offline.offline_model import OfflineModel
from forge.providers import anthropic_model
from forge.providers.anthropic_model import AnthropicModel
from forge.providers.library_prices import LIBRARY_PRICES
from forge.providers.structured_output import SchemaStructuredModel

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
CONSTRAINTS = ["budget under 50k"]
# The engine's requests, by the name each stage gives its StructuredRequest: the frame, BISO, the
# mapping review, VERIFY (scores and prior art), the red team and Solve's five; SEARCH's operators
# are `record_<operator>_hypothesis`.
ENGINE_REQUESTS = {
    "record_problem_frame", "record_biso_hypotheses", "record_mapping_review", "verify_claim", "judge_prior_art",
    "record_red_team_challenges", "record_reasoner_analysis", "record_solution_plan", "record_quality_audit",
    "record_solution", "record_compliance_audit",
}  # fmt: skip


def offline_decisions() -> OfflineDecisionsApi:
    offline = OfflineModel(KNOWLEDGE_DIR)
    domains = load_shipped_knowledge(KNOWLEDGE_DIR).domains
    return OfflineDecisionsApi(
        offline.complete, build_structured_model(ModelRoute(Provider.OFFLINE, "offline"), offline, domains)
    )


@pytest.fixture
async def fake_api(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[OfflineDecisionsApi]:
    api = offline_decisions()
    async with httpx2.AsyncClient(transport=httpx2.MockTransport(api)) as http_client:
        made = functools.partial(anthropic_model.anthropic_model_from_settings, http_client=http_client)
        monkeypatch.setattr(anthropic_model, "anthropic_model_from_settings", made)
        observe_requests(monkeypatch, AnthropicModel, SchemaStructuredModel)
        yield api


async def app_client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    await upgrade_database(settings.database_url)
    container = build_container(settings)
    transport = httpx.ASGITransport(app=create_app(container))
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost", timeout=60) as http:
            yield http
    finally:
        await container.close()


async def run_to_the_answer(client: httpx.AsyncClient, *, autopilot: bool) -> tuple[str, list[Received]]:
    body = {"problem": PROBLEM, "constraints": CONSTRAINTS}
    sid = str((await client.post("/api/v1/sessions", json=body)).json()["id"])
    events = await run_and_stream(client, sid)
    for _ in range(12):
        if any(e.type == "knowledge_document" for e in events):
            return sid, events
        if autopilot:
            events += await read_stream(client, "POST", f"/api/v1/sessions/{sid}/autopilot")
        else:
            review = review_for(next(e for e in reversed(events) if e.type in REVIEW_EVENTS))
            events += await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review)
    raise AssertionError(f"no knowledge document; last events: {[e.type for e in events[-5:]]}")


def expected_cost(usages: list[tuple[str, dict[str, int]]]) -> float:
    total = 0.0
    for model, served in usages:
        usage = Usage(
            served["input_tokens"],
            served["output_tokens"],
            cache_creation_tokens=served["cache_creation_input_tokens"],
            cache_read_tokens=served["cache_read_input_tokens"],
        )
        total += cost_of(usage, LIBRARY_PRICES[model])
    return total


def stages_of(events: list[Received]) -> dict[str, dict[str, Any]]:
    return {e.data["stage"]: e.data for e in events if e.type == "engine_stage"}


@pytest.mark.parametrize("autopilot", [True, False], ids=["autopilot", "reviews"])
@pytest.mark.parametrize("model_id", ["claude-opus-5-5", "claude-sonnet-5-5", "claude-sonnet-4-6"])
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

    assert fake_api.refusals == [] and set(fake_api.statuses) == {200}
    assert fake_api.thinking_returned > 0  # the tool loops thought, and gave the thinking back
    assert pack.status_code == 200 and pack.json()["direct_answer"]
    assert {model for model, _ in fake_api.usages} == {model_id}
    asked = set(fake_api.schema_names)
    assert asked >= ENGINE_REQUESTS, sorted(asked)
    assert {n for n in asked if n.endswith("_hypothesis") and n != "record_biso_hypotheses"}, sorted(asked)
    stages = stages_of(events)
    assert {"frame", "biso", "search", "verify", "solve"} <= set(stages), sorted(stages)
    assert session["total_cost_usd"] == pytest.approx(expected_cost(fake_api.usages), rel=1e-6, abs=1e-5)
    assert session["total_cost_usd"] > 0
