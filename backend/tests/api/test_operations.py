"""Operations: readiness checks the database, /metrics exposes the named series, requests carry an id."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from support.api_client import api_client
from support.sse_client import run_and_stream

from forge.config import Settings

PROBLEM = "How can a hospital cut emergency wait times without more staff?"
SERIES = (
    "forge_runs_active",
    "forge_sse_listeners",
    "forge_phase_run_seconds",
    "forge_model_calls_total",
    "forge_model_tokens_total",
    "forge_model_cost_usd_total",
)


def _value(exposition: str, series: str) -> float:
    found = re.search(rf"^{re.escape(series)} ([0-9.e+-]+)$", exposition, re.MULTILINE)
    assert found, f"{series} is not exposed:\n{exposition}"
    return float(found.group(1))


async def test_ready_says_the_database_is_reachable(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/v1/health/ready")
    assert response.status_code == 200
    assert response.json() == {"status": "ready", "database": "reachable"}


@pytest.fixture
async def unreachable(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    # A port nothing listens on: the database is down.
    nowhere = Settings(embedder="hashed", database_url="postgresql+asyncpg://postgres@127.0.0.1:1/nowhere")
    async with api_client(nowhere, spa_dir=tmp_path / "no-build") as http:
        yield http


async def test_ready_is_503_when_the_database_is_down_while_liveness_stays_200(
    unreachable: httpx.AsyncClient,
) -> None:
    ready = await unreachable.get("/api/v1/health/ready")
    assert ready.status_code == 503
    assert ready.json() == {"status": "unavailable", "database": "unreachable"}
    assert (await unreachable.get("/api/v1/health/")).status_code == 200


async def test_metrics_expose_runs_phases_model_calls_and_listeners(client: httpx.AsyncClient) -> None:
    before = await client.get("/metrics")
    assert before.status_code == 200 and before.headers["content-type"].startswith("text/plain")
    for series in SERIES:
        assert f"# TYPE {series.removesuffix('_total')}" in before.text, series
    assert _value(before.text, "forge_runs_active") == 0

    sid = (await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"]
    events = await run_and_stream(client, sid)
    calls = sum(e.type == "context_usage" for e in events)
    assert calls > 0
    after = (await client.get("/metrics")).text
    assert _value(after, 'forge_model_calls_total{provider="offline"}') == calls
    assert _value(after, 'forge_model_tokens_total{kind="context",provider="offline"}') > 0
    assert _value(after, 'forge_model_cost_usd_total{provider="offline"}') == 0  # the offline model is free
    assert _value(after, 'forge_phase_run_seconds_count{phase="decompose"}') == 1
    assert _value(after, "forge_runs_active") == 0 and _value(after, "forge_sse_listeners") == 0


async def test_every_response_carries_a_request_id_and_a_sane_one_is_kept(client: httpx.AsyncClient) -> None:
    fresh = await client.get("/api/v1/health/")
    assert re.fullmatch(r"[0-9a-f]{32}", fresh.headers["x-request-id"])
    kept = await client.get("/api/v1/health/", headers={"X-Request-ID": "trace-42.a_b"})
    assert kept.headers["x-request-id"] == "trace-42.a_b"
    injected = await client.get("/api/v1/health/", headers={"X-Request-ID": "x\nfake log line"})
    assert injected.headers["x-request-id"] != "x\nfake log line"
