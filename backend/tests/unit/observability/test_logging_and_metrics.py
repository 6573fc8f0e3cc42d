"""JSON log lines carry the request and session ids; metrics read live gauges and count model calls."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime

import httpx
import pytest

from forge.api.request_context import RequestContext
from forge.core.domain_types import EventSeq, Phase
from forge.core.session.events import EventType
from forge.core.session.record import StoredEvent
from forge.observability.logging_setup import check_log_format, log_handler
from forge.observability.metrics import ForgeMetrics

SESSION = "3f2b8c1e-0d7a-4c55-9a61-2b8e4f9d1c03"


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    handler = log_handler("json", stream)
    logger = logging.getLogger("forge.test")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)


async def _app(scope: dict[str, object], receive: object, send: object) -> None:
    logging.getLogger("forge.test").info("working on it", extra={"step": 3})
    await send({"type": "http.response.start", "status": 204, "headers": []})  # type: ignore[operator]
    await send({"type": "http.response.body", "body": b""})  # type: ignore[operator]


async def test_a_json_line_names_the_request_and_the_session_of_the_path(json_lines: io.StringIO) -> None:
    app = RequestContext(_app, log_access=False)  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://localhost") as http:
        response = await http.get(f"/api/v1/sessions/{SESSION}/events", headers={"X-Request-ID": "req-1"})
    (line,) = [json.loads(text) for text in json_lines.getvalue().splitlines()]
    assert response.headers["x-request-id"] == "req-1"
    assert (line["request_id"], line["session_id"]) == ("req-1", SESSION)
    assert (line["level"], line["logger"], line["message"], line["step"]) == ("info", "forge.test", "working on it", 3)
    assert datetime.fromisoformat(line["time"]).tzinfo is not None


def test_a_line_outside_any_request_has_null_ids(json_lines: io.StringIO) -> None:
    logging.getLogger("forge.test").warning("startup")
    line = json.loads(json_lines.getvalue())
    assert (line["request_id"], line["session_id"], line["level"]) == (None, None, "warning")


def test_an_unknown_log_format_is_refused_with_the_variable_name() -> None:
    with pytest.raises(ValueError, match="FORGE_LOG_FORMAT"):
        check_log_format("xml")


def _usage(seq: int, tokens: int, cost: float) -> StoredEvent:
    data = {"tokens_used": tokens, "cost_usd": cost, "cache_read_tokens": 10, "cache_creation_tokens": 0}
    return StoredEvent(EventSeq(seq), EventType.CONTEXT_USAGE, data, datetime(2026, 1, 1, tzinfo=UTC))


def test_metrics_count_calls_tokens_and_cost_by_provider_and_read_gauges_when_scraped() -> None:
    metrics = ForgeMetrics()
    live = {"runs": 3, "listeners": 7}
    metrics.watch(lambda: live["runs"], lambda: live["listeners"])
    metrics.events_committed("anthropic", [_usage(1, 1000, 0.01), _usage(2, 500, 0.005)])
    metrics.events_committed("openai", [_usage(3, 200, 0.002)])
    metrics.run_ended(Phase.EXPLORE, 42.0)
    live["runs"] = 2
    text = metrics.exposition().decode()
    assert 'forge_model_calls_total{provider="anthropic"} 2.0' in text
    assert 'forge_model_tokens_total{kind="context",provider="anthropic"} 1500.0' in text
    assert 'forge_model_tokens_total{kind="cache_read",provider="openai"} 10.0' in text
    assert 'forge_model_cost_usd_total{provider="anthropic"} 0.015' in text
    assert 'forge_phase_run_seconds_count{phase="explore"} 1.0' in text
    assert "forge_runs_active 2.0" in text and "forge_sse_listeners 7.0" in text
